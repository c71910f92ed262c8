"""Immutable game state: the game's own data ``G`` plus the flow context ``Ctx``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

G = TypeVar("G")


@dataclass(frozen=True, slots=True)
class Ctx:
    """Where the game is in its flow; shared by every game."""

    phase: str
    round: int = 1
    current: int | None = None  # seat whose turn it is within the phase, if turns are taken
    turn: int = 0  # turns taken in this phase
    seq: int = 0  # number of effective events applied
    over: bool = False
    winners: tuple[int, ...] = ()
    result: str = ""  # one sentence: who won and why


@dataclass(frozen=True, slots=True)
class State(Generic[G]):
    """Everything needed to continue a game: rules data, flow and the generator."""

    G: G
    ctx: Ctx
    rng: int
