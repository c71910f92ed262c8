"""'The camera is right': one logged, undoable move puts the pieces where the camera saw them."""

from __future__ import annotations

import pytest

from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, Event
from companion.engine.session import GameHeader, Session
from companion.games import find_game

SPEC = find_game("run-hamster-run")


def placed() -> Session:  # type: ignore[type-arg]
    session = Session(SPEC, GameHeader(SPEC.name, "v2.1", ("Ann", "Bo"), 3, given=([0, 1],)))
    session.dispatch(Event(MOVE, name="place", seat=0, args={"to": [5, 1]}))
    session.dispatch(Event(MOVE, name="place", seat=1, args={"to": [4, 2]}))
    return session


def test_the_camera_is_right_moves_pieces_and_undo_takes_it_back() -> None:
    session = placed()
    colours = {h.name: h.colour for h in session.state.G.hamsters}
    session.dispatch(
        Event(
            MOVE,
            name="correct",
            seat=0,
            args={"places": {colours["Bo"]: [3, 2]}, "asterisk_row": 6},
        )
    )
    game = session.state.G
    assert game.hamsters[1].square == (3, 2) and game.asterisk_row == 6
    assert "Corrected from the camera: Bo to row 3, lane 2" in game.notes[0]
    session.undo()
    assert session.state.G.hamsters[1].square == (4, 2) and session.state.G.asterisk_row == 5


def test_a_correction_never_puts_two_hamsters_on_one_square() -> None:
    session = placed()
    colours = {h.name: h.colour for h in session.state.G.hamsters}
    with pytest.raises(IllegalMoveError, match="cannot share a square"):
        session.dispatch(
            Event(MOVE, name="correct", seat=1, args={"places": {colours["Bo"]: [5, 1]}})
        )


def test_a_resting_hamster_picks_the_trait_its_chip_goes_back_to() -> None:
    """v2.1 Rest returns a chip to the trait the player picks (the page used to offer only
    Scamper): with chips on the Fatigue pile, one button per trait is offered."""
    from dataclasses import replace

    from companion.games.run_hamster_run.choices import _resolve

    game = placed().state.G
    tired = replace(game.hamsters[0], fatigue=2)
    labels = [c["label"] for c in _resolve(game.with_hamster(0, tired), 0) if c["name"] == "rest"]
    assert labels == [
        "Rest: a chip back to Scamper",
        "Rest: a chip back to Mettle",
        "Rest: a chip back to Friskiness",
    ]
