"""Pieces with height, as a pinhole camera sees them: hamster pawns on the belt, the wheel
game's pieces on the table.

A flat token lies where it lies whatever the camera's height. A solid piece does not: seen
from a camera off to one side, its top stands over the table beyond its base and its sides
show, so its colour spills outward, the more so the lower the camera and the farther the
piece from the point under it. Drawing pieces solid lets the readers be judged on what
players actually put on a table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from hardware.simulator.common import BGR, Image, Point, _lighten, _shade
from hardware.simulator.pinhole import Pinhole

SHIFT = 4  # sub-pixel bits for cv2.fillPoly


@dataclass(frozen=True)
class Solid:
    """An upright prism (or cylinder, given many outline points): its outline on the
    table (table units), its height, its colour; ``top`` shrinks the top face (a pawn's
    rounded shoulder)."""

    outline: tuple[Point, ...]
    height: float
    colour: BGR
    top: float = 1.0

    @property
    def centre(self) -> Point:
        xs, ys = zip(*self.outline, strict=True)
        return (sum(xs) / len(xs), sum(ys) / len(ys))

    def face(self, z: float, scale: float) -> np.ndarray:
        """The outline at height ``z`` (world z is minus the height), scaled about the
        centre."""
        cx, cy = self.centre
        return np.array(
            [(cx + scale * (x - cx), cy + scale * (y - cy), z) for x, y in self.outline]
        )


def draw_solids(
    camera: Pinhole, solids: Sequence[Solid], size: tuple[int, int]
) -> tuple[Image, Image]:
    """The solids as the camera sees them: a colour layer and its coverage (0..255), drawn
    far to near so a nearer piece hides a farther one."""
    width, height = size
    canvas = np.zeros((height, width, 3), np.uint8)
    cover = np.zeros((height, width), np.uint8)

    def fill(points: np.ndarray, colour: BGR) -> None:
        outline = cv2.convexHull(camera.project(points).astype(np.float32))
        fixed = np.round(outline.reshape(-1, 2) * (1 << SHIFT)).astype(np.int32)
        # The colour to the edge, the edge's softness in the coverage only: the picture
        # blends the two, and a soft edge in both would darken it twice.
        cv2.fillPoly(canvas, [fixed], colour, cv2.LINE_8, SHIFT)
        cv2.fillPoly(cover, [fixed], (255,), cv2.LINE_AA, SHIFT)

    def distance(solid: Solid) -> float:
        """How far the piece stands from the point under the camera: the farther, the
        more a nearer one can hide it (its top leans away from that point)."""
        return float(np.hypot(*(np.array(solid.centre) - camera.centre[:2])))

    for solid in sorted(solids, key=lambda s: -distance(s)):
        base, top = solid.face(0.0, 1.0), solid.face(-solid.height, solid.top)
        fill(np.vstack([base, top]), _shade(solid.colour, 0.75))  # the sides, in shade
        fill(top, solid.colour)
        lit = solid.face(-solid.height, 0.25)
        reach = max(abs(x - solid.centre[0]) for x, _ in solid.outline)
        lit[:, :2] -= reach * 0.3
        fill(lit, _lighten(solid.colour, 0.25))
    return canvas, cover
