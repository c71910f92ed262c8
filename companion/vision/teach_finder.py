"""Teach the finder this table's dice from the rolls fixed on the picture.

The whole-frame network's first look reports a die where its "die here" probability
reaches DETECT. An unfamiliar set can sit just under it: on the drawn odd set
(``bench/teach_fixes.py``) 9 of the 12 dice the shipped reader missed were located at
0.3-0.49. A roll fixed on the picture keeps its frame and a box for every die a person
left or added and every find they removed, so the table's own threshold can be learned
there: the lowest at which the first look, with the close-up's "not a die" veto as in
reading, finds nothing in those frames that is not a die (a removed find, or any find
near no fixed die), never below FLOOR. Finds are judged as the reader makes them at that
threshold, weak peaks on one die folded into one (``dice.folded``): on the fixed rolls of
seed 6 a four lit on three pips (0.35-0.49) had kept the shipped threshold, and new rolls
read 89.6 % and 88.2 % right (seeds 7, 2026) against 93.8 % and 92.9 % with the fold
(``python -m bench.teach_fixes 10 7 6``). The shipped threshold is kept when a lower one
would bring in no fixed die.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2

from companion.vision.dice import (
    DETECT,
    NOT_A_DIE,
    DiceReader,
    _rescaled,
    _work_image,
    face_crop,
    find_candidates,
    folded,
)
from companion.vision.teach import EXAMPLES_DIR, FINDER_FILE, INDEX_FILE, save_detect

# Never lower than this: below it the first look's finds on the shipped photos are mostly
# not dice (COARSE, 0.2, only locates dice for a closer look).
FLOOR = 0.25
# The learned threshold stays this far above the strongest find that is not a die.
MARGIN = 0.02
# A find within this share of a fixed die's size from its centre is that die.
NEAR = 0.5
# The threshold is lowered only on at least this many fixed pictures: one picture with no
# stray find would otherwise take it straight to FLOOR for every roll after.
MIN_FRAMES = 3


@dataclass(frozen=True)
class FinderReport:
    """The threshold learned and what it does on the fixed frames it was learned on."""

    detect: float
    frames: int
    dice_gained: int  # fixed dice found at ``detect`` and not at DETECT
    not_dice: int  # finds on no fixed die at FLOOR that the close-up did not veto

    def line(self) -> str:
        if not self.frames:
            return (
                "Finder: no roll was fixed on its picture yet (Fix on the picture), so "
                "the shipped threshold stays."
            )
        if self.detect >= DETECT:
            return (
                f"Finder: on {self.frames} fixed pictures no lower threshold finds more of "
                "this table's dice without finding something else, so the shipped one stays."
            )
        return (
            f"Finder: this table's dice are found from {self.detect:.2f} (shipped {DETECT}); "
            f"on the {self.frames} fixed pictures that finds {self.dice_gained} more of them "
            "and nothing that is not a die."
        )


def fixed_frames(folder: Path) -> list[tuple[Any, list[tuple[float, float, float]]]]:
    """Each kept frame and its fixed dice as (x, y, size); a removed find is not listed,
    so it counts as "not a die" like any other find near no fixed die."""
    try:
        index = json.loads((folder / INDEX_FILE).read_text())
    except (OSError, ValueError):
        return []
    dice: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    for row in index.get("dice", []):
        if "frame" in row and "box" in row:
            x, y, w, h = row["box"]
            boxes = dice[row["frame"]]
            if int(row["value"]) >= 1:
                boxes.append((x + w / 2, y + h / 2, max(w, h)))
    found = []
    for name, boxes in dice.items():
        frame = cv2.imread(str(folder / name))
        if frame is not None:
            found.append((frame, boxes))
    return found


def learn_detect(reader: DiceReader, data_dir: Path) -> FinderReport:
    """The table's first-look threshold from its fixed frames (see the module's docstring).

    A lower threshold also brings in weaker peaks that fold into the finds near them
    (``folded``), so what a threshold finds is judged as the reader would find it there:
    the threshold is raised past any find on no die until none is left.
    """
    frames = fixed_frames(data_dir / EXAMPLES_DIR)
    looks = []
    for frame, boxes in frames:
        work, scale = _work_image(frame)
        looks.append((frame, boxes, reader.grid(work), work.shape[:2], scale))
    dice_here, not_dice = _judged(reader, looks, FLOOR)
    threshold = max([FLOOR] + [here + MARGIN for here in not_dice])
    while threshold < DETECT:
        dice_here, stray = _judged(reader, looks, threshold)
        if not stray:
            break
        threshold = max(here + MARGIN for here in stray)
    gained = sum(threshold <= here < DETECT for here in dice_here)
    enough = len(frames) >= MIN_FRAMES
    detect = round(threshold, 3) if enough and threshold < DETECT and gained else DETECT
    return FinderReport(detect, len(frames), gained if detect < DETECT else 0, len(not_dice))


def _judged(
    reader: DiceReader, looks: list[tuple[Any, Any, Any, Any, float]], threshold: float
) -> tuple[list[float], list[float]]:
    """The "die here" strength of every find at ``threshold`` the close-up lets through,
    split into those on a fixed die and those on none."""
    dice_here: list[float] = []
    not_dice: list[float] = []
    for frame, boxes, grid, shape, scale in looks:
        finds = [_rescaled(c, scale) for c in folded(find_candidates(grid, shape, threshold))]
        if not finds:
            continue
        crops = [face_crop(frame, (c.x, c.y), c.size) for c in finds]
        vetoed = reader.face_probabilities(crops)[:, 0] > NOT_A_DIE
        for find, veto in zip(finds, vetoed, strict=True):
            if veto:
                continue
            on_die = any(math.hypot(find.x - x, find.y - y) < NEAR * s for x, y, s in boxes)
            (dice_here if on_die else not_dice).append(find.here)
    return dice_here, not_dice


def teach_finder(reader: DiceReader, data_dir: Path) -> FinderReport:
    """Learn, save and use this table's first-look threshold."""
    report = learn_detect(reader, data_dir)
    save_detect(data_dir / FINDER_FILE, report.detect, reader.fingerprint)
    reader.detect = report.detect
    return report
