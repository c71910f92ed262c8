"""How a game is declared: phases, turn orders and moves, as data plus small functions.

Modelled on boardgame.io: a phase has moves, optional ``on_begin``/``on_end`` hooks, a
``blocker`` that says why it cannot end yet, the name of the ``next`` phase and an optional
turn order given as ``(first, next)`` functions (``None`` ends the phase's turns).
Rule sets of one game share the spec; the game's data carries its rule set.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from companion.engine.rng import Draws
from companion.engine.state import Ctx

G = TypeVar("G")

Args = Mapping[str, Any]
MoveFn = Callable[[G, Ctx, int, Args, Draws], G]
Hook = Callable[[G, Ctx, Draws], G]
SeatFn = Callable[[G, Ctx], "int | None"]


@dataclass(frozen=True)
class MoveSpec(Generic[G]):
    """A move: validates and returns the new game data, or raises ``IllegalMove``."""

    fn: MoveFn[G]
    help: str = ""
    ends_turn: bool = False  # the mover's turn ends after this move
    any_seat: bool = False  # any seat may make it, not only the current one (secret choices)


@dataclass(frozen=True)
class TurnOrder(Generic[G]):
    """Who acts first in a phase and who acts after the current seat."""

    first: SeatFn[G]
    next: SeatFn[G]


@dataclass(frozen=True)
class PhaseSpec(Generic[G]):
    """One phase of a round."""

    name: str
    title: str
    next: Callable[[G], str]
    moves: Mapping[str, MoveSpec[G]] = field(default_factory=dict)
    on_begin: Hook[G] | None = None
    on_end: Hook[G] | None = None
    turn: TurnOrder[G] | None = None
    on_turn_end: Hook[G] | None = None  # NEXT pressed while a seat is acting
    blocker: Callable[[G, Ctx], str | None] | None = None
    new_round: bool = False  # entering this phase starts a new round


@dataclass(frozen=True)
class Outcome:
    winners: tuple[int, ...]
    result: str


@dataclass(frozen=True)
class GameSpec(Generic[G]):
    """A whole game: set-up, phases, the end condition and what players may see."""

    name: str
    title: str
    rule_sets: tuple[str, ...]
    min_players: int
    max_players: int
    setup: Callable[[str, tuple[str, ...], Args, Draws], G]
    phases: Mapping[str, PhaseSpec[G]]
    first_phase: str
    end_if: Callable[[G, Ctx], Outcome | None]
    view: Callable[[G, Ctx, int | None], dict[str, Any]]
    prompt: Callable[[G, Ctx], str]
    default_rules: str = ""
    text: Callable[[G, Ctx], str] | None = None  # the board as plain text, for the terminal
    seat_name: Callable[[G, int], str] | None = None  # for messages that name a player
    # candidate moves for the tablet's buttons; the engine filters out illegal ones
    choices: Callable[[G, Ctx], list[dict[str, Any]]] | None = None
    # after an undo or redo: what to change on the real table (before, after) -> sentence
    table_changes: Callable[[G, G], str] | None = None

    @property
    def rules_default(self) -> str:
        return self.default_rules or self.rule_sets[0]
