"""Without a camera the page asks what the camera would have read after pieces fall:
which compartment is lowest now, and where each fallen piece came from when several
compartments could have lost it; "I don't know" keeps the assumption and says it."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, NEXT, Event
from companion.engine.session import GameHeader, Session
from companion.games import find_game

SPEC = find_game("hamster-wheel")


def move(name: str, seat: int, **args: Any) -> Event:
    return Event(MOVE, name=name, seat=seat, args=args)


def two_reds_in_the_wheel() -> Session[Any]:
    """Ann and Bo each put a red piece in (compartments 3 and 4)."""
    session = Session(SPEC, GameHeader(SPEC.name, "standard", ("Ann", "Bo"), 1))
    for seat in (0, 1):
        session.dispatch(move("place", seat, colour="red", at="next"))
        session.dispatch(Event(NEXT))
    return session


def ask(session: Session[Any]) -> dict[str, Any]:
    state = session.state
    asked: dict[str, Any] = SPEC.view(state.G, state.ctx, None)["ask"]
    return asked


def test_a_failed_try_asks_the_lowest_and_where_a_doubtful_piece_fell_from() -> None:
    session = two_reds_in_the_wheel()
    assert ask(session) == {"lowest": False, "fell": []}
    session.dispatch(move("fail", 0, fell=["red"], stayed=False))
    assert ask(session) == {
        "lowest": True,
        "fell": [{"colour": "red", "assumed": 3, "choices": [3, 4]}],
    }
    session.dispatch(move("turn_wheel", 1, lowest=2))  # one tap on the wheel drawing
    assert ask(session)["lowest"] is False
    session.dispatch(move("fell_from", 1, colour="red", **{"from": 4}))
    state = session.state
    compartments = SPEC.view(state.G, state.ctx, None)["wheel"]["compartments"]
    assert compartments[2]["pieces"] == ["red"] and compartments[3]["pieces"] == []
    assert not any(c["uncertain"] for c in compartments)
    assert ask(session)["fell"] == [] and "compartment 4" in state.G.notes[0]


def test_i_dont_know_keeps_the_assumption_and_says_it() -> None:
    session = two_reds_in_the_wheel()
    session.dispatch(move("higher_powers", 0, fell=["red"]))
    assert ask(session)["lowest"] is True
    session.dispatch(move("fell_from", 0))
    assert ask(session)["fell"] == []
    assert session.state.G.notes == ("Assumed (nearest the bottom): red from compartment 3.",)


def test_a_piece_from_nowhere_it_could_have_been_is_refused() -> None:
    session = two_reds_in_the_wheel()
    session.dispatch(move("fail", 0, fell=["red"], stayed=False))
    with pytest.raises(IllegalMoveError, match="can only have come from 3, 4"):
        session.dispatch(move("fell_from", 1, colour="red", **{"from": 7}))
