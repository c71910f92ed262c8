"""Cross-validation of the dice reader: every labelled photo read by models that never saw it."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.vision import dice
from companion.vision.dice import Die
from companion.vision.dice_eval import ImageResult, LabelledDie, match
from companion.vision.dice_split import FOLDS, fold_split, folds, hold_out
from training.crossval import GRID, binomial_upper, fold_results, nested, pick_threshold

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice"
NAMES = [f"byler_{i}.jpg" for i in range(83)] + [f"matteop65_{i}.jpg" for i in range(117)]


def test_every_photo_is_in_one_fold_and_fold_zero_is_the_quarter_the_detector_never_saw() -> None:
    chosen = folds(NAMES)
    assert set(chosen) == set(NAMES) and set(chosen.values()) == set(range(FOLDS))
    _, held = hold_out(NAMES, 0.25, 0)
    assert {n for n in NAMES if chosen[n] == 0} == set(held)
    assert folds(list(NAMES)) == chosen, "the same names always give the same folds"
    for fold in range(FOLDS):
        train, out = fold_split(NAMES, fold)
        assert not set(train) & set(out) and len(train) + len(out) == len(NAMES)
        assert {n.split("_")[0] for n in out} == {"byler", "matteop65"}
        assert 45 <= len(out) <= 55


def test_a_fold_that_does_not_exist_is_named_with_the_ones_that_do() -> None:
    with pytest.raises(ValueError, match="folds 0 to 3"):
        fold_split(NAMES, 4)


def test_no_error_in_n_trials_bounds_the_rate_near_three_over_n() -> None:
    assert binomial_upper(0, 600) == pytest.approx(3 / 600, rel=0.01)
    assert binomial_upper(1, 100) == pytest.approx(0.0466, abs=0.0005)
    assert binomial_upper(0, 0) == 1.0
    assert binomial_upper(40, 5000) > 40 / 5000


@pytest.mark.skipif(not (DATA / "labels.json").exists(), reason="no dice photos")
def test_each_photo_is_read_once_by_its_own_folds_models(tmp_path: Path) -> None:
    for fold in range(FOLDS):
        folder = tmp_path / f"fold{fold}"
        folder.mkdir()
        (folder / "dice_net.onnx").symlink_to(dice.MODEL_PATH)
        (folder / "dice_face.onnx").symlink_to(dice.FACE_MODEL_PATHS[0])
    by_fold = fold_results(tmp_path, DATA)
    files = [r.file for results in by_fold.values() for r in results]
    assert len(files) == len(set(files)) == 200
    assert not list(DATA.glob(".fold*")), "nothing is written into the shared photo folder"


@pytest.mark.skipif(not (DATA / "labels.json").exists(), reason="no dice photos")
def test_a_missing_fold_model_says_how_to_train_the_folds(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="make crossval-dice"):
        fold_results(tmp_path, DATA, [1])


def _roll(name: str, reads: list[tuple[int, int, float]]) -> ImageResult:
    """One photo: each die (label, read value, confidence), found where it is labelled."""
    labelled = [
        LabelledDie(label, (40.0 * i, 0.0, 30.0, 30.0)) for i, (label, _, _) in enumerate(reads)
    ]
    found = [
        Die(read, (40.0 * i + 15, 15.0), 30.0, sure) for i, (_, read, sure) in enumerate(reads)
    ]
    return ImageResult(name, labelled, found, match(labelled, found), 1.0)


def test_the_threshold_is_the_lowest_that_keeps_wrong_dice_and_rolls_within_the_limits() -> None:
    # 300 sure right rolls of two dice, and one die read wrong at 0.7: at 0.70 or below it
    # is applied (1 wrong die in 602 is within 0.25 %, 1 roll of 301 applied wrong is not),
    # so 0.71 is picked.
    rolls = [_roll(f"r{i}", [(3, 3, 0.97), (5, 5, 0.9)]) for i in range(300)]
    rolls.append(_roll("wrong", [(4, 6, 0.7), (2, 2, 0.99)]))
    assert pick_threshold(rolls) == 0.71
    assert pick_threshold(rolls[:300]) == GRID[0]
    assert pick_threshold([_roll("w", [(4, 6, 1.0)])]) == GRID[-1], "none qualifies: the top"


def test_each_fold_is_read_at_a_threshold_picked_on_the_others_only() -> None:
    clean = [_roll(f"c{i}", [(3, 3, 0.8)]) for i in range(500)]
    by_fold = {0: clean[:250], 1: clean[250:], 2: [_roll("w", [(4, 6, 0.9)]), *clean[:10]]}
    thresholds, pooled = nested(by_fold)
    assert thresholds[2] == GRID[0], "fold 2's own wrong die does not raise its threshold"
    assert thresholds[0] == thresholds[1] == 0.91, "fold 2's wrong die raises the others'"
    assert pooled["accepted_wrong"] == 1 and pooled["applied_unasked"] == 10 + 1
    assert pooled["dice"] == 511 and pooled["coverage"] == round(11 / 511, 4)
