"""A move's details: one the move never reads is refused when made, never when replayed.

A misspelt optional detail used to be stored for ever and ignored, so the table did
something other than what the player typed. Old games that stored such a detail still load.
"""

from __future__ import annotations

import pytest

from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, Event
from companion.engine.session import GameHeader, Session
from companion.games import GAMES

PLAYERS = ("Alice", "Bob", "Cathleen", "Dave")


def new_session() -> Session[object]:
    spec = GAMES["run-hamster-run"]
    return Session(spec, GameHeader("run-hamster-run", "v2.1", PLAYERS, 7, given=([0, 1, 2, 3],)))


def test_a_misspelt_detail_is_named_and_nothing_is_recorded() -> None:
    session = new_session()
    with pytest.raises(IllegalMoveError) as refused:
        session.move(0, "place", to=[5, 3], hamstr="Alice")
    sentence = str(refused.value)
    assert "'hamstr'" in sentence and "here it reads: to" in sentence and "spelling" in sentence
    assert session.log == [] and session.state.ctx.current == 0
    session.move(0, "place", to=[5, 3])
    assert session.state.ctx.current == 1


def test_a_game_stored_with_an_unused_detail_still_replays() -> None:
    """Stored before the check existed: the games file is read as it is, nothing lost."""
    session = new_session()
    old = Event(MOVE, name="place", seat=0, args={"to": [5, 3], "note": "from 2025"}, seq=1)
    replayed = Session.replay(session.spec, session.header, [old])
    assert replayed.state.ctx.current == 1 and replayed.log[0].args["note"] == "from 2025"
