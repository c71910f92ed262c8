"""Fit the close-up classifier's temperature, then pick AUTO_ACCEPT, each on its own photos.

    .venv/bin/python -m training.calibrate_dice [--data DIR]

Needs no torch (it runs the shipped ONNX models), and never retrains them. Two steps, on
two parts of the labelled folder that the whole-frame network never saw
(``companion/vision/dice_split.py``):

1. ``calibrate``: every find of the whole-frame network is cut out and classified, matched
   to the labels (a find matching no labelled die should be "not a die"), and the
   temperature that makes the reader's seven-way probability (not a die, 1..6) most likely
   to give the right answer (least negative log-likelihood) is kept.
2. ``pick``: the reader with that temperature reads these photos, and AUTO_ACCEPT is the
   lowest threshold, never below FLOOR (see below), at which no accepted die is wrong
   (phantoms included) and no roll is applied wrong. With about a hundred dice in a part,
   "none wrong" only shows the rate is below ~3 % (95 % upper bound, 3 / n): the part is
   too small to show the issue's 0.5 %, and the printed figures say so.

The ``report`` part is left alone: ``companion dice eval DIR --part report`` scores it.
The close-up classifier was trained on all of the folder's photos, these parts included,
so it is surer of them than of a table it has never seen: the fitted temperature is a
lower bound for new tables, and the printed figures say which photos they come from.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision import confidence, dice, dice_eval, dice_split

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"
TEMPERATURES = np.round(np.arange(0.5, 4.01, 0.05), 2)
THRESHOLDS = np.round(np.arange(0.5, 0.995, 0.01), 2)
# On photos of the kind in the folder that nobody here has (issue 17), dice rated
# 0.85-0.95 were right only ~90 % of the time while every such die here was right: the
# threshold is never lowered below what already shipped on the evidence of seen photos.
FLOOR = 0.85


def finds(
    reader: dice.DiceReader, data: Path, names: list[str]
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.int64]]:
    """Every candidate in the photos: whole-frame faces, close-up probabilities, true class.

    The true class is the labelled value of the die the candidate lands on, or 0 (not a
    die) when it matches none.
    """
    labels = dict(dice_eval.load_labels(data / "labels.json"))
    faces, second, truth = [], [], []
    for name in names:
        frame = cv2.imread(str(data / "images" / name))
        work, scale = dice._work_image(frame)
        candidates = dice.find_candidates(reader.grid(work), work.shape[:2])
        if not candidates:
            continue
        crops = [dice.face_crop(work, (c.x, c.y), c.size) for c in candidates]
        second.append(reader.face_probabilities(crops))
        as_dice = [dice.Die(0, (c.x / scale, c.y / scale), c.size / scale, 0.0) for c in candidates]
        value = dict(
            (fi, labels[name][li].value) for li, fi in dice_eval.match(labels[name], as_dice)
        )
        for index, candidate in enumerate(candidates):
            faces.append(candidate.faces)
            truth.append(value.get(index, 0))
    return np.array(faces), np.concatenate(second), np.array(truth)


def seven_way(
    faces: NDArray[np.float64], second: NDArray[np.float64], temperature: float
) -> NDArray[np.float64]:
    """P(not a die, 1..6) as the reader's ``judge`` combines both looks."""
    second = confidence.temper(second, temperature)
    joint = faces**dice.FRAME_WEIGHT * second[:, 1:]
    joint /= joint.sum(axis=1, keepdims=True)
    return np.concatenate([second[:, :1], joint * (1.0 - second[:, :1])], axis=1)


def fit_temperature(
    faces: NDArray[np.float64], second: NDArray[np.float64], truth: NDArray[np.int64]
) -> tuple[float, dict[float, float]]:
    """The temperature of least mean negative log-likelihood, and the whole curve."""
    curve = {}
    for temperature in TEMPERATURES:
        p = seven_way(faces, second, float(temperature))[np.arange(len(truth)), truth]
        curve[float(temperature)] = float(-np.log(np.clip(p, 1e-12, 1.0)).mean())
    return min(curve, key=lambda t: curve[t]), curve


def pick_threshold(report: dice_eval.Report) -> tuple[float, list[dict[str, object]]]:
    """The lowest safe AUTO_ACCEPT on these photos (module docstring), and every row."""
    rows = []
    chosen = None
    for threshold in THRESHOLDS:
        row = report.figures(auto_accept=float(threshold))
        rows.append(row)
        safe = row["accepted_wrong"] == 0 and row["rolls_applied_wrong"] == 0
        if safe and chosen is None and threshold >= FLOOR:
            chosen = float(threshold)
    return (chosen if chosen is not None else float(THRESHOLDS[-1])), rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument(
        "--faces",
        type=Path,
        nargs="+",
        help="close-up classifier files to calibrate instead of the shipped ones (a candidate)",
    )
    args = parser.parse_args()
    faces_files = tuple(args.faces) if args.faces else None
    cv2.setNumThreads(1)
    names = [name for name, _ in dice_eval.load_labels(args.data / "labels.json")]
    part = dice_split.parts(names)
    calibrate = [n for n in names if part[n] == "calibrate"]
    faces, second, truth = finds(
        dice.DiceReader(face_paths=faces_files, temperature=1.0), args.data, calibrate
    )
    temperature, curve = fit_temperature(faces, second, truth)
    print(f"calibrate part: {len(calibrate)} photos, {len(truth)} finds")
    print(f"  mean NLL at T=1.0: {curve[1.0]:.4f}; at T={temperature}: {curve[temperature]:.4f}")
    reader = dice.DiceReader(face_paths=faces_files, temperature=temperature)
    pick = dice_eval.Report(
        list(dice_eval.iter_results(args.data, reader=reader.read, part="pick"))
    )
    threshold, rows = pick_threshold(pick)
    print("pick part (the detector never saw these photos; the close-up classifier did):")
    for row in rows:
        print(json.dumps(row))
    print(json.dumps({"temperature": temperature, "auto_accept": threshold}))


if __name__ == "__main__":
    main()
