"""Resolve Actions: what a hamster did on the table, checked against the rules and costed.

Players move the real pieces; each move here says what was done (a path, a push, a throw)
and the engine checks it is legal, draws any HAT test, and charges the chips. A move the
rules forbid raises :class:`IllegalMoveError` with a sentence naming the rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import ceil
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import copier_for
from companion.engine.evolve import evolve as replace
from companion.engine.replaying import is_replaying
from companion.engine.rng import Draws
from companion.engine.state import Ctx
from companion.games.run_hamster_run import chips
from companion.games.run_hamster_run.model import (
    ACTIONS,
    BITE,
    CLASSIC,
    DIRECTIONS,
    LANES,
    METTLE,
    PIT,
    PUSH,
    REST,
    ROWS,
    RUN,
    SCAMPER,
    THROW,
    TRAIT_TITLES,
    Belt,
    Hamster,
    Resolution,
    Square,
    adjacent,
    on_board,
    trait_index,
)

Args = Mapping[str, Any]
_copy_hamster = copier_for(Hamster)  # hamsters change on most moves

ACTION_TITLES = {REST: "Rest", RUN: "Run", PUSH: "Push", THROW: "Throw", BITE: "Bite"}


# ----------------------------------------------------------------------------- parsing
def seat_of(game: Belt, value: object) -> int:
    """A hamster named in a move, by seat number or by name."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(game.hamsters):
        return value
    for seat, hamster in enumerate(game.hamsters):
        if isinstance(value, str) and hamster.name.lower() == value.lower():
            return seat
    raise IllegalMoveError(f"There is no hamster called {value!r} in this game.")


def square_of(value: object) -> Square:
    """A square written as [row, lane], or "pit"."""
    if isinstance(value, str) and value.lower() == "pit":
        return (PIT, 0)
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (int(value[0]), int(value[1]))
    raise IllegalMoveError(f"{value!r} is not a square: write [row, lane], for example [3, 2].")


def _path(args: Args) -> list[Square]:
    raw = args.get("path")
    if not isinstance(raw, list) or not raw:
        raise IllegalMoveError("Say which squares the hamster crossed, in order, as 'path'.")
    return [square_of(item) for item in raw]


def _named(square: Square) -> str:
    return "the Pit" if square[0] == PIT else f"row {square[0]}, lane {square[1]}"


def _action(args: Args, rules: str) -> str:
    names = ", ".join(ACTION_TITLES[a] for a in ACTIONS[rules])
    given = args.get("action")
    if given is None or (isinstance(given, str) and not given.strip()):
        raise IllegalMoveError(f"Say which action the hamster takes: one of {names}.")
    action = str(given).strip().lower()
    if action not in ACTIONS[rules]:
        raise IllegalMoveError(f"{given!r} is not an action in these rules; choose {names}.")
    return action


# ----------------------------------------------------------------------------- declare
def declare(game: Belt, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Belt:
    """Declare this round's action (lowest initiative first); a target is only a note."""
    hamster = game.hamsters[seat]
    action = _action(args, game.rules)
    args.get("target")  # taken, so the engine accepts it; a note for the table, not a rule
    if hamster.passed_out and action != REST:
        raise IllegalMoveError(
            f"{hamster.name} has passed out (no Pluck in traits) and may only Rest."
        )
    return game.with_hamster(seat, _copy_hamster(hamster, declared=action, did=""))


# ----------------------------------------------------------------------------- resolve helpers
def _acting(game: Belt, seat: int) -> tuple[Resolution, Hamster]:
    res = game.resolution
    hamster = game.hamsters[seat]
    if res is None or res.seat != seat:
        res = Resolution(seat=seat, action=hamster.declared or REST)
    if res.finished:
        raise IllegalMoveError(f"{hamster.name}'s action is over; press NEXT for the next hamster.")
    return res, hamster


def _require(res: Resolution, hamster: Hamster, *actions: str, doing: str) -> None:
    if res.action not in actions:
        names = " or ".join(ACTION_TITLES[a] for a in actions)
        raise IllegalMoveError(
            f"{hamster.name} is resolving {ACTION_TITLES[res.action]}; to {doing} needs "
            f"{names} (change action first, at a cost of one Pluck chip)."
        )


def _not_in_pit(hamster: Hamster) -> None:
    if hamster.in_pit:
        raise IllegalMoveError(f"{hamster.name} is in the Alligator Pit and cannot get out.")


def _save(game: Belt, seat: int, hamster: Hamster, res: Resolution) -> Belt:
    return game.with_hamster(seat, hamster, resolution=res)


def _place(hamster: Hamster, square: Square) -> Hamster:
    return _copy_hamster(
        hamster, row=square[0], lane=square[1] if square[0] != PIT else hamster.lane
    )


def _check_step(game: Belt, start: Square, square: Square, who: str) -> None:
    if not adjacent(start, square) and not (square[0] == PIT and start[0] == 1):
        raise IllegalMoveError(
            f"{_named(square)} is not next to {_named(start)}: steps go one square across or along."
        )
    if square[0] == PIT:
        return
    if not on_board(*square):
        raise IllegalMoveError(f"{who} would hit a wall: {_named(square)} is off the belt.")
    occupant = game.occupant(*square)
    if occupant is not None:
        raise IllegalMoveError(
            f"{_named(square)} is occupied by {game.hamsters[occupant].name}: "
            "moving into it is a push."
        )


def _walk(game: Belt, hamster: Hamster, path: list[Square]) -> Square:
    position = hamster.square
    for index, square in enumerate(path):
        _check_step(game, position, square, hamster.name)
        position = square
        if square[0] == PIT and index != len(path) - 1:
            raise IllegalMoveError(
                f"{hamster.name} falls into the Pit and cannot move on from there."
            )
    return position


def _vacant(game: Belt, square: Square) -> bool:
    return on_board(*square) and game.occupant(*square) is None


# ----------------------------------------------------------------------------- change
def change(game: Belt, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Belt:
    """Take a different action from the one declared, for one Pluck chip to Fatigue.

    Changing only the target is free and needs no move at all.
    """
    res, hamster = _acting(game, seat)
    action = _action(args, game.rules)
    if res.acted or res.changed:
        raise IllegalMoveError(f"{hamster.name} can only change action once, before acting.")
    if action == res.action:
        raise IllegalMoveError(
            f"{hamster.name} already declared {ACTION_TITLES[action]}; a new target costs nothing."
        )
    if hamster.passed_out:
        raise IllegalMoveError(f"{hamster.name} has passed out and may only Rest.")
    chip = args.get("chip")
    if game.rules == CLASSIC:
        trait = trait_index(chip) if chip is not None else None
        if trait is not None and hamster.traits[trait] == 0:
            raise IllegalMoveError(f"{hamster.name} has no {TRAIT_TITLES[trait]} chip to pay with.")
        hamster = chips.lose(hamster, 1, trait)
    else:
        if chip is None:
            trait = next((t for t in hamster.loss_order if hamster.up(t) > 0), None)
            if trait is None:
                raise IllegalMoveError(
                    f"{hamster.name} has no face-up chip to spend on changing action."
                )
        else:
            trait = trait_index(chip)
        hamster = chips.spend(hamster, trait)
    said = f"{hamster.name} changes from {ACTION_TITLES[res.action]} to {ACTION_TITLES[action]}"
    game = replace(game, notes=(f"{said}, paying one Pluck chip.",))
    return _save(game, seat, hamster, replace(res, action=action, changed=True))


# ----------------------------------------------------------------------------- run
def run(game: Belt, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Belt:
    """Move through empty squares, paying Scamper chips (the pay options differ by rules)."""
    res, hamster = _acting(game, seat)
    _not_in_pit(hamster)
    pay = str(args.get("pay", "flip"))
    path = _path(args)
    if game.rules == CLASSIC:
        _require(res, hamster, RUN, PUSH, THROW, doing="move")
        if pay not in ("flip", "double"):
            raise IllegalMoveError(
                "Pay for a classic Run with 'flip' (1 square a chip) or 'double'."
            )
        if pay == "double" and ((res.action != RUN and not res.pushed) or res.lost_push):
            raise IllegalMoveError(
                "Two squares a chip is only for Running (or after a successful push), "
                "never after a failed push."
            )
        if res.action == THROW and res.challenged:
            raise IllegalMoveError(f"{hamster.name}'s Throw has been made; the turn is over.")
        end = _walk(game, hamster, path)
        if pay == "flip":
            hamster = chips.flip(hamster, SCAMPER, len(path))
        else:
            hamster = chips.spend(hamster, SCAMPER, ceil(len(path) / 2))
    else:
        _require(res, hamster, RUN, doing="run")
        if pay not in ("flip", "spend"):
            raise IllegalMoveError(
                "Pay for a Run with 'flip' (1 square a chip) or 'spend' (2 squares)."
            )
        if pay == "spend" and len(path) > 2:
            raise IllegalMoveError("One spent Scamper chip moves a hamster two squares at most.")
        end = _walk(game, hamster, path)
        if pay == "flip":
            hamster = chips.flip(hamster, SCAMPER, len(path))
        else:
            hamster = chips.spend(hamster, SCAMPER, 1)
    hamster = _place(hamster, end)
    return _save(game, seat, hamster, replace(res, acted=True, pushing=None))


def sidestep(game: Belt, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Belt:
    """v2.1: one free step toward the left or right edge during a Run."""
    res, hamster = _acting(game, seat)
    _not_in_pit(hamster)
    _require(res, hamster, RUN, doing="sidestep")
    if game.rules == CLASSIC:
        raise IllegalMoveError("The classic rules have no free sidestep.")
    if res.sidestep_used:
        raise IllegalMoveError(f"{hamster.name} has already taken the free sidestep this Run.")
    to = square_of(args.get("to"))
    if to[0] != hamster.row or abs(to[1] - hamster.lane) != 1:
        raise IllegalMoveError("The free sidestep goes one square left or right, not up or down.")
    _check_step(game, hamster.square, to, hamster.name)
    hamster = _place(hamster, to)
    return _save(game, seat, hamster, replace(res, acted=True, sidestep_used=True, pushing=None))


def climb(game: Belt, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Belt:
    """v2.1: climb over an adjacent hamster to an empty square next to it."""
    res, hamster = _acting(game, seat)
    _not_in_pit(hamster)
    _require(res, hamster, RUN, doing="climb")
    if game.rules == CLASSIC:
        raise IllegalMoveError("The classic rules have no climbing; push instead.")
    over_seat = seat_of(game, args.get("over"))
    over = game.hamsters[over_seat]
    if not over.on_belt or not adjacent(hamster.square, over.square):
        raise IllegalMoveError(
            f"{hamster.name} can only climb over a hamster on a square next to it."
        )
    to = square_of(args.get("to"))
    if to == hamster.square or not adjacent(over.square, to) or not _vacant(game, to):
        raise IllegalMoveError(f"A climb ends on an empty belt square next to {over.name}.")
    pay = str(args.get("pay", "flip"))
    if pay == "flip":
        hamster = chips.flip(hamster, SCAMPER, 3)
    elif pay == "spend":
        if hamster.up(SCAMPER) < 2:
            raise IllegalMoveError(
                f"{hamster.name} needs two face-up Scamper chips to spend and flip."
            )
        hamster = chips.flip(chips.spend(hamster, SCAMPER, 1), SCAMPER, 1)
    else:
        raise IllegalMoveError(
            "Pay for a climb with 'flip' (three chips) or 'spend' (one spent, one flipped)."
        )
    hamster = _place(hamster, to)
    return _save(game, seat, hamster, replace(res, acted=True, pushing=None))


# ----------------------------------------------------------------------------- push
def _can_pay_for_push(hamster: Hamster, cost: int) -> None:
    """The cost is known before anything happens: a hamster that can pay none of it (no
    face-up Scamper, no Mettle to put in Fatigue instead) cannot push for free."""
    means = hamster.up(SCAMPER) + hamster.traits[METTLE]
    if means < cost:
        raise IllegalMoveError(
            f"{hamster.name} cannot pay for this push: it costs {cost} Scamper chip(s) to "
            f"flip (a Mettle chip to Fatigue for each one missing), and {hamster.name} "
            f"has {hamster.up(SCAMPER)} face-up Scamper and {hamster.traits[METTLE]} Mettle."
        )


def push(game: Belt, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Belt:
    """Try to move into an occupied square, shoving its occupant one square on."""
    res, hamster = _acting(game, seat)
    _not_in_pit(hamster)
    classic = game.rules == CLASSIC
    _require(res, hamster, PUSH if classic else RUN, doing="push")
    direction = str(args.get("direction", "")).lower()
    if direction not in DIRECTIONS:
        raise IllegalMoveError("Say which way to push: up, down (toward the Pit), left or right.")
    d_row, d_lane = DIRECTIONS[direction]
    target = (hamster.row + d_row, hamster.lane + d_lane)
    if not on_board(*target):
        raise IllegalMoveError(f"There is no hamster {direction} of {hamster.name} to push.")
    object_seat = game.occupant(*target)
    if object_seat is None:
        raise IllegalMoveError(f"{_named(target)} is empty: that is a Run, not a push.")
    if not classic and hamster.up(SCAMPER) == 0:
        raise IllegalMoveError(f"{hamster.name} needs a face-up Scamper chip to flip for a push.")
    victim = game.hamsters[object_seat]
    beyond = (target[0] + d_row, target[1] + d_lane)
    blocked = beyond[0] > ROWS or not 1 <= beyond[1] <= LANES
    blocked = blocked or (beyond[0] >= 1 and game.occupant(*beyond) is not None)
    fail_cost = 1
    win_cost = 2 if classic else 1

    def pay(h: Hamster, count: int) -> Hamster:
        return chips.flip_scamper_or_mettle(h, count) if classic else chips.flip(h, SCAMPER, count)

    continuing = res.pushing == (object_seat, d_row, d_lane)
    if classic and (blocked or continuing) and not is_replaying():
        # A game stored before this check, with such a push in it, still loads as played.
        _can_pay_for_push(hamster, fail_cost if blocked else win_cost)
    if blocked:
        # Pushing into a wall or another hamster fails without a test; both stay put.
        hamster = pay(hamster, fail_cost)
        return _save(game, seat, hamster, replace(res, acted=True, pushing=None, lost_push=True))
    if continuing:
        winner = seat
    else:
        resist = bool(args.get("resist", True))
        game, winner = chips.mettle_test(
            game,
            seat,
            object_seat,
            draws,
            ctx.round,
            f"{hamster.name} pushes {victim.name}",
            resist=resist,
        )
        hamster = game.hamsters[seat]
        victim = game.hamsters[object_seat]
    if winner != seat:
        hamster = pay(hamster, fail_cost)
        return _save(game, seat, hamster, replace(res, acted=True, pushing=None, lost_push=True))
    hamster = _place(pay(hamster, win_cost), target)
    victim = _place(victim, beyond if beyond[0] >= 1 else (PIT, victim.lane))
    game = game.with_hamster(object_seat, victim)
    still_pushing = (object_seat, d_row, d_lane) if victim.on_belt else None
    return _save(game, seat, hamster, replace(res, acted=True, pushing=still_pushing, pushed=True))


# ----------------------------------------------------------------------------- bite / throw
def step_free(game: Belt, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Belt:
    """v2.1: Bite and Throw allow one free step to an empty square, before or after."""
    res, hamster = _acting(game, seat)
    _not_in_pit(hamster)
    if game.rules == CLASSIC:
        raise IllegalMoveError("In the classic rules a hamster moves by Running, paying Scamper.")
    _require(res, hamster, BITE, THROW, doing="take the free step")
    if res.free_step_used:
        raise IllegalMoveError(f"{hamster.name} has already taken the one free step.")
    to = square_of(args.get("to"))
    _check_step(game, hamster.square, to, hamster.name)
    hamster = _place(hamster, to)
    return _save(game, seat, hamster, replace(res, acted=True, free_step_used=True))


def _adjacent_target(game: Belt, hamster: Hamster, args: Args, verb: str) -> int:
    target_seat = seat_of(game, args.get("target"))
    target = game.hamsters[target_seat]
    if not target.on_belt or not hamster.on_belt or not adjacent(hamster.square, target.square):
        raise IllegalMoveError(f"{hamster.name} can only {verb} a hamster on a square next to it.")
    return target_seat


def bite(game: Belt, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Belt:
    """v2.1: challenge a neighbour; the winner makes it move one chip (biter's pick) to Fatigue."""
    res, hamster = _acting(game, seat)
    _require(res, hamster, BITE, doing="bite")
    if res.challenged:
        raise IllegalMoveError(f"{hamster.name} has already bitten this round.")
    target_seat = _adjacent_target(game, hamster, args, "bite")
    target = game.hamsters[target_seat]
    chip = args.get("chip")
    if chip is None:
        trait = max(range(3), key=lambda t: (target.traits[t], t == METTLE))
    else:
        trait = trait_index(chip)
    if target.traits[trait] == 0:
        raise IllegalMoveError(
            f"{target.name} has no {TRAIT_TITLES[trait]} chip to lose; pick another."
        )
    game, winner = chips.mettle_test(
        game,
        seat,
        target_seat,
        draws,
        ctx.round,
        f"{hamster.name} bites {target.name}",
        resist=bool(args.get("resist", True)),
    )
    if winner == seat:
        game = game.with_hamster(
            target_seat, chips.lose_from(game.hamsters[target_seat], trait, face_up_first=True)
        )
    return replace(game, resolution=replace(res, acted=True, challenged=True))


def throw(game: Belt, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Belt:
    """Challenge a neighbour; on a win, throw it (where to is checked before the draw)."""
    res, hamster = _acting(game, seat)
    _not_in_pit(hamster)
    _require(res, hamster, THROW, doing="throw")
    if res.challenged:
        raise IllegalMoveError(f"{hamster.name} has already thrown this round.")
    target_seat = _adjacent_target(game, hamster, args, "throw")
    target = game.hamsters[target_seat]
    why = f"{hamster.name} throws {target.name}"
    resist = bool(args.get("resist", True))
    if game.rules == CLASSIC:
        game, winner = chips.mettle_test(
            game, seat, target_seat, draws, ctx.round, why, resist=resist
        )
        if winner == seat:
            thrower = game.hamsters[seat]
            distance = ceil(thrower.traits[METTLE] / 2)  # Mettle after the winner's loss
            game = game.with_hamster(
                target_seat, _fly(game, game.hamsters[target_seat], thrower.square, distance)
            )
        # A classic Throw ends the turn whether it worked or not.
        return replace(game, resolution=replace(res, acted=True, challenged=True, finished=True))
    to = square_of(args.get("to"))
    _check_landing(game, hamster, target, to)
    game, winner = chips.mettle_test(game, seat, target_seat, draws, ctx.round, why, resist=resist)
    if winner == seat:
        game = game.with_hamster(target_seat, _place(game.hamsters[target_seat], to))
    return replace(game, resolution=replace(res, acted=True, challenged=True))


def _fly(game: Belt, target: Hamster, thrower: Square, distance: int) -> Hamster:
    """Classic: a thrown hamster flies straight away from the thrower until stopped."""
    d_row, d_lane = target.row - thrower[0], target.lane - thrower[1]
    row, lane = target.row, target.lane
    for _ in range(distance):
        nxt = (row + d_row, lane + d_lane)
        if nxt[0] == PIT:
            return _place(target, (PIT, lane))
        if not on_board(*nxt) or game.occupant(*nxt) is not None:
            break
        row, lane = nxt
    return _place(target, (row, lane))


def _check_landing(game: Belt, thrower: Hamster, target: Hamster, to: Square) -> None:
    """v2.1: within floor(Mettle/2) steps of the target ignoring obstacles, or judo-style."""
    reach = thrower.traits[METTLE] // 2
    if to[0] == PIT:
        if target.row <= reach:
            return
        raise IllegalMoveError(
            f"{thrower.name}'s Mettle of {thrower.traits[METTLE]} throws {reach} square(s): "
            f"the Pit is {target.row} away from {target.name}."
        )
    if not _vacant(game, to):
        raise IllegalMoveError(
            f"A thrown hamster must land on an empty square; {_named(to)} is not."
        )
    distance = abs(to[0] - target.row) + abs(to[1] - target.lane)
    if 1 <= distance <= reach:
        return
    if thrower.traits[METTLE] >= 4 and adjacent(thrower.square, to):
        return  # judo: flipped over onto any empty square next to the thrower
    raise IllegalMoveError(
        f"{thrower.name}'s Mettle of {thrower.traits[METTLE]} throws {reach} square(s) at most; "
        f"{_named(to)} is {distance} away from {target.name}."
    )


# ----------------------------------------------------------------------------- rest / finish
def rest(game: Belt, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Belt:
    """Rest: a chance (classic: an even die the player rolls) or a sure chip back from Fatigue."""
    res, hamster = _acting(game, seat)
    _require(res, hamster, REST, doing="rest")
    trait = trait_index(args.get("to", "scamper"))
    back = f"{hamster.name} rests: a {TRAIT_TITLES[trait]} chip back from Fatigue"
    said = f"{hamster.name} rests (no chip on the Fatigue pile)."
    if hamster.fatigue > 0:
        if game.rules == CLASSIC:
            why = f"{hamster.name}'s rest die"
            die = draws.hand_die(why, companion_rolls=game.roll_for_us)
            if die % 2 == 0:
                hamster = chips.regain(hamster, trait)
                said = f"{back} (the die shows {die})."
            else:
                said = f"{hamster.name} rests: the die shows {die}, odd, so no chip back."
        elif not hamster.in_pit:
            hamster = chips.regain(hamster, trait)
            said = f"{back}."
        else:
            said = f"{hamster.name} rests in the Pit: no chip back."
    game = replace(game, notes=(said,))  # said until this hamster's resolution ends
    return _save(game, seat, hamster, replace(res, acted=True, finished=True))


def rest_die_due(game: Belt, seat: int) -> bool:
    """Classic: whether ending this hamster's turn now takes its Rest, which needs a die."""
    res, hamster = _acting_or_done(game, seat)
    return (
        game.rules == CLASSIC
        and res.action == REST
        and not res.finished
        and hamster.fatigue > 0
        and not hamster.eaten
    )


def finish(game: Belt, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Belt:
    """End this hamster's resolution (a declared Rest is taken now if not yet)."""
    res, hamster = _acting_or_done(game, seat)
    if res.action == REST and not res.finished:
        game = rest(game, ctx, seat, args, draws)
        hamster = game.hamsters[seat]
    else:  # what this hamster's change or rest said is not said under the next one
        game = replace(game, notes=())
    return game.with_hamster(seat, _copy_hamster(hamster, did=res.action), resolution=None)


def _acting_or_done(game: Belt, seat: int) -> tuple[Resolution, Hamster]:
    res = game.resolution
    hamster = game.hamsters[seat]
    if res is None or res.seat != seat:
        res = Resolution(seat=seat, action=hamster.declared or REST)
    return res, hamster
