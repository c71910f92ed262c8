"""Tables the browser tests serve: a new game of any kind, or Hamsterdam played on by its
bot to the movement phase (dams built, specials kept). Each table keeps every stop: a page
left open must not pass a step on its own under a test that is not about that
(tests/web/test_passing_steps.py is)."""

from __future__ import annotations

import random
from pathlib import Path

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.games import GAMES
from companion.games.hamsterdam import bot
from companion.simulate import bot_turn
from companion.store import Store
from companion.table import Table

NAMES = ("Ann", "Bo", "Cy", "Di")


def new_table(folder: Path, name: str) -> Table:
    """A table in ``folder`` with a new game of ``name`` for three players (or its least)."""
    spec = GAMES[name]
    players = NAMES[: max(spec.min_players, 3)]
    table = Table(
        Store(folder / "companion.sqlite3"), GameDefaults(players=players, every_stop=True)
    )
    table.new_game(GameHeader(name, spec.rules_default, players, 7))
    return table


def hamsterdam_in_movement(path: Path, names: tuple[str, ...]) -> Table:
    """A full Hamsterdam game for ``names``, its set-up played by the bot (seed 1)."""
    table = Table(Store(path), GameDefaults(players=names, every_stop=True))
    table.new_game(GameHeader("hamsterdam", "full", names, 3))
    rng = random.Random(1)
    while table.public_state(with_log=False)["phase"] != "movement":
        snapshot = table.snapshot
        assert snapshot.state is not None
        bot_turn(bot.candidates, snapshot.state, rng, lambda e: table.submit(e).result(5))
    return table
