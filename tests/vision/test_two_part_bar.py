"""The two-part bar study: the dump's arithmetic agrees with the reader's own figures."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from companion.vision.dice import Die
from companion.vision.dice_eval import ImageResult, LabelledDie, Report, match
from training.crossval import dump
from training.two_part_bar import figures, load, nested, one_bar, two_part


def _roll(name: str, reads: list[tuple[int | None, int | None, float, float]]) -> ImageResult:
    """One photo: each die (label or None for a phantom, read, confidence, is_die)."""
    labelled = [
        LabelledDie(label, (40.0 * i, 0.0, 30.0, 30.0))
        for i, (label, _, _, _) in enumerate(reads)
        if label is not None
    ]
    found = [
        Die(read, (40.0 * i + 15, 15.0), 30.0, sure, is_die)
        for i, (_, read, sure, is_die) in enumerate(reads)
    ]
    return ImageResult(name, labelled, found, match(labelled, found), 1.0)


def test_the_one_bar_read_from_a_dump_gives_the_readers_own_figures(tmp_path: Path) -> None:
    rolls = [
        _roll("right", [(3, 3, 0.97, 0.99), (5, 5, 0.9, 0.95)]),
        _roll("unsure", [(4, 4, 0.7, 0.98), (2, 2, 0.99, 1.0)]),
        _roll("wrong", [(4, 6, 0.9, 0.95)]),
        _roll("phantom", [(1, 1, 0.99, 1.0), (None, 2, 0.95, 0.97)]),
    ]
    missed = replace(rolls[0], labelled=[*rolls[0].labelled, LabelledDie(6, (500, 0, 30, 30))])
    rolls.append(replace(missed, file="missed"))
    path = tmp_path / "dump.jsonl"
    dump({0: rolls[:3], 1: rolls[3:]}, path)
    counts = figures(load(path), one_bar(0.85))
    report = Report(rolls).figures(0.85)
    assert counts["applied"] == round(report["coverage"] * report["dice"])
    assert counts["wrong"] == report["accepted_wrong"] == 2
    assert counts["false"] == report["accepted_false_dice"] == 1
    assert counts["rolls_right"] == report["rolls_applied_right"] == 1
    assert counts["rolls_wrong"] == report["rolls_applied_wrong"] == 1


def test_each_part_must_clear_its_own_bar_and_each_fold_is_read_at_a_pair_picked_elsewhere(
    tmp_path: Path,
) -> None:
    # Sure faces on dice the close-up doubts a little (0.9): the product (0.86) clears 0.85,
    # the two-part bar asks for a die certainty of at least 0.91 and so asks about them.
    doubted = [_roll(f"d{i}", [(3, 3, 0.86, 0.9)]) for i in range(4)]
    path = tmp_path / "dump.jsonl"
    dump({0: doubted}, path)
    photos = load(path)
    assert figures(photos, one_bar(0.85))["applied"] == 4
    assert figures(photos, two_part(0.95, 0.91))["applied"] == 0
    assert figures(photos, two_part(0.95, 0.90))["applied"] == 4
    clean = [_roll(f"c{i}", [(2, 2, 0.9, 0.95)]) for i in range(400)]
    bad = [_roll("w", [(4, 6, 0.99, 0.99)])]
    dump({0: clean[:200], 1: clean[200:], 2: bad + clean[:5]}, path)
    chosen, pooled = nested(load(path))
    assert chosen[0] == chosen[1] == (0.99, 0.99), "fold 2's sure wrong die: nothing qualifies"
    assert chosen[2] == (0.94, 0.95), "folds 0 and 1 alone allow the most dice"
    assert pooled["wrong"] == 1
