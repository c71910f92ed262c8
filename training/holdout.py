"""Score a detector and face classifier on the photos their training left out.

    .venv-train/bin/python -m training.holdout DETECTOR.onnx FACES.onnx [FACES.onnx ...]

The split is the trainers' own (same seed, same share), so these photos were never seen.
It prints the evaluation figures at several auto-accept thresholds: the shipped
AUTO_ACCEPT is one step above the lowest at which every accepted held-out die was right,
a margin for tables nobody has seen.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from companion.vision import dice, dice_eval
from training.dice_net import DEFAULT_DATA, SEED, load_photos, split

THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.97, 0.99)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("detector", type=Path)
    parser.add_argument("faces", type=Path, nargs="+")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--holdout", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    _, held = split(load_photos(args.data), args.holdout, args.seed)
    names = {frame.name for frame in held}
    reader = dice.DiceReader(args.detector, tuple(args.faces))
    results = list(dice_eval.iter_results(args.data, reader=reader.read, names=names))
    report = dice_eval.Report(results)
    for source in ("byler", "matteop65"):
        part = dice_eval.Report([r for r in results if r.file.startswith(source)])
        print(source, json.dumps(part.figures()))
    for threshold in THRESHOLDS:
        print(json.dumps(report.figures(auto_accept=threshold)))


if __name__ == "__main__":
    main()
