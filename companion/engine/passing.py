"""Steps nobody has a decision in: the outcome is on the table, no move is offered, NEXT
takes no dice and the game says the step passes (Hamsterdam's flood with no special held,
no breach, passing the dice). The tablet presses NEXT itself there after a moment, so a
turn where nothing happens is one roll, not a roll and four NEXT presses.
"""

from __future__ import annotations

from typing import TypeVar

from companion.engine.legal import legal_moves
from companion.engine.spec import GameSpec
from companion.engine.state import State

G = TypeVar("G")  # the game's own state (``State.G``)


def passes_itself(spec: GameSpec[G], state: State[G]) -> bool:
    """Whether NEXT now is a formality: the phase says it passes and nobody may act."""
    ctx = state.ctx
    phase = spec.phases[ctx.phase]
    if ctx.over or phase.passes is None or not phase.passes(state.G, ctx):
        return False
    if spec.next_dice is not None and spec.next_dice(state.G, ctx):
        return False
    return not legal_moves(spec, state)
