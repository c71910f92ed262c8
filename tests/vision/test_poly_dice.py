"""The camera reads a Rats pool (d4, d6, d8, d10) from overhead, on renders.

Renders only: what a player would notice is the kind and face read, and a pool that cannot
be the rat's refused in one sentence.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from companion.vision.poly_dice import read_dice_pool, read_pool
from hardware.simulator import poly_dice as sim
from hardware.simulator.common import Image

WHITE = sim.BODIES[0]
RED = sim.BODIES[2]


def _frame(dice: list[tuple[int, int, tuple[float, float], float]], seed: int = 3) -> Image:
    """Dice (kind, face, centre, angle) in a trained style on a grey table, with camera noise."""
    rng = np.random.default_rng(seed)
    frame = np.full((360, 480, 3), sim.TABLES[2], np.uint8)
    for index, (kind, face, centre, angle) in enumerate(dice):
        body, ink = (WHITE, RED)[index % 2]
        style = sim.STYLE_OF["duplex"]
        sim.draw_die(frame, sim.PolyDie(kind, face, centre, 28.0, angle, body, ink, style))
    return sim.finish(frame, rng, blur=0.5, noise=2.0)


def test_a_d8_showing_seven_reads_as_a_d8_showing_seven() -> None:
    frame = _frame([(8, 7, (240.0, 180.0), 37.0)])

    (die,) = read_pool(frame, pool=(4, 6, 8, 10))

    assert (die.kind, die.face) == (8, 7)


def test_a_pool_of_mixed_kinds_reads_as_the_dice_rolled() -> None:
    rolled = [
        (4, 3, (90.0, 90.0), 10.0),
        (6, 5, (240.0, 90.0), 200.0),
        (8, 2, (390.0, 90.0), 75.0),
        (10, 9, (90.0, 260.0), 300.0),
        (10, 10, (240.0, 260.0), 140.0),
        (6, 2, (390.0, 260.0), 25.0),
    ]
    pool = [kind for kind, *_ in rolled]

    reading = read_dice_pool(_frame(rolled), pool)

    assert reading.problem is None
    assert Counter((d.kind, d.face) for d in reading.dice) == Counter(
        (kind, face) for kind, face, *_ in rolled
    )


def test_a_die_of_a_kind_the_rat_does_not_have_is_refused_in_one_sentence() -> None:
    frame = _frame([(8, 4, (150.0, 180.0), 0.0), (6, 3, (330.0, 180.0), 30.0)])

    reading = read_dice_pool(frame, pool=[6, 6])

    assert not reading.sure
    assert reading.problem is not None
    assert "d8" in reading.problem
    assert reading.problem.count(". ") == 0 and reading.problem.endswith(".")


def test_a_pool_with_a_die_missing_from_view_is_not_applied() -> None:
    frame = _frame([(4, 2, (150.0, 180.0), 0.0), (10, 7, (330.0, 180.0), 60.0)])

    reading = read_dice_pool(frame, pool=[4, 10, 10])

    assert not reading.sure
    assert reading.problem is not None and "3" in reading.problem
