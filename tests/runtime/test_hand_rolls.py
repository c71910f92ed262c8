"""A die the players roll is never made up: NEXT while a hand roll is due waits for it and
says what to do; the companion rolls only for a table that asked it to (and logs the value).

Checked through the replay file format, as a table's saved game would carry it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from companion.commands.tree import main
from companion.engine.errors import IllegalMoveError
from companion.engine.events import NEXT, Event
from companion.engine.legal import legal_moves
from companion.engine.serialize import dumps
from companion.engine.session import GameHeader, Session
from companion.games import find_game
from companion.simulate import bot_of, bot_turn

PLAYERS = ("Ann", "Bo", "Cy")


def up_to_the_roll(options: dict[str, object]) -> Session[Any]:
    spec = find_game("hamsterdam")
    header = GameHeader(spec.name, "classic", PLAYERS, 3, options)
    session = Session(spec, header)
    rng = random.Random(3)
    while not (session.state.ctx.phase == "roll" and session.state.G.dice is None):
        bot_turn(bot_of(spec), session.state, rng, session.dispatch)
    return session


def replay(tmp_path: Path, session: Session[Any], extra: list[dict[str, object]]) -> Result:
    data = json.loads(dumps(session.header, session.log))
    data["events"] += extra
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return CliRunner().invoke(main, ["--data-dir", str(tmp_path), "replay", str(path)])


def test_next_without_dice_waits_for_the_roll_and_says_so(tmp_path: Path) -> None:
    session = up_to_the_roll({})
    result = replay(tmp_path, session, [{"kind": "next"}])
    assert result.exit_code == 2
    assert "flood roll: roll the dice and let the camera read them, or enter them" in result.output
    assert "in the terminal: `companion next --dice 4,2`" in result.output  # it named the page only
    rolled = replay(tmp_path, session, [{"kind": "next", "given": [3, 5]}])
    assert rolled.exit_code == 0, rolled.output
    assert json.loads(rolled.output)["view"]["roll"]["dice"] == [3, 5]


def test_a_table_that_asked_gets_its_dice_rolled_and_shown() -> None:
    session = up_to_the_roll({"roll_for_us": True})
    logged = session.dispatch(Event(NEXT))
    dice = [o["value"] for o in logged.outcome if o["kind"] == "die"]
    assert len(dice) == 2 and all(1 <= d <= 6 for d in dice)
    assert f"rolled {dice[0]}+{dice[1]}" in session.state.G.log[-1]


def test_classic_fatigue_dice_are_the_players_own(tmp_path: Path) -> None:
    """Run, Hamster, Run! classic: entering Fatigue, NEXT carries a die per tiring hamster."""
    spec = find_game("run-hamster-run")
    session = Session(spec, GameHeader(spec.name, "classic", PLAYERS, 5))
    rng = random.Random(2)
    while not (
        session.state.ctx.phase == "alligators"
        and spec.next_dice is not None
        and spec.next_dice(session.state.G, session.state.ctx)
    ):
        bot_turn(bot_of(spec), session.state, rng, session.dispatch)
    assert spec.next_dice is not None
    due = spec.next_dice(session.state.G, session.state.ctx)
    result = replay(tmp_path, session, [{"kind": "next"}])
    assert result.exit_code == 2
    assert "fatigue die: roll the dice and let the camera read them, or enter them" in result.output
    rolled = replay(tmp_path, session, [{"kind": "next", "given": [1] * len(due)}])
    assert rolled.exit_code == 0, rolled.output
    assert json.loads(rolled.output)["phase"] == "fatigue"


def test_the_hamsterdam_roll_off_is_rolled_by_the_players() -> None:
    """Leaving set-up, NEXT takes two dice per player for first (ties roll again), or a tap
    on who won; never a roll the companion made up."""
    spec = find_game("hamsterdam")
    session = Session(spec, GameHeader(spec.name, "classic", PLAYERS, 3))
    rng = random.Random(3)
    assert spec.next_dice is not None
    while not spec.next_dice(session.state.G, session.state.ctx):
        bot_turn(bot_of(spec), session.state, rng, session.dispatch)
    assert len(spec.next_dice(session.state.G, session.state.ctx)) == 2 * len(PLAYERS)
    with pytest.raises(IllegalMoveError, match="Ann's roll-off: roll the dice"):
        session.dispatch(Event(NEXT))
    with pytest.raises(IllegalMoveError, match="Ann and Bo tied in the roll-off") as tied:
        session.dispatch(Event(NEXT, given=(6, 6, 6, 6, 1, 1)))
    # The page's pickers hold only the first roll: the sentence says how to go on there.
    assert "with 12 each" in str(tied.value) and "'won the roll-off' button" in str(tied.value)
    assert "Ann won the roll-off" in [c["label"] for c in legal_moves(spec, session.state)]
    session.dispatch(Event(NEXT, given=(6, 6, 6, 6, 1, 1, 2, 2, 5, 5)))
    assert session.state.G.first == 1
    assert "Bo won the roll-off" in " ".join(session.state.G.log)


def test_a_roll_typed_with_a_die_missing_is_refused_not_filled_in(tmp_path: Path) -> None:
    """The terminal never completes a roll: one face for Hamsterdam's two dice is refused."""
    session = up_to_the_roll({})
    seat = session.state.ctx.current
    one: dict[str, object] = {"kind": "move", "name": "roll", "seat": seat, "given": [4]}
    result = replay(tmp_path, session, [one])
    assert result.exit_code == 2
    assert "the companion does not make up a roll" in result.output
    both = replay(tmp_path, session, [{**one, "given": [4, 2]}])
    assert both.exit_code == 0, both.output
