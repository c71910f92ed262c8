"""The game-agnostic engine: specs, pure flow, seeded draws, event log, sessions.

Nothing here knows a particular game; games live in :mod:`companion.games` and are
declared as data plus small functions (see :mod:`companion.engine.spec`).
"""

from companion.engine.errors import IllegalMoveError
from companion.engine.events import Event
from companion.engine.flow import apply, initial_state, step
from companion.engine.rng import Draws
from companion.engine.session import Session
from companion.engine.spec import GameSpec, MoveSpec, PhaseSpec, TurnOrder
from companion.engine.state import Ctx, State

__all__ = [
    "Ctx",
    "Draws",
    "Event",
    "GameSpec",
    "IllegalMoveError",
    "MoveSpec",
    "PhaseSpec",
    "Session",
    "State",
    "TurnOrder",
    "apply",
    "initial_state",
    "step",
]
