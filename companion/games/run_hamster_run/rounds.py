"""The bookkeeping of a round: set-up, allocation, initiative and phases 5 to 9.

Phases 5 to 8 are computed by the companion when the table enters them; their ``notes``
tell the players what to do with the real pieces, and NEXT moves on once they have.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import ceil
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import copier_for
from companion.engine.evolve import evolve as replace
from companion.engine.rng import Draws
from companion.engine.state import Ctx
from companion.games.run_hamster_run import chips
from companion.games.run_hamster_run.actions import square_of
from companion.games.run_hamster_run.model import (
    ASTERISK_STRIP,
    CHIPS,
    CLASSIC,
    COLOURS,
    FRISK,
    METTLE,
    NOT_PLACED,
    PIT,
    REST,
    START_ROWS,
    TRAIT_TITLES,
    TRAITS,
    Belt,
    Hamster,
    TestRecord,
    on_board,
    trait_index,
)

Args = Mapping[str, Any]
_copy_hamster = copier_for(Hamster)  # hamsters change on most moves


# ----------------------------------------------------------------------------- set-up
def setup(rules: str, players: tuple[str, ...], options: Args, draws: Draws) -> Belt:
    """Seven chips each; the HAT decides the order in which hamsters are placed."""
    colours = options.get("colours") or COLOURS[: len(players)]
    if len(colours) != len(players) or len(set(colours)) != len(colours):
        raise IllegalMoveError("Give every hamster its own colour, one colour per player.")
    # Until allocation, all seven chips wait in the hamster's hand: count them as Scamper.
    hamsters = tuple(
        Hamster(name=name, colour=str(colour), traits=(CHIPS, 0, 0))
        for name, colour in zip(players, colours, strict=True)
    )
    roll_for_us = options.get("roll_for_us", False)
    if not isinstance(roll_for_us, bool):
        raise IllegalMoveError("'roll_for_us' is true (the companion rolls) or false.")
    order = draws.shuffle(list(range(len(players))), "placement order (one chip each in the HAT)")
    return Belt(rules=rules, hamsters=hamsters, placement=tuple(order), roll_for_us=roll_for_us)


def place(game: Belt, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Belt:
    row, lane = square_of(args.get("to"))
    hamster = game.hamsters[seat]
    if row not in START_ROWS or not on_board(row, lane):
        raise IllegalMoveError(
            f"{hamster.name} must start on rows 1 to 5 (no farther than the asterisk strip)."
        )
    if game.occupant(row, lane) is not None:
        raise IllegalMoveError(f"Row {row}, lane {lane} is taken; pick an empty square.")
    return game.with_hamster(seat, _copy_hamster(hamster, row=row, lane=lane, start_row=row))


def placement_first(game: Belt, ctx: Ctx) -> int | None:
    return next((s for s in game.placement if game.hamsters[s].row == NOT_PLACED), None)


def placement_blocker(game: Belt, ctx: Ctx) -> str | None:
    waiting = [game.hamsters[s].name for s in game.placement if game.hamsters[s].row == NOT_PLACED]
    return f"Still to place: {', '.join(waiting)}." if waiting else None


# ----------------------------------------------------------------------------- allocate
def begin_allocation(game: Belt, ctx: Ctx, draws: Draws) -> Belt:
    """New round: face-down chips turn back up and a passed-out hamster has nothing to allocate."""
    hamsters = tuple(
        replace(
            h,
            down=(0, 0, 0),
            declared="",
            did="",
            allocation=(0, 0, 0) if h.pluck == 0 and not h.eaten else None,
        )
        for h in game.hamsters
    )
    return replace(game, hamsters=hamsters, resolution=None, initiative=(), notes=())


def allocate(game: Belt, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Belt:
    """Secretly split the Pluck in hand between the traits (may be redone until the reveal)."""
    hamster = game.hamsters[seat]
    if hamster.eaten:
        raise IllegalMoveError(f"{hamster.name} has been eaten and is out of the game.")
    # Whole numbers only: int() would quietly make 2.5 into 2 (or true into 1) while the
    # event kept for ever says 2.5, and a replay or a reader of the log would be misled.
    whole: list[int] = []
    wrong: list[str] = []
    for trait in TRAITS:
        value = args.get(trait)
        if isinstance(value, int) and not isinstance(value, bool):
            whole.append(value)
        else:
            wrong.append(f"{trait} was missing" if value is None else f"{trait} was {value!r}")
    if wrong:
        raise IllegalMoveError(
            "Pluck chips are allocated whole: give scamper, mettle and friskiness as whole "
            f"numbers, such as 3, 2 and 2 ({'; '.join(wrong)})."
        )
    split = (whole[0], whole[1], whole[2])
    if min(split) < 0 or sum(split) != hamster.pluck:
        raise IllegalMoveError(
            f"{hamster.name} has {hamster.pluck} Pluck to allocate (7 minus {hamster.fatigue} "
            f"in Fatigue), not {sum(split)}."
        )
    order = args.get("loss_order")
    loss_order = hamster.loss_order
    if order is not None:
        if not isinstance(order, list):
            raise IllegalMoveError("'loss_order' lists the three traits, first to lose first.")
        indices = tuple(trait_index(item) for item in order)
        if sorted(indices) != [0, 1, 2]:
            raise IllegalMoveError("'loss_order' must name each trait once.")
        loss_order = (indices[0], indices[1], indices[2])
    # v2.1: which trait the hamster tests against the alligators, if it ends in the Pit (the
    # player's choice; "largest" or none leaves the largest trait, as most players want).
    against = args.get("against_alligators", "largest")
    chomp = None if against in (None, "largest") else trait_index(against, "trait to test")
    return game.with_hamster(
        seat, _copy_hamster(hamster, allocation=split, loss_order=loss_order, chomp_trait=chomp)
    )


def allocation_blocker(game: Belt, ctx: Ctx) -> str | None:
    waiting = [h.name for h in game.hamsters if not h.eaten and h.allocation is None]
    return f"Waiting for {', '.join(waiting)} to allocate Pluck." if waiting else None


def reveal(game: Belt, ctx: Ctx, draws: Draws) -> Belt:
    hamsters = tuple(
        h
        if h.eaten or h.allocation is None
        else _copy_hamster(h, traits=h.allocation, allocation=None)
        for h in game.hamsters
    )
    return replace(game, hamsters=hamsters)


# ----------------------------------------------------------------------------- initiative
HUNGRY = "Nobody is in the Pit: the alligators go hungry."
NOBODY_TIRES = "Nobody tires this round."


def nothing_to_move(game: Belt, ctx: Ctx) -> bool:
    """Alligators or Fatigue changed nothing on the table (ruling: phases 5-8 wait for NEXT
    while the players have chips, hamsters or alligators to move; with nothing to move, the
    step is only an outcome to read and passes on its own)."""
    return all(note in (HUNGRY, NOBODY_TIRES) for note in game.notes)


def draw_initiative(game: Belt, ctx: Ctx, draws: Draws) -> Belt:
    """Draw Friskiness chips one at a time; hamsters without any go last in random order."""
    bag = {s: h.traits[FRISK] for s, h in enumerate(game.hamsters) if h.in_play and h.traits[FRISK]}
    order: list[int] = []
    while bag:
        seat = draws.hat(bag, "initiative")
        order.append(seat)
        del bag[seat]
    chipless = [s for s, h in enumerate(game.hamsters) if h.in_play and s not in order]
    if len(chipless) > 1:
        chipless = draws.shuffle(chipless, "initiative among hamsters with no Friskiness")
    order.extend(chipless)
    game = replace(game, initiative=tuple(order), notes=())
    names = ", ".join(game.hamsters[s].name for s in order)
    game = game.note(f"Initiative, highest first: {names}.")
    if game.rules != CLASSIC and not any(h.traits[FRISK] for h in game.hamsters if h.in_play):
        game = replace(game, speed=game.speed + 1).note(
            f"Nobody put Friskiness in the HAT: add a speed chip (speed {game.speed + 1})."
        )
    return game


def end_declarations(game: Belt, ctx: Ctx, draws: Draws) -> Belt:
    """v2.1: if every hamster declared Rest the belt speeds up."""
    game = replace(game, notes=())
    if game.rules != CLASSIC and all(h.declared == REST for h in game.hamsters if h.in_play):
        game = replace(game, speed=game.speed + 1).note(
            f"Everyone declared Rest: add a speed chip (speed {game.speed + 1})."
        )
    return game


def begin_declarations(game: Belt, ctx: Ctx, draws: Draws) -> Belt:
    """All chips are turned face-up when actions are declared (v2.1; harmless in classic)."""
    hamsters = tuple(_copy_hamster(h, down=(0, 0, 0)) if any(h.down) else h for h in game.hamsters)
    return replace(game, hamsters=hamsters, notes=())


# ----------------------------------------------------------------------------- phase 5
def move_belt(game: Belt, ctx: Ctx, draws: Draws) -> Belt:
    """Once per speed chip (counted now): the strip by the Pit goes to the far end."""
    game = replace(game, notes=())
    moves = game.speed
    for turn in range(1, moves + 1):
        strip = game.strips[0]
        falling = [s for s, h in enumerate(game.hamsters) if h.row == 1 and not h.eaten]
        hamsters = tuple(
            h if h.row < 1 or h.eaten else _copy_hamster(h, row=h.row - 1 if h.row > 1 else PIT)
            for h in game.hamsters
        )
        game = replace(game, hamsters=hamsters, strips=(*game.strips[1:], strip))
        who = ", ".join(game.hamsters[s].name for s in falling)
        starred = " (the asterisk strip)" if strip == ASTERISK_STRIP else ""
        fall = f": {who} {'falls' if len(falling) == 1 else 'fall'} into the Pit" if falling else ""
        game = game.note(
            f"Move {turn} of {moves}: put the strip nearest the Pit{starred} at the far end{fall}."
        )
        if strip == ASTERISK_STRIP:
            game = _asterisk_speed(game)
    return game


def _asterisk_speed(game: Belt) -> Belt:
    if game.rules == CLASSIC:
        speed = game.speed + 1
    elif game.speed > 4:
        speed = game.speed - 1
    elif game.speed < 4:
        speed = game.speed + 1
    else:
        return game.note("The asterisks came round with speed at 4: it stays 4.")
    return replace(game, speed=speed).note(f"The asterisks came round: speed is now {speed}.")


# ----------------------------------------------------------------------------- phase 6
def alligators(game: Belt, ctx: Ctx, draws: Draws) -> Belt:
    game = replace(game, notes=())
    if game.rules == CLASSIC:
        return _alligators_classic(game, ctx, draws)
    return _alligators_v21(game, ctx, draws)


def _alligators_classic(game: Belt, ctx: Ctx, draws: Draws) -> Belt:
    """Classic phase 6. Every die the alligators roll is named with its value in the
    notes, so the table sees the roll behind each Chomp!, not only its result."""
    pit = game.in_pit()
    if not pit:
        return game.note(HUNGRY)
    arrival = draws.die("does another alligator arrive?")
    if arrival <= len(pit):
        game = replace(game, alligators=game.alligators + 1).note(
            f"Alligator die {arrival} (at most {len(pit)} in the Pit): another alligator "
            f"slides into the Pit ({game.alligators + 1})."
        )
    else:
        game = game.note(
            f"Alligator die {arrival} (more than {len(pit)} in the Pit): no new alligator."
        )
    for number in range(1, game.alligators + 1):
        pit = game.in_pit()
        if not pit:
            break
        roll = draws.die("does this alligator Chomp!?")
        if roll > len(pit):
            game = game.note(f"Alligator {number} rolls {roll}: no Chomp!.")
            continue
        seat = draws.pick(pit, "who gets Chomp!-ed")
        game = game.note(f"Alligator {number} rolls {roll}: Chomp! on {game.hamsters[seat].name}.")
        game = _chomp_classic(game, ctx, seat, draws)
    return game


def _chomp_classic(game: Belt, ctx: Ctx, seat: int, draws: Draws) -> Belt:
    hamster = game.hamsters[seat]
    mettle_die = draws.die("the alligator's Mettle (d6 + 3)")
    gator = mettle_die + 3
    game = game.note(f"The alligator's Mettle: die {mettle_die} + 3 = {gator}.")
    mettle = hamster.traits[METTLE]
    won = mettle > 0 and draws.hat({seat: mettle, "alligator": gator}, "Chomp!") == seat
    game = chips.record_test(
        game,
        TestRecord(
            ctx.round,
            "mettle",
            "Alligator",
            hamster.name,
            gator,
            mettle,
            hamster.name if won else "Alligator",
            f"Chomp! on {hamster.name}",
        ),
    )
    if won:
        return game.with_hamster(seat, chips.lose_from(hamster, METTLE)).note(
            f"Chomp! {hamster.name} fights the alligator off and loses a Mettle chip."
        )
    bite = draws.die("Pluck lost to the Chomp!")
    game = game.note(f"The alligator wins; bite die {bite}.")
    if hamster.pluck <= bite:
        return _eaten(game, seat, f"Chomp! {hamster.name} loses {bite} Pluck and is eaten.")
    return game.with_hamster(seat, chips.lose(hamster, bite)).note(
        f"Chomp! {hamster.name} loses {bite} Pluck chip(s) to Fatigue."
    )


def _alligators_v21(game: Belt, ctx: Ctx, draws: Draws) -> Belt:
    pit = game.in_pit()
    if pit:
        game = replace(game, alligators=game.alligators + 1).note(
            f"A hamster is in the Pit: add an alligator ({game.alligators + 1})."
        )
    elif game.alligators > 1:
        game = replace(game, alligators=game.alligators - 1).note(
            f"The Pit is empty: take an alligator out ({game.alligators - 1})."
        )
    for seat in pit_queue(game, pit):
        hamster = game.hamsters[seat]
        if hamster.pluck == 0:
            game = _eaten(game, seat, f"{hamster.name} has no Pluck left to resist and is eaten.")
            continue
        trait = chomp_trait(hamster)
        mine = hamster.traits[trait]
        won = draws.hat({seat: mine, "alligator": game.alligators}, "Chomp!") == seat
        game = chips.record_test(
            game,
            TestRecord(
                ctx.round,
                TRAIT_TITLES[trait].lower(),
                hamster.name,
                "Alligators",
                mine,
                game.alligators,
                hamster.name if won else "Alligators",
                f"{hamster.name} against the alligators",
            ),
        )
        if won:
            game = game.note(f"{hamster.name} dodges the alligators ({TRAIT_TITLES[trait]}).")
            continue
        loss = ceil(game.alligators / 2)
        if hamster.pluck <= loss:
            game = _eaten(game, seat, f"Chomp! {hamster.name} loses {loss} Pluck and is eaten.")
        else:
            game = game.with_hamster(seat, chips.lose(hamster, loss)).note(
                f"Chomp! {hamster.name} loses {loss} Pluck chip(s) to Fatigue."
            )
        if game.alligators > 1:
            game = replace(game, alligators=game.alligators - 1).note(
                f"One alligator leaves the Pit, full ({game.alligators - 1} left)."
            )
    return game


def pit_queue(game: Belt, pit: list[int]) -> list[int]:
    """v2.1: the order Pit hamsters face the alligators: lowest Mettle first, ties to the
    lower initiative (ruling)."""
    rank = {seat: i for i, seat in enumerate(game.initiative)}
    return sorted(pit, key=lambda s: (game.hamsters[s].traits[METTLE], -rank.get(s, 99)))


def chomp_trait(hamster: Hamster) -> int:
    """v2.1: the trait a hamster tests against the alligators: the one its player chose at
    allocation while it has chips, else its largest (Mettle, then Scamper, on a tie)."""
    if hamster.chomp_trait is not None and hamster.traits[hamster.chomp_trait] > 0:
        return hamster.chomp_trait
    return max(range(3), key=lambda t: (hamster.traits[t], t == METTLE, t == 0))


def _eaten(game: Belt, seat: int, sentence: str) -> Belt:
    hamster = game.hamsters[seat]
    gone = _copy_hamster(hamster, eaten=True, traits=(0, 0, 0), down=(0, 0, 0), fatigue=CHIPS)
    return game.with_hamster(seat, gone).note(sentence, f"Take {hamster.name} off the table.")


# ----------------------------------------------------------------------------- phases 7-9
def fatigue(game: Belt, ctx: Ctx, draws: Draws) -> Belt:
    """Every hamster that did anything but Rest tires (classic: on an even die)."""
    game = replace(game, notes=())
    for seat, hamster in enumerate(game.hamsters):
        if hamster.eaten or hamster.did == REST or hamster.pluck == 0:
            continue
        rolled = ""
        if game.rules == CLASSIC:
            die = draws.hand_die(f"{hamster.name}'s fatigue die", companion_rolls=game.roll_for_us)
            if die % 2:
                game = game.note(f"{hamster.name} rolls {die}: no Fatigue.")
                continue
            rolled = f" (rolls {die})"
        game = game.with_hamster(seat, chips.lose(hamster, 1)).note(
            f"{hamster.name} tires{rolled}: one Pluck chip to Fatigue."
        )
    if not game.notes:
        game = game.note(NOBODY_TIRES)
    return game


def fatigue_dice(game: Belt) -> list[str]:
    """Classic: the dice the players roll as the round enters Fatigue, one per hamster
    that did anything but Rest (an even die costs a chip)."""
    if game.rules != CLASSIC:
        return []
    return [
        f"{h.name}'s fatigue die"
        for h in game.hamsters
        if not (h.eaten or h.did == REST or h.pluck == 0)
    ]


def tally(game: Belt, ctx: Ctx, draws: Draws) -> Belt:
    living = game.living()
    names = ", ".join(game.hamsters[s].name for s in living)
    return replace(game, notes=(f"{len(living)} hamster(s) in play: {names or 'none'}.",))


def new_round(game: Belt, ctx: Ctx, draws: Draws) -> Belt:
    game = replace(game, notes=())
    for hamster in game.hamsters:
        if hamster.passed_out:
            game = game.note(f"{hamster.name} has passed out: Rest only until Pluck returns.")
    return game if game.notes else game.note("Press NEXT to start the next round.")
