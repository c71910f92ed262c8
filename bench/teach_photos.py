"""Teach the reader a real dice set it never saw, from confirmed rolls, and measure it.

    python -m bench.teach_photos [DATA_DIR] [--teach-rolls 20] [--splits 10]

DATA_DIR is a labelled folder (``labels.json`` as in ``shared/data/dice``); by default
``datasets/dice-skovy``: 48 webcam frames of two coloured dice (yellow with red pips, red with
yellow pips) on grey wood flooring, from skovy/tensorflow-dice-model (MIT), unlike any
photo or render the networks learned from or any threshold was picked on.

Each frame is one roll. ``--teach-rolls`` of them (drawn at random) are read by the
shipped reader and kept as a person would confirm them on the tablet: each die the camera
found, with its true value. ``companion dice teach`` then fits on those. The other rolls
were never confirmed, fitted or looked at while choosing anything: they are read whole,
frame by frame, before and after teaching, and every figure printed is on them. This is
repeated for ``--splits`` random draws (seeds 0, 1, ...), since one split of 48 rolls is
a small, noisy sample; the last lines sum them up.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

import cv2

from companion.vision.dice import DiceReader, face_crop
from companion.vision.dice_eval import ImageResult, LabelledDie, Report, load_labels, match
from companion.vision.teach import EXAMPLES_DIR, ExampleStore
from companion.vision.teaching import teach

DEFAULT_DATA = Path(__file__).resolve().parents[1] / "datasets" / "dice-skovy"

Roll = tuple[str, list[LabelledDie]]


def read_rolls(reader: DiceReader, data: Path, rolls: list[Roll]) -> Report:
    """The reader's figures on whole frames, as the camera would read them."""
    results = []
    for name, labelled in rolls:
        frame = cv2.imread(str(data / "images" / name))
        found = reader.read(frame)
        results.append(ImageResult(name, labelled, found, match(labelled, found), 0.0))
    return Report(results)


def confirm(reader: DiceReader, data: Path, rolls: list[Roll], folder: Path) -> tuple[int, int]:
    """Keep each roll as the tablet keeps a confirmed one: every found die's close-up with
    the value the person says it shows. Returns (dice kept, dice in those rolls)."""
    store = ExampleStore(folder / EXAMPLES_DIR)
    kept = total = 0
    for name, labelled in rolls:
        frame = cv2.imread(str(data / "images" / name))
        found = reader.read(frame)
        pairs = match(labelled, found)
        crops = [face_crop(frame, found[fi].centre, found[fi].size) for _, fi in pairs]
        values = [labelled[li].value for li, _ in pairs]
        total += len(labelled)
        if crops:
            store.add_roll(crops, values)
            kept += len(crops)
    return kept, total


def line(report: Report) -> str:
    f = report.figures()
    found = sum(len(r.pairs) for r in report.results) / max(1, f["dice"])
    return (
        f"{f['dice']} dice: found {found:.1%}, read right "
        f"{f['dice_accuracy']:.1%}, accepted without asking {f['coverage']:.1%}, accepted "
        f"and wrong {f['accepted_wrong']} (phantoms {f['accepted_false_dice']}); rolls "
        f"applied right {f['rolls_applied_right']}, applied wrong {f['rolls_applied_wrong']}, "
        f"asked {f['rolls_asked']}"
    )


def one_split(data: Path, rolls: list[Roll], teach_rolls: int, seed: int) -> dict[str, Any]:
    """Teach on ``teach_rolls`` rolls drawn with ``seed``; figures on the others."""
    rolls = list(rolls)
    random.Random(seed).shuffle(rolls)
    taught, report = rolls[:teach_rolls], rolls[teach_rolls:]
    reader = DiceReader()
    before = read_rolls(reader, data, report)
    print(f"split {seed}: {len(report)} rolls never confirmed, shipped reader: {line(before)}")
    with tempfile.TemporaryDirectory() as folder:
        kept, total = confirm(reader, data, taught, Path(folder))
        print(f"  {len(taught)} confirmed rolls: {kept} of their {total} dice found and kept")
        result = teach(reader, Path(folder))
        for text in result.lines():
            print(f"  dice teach: {text}")
    after = read_rolls(reader, data, report)
    print(f"  the same {len(report)} rolls, taught reader: {line(after)}")
    return {"before": before.figures(), "after": after.figures(), "head_kept": result.kept}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, nargs="?", default=DEFAULT_DATA)
    parser.add_argument("--teach-rolls", type=int, default=20)
    parser.add_argument("--splits", type=int, default=10, help="random splits (seeds 0..N-1)")
    args = parser.parse_args()
    rolls = load_labels(args.data / "labels.json")
    splits = [one_split(args.data, rolls, args.teach_rolls, seed) for seed in range(args.splits)]
    summary: dict[str, Any] = {"splits": args.splits, "teach_rolls": args.teach_rolls}
    for when in ("before", "after"):
        figures = [s[when] for s in splits]
        summary[when] = {
            "median_read_right": statistics.median(f["dice_accuracy"] for f in figures),
            "worst_read_right": min(f["dice_accuracy"] for f in figures),
            "median_accepted": statistics.median(f["coverage"] for f in figures),
            "accepted_wrong": sum(f["accepted_wrong"] for f in figures),
            "accepted": sum(round(f["coverage"] * f["dice"]) for f in figures),
            "dice": sum(f["dice"] for f in figures),
        }
    summary["heads_kept"] = sum(s["head_kept"] for s in splits)
    print(
        f"over {args.splits} splits, dice read right (median, worst): shipped "
        f"{summary['before']['median_read_right']:.1%}, "
        f"{summary['before']['worst_read_right']:.1%}; taught "
        f"{summary['after']['median_read_right']:.1%}, "
        f"{summary['after']['worst_read_right']:.1%}; accepted and wrong: shipped "
        f"{summary['before']['accepted_wrong']} of {summary['before']['accepted']}, taught "
        f"{summary['after']['accepted_wrong']} of {summary['after']['accepted']}; "
        f"a head was kept in {summary['heads_kept']} of {args.splits}"
    )
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
