"""A raster of the table plane: board coordinates in, anti-aliased drawing out.

Every scene is drawn flat in the table plane first (cloth, markers, pieces) and only then
photographed (:mod:`hardware.simulator.camera`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from companion.tabletop import MarkerLayout
from hardware.simulator.common import (
    ARUCO_DICTIONARY,
    BGR,
    TABLE_COLOUR,
    Image,
    Point,
    TableTexture,
)


class _Plane:
    """A raster of the table plane: board coordinates in, anti-aliased drawing out."""

    SHIFT = 4

    def __init__(
        self,
        bounds: tuple[float, float, float, float],
        ppu: float,
        rng: np.random.Generator,
        table: BGR = TABLE_COLOUR,
        texture: TableTexture = "cloth",
    ):
        self.x0, self.y0, x1, y1 = bounds
        self.ppu = ppu
        self.table = table
        width, height = round((x1 - self.x0) * ppu), round((y1 - self.y0) * ppu)
        # The cloth's faint blotches: a coarse random tint, smoothly enlarged.
        blotches = np.array(table, np.float32) + rng.normal(0.0, 5.0, (6, 8, 1))
        coarse = np.clip(blotches, 0, 255).astype(np.uint8)
        self.image: Image = np.asarray(
            cv2.resize(coarse, (width, height), interpolation=cv2.INTER_CUBIC), np.uint8
        )
        if texture != "cloth":  # only then: the default cloth must draw exactly as before
            self.image = _table_texture(self.image, texture, ppu, rng)

    @classmethod
    def blank(cls, origin: Point, ppu: float, shape: tuple[int, int]) -> _Plane:
        """An empty one-channel raster on this plane's pixel grid, to draw masks on."""
        plane = cls.__new__(cls)
        plane.x0, plane.y0 = origin
        plane.ppu = ppu
        plane.table = TABLE_COLOUR
        plane.image = np.zeros(shape, np.uint8)
        return plane

    def px(self, point: Point) -> tuple[int, int]:
        scale = self.ppu * (1 << self.SHIFT)
        return round((point[0] - self.x0) * scale), round((point[1] - self.y0) * scale)

    def length(self, units: float) -> int:
        return max(1, round(units * self.ppu * (1 << self.SHIFT)))

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: BGR) -> None:
        corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        self.poly(corners, colour)

    def poly(self, points: Sequence[Point], colour: BGR) -> None:
        pts = np.array([self.px(p) for p in points], np.int32)
        cv2.fillConvexPoly(self.image, pts, colour, cv2.LINE_AA, self.SHIFT)

    def line(self, a: Point, b: Point, width: float, colour: BGR) -> None:
        thickness = max(1, round(width * self.ppu))
        cv2.line(self.image, self.px(a), self.px(b), colour, thickness, cv2.LINE_AA, self.SHIFT)

    def disc(self, centre: Point, radius: float, colour: BGR) -> None:
        cv2.circle(
            self.image, self.px(centre), self.length(radius), colour, -1, cv2.LINE_AA, self.SHIFT
        )

    def ring(self, centre: Point, radius: float, width: float, colour: BGR) -> None:
        thickness = max(1, round(width * self.ppu))
        cv2.circle(
            self.image,
            self.px(centre),
            self.length(radius),
            colour,
            thickness,
            cv2.LINE_AA,
            self.SHIFT,
        )

    def marker(
        self, marker_id: int, x0: float, y0: float, side: float, angle_deg: float = 0.0
    ) -> None:
        """An ArUco marker with its white quiet zone, rotated about its centre."""
        quiet = side / 6.0
        cells = 8  # 4x4 bits + black border + white quiet zone
        bits = cv2.aruco.generateImageMarker(
            cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY), marker_id, 6, borderBits=1
        )
        patch = np.full((cells, cells), 255, np.uint8)
        patch[1:7, 1:7] = bits
        centre = (x0 + side / 2.0, y0 + side / 2.0)
        half = side / 2.0 + quiet
        colour_patch = np.asarray(cv2.cvtColor(patch, cv2.COLOR_GRAY2BGR), np.uint8)
        self._paste(colour_patch, centre, half, angle_deg)

    def marker_box(
        self, marker_id: int, centre: Point, half_u: float, half_v: float, angle_deg: float
    ) -> None:
        """A marker squeezed to ``2 half_u`` by ``2 half_v`` (quiet zone included), as a
        square sticker looks on a curved surface seen at a slant."""
        bits = cv2.aruco.generateImageMarker(
            cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY), marker_id, 6, borderBits=1
        )
        patch = np.full((8, 8), 255, np.uint8)
        patch[1:7, 1:7] = bits
        colour_patch = np.asarray(cv2.cvtColor(patch, cv2.COLOR_GRAY2BGR), np.uint8)
        self._paste(colour_patch, centre, half_u, angle_deg, half_v)

    def _paste(
        self,
        patch: Image,
        centre: Point,
        half: float,
        angle_deg: float,
        half_v: float | None = None,
    ) -> None:
        """Warp a square patch onto the plane, sharp-edged (printed ink has no gradient)."""
        c, s = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
        hv = half if half_v is None else half_v
        offsets = [(-half, -hv), (half, -hv), (half, hv), (-half, hv)]
        corners = np.array(
            [
                (
                    (centre[0] + dx * c - dy * s - self.x0) * self.ppu,
                    (centre[1] + dx * s + dy * c - self.y0) * self.ppu,
                )
                for dx, dy in offsets
            ],
            np.float32,
        )
        n = patch.shape[0]
        # Pixel j of the patch spans j-0.5..j+0.5, so its outer corners sit at -0.5 and n-0.5.
        source = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32) - 0.5
        x_min, y_min = np.floor(corners.min(axis=0)).astype(int)
        x_max, y_max = np.ceil(corners.max(axis=0)).astype(int)
        x_min, y_min = max(x_min, 0), max(y_min, 0)
        x_max = min(x_max, self.image.shape[1])
        y_max = min(y_max, self.image.shape[0])
        if x_max <= x_min or y_max <= y_min:
            return
        shifted = corners - np.array([x_min, y_min], np.float32)
        warp = cv2.getPerspectiveTransform(source, shifted)
        size = (int(x_max - x_min), int(y_max - y_min))
        drawn = cv2.warpPerspective(patch, warp, size, flags=cv2.INTER_NEAREST)
        cover = cv2.warpPerspective(
            np.full((n, n), 255, np.uint8), warp, size, flags=cv2.INTER_NEAREST
        )
        roi = self.image[y_min:y_max, x_min:x_max]
        roi[cover > 0] = drawn[cover > 0]


def _draw_markers(plane: _Plane, layout: MarkerLayout) -> None:
    for marker_id, (x0, y0, side) in layout.items():
        plane.marker(marker_id, x0, y0, side)


def _table_texture(
    image: Image, texture: TableTexture, ppu: float, rng: np.random.Generator
) -> Image:
    """Wood grain (wavy bands along the table's length) or felt fuzz (fine speckle) over
    the table colour, so the dice reader cannot lean on a smooth background."""
    height, width = image.shape[:2]
    base = image.astype(np.float32)
    if texture == "wood":
        ys = np.arange(height, dtype=np.float32)[:, None] / ppu
        xs = np.arange(width, dtype=np.float32)[None, :] / ppu
        coarse = rng.normal(0.0, 1.0, (4, 10)).astype(np.float32)
        wander = np.asarray(
            cv2.resize(coarse, (width, height), interpolation=cv2.INTER_CUBIC), np.float32
        )
        period = float(rng.uniform(0.12, 0.25))
        rings = np.sin(2 * math.pi * (ys + 0.06 * wander + 0.004 * xs) / period)
        grain = np.abs(rings) ** 6  # thin dark late-wood lines, not even waves
        streaks = rng.normal(0.0, 1.0, (max(1, height // 2), 1)).astype(np.float32)
        fibres = np.asarray(
            cv2.resize(streaks, (width, height), interpolation=cv2.INTER_LINEAR), np.float32
        )
        factor = 1.0 - 0.12 * grain + 0.035 * fibres + 0.03 * wander
    else:  # felt
        speckle = rng.normal(0.0, 1.0, (height, width)).astype(np.float32)
        speckle = np.asarray(cv2.GaussianBlur(speckle, (0, 0), 0.8), np.float32)
        factor = 1.0 + 0.10 * speckle
    return np.asarray(np.clip(base * factor[..., None], 0, 255), np.uint8)
