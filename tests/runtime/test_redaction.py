"""Who may act and who may see are separate facts (MoveSpec.any_seat vs MoveSpec.secret).

The bug this guards: "secret" used to be inferred from "any seat may make this move", so in
Hamsterdam's flood phase every plug and water lost its arguments in the public log and the
tablet showed "plug (secret)", while a Pluck allocation must stay hidden until revealed.
"""

from __future__ import annotations

import random

from companion.engine.events import MOVE, Event
from companion.engine.redact import public_event
from companion.engine.session import GameHeader, Session
from companion.games import find_game
from companion.simulate import bot_of, bot_turn


def test_hamsterdam_plugs_and_water_are_public_with_their_arguments() -> None:
    spec = find_game("hamsterdam")
    session = Session(spec, GameHeader(spec.name, "classic", ("Ann", "Bo", "Cy"), 11))
    rng = random.Random(11)
    found: list[Event] = []
    while not found and not session.state.ctx.over:
        logged = bot_turn(bot_of(spec), session.state, rng, session.dispatch)
        if logged.kind == MOVE and logged.name in ("plug", "water"):
            found.append(logged)
    assert found, "the bot never had to stop a flood"
    shown = public_event(spec, session.state, found[0], False)
    assert shown["args"] == found[0].args and "secret" not in shown


def test_a_pluck_allocation_is_hidden_from_others_until_the_phase_reveals_it() -> None:
    spec = find_game("run-hamster-run")
    session = Session(spec, GameHeader(spec.name, "v2.1", ("Ann", "Bo"), 3))
    rng = random.Random(3)
    while session.state.ctx.phase != "allocate":
        bot_turn(bot_of(spec), session.state, rng, session.dispatch)
    allocation = session.dispatch(
        Event(MOVE, name="allocate", seat=1, args={"scamper": 3, "mettle": 2, "friskiness": 2})
    )
    hidden = public_event(spec, session.state, allocation, False)
    assert "args" not in hidden and hidden["secret"] is True
    assert public_event(spec, session.state, allocation, False, seat=1)["args"]["scamper"] == 3
    while session.state.ctx.phase == "allocate":
        bot_turn(bot_of(spec), session.state, rng, session.dispatch)
    revealed = public_event(spec, session.state, allocation, False)
    assert revealed["args"] == allocation.args
