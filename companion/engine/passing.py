"""Steps nobody has a decision in: the outcome is on the table, no move is offered (but
one open at any time, as Rats' card for Hate), NEXT takes no dice and is not refused, and
the game says the step passes (Hamsterdam's flood with no special held, no breach, passing
the dice; Run, Hamster, Run!'s initiative draw). The tablet presses NEXT itself there after
a moment, so a turn where nothing happens is one roll, not a roll and four NEXT presses; a
table that wants every stop says so once, for every tablet (``companion.table_settings``).
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
    if phase.blocker is not None and phase.blocker(state.G, ctx) is not None:
        return False  # NEXT would be refused: someone still has something to enter
    if spec.next_dice is not None and spec.next_dice(state.G, ctx):
        return False
    return all(_any_time(spec, ctx.phase, choice["name"]) for choice in legal_moves(spec, state))


def _any_time(spec: GameSpec[G], phase: str, name: str) -> bool:
    move = spec.phases[phase].moves.get(name)
    return move is not None and move.any_time
