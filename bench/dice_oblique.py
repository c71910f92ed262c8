"""The dice reader on drawn webcam frames tipped 0-45 degrees: phantoms from side faces.

    .venv/bin/python -m bench.dice_oblique [SEED] [PER_BAND]

Each tilt band gets PER_BAND frames (default 30) of 1-5 dice drawn as cubes by
``hardware/simulator/dice_oblique.py`` (lean any way in the picture, half of them within
25 degrees of the frame's bottom as a webcam on a stand), read by the shipped reader. A
found die is matched to a die's top face (``dice_eval.match`` on the top face's box); one
that matches none but lies on a visible side face is a *phantom*; a die centred on a side
face and on no top face is counted apart too, matched or not (a side face whose top was
never found matches that top's box and is read in its place). Rolls are scored as
``companion dice eval`` scores photos: applied unasked when the count is right and every
die is sure, applied wrong when besides that any die is missed or misread. The last line
repeats the figures as JSON. Frames with a hand (PER_BAND each reaching in, holding a
die up, and none, tipped 0-45 degrees) are counted apart: how many the watcher's hand
check (``companion/vision/hand_in_view.py``) sees; while it sees one, no roll is proposed.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import cv2
import numpy as np

from companion.vision.dice import read_dice
from companion.vision.dice_eval import ImageResult, LabelledDie, Report, match
from companion.vision.hand_in_view import hand_in_view
from hardware.simulator.dice_oblique import (
    HandPose,
    ObliqueRendered,
    random_oblique_scene,
    render_oblique,
)

BANDS = ((0.0, 15.0), (15.0, 30.0), (30.0, 45.0))


def phantoms(rendered: ObliqueRendered, result: ImageResult) -> int:
    """Found dice that match no top face but lie on a side face."""
    paired = {fi for _, fi in result.pairs}
    return sum(
        index not in paired and _on_a_side(rendered, die.centre)
        for index, die in enumerate(result.found)
    )


def read_off_a_side(rendered: ObliqueRendered, result: ImageResult) -> int:
    """Found dice centred on a side face and on no top face, matched or not: a side face
    whose top was never found still matches that top's box, and is read as the die."""
    return sum(
        _on_a_side(rendered, die.centre)
        and not any(_inside(truth.corners, die.centre) for truth in rendered.dice)
        for die in result.found
    )


def _on_a_side(rendered: ObliqueRendered, centre: tuple[float, float]) -> bool:
    return any(_inside(side, centre) for truth in rendered.dice for side in truth.sides)


def _inside(outline: Any, centre: tuple[float, float]) -> bool:
    point = (float(centre[0]), float(centre[1]))
    return bool(cv2.pointPolygonTest(outline.astype(np.float32), point, False) >= 0)


def band_figures(seed: int, band: tuple[float, float], frames: int) -> dict[str, Any]:
    """The reader's figures on ``frames`` drawn frames tipped within ``band`` degrees."""
    rng = np.random.default_rng([seed, int(band[0])])
    results, phantom_count, off_sides = [], 0, 0
    for _ in range(frames):
        scene = random_oblique_scene(rng, band, webcam_lean=bool(rng.random() < 0.5))
        rendered = render_oblique(scene, rng)
        boxes = []
        for truth in rendered.dice:
            x0, y0 = truth.corners.min(axis=0)
            x1, y1 = truth.corners.max(axis=0)
            boxes.append(LabelledDie(truth.value, (x0, y0, x1 - x0, y1 - y0)))
        found = read_dice(rendered.frame)
        result = ImageResult("", boxes, found, match(boxes, found), 0.0)
        results.append(result)
        phantom_count += phantoms(rendered, result)
        off_sides += read_off_a_side(rendered, result)
    figures = Report(results).figures()
    keep = (
        *("dice", "dice_accuracy", "count_accuracy", "false_dice", "coverage"),
        *("accepted_wrong", "rolls_applied_right", "rolls_applied_wrong", "rolls_asked"),
    )
    summary: dict[str, Any] = {key: figures[key] for key in keep}
    summary["found"] = sum(len(r.pairs) for r in results)
    summary["phantoms"] = phantom_count
    summary["read_off_a_side"] = off_sides
    return summary


def hand_figures(seed: int, frames: int) -> dict[str, int]:
    """How many frames with a hand reaching in, or holding a die up, the watcher's hand
    check sees (it then proposes nothing), and how many hand-free frames it takes for one."""
    poses: tuple[HandPose, ...] = ("reaching", "holding", "none")
    counts: dict[str, int] = dict.fromkeys(poses, 0)
    for hand in poses:
        rng = np.random.default_rng([seed, len(hand), 99])
        for _ in range(frames):
            scene = random_oblique_scene(rng, (0.0, 45.0), hand=hand)
            counts[hand] += hand_in_view(render_oblique(scene, rng).frame)
    return counts


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 2026
    per_band = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    cv2.setNumThreads(1)
    figures: dict[str, object] = {"seed": seed, "frames_per_band": per_band}
    for band in BANDS:
        name = f"{band[0]:.0f}-{band[1]:.0f}"
        row = band_figures(seed, band, per_band)
        figures[name] = row
        print(
            f"tilt {name:>5} deg: {row['found']}/{row['dice']} dice found, "
            f"{float(row['dice_accuracy']):.1%} read right, {row['phantoms']} phantoms "
            f"(side faces), {row['read_off_a_side']} dice read off a side face (matched or "
            f"not), {row['false_dice']} false dice in all, {row['accepted_wrong']} "
            f"applied unasked wrong; rolls {row['rolls_applied_right']} right, "
            f"{row['rolls_applied_wrong']} wrong, {row['rolls_asked']} asked",
            flush=True,
        )
    hands = hand_figures(seed, per_band)
    figures["hand"] = hands
    print(
        f"hand: seen in {hands['reaching']}/{per_band} frames of a hand reaching in and "
        f"{hands['holding']}/{per_band} holding a die up (no roll proposed); "
        f"{hands['none']}/{per_band} hand-free frames taken for a hand",
        flush=True,
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
