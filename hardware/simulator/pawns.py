"""Hamsters as pawns standing on the belt, as a pinhole camera sees them.

A flat token lies in its square whatever the camera's height. A pawn does not: seen from a
camera off to one side, its top stands over the table beyond its base, so its colour
spills outward across the line into the next square, the more so the lower the camera and
the farther the pawn from the point under it. Drawing pawns lets the belt reader be judged
on what players actually stand on a belt.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from hardware.simulator.belt import Piece
from hardware.simulator.common import Image, _lighten, _shade
from hardware.simulator.pinhole import Pinhole

SHIFT = 4  # sub-pixel bits for cv2.fillPoly
ROUND = 24  # points on a pawn's circle


def draw_pawns(
    camera: Pinhole, pieces: Sequence[Piece], tall: float, size: tuple[int, int]
) -> tuple[Image, Image]:
    """Each piece as an upright cylinder ``tall`` table units high: a colour layer and its
    coverage (0..255), drawn far to near so a nearer pawn hides a farther one."""
    width, height = size
    canvas = np.zeros((height, width, 3), np.uint8)
    cover = np.zeros((height, width), np.uint8)
    turns = np.linspace(0.0, 2.0 * math.pi, ROUND, endpoint=False)

    def ring(piece: Piece, z: float, radius: float) -> np.ndarray:
        x = piece.centre[0] + radius * np.cos(turns)
        y = piece.centre[1] + radius * np.sin(turns)
        return np.column_stack([x, y, np.full(ROUND, z)])

    def fill(points: np.ndarray, colour: tuple[int, int, int]) -> None:
        outline = cv2.convexHull(camera.project(points).astype(np.float32))
        fixed = np.round(outline.reshape(-1, 2) * (1 << SHIFT)).astype(np.int32)
        cv2.fillPoly(canvas, [fixed], colour, cv2.LINE_AA, SHIFT)
        cv2.fillPoly(cover, [fixed], (255,), cv2.LINE_AA, SHIFT)

    far_first = sorted(
        pieces, key=lambda p: -float(camera.depth(np.array([[*p.centre, -tall]]))[0])
    )
    for piece in far_first:
        base, top = ring(piece, 0.0, piece.radius), ring(piece, -tall, piece.radius * 0.9)
        fill(np.vstack([base, top]), _shade(piece.colour, 0.75))  # the sides, in shade
        fill(top, piece.colour)
        lit = ring(piece, -tall, piece.radius * 0.25)
        lit[:, :2] -= piece.radius * 0.3
        fill(lit, _lighten(piece.colour, 0.25))
    return canvas, cover
