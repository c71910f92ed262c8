"""Read half the labelled dice photos at 1280x960 and 4032x3024 with a given closer-look
pixel budget, for ``farm-bench`` to time whole processes against each other:

    farm-bench -n 5 --vs ".venv/bin/python -m bench.dice_budget 1000000" -- \\
        .venv/bin/python -m bench.dice_budget 600000

Start-up and resizing are in both, so the ratio understates the reading's own change.
"""

from __future__ import annotations

import sys

import cv2

from bench.vision_dice import DEFAULT_DATA
from companion.vision import dice
from companion.vision.dice_eval import load_labels

SIZES = ((1280, 960), (4032, 3024))


def main(pixels: int) -> None:
    cv2.setNumThreads(1)
    dice.REGION_PIXELS = pixels
    names = [name for name, _ in load_labels(DEFAULT_DATA / "labels.json")][::2]
    for name in names:
        photo = cv2.imread(str(DEFAULT_DATA / "images" / name))
        for size in SIZES:
            dice.read_dice(cv2.resize(photo, size))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else dice.REGION_PIXELS)
