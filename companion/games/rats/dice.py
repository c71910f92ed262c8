"""What a rolled die counts for, and the exact chance of passing a challenge.

Faces 2-4 are Fight successes, 5-7 Sneak, 8-10 Think, and a 1 is a point of Hate; so a d4
can only ever Fight and a d6 never Thinks. The chance to pass is computed exactly (a
Poisson-binomial distribution over the rat's dice, as fractions), never simulated, so the
tablet's odds are the true odds of the dice in the pool.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TypeGuard

from companion.games.rats.cards import FIGHT, SNEAK, THINK, TYPES

SIZES = (4, 6, 8, 10)
FREE_DICE = (4, 6, 8, 10)
BONUS_DICE = 2
FACES_OF = {FIGHT: range(2, 5), SNEAK: range(5, 8), THINK: range(8, 11)}


def is_size(value: object) -> TypeGuard[int]:
    """Whether a move's detail names a die size: 4, 6, 8 or 10 as a whole number.

    ``6.0 in pool`` is true (6.0 == 6), so a size typed as ``6.0`` used to pass the
    membership checks and then crash the move, or put a "d6.0" into a pool for ever.
    """
    return isinstance(value, int) and not isinstance(value, bool) and value in SIZES


def listed(sizes: Iterable[int], sep: str = ", ") -> str:
    """Dice as a player names them: "d6, d8, d10" ("" for none)."""
    return sep.join(f"d{size}" for size in sizes)


def kind_of(face: int) -> str | None:
    """The success a face counts for (``None`` for a 1)."""
    for kind, faces in FACES_OF.items():
        if face in faces:
            return kind
    return None


def successes(faces: Iterable[int]) -> dict[str, int]:
    """Successes of each type among ``faces``."""
    counts = dict.fromkeys(TYPES, 0)
    for face in faces:
        kind = kind_of(face)
        if kind is not None:
            counts[kind] += 1
    return counts


def ones(faces: Iterable[int]) -> int:
    return sum(1 for face in faces if face == 1)


def chance_of(kind: str, size: int) -> Fraction:
    """The chance one die of ``size`` sides shows a ``kind`` success."""
    hits = sum(1 for face in FACES_OF[kind] if face <= size)
    return Fraction(hits, size)


def pass_chance(pool: Sequence[int], kind: str, need: int) -> Fraction:
    """The exact chance that ``pool`` rolls at least ``need`` successes of ``kind``."""
    if need <= 0:
        return Fraction(1)
    # distribution[k] = chance of exactly k successes so far
    distribution = [Fraction(1)]
    for size in pool:
        p = chance_of(kind, size)
        grown = [Fraction(0)] * (len(distribution) + 1)
        for k, chance in enumerate(distribution):
            grown[k] += chance * (1 - p)
            grown[k + 1] += chance * p
        distribution = grown
    return sum(distribution[need:], Fraction(0))
