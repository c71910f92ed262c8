"""A restore never bricks the table: a bad backup is refused before anything is touched,
and a restore killed at any moment leaves a games file the table starts with.

It used to swap first and check after: a backup from a newer companion was swapped in and
then refused ("upgrade the companion"), so the companion would not start and the real
games sat in a ``.replaced-*`` file nobody was told about; a foreign SQLite file and a
0-byte file were "Restored" and the table showed no games.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.commands.tree import main
from companion.engine.events import MOVE, Event
from companion.engine.session import GameHeader
from companion.saved import start_game
from companion.store import SCHEMA_VERSION, BackupRefusedError, Store, restore

HEADER = GameHeader("run-hamster-run", "v2.1", ("Ann", "Bo"), seed=3)
WORKER = Path(__file__).with_name("restore_worker.py")


def table_with_games(folder: Path, games: int, moves: int = 1) -> Path:
    """A games file in ``folder`` with ``games`` games of ``moves`` moves each."""
    path = folder / "companion.sqlite3"
    store = Store(path)
    for _ in range(games):
        _, session = start_game(store, HEADER)
        for _ in range(moves):
            seat = session.state.ctx.current
            assert seat is not None
            session.dispatch(Event(MOVE, name="place", seat=seat, args={"to": [seat + 1, 1]}))
    store.close()
    return path


def games_in(path: Path) -> list[tuple[int, int]]:
    """What the table starts with: each game's number and how many events it has."""
    store = Store(path)
    try:
        return [(game.id, store.event_span(game.id)[0]) for game in store.games()]
    finally:
        store.close()


def newer_schema(backup: Path) -> None:
    db = sqlite3.connect(backup)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()


def foreign(backup: Path) -> None:
    backup.unlink()
    db = sqlite3.connect(backup)
    db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    db.execute("INSERT INTO photos (name) VALUES ('beach.jpg')")
    db.commit()
    db.close()


def empty(backup: Path) -> None:
    backup.write_bytes(b"")


def truncated(backup: Path) -> None:
    data = backup.read_bytes()
    backup.write_bytes(data[: len(data) // 2])


def corrupt(backup: Path) -> None:
    data = bytearray(backup.read_bytes())
    for i in range(len(data) // 2, len(data) // 2 + 2048):
        data[i] = 0xA5
    backup.write_bytes(bytes(data))


def no_games(backup: Path) -> None:
    backup.unlink()
    Store(backup).close()  # a games file of this companion, but nothing in it


BAD_BACKUPS: list[tuple[Callable[[Path], None], str]] = [
    (newer_schema, "written by a newer companion"),
    (foreign, "not a games file of this companion"),
    (empty, "is empty (0 bytes)"),
    (truncated, "is damaged"),
    (corrupt, "is damaged"),
    (no_games, "holds no games"),
]


@pytest.mark.parametrize(("spoil", "said"), BAD_BACKUPS, ids=[s.__name__ for s, _ in BAD_BACKUPS])
def test_a_bad_backup_is_refused_before_anything_is_swapped(
    tmp_path: Path, spoil: Callable[[Path], None], said: str
) -> None:
    path = table_with_games(tmp_path, games=1)
    store = Store(path)
    backup = store.backup()
    store.close()
    table_with_games(tmp_path, games=1)  # a second game since the backup
    spoil(backup)
    before = path.read_bytes()
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "restore", str(backup)])
    assert result.exit_code == 2 and said in result.output, result.output
    assert "Traceback" not in result.output and "Restored" not in result.output
    assert path.read_bytes() == before  # the table as it was
    assert not list(tmp_path.glob("*.replaced-*")) and not list(tmp_path.glob("*.restoring*"))
    assert games_in(path) == [(1, 1), (2, 1)]  # and it starts with its games


def test_a_restore_names_what_it_replaced_and_the_way_back(tmp_path: Path) -> None:
    path = table_with_games(tmp_path, games=1)
    store = Store(path)
    store.backup()
    store.close()
    table_with_games(tmp_path, games=1, moves=2)
    done = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "restore"])
    assert done.exit_code == 0, done.output
    (kept,) = tmp_path.glob("companion.sqlite3.replaced-*")
    assert done.output.count(".") >= 1 and len(done.output.strip().splitlines()) == 1
    assert f"kept as {kept}" in done.output
    assert f"`companion restore {kept}`" in done.output  # the way back, ready to type
    assert games_in(path) == [(1, 1)]
    back = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "restore", str(kept)])
    assert back.exit_code == 0, back.output
    assert games_in(path) == [(1, 1), (2, 2)]  # the way back works


def test_a_restore_refused_by_the_schema_says_so_without_touching_the_file(
    tmp_path: Path,
) -> None:
    path = table_with_games(tmp_path, games=1)
    store = Store(path)
    backup = store.backup()
    store.close()
    newer_schema(backup)
    with pytest.raises(BackupRefusedError, match="upgrade the companion first"):
        restore(path, backup)
    assert games_in(path) == [(1, 1)]


def run_worker(path: Path, backup: Path, step: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(WORKER), str(path), str(backup), str(step)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )


@pytest.mark.slow
def test_a_restore_killed_at_any_step_leaves_a_table_with_its_games(tmp_path: Path) -> None:
    """SIGKILL before each file-system step of a restore (and after the last): the table
    starts every time, with either its own games or the backup's, never none or a mix."""
    source = tmp_path / "source"
    source.mkdir()
    path = table_with_games(source, games=1)
    store = Store(path)
    backup = store.backup()
    store.close()
    table_with_games(source, games=2)  # the table now has three games; the backup one
    ours, theirs = games_in(path), [(1, 1)]
    assert ours == [(1, 1), (2, 1), (3, 1)]
    step, killed = 0, 0
    while True:
        folder = tmp_path / f"run{step}"
        folder.mkdir()
        copy = folder / path.name
        copy.write_bytes(path.read_bytes())
        (folder / "backups").mkdir()
        saved = folder / "backups" / backup.name
        saved.write_bytes(backup.read_bytes())
        done = run_worker(copy, saved, step)
        assert done.returncode in (0, -signal.SIGKILL), done.stderr
        assert games_in(copy) in (ours, theirs), (step, done.stdout)
        if done.returncode == 0:
            assert games_in(copy) == theirs
            break
        killed += 1
        # and a restore run again after the kill finishes the job
        assert run_worker(copy, saved, -1).returncode == 0
        assert games_in(copy) == theirs
        step += 1
    assert killed >= 5  # copied, kept, folded, renamed: every step was tried
    assert os.path.exists(saved)
