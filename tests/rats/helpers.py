"""A small table of rats for the rule tests, played through the real engine."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.engine.events import MOVE, NEXT, Event
from companion.engine.flow import initial_state, step
from companion.engine.state import State
from companion.games.rats import SPEC
from companion.games.rats.model import Rat, Rats

NAMES = ("Ann", "Bob", "Cat", "Dan")
POOL = (4, 6, 8, 8, 10, 10)  # the free dice plus a d8 and a d10


class Table:
    """The engine's state plus a few verbs, so a test reads like the table talking."""

    def __init__(self, players: tuple[str, ...] = NAMES, seed: int = 7, **options: Any) -> None:
        self.state: State[Rats]
        self.state, _ = initial_state(SPEC, "standard", players, seed, options)
        for seat in range(len(players)):
            self.move(seat, "create", name=players[seat], bonus=[8, 10])
        self.next()  # deal five cards each and enter the tunnels
        self.outcome: tuple[dict[str, Any], ...] = ()

    @property
    def game(self) -> Rats:
        return self.state.G

    def rat(self, seat: int) -> Rat:
        return self.game.rats[seat]

    def move(
        self, seat: int, move: str, given: tuple[int, ...] | list[int] = (), **args: Any
    ) -> None:
        event = Event(MOVE, name=move, seat=seat, args=args, given=tuple(given))
        self.state, self.outcome = step(SPEC, self.state, event)

    def next(self, given: tuple[int, ...] = ()) -> None:
        self.state, self.outcome = step(SPEC, self.state, Event(NEXT, given=given))

    def set_rat(self, seat: int, **changes: Any) -> None:
        """Put a rat in the situation a test needs (Hate, dice, cards won)."""
        game = self.game.with_rat(seat, replace(self.rat(seat), **changes))
        self.state = replace(self.state, G=game)

    def to_nest(self) -> None:
        """Every rat has had its tunnel turn: NEXT takes the rats to the nest."""
        self.state = replace(self.state, ctx=replace(self.state.ctx, current=None))
        self.next()

    def roll_all(self, *faces: list[int]) -> None:
        for seat, shown in enumerate(faces):
            self.move(seat, "roll", given=shown)

    @property
    def prompt(self) -> str:
        return SPEC.presentation.prompt(self.game, self.state.ctx)
