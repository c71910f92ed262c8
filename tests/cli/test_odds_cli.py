"""Odds in the terminal: every game that has odds shows them under its board, and
``--no-odds`` hides them for groups who find them spoilers."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.commands.tree import main
from companion.engine.session import GameHeader
from companion.engine.spec import GameSpec
from companion.games import GAMES
from companion.saved import start_game
from companion.simulate import bot_turn
from companion.store import Store

WITH_ODDS = [spec for spec in GAMES.values() if spec.presentation.odds_text is not None]
PLAYERS = {"rats": 4}
MOVES = 4000


@pytest.mark.parametrize("spec", WITH_ODDS, ids=lambda spec: spec.name)
def test_the_terminal_shows_the_odds_where_the_table_decides_unless_told_not_to(
    spec: GameSpec[Any], tmp_path: Path
) -> None:
    name = spec.name
    names = tuple(f"P{i + 1}" for i in range(PLAYERS.get(name, 3)))
    rules = spec.rule_sets[-1]
    store = Store(tmp_path / "companion.sqlite3")
    header = GameHeader(name, rules, names, 3, options={"roll_for_us": True})
    _, session = start_game(store, header)
    rng = random.Random(3)
    assert spec.presentation.odds_text is not None and spec.bot is not None
    for _ in range(MOVES):
        if spec.presentation.odds_text(session.state.G, session.state.ctx):
            break
        assert not session.state.ctx.over, "the game ended before any odds were due"
        bot_turn(spec.bot, session.state, rng, session.dispatch)
    store.close()
    shown = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "status"])
    assert shown.exit_code == 0, shown.output
    assert "odds:" in shown.output and "%" in shown.output
    hidden = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "--no-odds", "status"])
    assert hidden.exit_code == 0 and "odds:" not in hidden.output
    assert (
        spec.presentation.prompt(session.state.G, session.state.ctx) in hidden.output
    )  # the rest stays
