"""`companion history` in words a player reads: one game, one win, one play."""

from __future__ import annotations

import random
from pathlib import Path

from click.testing import CliRunner

from companion.commands.tree import main
from companion.config import load_config
from companion.engine.session import GameHeader
from companion.saved import start_game
from companion.simulate import play_session
from companion.store import Store


def run(data_dir: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--data-dir", str(data_dir), *args])
    return result.exit_code, result.output


def test_one_game_and_one_win_are_not_plural(tmp_path: Path) -> None:
    store = Store(load_config(None, data_dir=str(tmp_path)).database)
    _, session = start_game(store, GameHeader("hamster-wheel", "standard", ("Ann", "Bo"), 5))
    play_session(session, random.Random(5), 20_000)
    assert session.state.ctx.over
    store.close()
    code, out = run(tmp_path, "history", "stats")
    assert code == 0 and (" 1 win in 1 play\n" in out) and "1 wins" not in out
    assert ": 0 wins in 1 play\n" in out
    code, out = run(tmp_path, "history", "export", "--csv", str(tmp_path / "p.csv"))
    assert code == 0 and out.startswith("1 game written to ")
