"""Everyone rolls everything: dice entry, Hate re-rolls and the spending window.

Shared by tunnel challenges and Rat vs Rat scraps. The players roll their own dice, so
faces arrive as the move's *given* outcomes (typed on a phone or the tablet, or read by
the camera); only a table that chose "roll for us" gets dice from the companion, logged
and shown. A roll may come in parts (the d6s from the camera, the rest typed): each part
fills that rat's next unrolled dice of the sizes named.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.rng import Draws
from companion.games.rats.dice import SIZES
from companion.games.rats.model import REROLL_COST, Contest, Rats, Roll


def open_contest(game: Rats, seats: Sequence[int]) -> Contest:
    """Each seat named rolls its whole pool as it stands now."""
    rolls: list[Roll | None] = [None] * len(game.rats)
    for seat in seats:
        pool = game.rats[seat].pool
        rolls[seat] = Roll(sizes=pool, faces=(None,) * len(pool))
    return Contest(tuple(rolls))


def _sizes(args: Mapping[str, Any], roll: Roll) -> list[int]:
    """The dice this entry is for: ``sizes`` named, or every die not rolled yet."""
    named = args.get("sizes")
    if named is None:
        return [size for size, face in zip(roll.sizes, roll.faces, strict=True) if face is None]
    if not isinstance(named, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) and s in SIZES for s in named
    ):
        raise IllegalMoveError("'sizes' lists dice sizes: 4, 6, 8 or 10, such as [6, 6].")
    return list(named)


def enter_roll(
    game: Rats,
    contest: Contest,
    seat: int,
    args: Mapping[str, Any],
    draws: Draws,
) -> Contest:
    """Fill ``seat``'s unrolled dice of the sizes named with the faces given."""
    roll = contest.rolls[seat] if 0 <= seat < len(contest.rolls) else None
    title = game.title(seat)
    if roll is None:
        raise IllegalMoveError(f"{title} does not roll now.")
    if roll.complete:
        raise IllegalMoveError(f"{title}'s dice are all in; a die can change only by a re-roll.")
    faces = list(roll.faces)
    sizes = _sizes(args, roll)
    if not sizes:
        raise IllegalMoveError(f"Say which of {title}'s dice were rolled.")
    for size in sizes:
        slot = next(
            (
                i
                for i, (s, f) in enumerate(zip(roll.sizes, faces, strict=True))
                if s == size and f is None
            ),
            None,
        )
        if slot is None:
            raise IllegalMoveError(f"{title} has no unrolled d{size} left.")
        faces[slot] = draws.hand_die(f"{title}'s d{size}", size, companion_rolls=game.roll_for_us)
    return contest.with_roll(seat, replace(roll, faces=tuple(faces)))


def roll_missing(game: Rats, contest: Contest, draws: Draws) -> Contest:
    """ "Roll for us": the companion rolls every die still missing (only where chosen)."""
    for seat in contest.rollers:
        if not contest.roll(seat).complete:
            contest = enter_roll(game, contest, seat, {}, draws)
    return contest


def waiting_for(game: Rats, contest: Contest) -> list[str]:
    """ "Ann (2 of 6 dice in)": the rats whose dice are not all in yet."""
    found = []
    for seat in contest.rollers:
        roll = contest.roll(seat)
        if not roll.complete:
            done = len(roll.sizes) - roll.missing
            found.append(f"{game.title(seat)} ({done} of {len(roll.sizes)} dice in)")
    return found


def reroll(
    game: Rats, contest: Contest, payer: int, args: Mapping[str, Any], draws: Draws
) -> tuple[Rats, Contest]:
    """2 Hate re-rolls one die that does not show 1; each die once per paying rat."""
    if not contest.all_in:
        raise IllegalMoveError("Hate buys re-rolls once every rat's dice are in.")
    if payer in contest.done_spending:
        raise IllegalMoveError(f"{game.title(payer)} has already passed on spending Hate.")
    owner, index = args.get("owner"), args.get("die")
    if not isinstance(owner, int) or isinstance(owner, bool) or not 0 <= owner < len(game.rats):
        raise IllegalMoveError(
            f"'owner' is the seat number of the rat whose die is re-rolled: {game.seats_named()}."
        )
    roll = contest.rolls[owner]
    if roll is None:
        raise IllegalMoveError(f"{game.title(owner)} has no dice in this roll.")
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(roll.sizes):
        raise IllegalMoveError(
            f"'die' is the number of {game.title(owner)}'s die, 0 to {len(roll.sizes) - 1}."
        )
    rat = game.rats[payer]
    if rat.hate < REROLL_COST:
        raise IllegalMoveError(f"{rat.title} needs {REROLL_COST} Hate to re-roll a die.")
    if roll.faces[index] == 1:
        raise IllegalMoveError("A die showing 1 cannot be re-rolled.")
    if (payer, index) in roll.rerolled:
        raise IllegalMoveError(f"{rat.title} has already paid to re-roll that die.")
    size = roll.sizes[index]
    face = draws.hand_die(
        f"re-roll of {game.title(owner)}'s d{size}", size, companion_rolls=game.roll_for_us
    )
    faces = list(roll.faces)
    faces[index] = face
    roll = replace(roll, faces=tuple(faces), rerolled=roll.rerolled | {(payer, index)})
    game = game.with_rat(payer, replace(rat, hate=rat.hate - REROLL_COST))
    game = replace(game, hate_spent=game.hate_spent + REROLL_COST)
    return game, contest.with_roll(owner, roll)


def pass_spending(game: Rats, contest: Contest, seat: int) -> Contest:
    if not contest.all_in:
        raise IllegalMoveError("Wait until every rat's dice are in.")
    if seat in contest.done_spending:
        raise IllegalMoveError(f"{game.title(seat)} has already passed.")
    return replace(contest, done_spending=contest.done_spending | {seat})


def window_closed(game: Rats, contest: Contest) -> bool:
    """Every rat (not only those rolling: anyone may pay for a re-roll) has passed."""
    return contest.all_in and len(contest.done_spending) == len(game.rats)


def everyone_passes(game: Rats, contest: Contest) -> Contest:
    return replace(contest, done_spending=frozenset(range(len(game.rats))))
