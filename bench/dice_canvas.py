"""12-megapixel test frames made from real labelled dice photos, to measure finding.

No labelled photo here is larger than 640 px, so a big frame is composed honestly: one
labelled photo, enlarged (bicubic) so that its dice are a chosen size, placed at a seeded
spot on a 4032x3024 canvas of its own tray colour; the dice wholly inside the canvas keep
their labels (boxes moved and scaled with the photo). Enlarging adds no detail, so these
frames test where dice are *found* at each scale, not how well a sharper die is read.

Only photos of the parts the whole-frame network never learned from are used
(``dice_split``: calibrate, pick, report).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from companion.vision import dice_split
from companion.vision.dice_eval import LabelledDie, load_labels

CANVAS = (4032, 3024)
# matteop65 boxes enclose only the pip pattern: the whole die is about this much wider
# (the other sources, byler and datasets/dice-skovy, box the whole die).
PIP_BOX_TO_DIE = 1.4


def die_size(name: str, box: tuple[float, float, float, float]) -> float:
    """A labelled die's width in pixels (whole die, whatever the source boxed)."""
    side = max(box[2], box[3])
    return side * PIP_BOX_TO_DIE if name.startswith("matteop65") else side


def frames(
    data: Path,
    first_look: tuple[float, float],
    seed: int = 0,
    repeats: int = 2,
    every_photo: bool = False,
) -> Iterator[tuple[str, np.ndarray, list[LabelledDie]]]:
    """(name, 4032x3024 frame, labelled dice) for each held-out photo, ``repeats`` times:
    its median die made ``first_look`` (low, high; drawn uniformly) pixels wide as the
    reader's 640-px first look sees a 4032-px frame (a 6x shrink). ``every_photo`` takes
    the photos of the ``train`` part too: for a folder no network learned from."""
    rng = np.random.default_rng(seed)
    labels = load_labels(data / "labels.json")
    parts = dice_split.parts([name for name, _ in labels])
    shrink = CANVAS[0] // 640
    for name, dice in labels:
        if (parts[name] == "train" and not every_photo) or not dice:
            continue
        photo = cv2.imread(str(data / "images" / name))
        median = float(np.median([die_size(name, d.box) for d in dice]))
        for repeat in range(repeats):
            factor = rng.uniform(*first_look) * shrink / median
            big = cv2.resize(photo, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
            yield f"{name}#{repeat}", *_placed(big, dice, factor, rng)


def _placed(
    big: np.ndarray, dice: list[LabelledDie], factor: float, rng: np.random.Generator
) -> tuple[np.ndarray, list[LabelledDie]]:
    """The enlarged photo at a random spot of the canvas (cropped where it overhangs) and
    the labelled dice wholly inside, in canvas pixels."""
    width, height = CANVAS
    tray = np.median(big.reshape(-1, 3), axis=0)
    canvas = np.empty((height, width, 3), np.uint8)
    canvas[:] = tray.astype(np.uint8)
    left = int(rng.integers(min(0, width - big.shape[1]), max(0, width - big.shape[1]) + 1))
    top = int(rng.integers(min(0, height - big.shape[0]), max(0, height - big.shape[0]) + 1))
    x0, y0 = max(0, left), max(0, top)
    x1, y1 = min(width, left + big.shape[1]), min(height, top + big.shape[0])
    canvas[y0:y1, x0:x1] = big[y0 - top : y1 - top, x0 - left : x1 - left]
    inside = []
    for die in dice:
        x, y, w, h = (v * factor for v in die.box)
        x, y = x + left, y + top
        if x0 <= x and y0 <= y and x + w <= x1 and y + h <= y1:
            inside.append(LabelledDie(die.value, (x, y, w, h)))
    return canvas, inside
