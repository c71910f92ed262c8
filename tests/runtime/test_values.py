"""What is logged is kept for ever: a non-finite number never reaches the log, from any
way in (the page checks too, but the command line and replay files come through here)."""

from __future__ import annotations

import json
import math

import pytest

from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, Event
from companion.engine.session import GameHeader, Session
from companion.games import find_game


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, {"x": object()}])
def test_a_move_with_a_value_json_cannot_keep_is_refused(bad: object) -> None:
    spec = find_game("run-hamster-run")
    session = Session(spec, GameHeader(spec.name, "v2.1", ("Ann", "Bo"), 1))
    seat = session.state.ctx.current
    assert seat is not None
    with pytest.raises(IllegalMoveError, match="plain text"):
        session.dispatch(Event(MOVE, name="place", seat=seat, args={"to": [3, bad]}))
    assert session.log == []
    logged = session.dispatch(Event(MOVE, name="place", seat=seat, args={"to": [3, 3]}))
    json.dumps(logged.to_json(), allow_nan=False)
