"""Every concrete move a player could make now, for the tablet's buttons.

The tablet never takes free text: it offers these, already checked against the engine
(see :func:`companion.engine.legal.legal_moves`), so a tap can only send a legal move.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from companion.engine.state import Ctx
from companion.games.run_hamster_run.actions import ACTION_TITLES, rest_die_due
from companion.games.run_hamster_run.model import (
    ACTIONS,
    CLASSIC,
    DIRECTIONS,
    LANES,
    METTLE,
    ROWS,
    START_ROWS,
    TRAITS,
    Belt,
    Hamster,
    adjacent,
    on_board,
)
from companion.games.run_hamster_run.phases import Phase

Choice = dict[str, Any]


def _choice(seat: int, name: str, label: str, **args: Any) -> Choice:
    return {"seat": seat, "name": name, "label": label, "args": args}


def choices(game: Belt, ctx: Ctx) -> list[Choice]:
    """Candidate moves (the engine filters out the illegal ones)."""
    seat = ctx.current
    if ctx.phase == Phase.SETUP and seat is not None:
        return [
            _choice(seat, "place", f"row {r}, lane {lane}", to=[r, lane])
            for r in START_ROWS
            for lane in range(1, LANES + 1)
            if game.occupant(r, lane) is None
        ]
    if ctx.phase == Phase.DECLARE and seat is not None:
        return [_choice(seat, "declare", ACTION_TITLES[a], action=a) for a in ACTIONS[game.rules]]
    if ctx.phase == Phase.RESOLVE and seat is not None:
        return list(_resolve(game, seat))
    return []


def _names(game: Belt, seat: int) -> str:
    return game.hamsters[seat].name


def _neighbours(game: Belt, hamster: Hamster) -> list[int]:
    return [
        s
        for s, other in enumerate(game.hamsters)
        if other.on_belt and hamster.on_belt and adjacent(hamster.square, other.square)
    ]


def _resolve(game: Belt, seat: int) -> Iterator[Choice]:
    hamster = game.hamsters[seat]
    row, lane = hamster.square
    classic = game.rules == CLASSIC
    # Changing action costs a chip of the player's choice: one button per trait that has one.
    payable = [
        trait
        for index, trait in enumerate(TRAITS)
        if (hamster.traits[index] if classic else hamster.up(index)) > 0
    ]
    for action in ACTIONS[game.rules]:
        for trait in payable:
            label = f"Change to {ACTION_TITLES[action]} (pay {trait.title()})"
            yield _choice(seat, "change", label, action=action, chip=trait)
    # The player picks the trait the chip goes back to (v2.1: none comes back in the Pit).
    if hamster.fatigue and (classic or not hamster.in_pit):
        for trait in ("scamper", "mettle", "friskiness"):
            label = f"Rest: a chip back to {trait.title()}"
            if classic:  # on an even die the player rolls: the page asks for it first
                yield {**_choice(seat, "rest", f"{label} (on an even die)", to=trait), "dice": 1}
            else:
                yield _choice(seat, "rest", label, to=trait)
    else:
        yield _choice(seat, "rest", "Rest", to="scamper")
    for direction, (d_row, d_lane) in DIRECTIONS.items():
        to = [row + d_row, lane + d_lane]
        where = "the Pit" if to[0] == 0 else f"({to[0]},{to[1]})"
        yield _choice(seat, "run", f"Run {direction} to {where}", path=[to], pay="flip")
        yield _choice(seat, "push", f"Push {direction}", direction=direction)
        if not classic:
            yield _choice(seat, "step", f"Free step {direction} to {where}", to=to)
            if d_row == 0:
                yield _choice(seat, "sidestep", f"Free sidestep {direction}", to=to)
        two = [row + 2 * d_row, lane + 2 * d_lane]
        if on_board(*two) or two[0] == 0:
            pay = "double" if classic else "spend"
            label = f"Run {direction} 2 squares (one chip to Fatigue)"
            yield _choice(seat, "run", label, path=[to, two], pay=pay)
    for target in _neighbours(game, hamster):
        name = _names(game, target)
        if classic:
            yield _choice(seat, "throw", f"Throw {name}", target=target)
        else:
            for trait in TRAITS:
                yield _choice(seat, "bite", f"Bite {name} ({trait})", target=target, chip=trait)
            yield from _throws(game, seat, target)
            other = game.hamsters[target]
            for d_row, d_lane in DIRECTIONS.values():
                to = [other.row + d_row, other.lane + d_lane]
                if on_board(*to) and to != [row, lane]:
                    for pay in ("flip", "spend"):
                        cost = "3 flipped" if pay == "flip" else "1 spent + 1 flipped"
                        label = f"Climb over {name} to ({to[0]},{to[1]}), {cost}"
                        yield _choice(seat, "climb", label, over=target, to=to, pay=pay)
    done = _choice(seat, "finish", "Done")
    yield {**done, "dice": 1} if rest_die_due(game, seat) else done


def _throws(game: Belt, seat: int, target: int) -> Iterator[Choice]:
    thrower, other = game.hamsters[seat], game.hamsters[target]
    reach = thrower.traits[METTLE] // 2
    name = other.name
    if other.row <= reach:
        yield _choice(seat, "throw", f"Throw {name} into the Pit", target=target, to="pit")
    for r in range(max(1, other.row - reach), min(ROWS, other.row + reach) + 1):
        for lane in range(1, LANES + 1):
            distance = abs(r - other.row) + abs(lane - other.lane)
            judo = thrower.traits[METTLE] >= 4 and adjacent(thrower.square, (r, lane))
            if (1 <= distance <= reach or judo) and game.occupant(r, lane) is None:
                yield _choice(
                    seat, "throw", f"Throw {name} to ({r},{lane})", target=target, to=[r, lane]
                )
