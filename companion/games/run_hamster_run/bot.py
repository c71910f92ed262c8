"""A random but plausible player, for balance reports and property tests.

It proposes candidate events for the current situation, most wanted first; the caller
keeps the first one the engine accepts. Bots use their own ``random.Random`` so the game's
seeded generator sees exactly what a real table would.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from math import ceil

from companion.engine.events import MOVE, NEXT, Event
from companion.engine.state import State
from companion.games.run_hamster_run.hand_rolls import next_dice
from companion.games.run_hamster_run.model import (
    BITE,
    CLASSIC,
    DIRECTIONS,
    LANES,
    METTLE,
    PUSH,
    REST,
    ROWS,
    RUN,
    SCAMPER,
    START_ROWS,
    THROW,
    Belt,
    Hamster,
    adjacent,
    on_board,
)
from companion.games.run_hamster_run.phases import Phase

_NEXT = Event(NEXT)


def candidates(state: State[Belt], rng: random.Random) -> Iterator[Event]:
    """Events worth trying now, best first; NEXT always comes last."""
    game, ctx = state.G, state.ctx
    phase = ctx.phase
    if phase == Phase.SETUP and ctx.current is not None:
        free = [
            (r, lane)
            for r in START_ROWS
            for lane in range(1, LANES + 1)
            if game.occupant(r, lane) is None
        ]
        yield _move(ctx.current, "place", to=list(rng.choice(free)))
    elif phase == Phase.ALLOCATE:
        for seat, hamster in enumerate(game.hamsters):
            if not hamster.eaten and hamster.allocation is None:
                yield _allocation(seat, hamster, rng)
    elif phase == Phase.DECLARE and ctx.current is not None:
        yield _move(ctx.current, "declare", action=_choose_action(game, ctx.current, rng))
    elif phase == Phase.RESOLVE and ctx.current is not None:
        yield from _resolve(game, ctx.current, rng)
    # NEXT carries the dice the players roll by hand (classic Rest and Fatigue), as a table's would.
    dice = next_dice(game, ctx)
    yield Event(NEXT, given=tuple(rng.randint(1, 6) for _ in dice)) if dice else _NEXT


def _move(seat: int, name: str, **args: object) -> Event:
    return Event(MOVE, name=name, seat=seat, args=args)


def _allocation(seat: int, hamster: Hamster, rng: random.Random) -> Event:
    # Two random cuts of the chips in hand, leaning toward Scamper then Mettle.
    pluck = hamster.pluck
    scamper = rng.randint(pluck // 3, pluck)
    mettle = rng.randint(0, pluck - scamper)
    return _move(
        seat, "allocate", scamper=scamper, mettle=mettle, friskiness=pluck - scamper - mettle
    )


def _choose_action(game: Belt, seat: int, rng: random.Random) -> str:
    hamster = game.hamsters[seat]
    if hamster.passed_out or hamster.in_pit:
        return REST
    tired = hamster.fatigue >= 3
    if game.rules == CLASSIC:
        options, weights = (RUN, PUSH, THROW, REST), (6, 2, 1, 4 if tired else 1)
    else:
        options, weights = (RUN, BITE, THROW, REST), (6, 1, 2, 4 if tired else 1)
    return rng.choices(options, weights)[0]


def _neighbours(game: Belt, hamster: Hamster) -> list[int]:
    return [
        s
        for s, other in enumerate(game.hamsters)
        if other.on_belt and adjacent(hamster.square, other.square)
    ]


def _resolve(game: Belt, seat: int, rng: random.Random) -> Iterator[Event]:
    hamster = game.hamsters[seat]
    res = game.resolution
    action = res.action if res is not None and res.seat == seat else hamster.declared
    if res is not None and res.seat != seat:
        res = None
    acted = res is not None and res.acted
    if action == REST or hamster.in_pit:
        return
    neighbours = _neighbours(game, hamster)
    if not acted and neighbours:
        target = rng.choice(neighbours)
        other = game.hamsters[target]
        direction = (other.row - hamster.row, other.lane - hamster.lane)
        name = next(k for k, v in DIRECTIONS.items() if v == direction)
        if action == THROW:
            if game.rules == CLASSIC:
                yield _move(seat, "throw", target=target)
            else:
                reach = hamster.traits[METTLE] // 2
                to: object = "pit" if other.row <= reach else _landing(game, other, reach)
                if to is not None:
                    yield _move(seat, "throw", target=target, to=to)
        elif action == BITE:
            yield _move(seat, "bite", target=target)
        elif (action == PUSH or (action == RUN and game.rules != CLASSIC)) and (
            direction[0] <= 0 or rng.random() < 0.3
        ):
            yield _move(seat, "push", direction=name)
    if action in (RUN, PUSH, THROW) and (action == RUN or game.rules == CLASSIC):
        path = _path_up(game, hamster)
        if path:
            if game.rules == CLASSIC and action == RUN and len(path) >= 2 and rng.random() < 0.3:
                yield _move(
                    seat,
                    "run",
                    path=path[: 2 * max(1, min(hamster.up(SCAMPER), ceil(len(path) / 2)))],
                    pay="double",
                )
            yield _move(seat, "run", path=path, pay="flip")
            if game.rules != CLASSIC:
                yield _move(seat, "run", path=path[:2], pay="spend")
        elif game.rules != CLASSIC and action == RUN and not (res and res.sidestep_used):
            for lane in (hamster.lane - 1, hamster.lane + 1):
                if 1 <= lane <= LANES and game.occupant(hamster.row, lane) is None:
                    yield _move(seat, "sidestep", to=[hamster.row, lane])
    if action in (BITE, THROW) and game.rules != CLASSIC and not (res and res.free_step_used):
        up = (hamster.row + 1, hamster.lane)
        if on_board(*up) and game.occupant(*up) is None:
            yield _move(seat, "step", to=list(up))


def _path_up(game: Belt, hamster: Hamster) -> list[list[int]]:
    """Straight up the belt, away from the Pit, as far as face-up Scamper allows."""
    path: list[list[int]] = []
    row = hamster.row
    for _ in range(hamster.up(SCAMPER)):
        row += 1
        if row > ROWS or game.occupant(row, hamster.lane) is not None:
            break
        path.append([row, hamster.lane])
    return path


def _landing(game: Belt, target: Hamster, reach: int) -> list[int] | None:
    """The empty square nearest the Pit within reach of the thrown hamster."""
    best: list[int] | None = None
    for row in range(max(1, target.row - reach), target.row + 1):
        for lane in range(1, LANES + 1):
            distance = abs(row - target.row) + abs(lane - target.lane)
            free = 1 <= distance <= reach and game.occupant(row, lane) is None
            if free and (best is None or row < best[0]):
                best = [row, lane]
    return best
