"""Damaged storage is never papered over; backups bring games back; full and read-only cards
are named as such; the file holding the PIN is its owner's alone."""

from __future__ import annotations

import os
import shlex
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.commands.tree import main
from companion.engine.events import MOVE, Event
from companion.engine.session import GameHeader
from companion.saved import start_game
from companion.store import (
    AccessStore,
    Store,
    StoreDamagedError,
    StoreError,
    backups,
    restore,
    salvage,
)
from web.auth import TablePin, WrongSeatCodeError

HEADER = GameHeader("run-hamster-run", "v2.1", ("Ann", "Bo"), seed=3)


def played(path: Path, moves: int = 1) -> Store:
    store = Store(path)
    _, session = start_game(store, HEADER)
    for _ in range(moves):
        seat = session.state.ctx.current
        assert seat is not None
        session.dispatch(Event(MOVE, name="place", seat=seat, args={"to": [seat + 1, 1]}))
    return store


def spoil(path: Path) -> None:
    """Overwrite the middle of the file, as a failing SD card does."""
    data = bytearray(path.read_bytes())
    for i in range(len(data) // 2, len(data) // 2 + 2048):
        data[i] = 0xA5
    path.write_bytes(bytes(data))


def test_the_games_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    store = played(tmp_path / "games.sqlite3")
    store.close()
    mode = stat.S_IMODE((tmp_path / "games.sqlite3").stat().st_mode)
    assert mode == 0o600  # it holds the table PIN


def test_a_clean_close_leaves_no_write_ahead_log(tmp_path: Path) -> None:
    played(tmp_path / "games.sqlite3").close()
    wal = tmp_path / "games.sqlite3-wal"
    assert not wal.exists() or wal.stat().st_size == 0


def test_a_damaged_file_is_kept_and_refused_with_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    played(path, moves=2).close()
    before = path.read_bytes()
    spoil(path)
    spoiled = path.read_bytes()
    with pytest.raises(StoreDamagedError, match="is damaged") as refused:
        Store(path)
    assert "companion restore" in str(refused.value) and "--fresh" in str(refused.value)
    assert path.read_bytes() == spoiled != before  # kept exactly as it is


def test_backups_are_consistent_kept_to_n_and_restored(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = played(path, moves=2)
    for _ in range(4):
        store.backup(keep=3)
    assert len(backups(path)) <= 3
    store.close()
    spoil(path)
    done = restore(path)
    used, kept = done.backup, done.kept
    assert kept is not None and kept.exists()  # the damaged file is kept aside
    restored = Store(path)
    game_id = restored.current_game()
    assert game_id is not None and len(restored.events(game_id)) == 2
    restored.close()
    assert used in backups(path)


def test_a_restored_backup_never_gives_a_game_number_again(tmp_path: Path) -> None:
    """Games 1 and 2 were played after the backup: the first game after restoring it is 3,
    not 2 again (results, exports and the event board name games by number)."""
    path = tmp_path / "games.sqlite3"
    store = played(path)
    store.backup()
    assert start_game(store, HEADER)[0] == 2
    store.close()
    restore(path)
    restored = Store(path)
    assert [game.id for game in restored.games()] == [1]
    assert start_game(restored, HEADER)[0] == 3
    restored.close()


def test_a_restored_backup_brings_back_no_tablet_or_phone(tmp_path: Path) -> None:
    """A backup made before "lock all" still held the tokens it ended: restoring it must not
    let those tablets and phones back in."""
    path = tmp_path / "games.sqlite3"
    store = played(path)
    pins = TablePin("246810", store=AccessStore(store))
    tablet = pins.login("10.0.0.2", "246810")
    code = pins.seat_code(1, 0)
    phone = pins.join("10.0.0.21", code)[0]
    store.backup()
    pins.revoke_all()
    store.close()
    restore(path)
    restored = Store(path)
    try:
        pins = TablePin("246810", store=AccessStore(restored))
        assert not pins.allows(tablet) and pins.grant(phone) is None
        with pytest.raises(WrongSeatCodeError, match="ended on the tablet"):
            pins.join("10.0.0.21", code)  # said plainly, and no guess
    finally:
        restored.close()


def test_restore_and_backups_from_the_command_line(tmp_path: Path) -> None:
    store = played(tmp_path / "companion.sqlite3")
    store.backup()
    store.close()
    runner = CliRunner()
    listed = runner.invoke(main, ["--data-dir", str(tmp_path), "backups"])
    assert listed.exit_code == 0 and "games-" in listed.output
    done = runner.invoke(main, ["--data-dir", str(tmp_path), "restore"])
    assert done.exit_code == 0 and "Restored" in done.output and "kept as" in done.output
    empty = runner.invoke(main, ["--data-dir", str(tmp_path / "none"), "restore"])
    assert empty.exit_code == 2 and "no backup" in empty.output


def test_what_is_readable_is_exported_from_a_damaged_file(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    store = played(path, moves=2)
    store.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET args = 'not json' WHERE seq = 2")
    db.commit()
    db.close()
    header, events = salvage(path)
    assert header == HEADER and [e.seq for e in events] == [1]


def test_a_full_card_and_a_read_only_folder_are_named(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        # root writes anywhere: simulate the read-only card with SQLite's own flag
        store = played(tmp_path / "games.sqlite3")
        store._db.execute("PRAGMA query_only = ON")
        with pytest.raises(StoreError, match="read-only"):
            store.set_setting("x", "y")
        store.close()
    else:  # pragma: no cover - CI runs as root
        folder = tmp_path / "ro"
        folder.mkdir()
        played(folder / "games.sqlite3").close()
        folder.chmod(0o500)
        with pytest.raises(StoreError, match="read-only"):
            Store(folder / "games.sqlite3").set_setting("x", "y")
    store = played(tmp_path / "full.sqlite3")
    store._db.execute("PRAGMA max_page_count = 1")  # the card has no room left
    with pytest.raises(StoreError, match="SD card is full"):
        for i in range(200):
            store.set_setting(f"k{i}", "x" * 4000)
    store.close()


def test_the_page_says_the_file_is_damaged_and_writes_nothing(tmp_path: Path) -> None:
    from companion.config import load_config
    from companion.startup.games import open_store
    from companion.table import Table

    config = load_config(data_dir=tmp_path)
    played(config.database).close()
    spoil(config.database)
    store, damaged = open_store(config)
    assert damaged is not None and "is damaged" in damaged
    table = Table(store, config.game, refuse_writes=damaged)
    try:
        assert table.public_state()["prompt"] == damaged  # the tablet shows the sentence
        with pytest.raises(StoreError, match="is damaged"):
            table.new_game()
    finally:
        table.close()
    fresh, problem = open_store(config, fresh=True)
    assert problem is None and fresh.current_game() is None
    fresh.close()
    assert list(tmp_path.glob("companion.sqlite3.set-aside-*"))  # the damaged one is kept


READ_ONLY_PROBE = """
import sys
from companion.store import AccessStore, Store, StoreDamagedError, StoreError
try:
    Store(sys.argv[1])
except StoreDamagedError as error:
    print("DAMAGED", error)
except StoreError as error:
    print("REFUSED", error)
else:
    print("OPENED")
"""


def open_in_a_read_only_folder(folder: Path) -> str:
    """What opening the games file in ``folder`` says once the folder is read-only: for
    root (who writes anywhere) a read-only bind mount, in a mount namespace of its own."""
    database = folder / "companion.sqlite3"
    probe = [sys.executable, "-c", READ_ONLY_PROBE, str(database)]
    if os.geteuid() != 0:  # pragma: no cover - CI runs as root
        folder.chmod(0o500)
        try:
            return subprocess.run(probe, capture_output=True, text=True, check=True).stdout
        finally:
            folder.chmod(0o700)
    if shutil.which("unshare") is None:  # pragma: no cover
        pytest.skip("needs unshare(1) to mount a folder read-only as root")
    mount = f"mount --bind -o ro {shlex.quote(str(folder))} {shlex.quote(str(folder))}"
    found = subprocess.run(
        ["unshare", "--mount", "sh", "-c", f"{mount} && exec {shlex.join(probe)}"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    if found.returncode != 0 and "mount" in found.stderr:  # pragma: no cover
        pytest.skip(f"this machine cannot mount a folder read-only: {found.stderr.strip()}")
    return found.stdout


def test_a_read_only_data_folder_is_named_as_such_not_as_damage(tmp_path: Path) -> None:
    """A card mounted read-only was reported as a damaged games file, with advice to
    restore a backup over a file that was fine."""
    played(tmp_path / "companion.sqlite3").close()
    said = open_in_a_read_only_folder(tmp_path)
    assert said.startswith("REFUSED") and "is read-only" in said, said
    assert "damaged" not in said and "restore" not in said
    reopened = Store(tmp_path / "companion.sqlite3")  # writable again: nothing was lost
    assert reopened.current_game() == 1
    reopened.close()
