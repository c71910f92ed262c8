"""A camera proposal waiting for READ, on a table where people also type."""

from __future__ import annotations

import random
from pathlib import Path

from companion.config import GameDefaults
from companion.engine.events import MOVE, Event
from companion.engine.readings import DICE, DiceSeen, Reading
from companion.engine.session import GameHeader
from companion.games.hamsterdam import bot
from companion.simulate import bot_turn
from companion.store import Store
from companion.table import Table

WAIT = 10.0


def play_to_the_next_roll(table: Table, rng: random.Random) -> None:
    for _ in range(500):
        state = table.snapshot.state
        assert state is not None
        if state.ctx.phase == "roll" and getattr(state.G, "dice", None) is None:
            return
        bot_turn(bot.candidates, state, rng, lambda e: table.submit(e).result(timeout=WAIT))
    raise AssertionError("no roll came")


def test_a_typed_roll_answers_the_cameras_proposal(tmp_path: Path) -> None:
    """The camera was unsure of 3 and 5, the player typed 4 and 6: the tablet must stop
    offering 3 and 5, and READ at the next player's roll must not log them as that roll."""
    table = Table(Store(tmp_path / "games.sqlite3"), GameDefaults(players=("Ann", "Bo", "Cy")))
    try:
        table.new_game(GameHeader("hamsterdam", "classic", ("Ann", "Bo", "Cy"), 3))
        rng = random.Random(3)
        play_to_the_next_roll(table, rng)
        unsure = DiceSeen((3, 5), (0.5, 0.5), auto_accept=0.9)
        assert table.observe(Reading(DICE, unsure)).result(WAIT)
        seat = table.public_state()["current"]
        assert "3 and 5" in table.public_state()["pending"]
        table.submit(Event(MOVE, name="roll", seat=seat, given=(4, 6)), "tablet").result(WAIT)
        assert table.public_state()["pending"] is None
        state = table.snapshot.state
        assert state is not None
        bot_turn(bot.candidates, state, rng, lambda e: table.submit(e).result(timeout=WAIT))
        play_to_the_next_roll(table, rng)
        error = table.submit_intent("read").exception(WAIT)
        assert error is not None and "Nothing to read" in str(error)
    finally:
        table.close()
