"""Rolls fixed on the picture teach the reader that this table's dice are dice: close-ups
the shipped classifier vetoes as "not a die" (a die cut off centre or too small, as the
first look cuts some of them) are kept after teaching, and what is not a die still is not."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.vision.dice import NOT_A_DIE, TAUGHT_VIEWS, DiceReader, face_crop, views
from companion.vision.teach import HEAD_FILE, load_head
from companion.vision.teach_not_dice import away_from_dice
from companion.vision.teaching import teach
from tests.vision.odd_dice import confirm_rolls, odd_roll
from tests.vision.test_teach_finder import SIDE, keep_fixed_rolls


def dropped(reader: DiceReader, crops: list[np.ndarray]) -> int:
    """How many of ``crops`` the reader (with its taught head, if any) drops as not a die."""
    turned = [view for crop in crops for view in views(crop, TAUGHT_VIEWS)]
    every, features = reader.face_readings(turned)
    return int(np.sum(reader.with_head(every, features, TAUGHT_VIEWS)[:, 0] > NOT_A_DIE))


def cut_as_the_finder_may(seed: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """New rolls' dice cut off centre and too small, and close-ups away from every die."""
    rng = np.random.default_rng(seed)
    dice, others = [], []
    for _ in range(20):
        frame, spots, _ = odd_roll(rng)
        for x, y in spots:
            shift = rng.uniform(-0.2, 0.2, 2) * SIDE
            dice.append(face_crop(frame, (x + shift[0], y + shift[1]), 0.65 * SIDE))
        others += away_from_dice(frame, [(x, y, SIDE) for x, y in spots], rng)
    return dice, others


def test_fixed_pictures_teach_that_this_tables_dice_are_dice(tmp_path: Path) -> None:
    keep_fixed_rolls(tmp_path, rolls=10, seed=1)
    reader = DiceReader()
    dice, others = cut_as_the_finder_may(seed=5)
    shipped = dropped(reader, dice)
    assert shipped >= 5  # the shipped close-up vetoes this set's dice cut so

    report = teach(reader, tmp_path)

    assert report.kept and "Not a die" in report.not_dice
    saved = load_head(tmp_path / HEAD_FILE)
    assert saved is not None and saved.not_die is not None  # kept with the head
    assert dropped(reader, dice) <= shipped // 3
    assert dropped(reader, others) == len(others)  # nothing else let in


def test_typed_rolls_keep_no_picture_so_the_veto_stays_the_shipped_one(tmp_path: Path) -> None:
    reader = DiceReader()
    confirm_rolls(reader, tmp_path, rolls=10, seed=1)
    report = teach(reader, tmp_path)
    assert report.kept and not report.not_dice
    assert reader.head is not None and reader.head.not_die is None
