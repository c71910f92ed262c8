"""A synthetic "odd" dice set the shipped reader was never taught: dark blue dice with
yellow pips laid out in rows (two rows of three for 6, three over two for 5, ...), as some
novelty sets have. Frames, where each die is, and the confirmed rolls of a table using them.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.vision.dice import DiceReader, face_crop
from companion.vision.teach import EXAMPLES_DIR, ExampleStore, TaughtHead

# A taught head reads the close-up's 128 pooled features and its 7 logits.
FEATURES = 135

BODY, PIP = (150, 60, 30), (60, 220, 240)
ROWS = {
    1: [(0.0, 0.0)],
    2: [(-1.0, 0.0), (1.0, 0.0)],
    3: [(-1.0, 0.0), (0.0, 0.0), (1.0, 0.0)],
    4: [(-1.0, -1.0), (0.0, -1.0), (1.0, -1.0), (0.0, 1.0)],
    5: [(-1.0, -1.0), (0.0, -1.0), (1.0, -1.0), (-0.5, 1.0), (0.5, 1.0)],
    6: [(-1.0, -1.0), (0.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (0.0, 1.0), (1.0, 1.0)],
}


def draw_odd_die(
    frame: np.ndarray, centre: tuple[int, int], value: int, side: int, angle: float
) -> None:
    rect = ((float(centre[0]), float(centre[1])), (float(side), float(side)), angle)
    cv2.fillConvexPoly(frame, cv2.boxPoints(rect).astype(np.int32), BODY, lineType=cv2.LINE_AA)
    turn = np.deg2rad(angle)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    for ox, oy in ROWS[value]:
        px, py = rot @ np.array([ox, oy]) * side * 0.27 + np.array(centre)
        cv2.circle(frame, (round(px), round(py)), max(2, side // 11), PIP, -1, cv2.LINE_AA)


def odd_roll(
    rng: np.random.Generator,
) -> tuple[np.ndarray, list[tuple[int, int]], list[int]]:
    """A 640x480 frame of 2-4 odd dice apart from each other, where they are, their values."""
    frame = np.full((480, 640, 3), (150, 160, 165), np.uint8)
    frame = np.clip(frame + rng.normal(0, 4, frame.shape), 0, 255).astype(np.uint8)
    count = int(rng.integers(2, 5))
    spots: list[tuple[int, int]] = []
    while len(spots) < count:
        spot = (int(rng.integers(80, 560)), int(rng.integers(80, 400)))
        if all(abs(spot[0] - x) > 90 or abs(spot[1] - y) > 90 for x, y in spots):
            spots.append(spot)
    values = [int(rng.integers(1, 7)) for _ in spots]
    for spot, value in zip(spots, values, strict=True):
        draw_odd_die(frame, spot, value, int(rng.integers(50, 70)), float(rng.uniform(0, 90)))
    return frame, spots, values


def confirm_rolls(reader: DiceReader, data_dir: Path, rolls: int, seed: int) -> tuple[int, int]:
    """Roll the odd dice ``rolls`` times, read each roll and keep it as a person would
    confirm it (each found die's close-up with its true value); (dice read right, dice)."""
    rng = np.random.default_rng(seed)
    store = ExampleStore(data_dir / EXAMPLES_DIR)
    right = total = 0
    for _ in range(rolls):
        frame, spots, values = odd_roll(rng)
        found = reader.read(frame)
        crops, confirmed = [], []
        for (x, y), value in zip(spots, values, strict=True):
            total += 1
            near = [d for d in found if abs(d.centre[0] - x) < 15 and abs(d.centre[1] - y) < 15]
            if near:
                right += near[0].value == value
                crops.append(face_crop(frame, near[0].centre, near[0].size))
                confirmed.append(value)
        if crops:
            store.add_roll(crops, confirmed)
    return right, total


def blank_head(model: str = "") -> TaughtHead:
    """A taught head that changes nothing (all zeros), saved as if taught on ``model``."""
    size = FEATURES
    return TaughtHead(np.zeros(size), np.ones(size), np.zeros((size, 6)), np.zeros(6), model=model)
