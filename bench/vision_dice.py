"""Benchmark the dice reader: speed on one core at two frame sizes, and accuracy.

    python bench/vision_dice.py [DATA_DIR]
    python -m bench.vision_dice found [DATA_DIR]    (only the 12 MP finding figures)
    python -m bench.vision_dice found datasets/dice-skovy   (the same, with unfamiliar dice)

Speed is measured on the labelled photos resized to 640x480, 1280x960 and 4032x3024 (a
phone photo; each is resized just before it is read, and only the read is timed),
single-threaded
(``cv2.setNumThreads(1)``) because the Pi also runs the game and the web server. Times are
process CPU time, so a busy development machine does not inflate them.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from bench.dice_canvas import frames
from companion.vision import dice_split
from companion.vision.dice import AUTO_ACCEPT, read_dice
from companion.vision.dice_eval import (
    ImageResult,
    LabelledDie,
    Report,
    evaluate,
    load_labels,
    match,
)

DEFAULT_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "dice"
SIZES = ((640, 480), (1280, 960), (4032, 3024))
# The labelled photos enlarged this many times hold small dice in a big frame, as a camera
# mounted high would: the reader's closer look (``closer_look``) then reads them again at
# the frame's resolution. Enlarged photos add no detail, so this checks the closer look
# does no harm; whether it helps is measured on drawn frames (tests/vision/test_dice.py).
ENLARGE = 2.0
# 12 MP frames whose dice are this many pixels in the reader's 640-px first look (each a
# held-out labelled photo enlarged onto a 4032x3024 canvas: bench/dice_canvas.py).
FIRST_LOOK = (25.0, 40.0)


def time_reads(photos: list[np.ndarray], size: tuple[int, int]) -> tuple[float, float]:
    """Median and 95th percentile milliseconds of read_dice over the photos at ``size``."""
    times = []
    for photo in photos:
        frame = cv2.resize(photo, size, interpolation=cv2.INTER_LINEAR)
        start = time.process_time()
        read_dice(frame)
        times.append((time.process_time() - start) * 1000.0)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(0.95 * len(times)))]


def enlarged_figures(data: Path, factor: float) -> dict[str, object]:
    """The evaluation figures on the labelled photos enlarged ``factor`` times (cubic)."""
    results = []
    for name, labelled in load_labels(data / "labels.json"):
        photo = cv2.imread(str(data / "images" / name))
        frame = cv2.resize(photo, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
        boxes = [
            LabelledDie(
                d.value,
                (d.box[0] * factor, d.box[1] * factor, d.box[2] * factor, d.box[3] * factor),
            )
            for d in labelled
        ]
        found = read_dice(frame)
        results.append(ImageResult(name, boxes, found, match(boxes, found), 0.0))
    return Report(results).figures()


def found_figures(data: Path, first_look: tuple[float, float]) -> dict[str, object]:
    """Dice found and read right, false dice and ms per frame on the composed 12 MP frames,
    over all of them and for each part (``report``'s photos picked no setting)."""
    counts: dict[str, list[int]] = {}
    times = []
    parts = dice_split.parts([name for name, _ in load_labels(data / "labels.json")])
    # The shared folder trained the whole-frame network on its train part; any other
    # folder (datasets/dice-skovy, a table's own) is unseen, so every photo is used.
    every_photo = data.resolve() != DEFAULT_DATA.resolve()
    for name, frame, dice in frames(data, first_look, every_photo=every_photo):
        start = time.process_time()
        seen = read_dice(frame)
        times.append((time.process_time() - start) * 1000.0)
        pairs = match(dice, seen)
        right = sum(seen[f].value == dice[li].value for li, f in pairs)
        paired = {f for _, f in pairs}
        sure_false = sum(
            1
            for f, die in enumerate(seen)
            if f not in paired and die.value is not None and die.confidence >= AUTO_ACCEPT
        )
        for key in ("all", parts[name.split("#")[0]]):
            tally = counts.setdefault(key, [0, 0, 0, 0, 0])
            tally[0] += len(dice)
            tally[1] += len(pairs)
            tally[2] += right
            tally[3] += len(seen) - len(pairs)
            tally[4] += sure_false
    labelled, found, right, false, sure_false = counts.pop("all", [0, 0, 0, 0, 0])
    times.sort()
    return {
        "frames": len(times),
        "dice": labelled,
        "found": round(found / max(1, labelled), 4),
        "read_right": round(right / max(1, labelled), 4),
        "false_dice": false,
        "false_dice_applied_unasked": sure_false,
        "ms_median": round(statistics.median(times), 1),
        "ms_p95": round(times[min(len(times) - 1, int(0.95 * len(times)))], 1),
        "by_part": {
            part: {"dice": t[0], "found": round(t[1] / max(1, t[0]), 4), "false_dice": t[3]}
            for part, t in sorted(counts.items())
        },
    }


def main() -> None:
    """Print speed per frame size, then the evaluation figures as JSON."""
    arguments = sys.argv[1:]
    only_found = arguments[:1] == ["found"]
    arguments = arguments[1:] if only_found else arguments
    data = Path(arguments[0]) if arguments else DEFAULT_DATA
    cv2.setNumThreads(1)
    read_dice(np.zeros((480, 640, 3), np.uint8))  # load the model outside the timing
    found = found_figures(data, FIRST_LOOK)
    low, high = FIRST_LOOK
    print(f"12 MP frames, dice {low:g}-{high:g} px at the first look: {json.dumps(found)}")
    if only_found:
        return
    names = [name for name, _ in load_labels(data / "labels.json")]
    photos = [cv2.imread(str(data / "images" / name)) for name in names]
    read_dice(photos[0])  # load the model outside the timing
    speed = {}
    for width, height in SIZES:
        median, p95 = time_reads(photos, (width, height))
        print(f"{width}x{height}: median {median:.1f} ms, p95 {p95:.1f} ms per frame")
        speed[f"{width}x{height}"] = {"median": round(median, 1), "p95": round(p95, 1)}
    enlarged = enlarged_figures(data, ENLARGE)
    print(f"photos enlarged {ENLARGE:g}x: {json.dumps(enlarged)}")
    figures = evaluate(data).figures()
    print(json.dumps({"ms": speed, **figures}))


if __name__ == "__main__":
    main()
