"""Below the shipped threshold (a table's taught finder) an unfamiliar die can light up on
several of its pips: it is still one die, and dice side by side are still two."""

from __future__ import annotations

import math

import numpy as np

from companion.vision.dice import DETECT, FOLD_GAP, Candidate, DiceReader, folded
from tests.vision.odd_dice import odd_roll

FACES = np.full(6, 1 / 6)


def test_a_die_lit_on_two_pips_is_read_as_one_die_at_a_taught_threshold() -> None:
    """Roll 17 of seed 7 of the odd set holds a six whose first look, below the shipped
    threshold, peaks on two rows of pips; kept apart they were two unreadable dice."""
    rng = np.random.default_rng(7)
    for _ in range(17):
        frame, spots, _ = odd_roll(rng)
    reader = DiceReader()
    reader.detect = 0.25  # what the finder learns from the odd set's fixed pictures

    seen = reader.read(frame)

    for spot in spots:
        assert sum(math.dist(die.centre, spot) < 40 for die in seen) == 1
    assert len(seen) == len(spots)


def test_weak_peaks_on_one_die_fold_into_a_find_covering_the_die() -> None:
    pips = [
        Candidate(436.0, 170.0, 31.0, 0.49, FACES),
        Candidate(397.0, 171.0, 45.0, 0.41, FACES),
        Candidate(425.0, 141.0, 29.0, 0.35, FACES),
    ]
    (die,) = folded(pips)
    assert die.here == 0.49
    assert math.dist((die.x, die.y), (411.0, 159.0)) < 10  # the die's centre
    assert 50 <= die.size <= 80  # a 60 px die, not a pip


def test_weak_dice_side_by_side_stay_two_dice() -> None:
    """Touching dice are at least ~1.3 estimated sizes apart."""
    size = 40.0
    finds = [
        Candidate(100.0, 100.0, size, 0.45, FACES),
        Candidate(100.0 + 1.3 * size, 100.0, size, 0.4, FACES),
    ]
    assert FOLD_GAP < 1.3
    assert folded(finds) == finds


def test_finds_the_shipped_look_makes_are_never_moved_or_merged() -> None:
    strong = [
        Candidate(100.0, 100.0, 40.0, 0.9, FACES),
        Candidate(130.0, 100.0, 40.0, DETECT, FACES),
    ]
    assert folded(strong) == strong
    weak_edge = Candidate(100.0, 130.0, 30.0, 0.3, FACES)
    assert folded([*strong, weak_edge]) == strong
