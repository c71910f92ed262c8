"""Turn skovy/tensorflow-dice-model's photos into a labelled folder the dice tools read.

    python -m training.import_skovy REPO_CHECKOUT_OR_GIT_DIR COMMIT OUT_DIR

Why this set: its dice and table are unlike anything the reader learned from (a yellow die
with red pips and a red die with yellow pips on grey wood-grain flooring, 1920x1080 webcam
frames looking down at an angle, feet and furniture at the edges), so it shows what the
reader does with a table's own dice, and whether ``dice teach`` fixes it. MIT licence.

The repository labels its 49 frames in two halves: 34 frames have Pascal VOC boxes named
only "die" (where each die is), and 15 have AutoML CSV rows with a face value and a box
rounded to 1 % of the frame. Face values for the 34 come from its die close-ups
(``die_classification/training/<value>/<frame>-die-N.jpg``): each close-up is an exact cut
of its frame (the die's box grown by 10 px, re-saved as JPEG), so template matching finds
where it was cut and the box it overlaps gives its value. A frame is kept only when every
die in it has a value; the 15 valued frames' values are checked against the close-ups too.
The photos are copied byte for byte.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import subprocess
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

VALUES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
CROP_BUFFER = 10  # what the source's crop script added round each die's box
MIN_MATCH = 0.9  # normalised correlation of a close-up with the place it was cut from
SOURCE = "skovy/tensorflow-dice-model"


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    def overlap(self, other: Box) -> float:
        """Intersection over union."""
        ix = max(0.0, min(self.x + self.w, other.x + other.w) - max(self.x, other.x))
        iy = max(0.0, min(self.y + self.h, other.y + other.h) - max(self.y, other.y))
        inter = ix * iy
        return inter / (self.w * self.h + other.w * other.h - inter)


class Repo:
    """Files of one commit of a git repository (a mirror's git dir or a checkout)."""

    def __init__(self, path: Path, commit: str) -> None:
        self.path, self.commit = path, commit

    def files(self, under: str) -> list[str]:
        out = subprocess.run(
            ["git", "-C", str(self.path), "ls-tree", "-r", "--name-only", self.commit, under],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        return out.split()

    def read(self, name: str) -> bytes:
        return subprocess.run(
            ["git", "-C", str(self.path), "show", f"{self.commit}:{name}"],
            check=True,
            capture_output=True,
        ).stdout


def voc_boxes(xml: bytes) -> list[Box]:
    root = ElementTree.fromstring(xml)
    boxes = []
    for item in root.iter("bndbox"):
        x0, y0, x1, y1 = (float(item.findtext(k) or 0) for k in ("xmin", "ymin", "xmax", "ymax"))
        boxes.append(Box(x0, y0, x1 - x0, y1 - y0))
    return boxes


def csv_dice(text: str, width: int, height: int) -> dict[str, list[tuple[Box, int]]]:
    """AutoML rows: split, file, value, xmin, ymin, , , xmax, ymax (fractions of the frame)."""
    dice: dict[str, list[tuple[Box, int]]] = {}
    for row in csv.reader(io.StringIO(text)):
        if len(row) < 9:
            continue
        x0, y0, x1, y1 = (float(row[i]) for i in (3, 4, 7, 8))
        box = Box(x0 * width, y0 * height, (x1 - x0) * width, (y1 - y0) * height)
        dice.setdefault(row[1], []).append((box, int(row[2])))
    return dice


def where_cut(frame: np.ndarray, crop: np.ndarray) -> tuple[Box, float]:
    """The die's box in the frame that a close-up was cut from, and how well it matched."""
    scores = cv2.matchTemplate(frame, crop, cv2.TM_CCOEFF_NORMED)
    _, best, _, (x, y) = cv2.minMaxLoc(scores)
    h, w = crop.shape[:2]
    b = CROP_BUFFER
    return Box(float(x + b), float(y + b), float(w - 2 * b), float(h - 2 * b)), float(best)


def entry(
    out_name: str, width: int, height: int, source: str, labelled: list[tuple[Box, int | None]]
) -> dict[str, Any]:
    """One frame's record in labels.json (the schema of shared/data/dice)."""
    return {
        "file": out_name,
        "width": width,
        "height": height,
        "source": f"{SOURCE}:{source}",
        "bbox_covers": "whole die (oblique webcam view)",
        "dice": [
            {
                "value": v,
                "bbox": [round(b.x, 1), round(b.y, 1), round(b.w, 1), round(b.h, 1)],
            }
            | {"sides": 6}
            for b, v in labelled
        ],
    }


def frame_files(repo: Repo, valued_dir: str) -> tuple[dict[str, str], dict[str, list[Box]]]:
    """Every frame's path by its file name, and the boxes drawn on the frames that have them."""
    frames: dict[str, str] = {}
    boxes: dict[str, list[Box]] = {}
    for name in repo.files("image_data/die_detection"):
        stem = Path(name).name
        if name.endswith(".jpg"):
            frames[stem] = name
        elif name.endswith(".xml"):
            boxes[stem.replace(".xml", ".jpg")] = voc_boxes(repo.read(name))
    for name in repo.files(valued_dir):
        if name.endswith(".jpg"):
            frames[Path(name).name] = name
    return frames, boxes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("commit")
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    repo = Repo(args.repo, args.commit)
    valued_dir = "image_data/die_detection_and_classification"
    frames, boxes = frame_files(repo, valued_dir)
    valued = csv_dice(repo.read(f"{valued_dir}/labels.csv").decode(), 1920, 1080)
    crops: dict[str, list[tuple[str, int]]] = {}
    for name in repo.files("image_data/die_classification/training"):
        value = VALUES[Path(name).parent.name]
        frame_name = Path(name).name.rsplit("-die-", 1)[0] + ".jpg"
        crops.setdefault(frame_name, []).append((name, value))

    images_dir = args.out / "images"
    images_dir.mkdir(parents=True, exist_ok=True)
    images, dropped, disagreements = [], [], 0
    for frame_name in sorted(frames):
        data = repo.read(frames[frame_name])
        frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        height, width = frame.shape[:2]
        labelled: list[tuple[Box, int | None]] = [(b, None) for b in boxes.get(frame_name, [])]
        if frame_name in valued:
            labelled = [(b, v) for b, v in valued[frame_name]]
        for crop_name, value in crops.get(frame_name, []):
            crop = cv2.imdecode(np.frombuffer(repo.read(crop_name), np.uint8), cv2.IMREAD_COLOR)
            cut, score = where_cut(frame, crop)
            if score < MIN_MATCH:
                continue
            best = max(range(len(labelled)), key=lambda i: labelled[i][0].overlap(cut))
            box, known = labelled[best]
            if box.overlap(cut) < 0.3:
                continue
            if known is not None and known != value:
                disagreements += 1
                print(f"{frame_name}: the CSV says {known}, the close-up {value}; CSV kept")
                continue
            labelled[best] = (box, value)
        if not labelled or any(v is None for _, v in labelled):
            dropped.append(frame_name)
            continue
        out_name = f"skovy_{frame_name}"
        (images_dir / out_name).write_bytes(data)
        images.append(entry(out_name, width, height, frames[frame_name], labelled))
    labels = {
        "schema": "images[]: {file, width, height, source, bbox_covers, dice[]: {value, bbox "
        "[x, y, w, h] in pixels, sides}} (as in shared/data/dice)",
        "source": f"https://github.com/{SOURCE} at {args.commit}, MIT licence",
        "images": images,
    }
    (args.out / "labels.json").write_text(json.dumps(labels, indent=1) + "\n")
    dice = sum(len(i["dice"]) for i in images)
    print(
        f"{len(images)} frames, {dice} dice kept; {len(dropped)} frames dropped (a die "
        f"without a value): {', '.join(dropped) or 'none'}; {disagreements} disagreements"
    )


if __name__ == "__main__":
    main()
