"""What a camera reading means for the game in play.

The camera proposes, people dispose: a stable dice reading becomes an event only if the
current phase takes a roll (a move named ``roll``, as Hamsterdam's does); the dice are the
move's *given* outcomes, exactly as if they had been typed on the tablet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.engine.events import MOVE, Event
from companion.engine.legal import legal_moves
from companion.engine.spec import GameSpec
from companion.engine.state import State

ROLL_MOVE = "roll"


def dice_event(spec: GameSpec[Any], state: State[Any], values: Sequence[int]) -> Event | None:
    """The move these dice stand for now, or None when the game is not waiting for a roll."""
    ctx = state.ctx
    if ctx.over or ROLL_MOVE not in spec.phases[ctx.phase].moves:
        return None
    seat = ctx.current if ctx.current is not None else 0
    return Event(MOVE, name=ROLL_MOVE, seat=seat, given=tuple(values), source="camera")


def dice_needed(spec: GameSpec[Any], state: State[Any]) -> int | None:
    """How many dice the roll the game waits for takes (None: it names no number)."""
    for choice in legal_moves(spec, state):
        if choice["name"] == ROLL_MOVE and choice.get("dice"):
            return int(choice["dice"])
    return None


def describe_dice(values: Sequence[int | None]) -> str:
    """ "The dice show 3 and 5." — one sentence for the tablet and the log."""
    shown = [str(v) if v is not None else "?" for v in values]
    if not shown:
        return "The camera sees no dice."
    text = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    return f"The dice show {text}."
