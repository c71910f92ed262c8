"""The finder learns this table's dice from rolls fixed on the picture: dice the shipped
first look just missed are found after teaching, and nothing else is."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from companion.vision.confidence import turned_together
from companion.vision.dice import (
    DETECT,
    DiceReader,
    face_crop,
    shared_reader,
    use_taught_head,
)
from companion.vision.teach import EXAMPLES_DIR, FINDER_FILE, ExampleStore, load_detect
from companion.vision.teach_finder import teach_finder
from tests.vision.odd_dice import odd_roll

SIDE = 60.0


def keep_fixed_rolls(folder: Path, rolls: int, seed: int) -> None:
    """Rolls of the odd set kept as the picture's fix flow keeps them: every die with its
    face, box and the frame."""
    store = ExampleStore(folder / EXAMPLES_DIR)
    rng = np.random.default_rng(seed)
    for _ in range(rolls):
        frame, spots, values = odd_roll(rng)
        crops = [face_crop(frame, spot, SIDE) for spot in spots]
        boxes = [(x - SIDE / 2, y - SIDE / 2, SIDE, SIDE) for x, y in spots]
        store.add_roll(crops, values, boxes, frame)


def found_and_false(reader: DiceReader, rolls: int, seed: int) -> tuple[int, int]:
    """Dice found, and finds on no die, over new rolls of the odd set."""
    rng = np.random.default_rng(seed)
    found = false = 0
    for _ in range(rolls):
        frame, spots, _ = odd_roll(rng)
        for die in reader.read(frame):
            if any(math.dist(die.centre, spot) < 15 for spot in spots):
                found += 1
            else:
                false += 1
    return found, false


def test_fixed_pictures_teach_the_finder_to_see_more_of_this_tables_dice(tmp_path: Path) -> None:
    keep_fixed_rolls(tmp_path, rolls=10, seed=1)
    reader = DiceReader()
    before = found_and_false(reader, rolls=20, seed=99)

    report = teach_finder(reader, tmp_path)

    assert report.detect < DETECT
    assert "found from" in report.line()
    after = found_and_false(reader, rolls=20, seed=99)
    assert after[0] > before[0]
    assert after[1] <= before[1]


def test_a_learned_finder_is_used_after_a_restart_but_not_on_other_models(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # use_taught_head sets the shared reader; both are restored after the test.
    monkeypatch.setattr(shared_reader(), "detect", DETECT)
    monkeypatch.setattr(shared_reader(), "head", None)
    keep_fixed_rolls(tmp_path, rolls=6, seed=1)
    reader = DiceReader()
    learned = teach_finder(reader, tmp_path).detect

    assert load_detect(tmp_path / FINDER_FILE, reader.fingerprint) == learned
    assert load_detect(tmp_path / FINDER_FILE, "another model") is None
    assert use_taught_head(tmp_path) is None
    assert shared_reader().detect == learned < DETECT


def test_one_fixed_picture_is_not_enough_to_lower_the_finder(tmp_path: Path) -> None:
    """One fixed roll with a die the first look missed and no stray find would take the
    threshold to its floor for every roll after: the finder waits for a few pictures."""
    keep_fixed_rolls(tmp_path, rolls=1, seed=5)  # alone, it would take the finder to 0.25
    assert teach_finder(DiceReader(), tmp_path).detect == DETECT


def test_no_fixed_pictures_keep_the_shipped_finder(tmp_path: Path) -> None:
    reader = DiceReader()
    report = teach_finder(reader, tmp_path)
    assert report.detect == DETECT
    assert "no roll was fixed on its picture" in report.line()
    assert reader.detect == DETECT


def test_a_taught_head_trusts_what_most_turns_of_a_die_agree_on() -> None:
    """One quarter turn of a die looks like a 6 to the head; the other three say 5 (rows of
    pips read across or along): the die is read as a 5."""
    five, six = [0.02, 0.02, 0.02, 0.02, 0.8, 0.12], [0.02, 0.02, 0.02, 0.02, 0.3, 0.62]
    faces = np.array([six, five, five, five, five, five, five, five])
    together = turned_together(faces, 4)
    assert together.shape == (2, 6)
    assert list(np.argmax(together, axis=1) + 1) == [5, 5]
    assert np.allclose(together.sum(axis=1), 1.0)
