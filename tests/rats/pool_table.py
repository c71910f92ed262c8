"""A companion table playing Rats, brought to a roll whose pool has dice other than d6s:
where the camera's pool reader has something to read (shared by the pool-camera and
pool-teaching tests)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.games import find_game
from companion.games.rats.table import pool_due
from companion.simulate import bot_of, bot_turn
from companion.store import Store
from companion.table import Table

PLAYERS = ("Ann", "Bo", "Cy", "Di")
WAIT = 20.0


@contextmanager
def rats_table(folder: Path) -> Iterator[Table]:
    """A four-rat game on a real games file in ``folder``, closed on the way out."""
    store = Store(folder / "games.sqlite3")
    table = Table(store, GameDefaults(players=PLAYERS))
    table.new_game(GameHeader("rats", "standard", PLAYERS, 5))
    try:
        yield table
    finally:
        table.close()
        store.close()


def due(table: Table) -> tuple[int, ...]:
    """The sizes of the dice the next rat to roll has still to throw."""
    state = table.snapshot.state
    assert state is not None
    return pool_due(state)


def play_until_a_pool_is_due(table: Table, seed: int = 3) -> tuple[int, ...]:
    """Let the bots play until a rat must roll a die other than a d6; that pool's sizes."""
    spec, rng = find_game("rats"), random.Random(seed)
    while not any(size != 6 for size in due(table)):
        state = table.snapshot.state
        assert state is not None
        bot_turn(bot_of(spec), state, rng, lambda event: table.submit(event).result(WAIT))
    return due(table)
