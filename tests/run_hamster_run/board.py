"""Build a Run, Hamster, Run! position directly, for rule-by-rule tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.engine.events import MOVE, NEXT, Event
from companion.engine.evolve import evolve
from companion.engine.flow import step
from companion.engine.state import Ctx, State
from companion.games.run_hamster_run import SPEC, Belt
from companion.games.run_hamster_run.model import Hamster, Resolution

Spot = tuple[str, int, int, tuple[int, int, int]]


def position(
    rules: str,
    spots: Sequence[Spot],
    *,
    phase: str = "resolve",
    current: int | None = 0,
    declared: Sequence[str] | None = None,
    initiative: Sequence[int] | None = None,
    fatigue: Sequence[int] | None = None,
    rng: int = 12345,
    **belt: Any,
) -> State[Belt]:
    """Hamsters (name, row, lane, (scamper, mettle, friskiness)); fatigue makes up the 7."""
    hamsters = []
    for index, (name, row, lane, traits) in enumerate(spots):
        tired = fatigue[index] if fatigue is not None else 7 - sum(traits)
        hamsters.append(
            Hamster(
                name=name,
                colour=f"c{index}",
                row=row,
                lane=lane,
                traits=traits,
                fatigue=tired,
                declared=declared[index] if declared else "",
                start_row=max(row, 1),
            )
        )
    order = tuple(initiative) if initiative is not None else tuple(range(len(spots)))
    game = Belt(rules=rules, hamsters=tuple(hamsters), initiative=order, **belt)
    turn = order.index(current) if current is not None and current in order else 0
    return State(game, Ctx(phase=phase, round=1, current=current, turn=turn), rng)


def act(
    state: State[Belt], seat: int, name: str, given: Sequence[Any] = (), **args: Any
) -> State[Belt]:
    return step(SPEC, state, Event(MOVE, name=name, seat=seat, args=args, given=tuple(given)))[0]


def nxt(state: State[Belt], given: Sequence[Any] = ()) -> State[Belt]:
    return step(SPEC, state, Event(NEXT, given=tuple(given)))[0]


def outcome(
    state: State[Belt], seat: int, name: str, given: Sequence[Any] = (), **args: Any
) -> tuple[dict[str, Any], ...]:
    return step(SPEC, state, Event(MOVE, name=name, seat=seat, args=args, given=tuple(given)))[1]


def ham(state: State[Belt], seat: int) -> Hamster:
    return state.G.hamsters[seat]


def resolving(state: State[Belt], seat: int, action: str) -> State[Belt]:
    return evolve(state, G=evolve(state.G, resolution=Resolution(seat=seat, action=action)))
