"""Legal moves for a tablet: a game's candidates, each checked by actually applying it.

Checking by applying means the offered list can never disagree with the rules: anything
the engine would refuse is simply not offered. Moves that draw from the HAT are checked
with the same generator state, so nothing is revealed that the move itself would not.
"""

from __future__ import annotations

import logging
from typing import Any, TypeVar

from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, Event
from companion.engine.flow import step
from companion.engine.spec import GameSpec
from companion.engine.state import State

G = TypeVar("G")

log = logging.getLogger(__name__)


def legal_moves(spec: GameSpec[G], state: State[G]) -> list[dict[str, Any]]:
    """The game's candidate moves that the engine accepts now (labels for buttons).

    Each is ``{"seat", "name", "label", "args"}`` and may add ``"dice": n`` when the move
    needs n dice rolled by hand: the page then asks for the faces and sends them as
    ``given``.
    """
    if spec.choices is None or state.ctx.over:
        return []
    legal = []
    for choice in spec.choices(state.G, state.ctx):
        # A choice with "dice": n takes n dice the players roll; any faces test legality.
        given = (1,) * int(choice.get("dice", 0))
        event = Event(
            MOVE, name=choice["name"], seat=choice["seat"], args=choice["args"], given=given
        )
        try:
            step(spec, state, event, record=False)
        except IllegalMoveError:
            continue
        except Exception:
            # Not a refusal but a bug in the game's code: say so loudly and keep offering
            # the move, so the fault shows on the table instead of a button going missing.
            log.exception("%s: the move %r raised instead of refusing", spec.name, choice)
        legal.append(choice)
    return legal
