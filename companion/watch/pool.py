"""A Rats pool read by the camera for the dice watcher: each die's kind and face.

The dice watcher reads six-sided dice with the d6 reader; when the game in play waits for
dice of other sizes (a pool of d4, d6, d8 and d10, as Rats rolls), it reads them here instead
(companion/vision/poly_dice.py): each die as the watcher's ``Die`` (face, centre, size,
confidence) plus its kind, so the steady-roll check and the page's outline work unchanged.
A die the pool reader does not accept gets confidence 0, so the roll is proposed, never
applied unasked; a reading that cannot be the pool due is proposed with every die at 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine.camera import dice_wanted
from companion.table import Table
from companion.vision.dice import Die
from companion.vision.poly_dice import ACCEPT, Image, PolyDie, read_dice_pool
from companion.vision.teach_pools import pool_model

POOL_ACCEPT = ACCEPT


def wanted(table: Table) -> tuple[int, ...]:
    """The sides of the dice the game in play waits for now (empty: none due)."""
    snap = table.snapshot
    return dice_wanted(snap.spec, snap.state)


def is_pool(sides: Sequence[int]) -> bool:
    """Whether the dice due need the pool reader (any die that is not a d6)."""
    return any(side != 6 for side in sides)


def read_pool_dice(
    frame: Image, pool: Sequence[int]
) -> tuple[list[Die], tuple[int, ...], tuple[PolyDie, ...]]:
    """The dice in ``frame`` read as ``pool``'s kinds: the watcher's dice, their sizes and
    the pool reader's own reading of each (with the table's taught model when there is one)."""
    reading = read_dice_pool(frame, pool, pool_model())
    dice = [
        Die(
            value=die.face,
            centre=die.centre,
            size=2 * die.radius,
            confidence=die.confidence if die.accepted and reading.problem is None else 0.0,
        )
        for die in reading.dice
    ]
    return dice, tuple(die.kind for die in reading.dice), reading.dice
