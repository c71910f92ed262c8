"""Pluck chip bookkeeping: flipping, spending, losing and regaining chips, and HAT tests.

Chips are never created or destroyed: every loss moves chips from a trait to the Fatigue
pile and every gain moves one back, so ``traits + fatigue == 7`` holds by construction.
"""

from __future__ import annotations

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import copier_for
from companion.engine.evolve import evolve as replace
from companion.engine.rng import Draws
from companion.games.run_hamster_run.model import (
    CLASSIC,
    METTLE,
    SCAMPER,
    TRAIT_TITLES,
    Belt,
    Hamster,
    TestRecord,
)

ALLIGATOR = "alligator"
_copy_hamster = copier_for(Hamster)  # chips change on almost every move
RECENT_TESTS = 12


def _set(values: tuple[int, int, int], index: int, value: int) -> tuple[int, int, int]:
    items = list(values)
    items[index] = value
    return (items[0], items[1], items[2])


def flip(hamster: Hamster, trait: int, count: int = 1) -> Hamster:
    """Turn face-up chips face-down (used this round, still in the trait)."""
    if hamster.up(trait) < count:
        raise IllegalMoveError(
            f"{hamster.name} has {hamster.up(trait)} face-up {TRAIT_TITLES[trait]} chip(s), "
            f"not the {count} this needs."
        )
    return _copy_hamster(hamster, down=_set(hamster.down, trait, hamster.down[trait] + count))


def spend(hamster: Hamster, trait: int, count: int = 1) -> Hamster:
    """Move face-up chips of a trait to the Fatigue pile."""
    if hamster.up(trait) < count:
        raise IllegalMoveError(
            f"{hamster.name} has {hamster.up(trait)} face-up {TRAIT_TITLES[trait]} chip(s) "
            f"to spend, not {count}."
        )
    return _copy_hamster(
        hamster,
        traits=_set(hamster.traits, trait, hamster.traits[trait] - count),
        fatigue=hamster.fatigue + count,
    )


def lose_from(hamster: Hamster, trait: int, *, face_up_first: bool = False) -> Hamster:
    """Lose one chip of a named trait to Fatigue (a used, face-down one unless told otherwise)."""
    if hamster.traits[trait] == 0:
        raise IllegalMoveError(f"{hamster.name} has no {TRAIT_TITLES[trait]} chip to lose.")
    down = hamster.down[trait]
    if down > 0 and not (face_up_first and hamster.up(trait) > 0):
        down -= 1
    return _copy_hamster(
        hamster,
        traits=_set(hamster.traits, trait, hamster.traits[trait] - 1),
        down=_set(hamster.down, trait, down),
        fatigue=hamster.fatigue + 1,
    )


def lose(hamster: Hamster, count: int, first: int | None = None) -> Hamster:
    """Lose ``count`` chips of the owner's choice: ``first`` if named, then the loss order.

    The owner's choice comes from the loss order each hamster sets when allocating, so the
    table never stalls waiting for a choice during bookkeeping phases.
    """
    order = hamster.loss_order if first is None else (first, *hamster.loss_order)
    for _ in range(count):
        trait = next((t for t in order if hamster.traits[t] > 0), None)
        if trait is None:
            break
        hamster = lose_from(hamster, trait)
    return hamster


def regain(hamster: Hamster, trait: int) -> Hamster:
    """Take one chip back from the Fatigue pile into a trait."""
    if hamster.fatigue == 0:
        raise IllegalMoveError(f"{hamster.name} has no chip in the Fatigue pile to take back.")
    return _copy_hamster(
        hamster,
        traits=_set(hamster.traits, trait, hamster.traits[trait] + 1),
        fatigue=hamster.fatigue - 1,
    )


def flip_scamper_or_mettle(hamster: Hamster, count: int) -> Hamster:
    """Classic: flip Scamper chips; each one that cannot be flipped costs a Mettle chip."""
    for _ in range(count):
        if hamster.up(SCAMPER) > 0:
            hamster = flip(hamster, SCAMPER)
        elif hamster.traits[METTLE] > 0:
            hamster = lose_from(hamster, METTLE)
    return hamster


def mettle_test(
    game: Belt,
    initiator: int,
    defender: int,
    draws: Draws,
    round_: int,
    why: str,
    *,
    resist: bool = True,
) -> tuple[Belt, int]:
    """A test of Mettle between two hamsters; returns the game and the winner's seat.

    P(initiator wins) = i / (i + d), every chip counting face-up or down (ruling). A defender
    with no Mettle, or who chooses not to resist, loses without a draw. In the classic rules
    the winner then moves one Mettle chip to Fatigue.
    """
    attacker, target = game.hamsters[initiator], game.hamsters[defender]
    i_chips, d_chips = attacker.traits[METTLE], target.traits[METTLE]
    if i_chips == 0:
        raise IllegalMoveError(f"{attacker.name} has no Mettle, so cannot start a test of Mettle.")
    if not resist:
        d_chips = 0
    winner = (
        initiator
        if d_chips == 0
        else draws.hat({initiator: i_chips, defender: d_chips}, why, trait="mettle")
    )
    record = TestRecord(
        round_,
        "mettle",
        attacker.name,
        target.name,
        i_chips,
        d_chips,
        game.hamsters[winner].name,
        why,
    )
    game = replace(game, tests=(*game.tests[-RECENT_TESTS + 1 :], record))
    if game.rules == CLASSIC:
        game = game.with_hamster(winner, lose_from(game.hamsters[winner], METTLE))
    return game, winner


def record_test(game: Belt, record: TestRecord) -> Belt:
    return replace(game, tests=(*game.tests[-RECENT_TESTS + 1 :], record))
