"""Watch the Hamster Wheel from above: where it is, how far it has turned, what fell out.

All measurements are made in the table plane after the homography (table units = belt
cells), where the wheel's rim is a true circle and an in-plane angle is just ``atan2``.
The angle is the direction from the wheel's centre to the rim marker, in degrees 0..360,
0 along the table's +x (from marker 10 towards marker 11) and growing clockwise as seen
from the camera (the table's y axis points from marker 10 towards marker 13).
The spokes give the fine angle; the rim marker only says which spoke gap is which, so the
marker must be stuck midway between two spokes (the sheet says so).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.tabletop import (  # the layout, shared with the simulator
    DEFAULT_DIVISIONS as DEFAULT_DIVISIONS,
)
from companion.tabletop import (
    RIM_MARKER_ID as RIM_MARKER_ID,
)
from companion.tabletop import (
    TABLE_MARKER_INSET as TABLE_MARKER_INSET,
)
from companion.tabletop import (
    TABLE_MARKER_LAYOUT as TABLE_MARKER_LAYOUT,
)
from companion.tabletop import (
    TABLE_MARKER_SIDE as TABLE_MARKER_SIDE,
)
from companion.tabletop import (
    TABLE_SIZE as TABLE_SIZE,
)
from companion.tabletop import (
    MarkerLayout as MarkerLayout,
)
from companion.tabletop import (
    table_marker_layout as table_marker_layout,
)
from companion.vision.board import hue_distance, skin_mask, warp_plane

PIXELS_PER_UNIT = 24
# Fallen pieces are ~0.5 units across; anything much smaller is noise or a piece's rim.
PIECE_AREA = 0.2
MIN_PIECE_AREA = 0.07
MIN_HAND_UNITS = 0.35

Image = NDArray[np.uint8]
FloatImage = NDArray[np.float32]

# OpenCV hue windows of the seven coloured piece sets; white and black are found by
# brightness against the table instead, because they have no hue.
PIECE_HUES: Mapping[str, tuple[float, float]] = {
    "red": (179.0, 6.0),
    "orange": (13.0, 5.0),
    "yellow": (27.0, 6.0),
    "green": (62.0, 16.0),
    "blue": (108.0, 12.0),
    "purple": (145.0, 12.0),
}
WHEEL_PIECE_NAMES = (*PIECE_HUES, "white", "black")


@dataclass(frozen=True)
class WheelReading:
    """One frame's view of the wheel; ``blocked`` frames carry no measurement."""

    blocked: bool
    reason: str = ""
    centre: tuple[float, float] = (0.0, 0.0)
    radius: float = 0.0
    angle_deg: float = 0.0
    fallen: dict[str, int] = field(default_factory=dict)

    @property
    def fallen_total(self) -> int:
        return sum(self.fallen.values())


def _fit_circle(points: NDArray[np.float64]) -> tuple[float, float, float]:
    """Least-squares circle through ``points`` (N x 2): (cx, cy, r)."""
    x, y = points[:, 0], points[:, 1]
    design = np.column_stack([x, y, np.ones_like(x)])
    rhs = x * x + y * y
    (a, b, c), *_ = np.linalg.lstsq(design, rhs, rcond=None)
    cx, cy = a / 2.0, b / 2.0
    return float(cx), float(cy), float(math.sqrt(max(c + cx * cx + cy * cy, 0.0)))


def _robust_circle(points: NDArray[np.float64]) -> tuple[float, float, float]:
    """Circle fit that drops points far from the rim (pieces touching the wheel, hands)."""
    keep = points
    cx, cy, r = _fit_circle(keep)
    for tolerance in (6.0, 3.0, 1.5):
        residual = np.abs(np.hypot(points[:, 0] - cx, points[:, 1] - cy) - r)
        keep = points[residual < tolerance]
        if len(keep) < 20:
            break
        cx, cy, r = _fit_circle(keep)
    return cx, cy, r


def _darkness(gray: Image) -> FloatImage:
    """How much darker than the surrounding table each pixel is (0 = table, 1 = black).

    A closing with a kernel wider than the rim and spokes estimates the table's local
    brightness, so a light gradient or a soft shadow does not read as wood.
    """
    background = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, np.ones((21, 21), np.uint8))
    background = cv2.GaussianBlur(background, (0, 0), 3.0)
    ratio = gray.astype(np.float32) / np.maximum(background.astype(np.float32), 1.0)
    result: FloatImage = np.clip(1.0 - ratio, 0.0, 1.0)
    return result


def _sample_ring(
    image: FloatImage, centre: tuple[float, float], radii: NDArray[np.float64], samples: int
) -> NDArray[np.float64]:
    """Mean of ``image`` along circles of ``radii`` at ``samples`` evenly spaced angles."""
    angles = np.arange(samples) * (2 * np.pi / samples)
    xs = (centre[0] + np.outer(radii, np.cos(angles))).astype(np.float32)
    ys = (centre[1] + np.outer(radii, np.sin(angles))).astype(np.float32)
    values = cv2.remap(image, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    result: NDArray[np.float64] = values.astype(np.float64).mean(axis=0)
    return result


def _find_wheel(darkness: FloatImage) -> tuple[float, float, float] | None:
    """Centre and outer radius (pixels) of the biggest dark ring in the rectified table."""
    mask = (darkness > 0.35).astype(np.uint8) * 255
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)), np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    biggest = max(contours, key=cv2.contourArea)
    if cv2.contourArea(biggest) < 2.0 * PIXELS_PER_UNIT**2:
        return None
    return _robust_circle(biggest.reshape(-1, 2).astype(np.float64))


def _spoke_phase(darkness: FloatImage, centre: tuple[float, float], radius: float, n: int) -> float:
    """Angle (degrees, modulo 360/n) of the spokes, from the n-th Fourier term around the hub."""
    samples = 720
    profile = _sample_ring(darkness, centre, radius * np.linspace(0.3, 0.55, 6), samples)
    angles = np.arange(samples) * (2 * np.pi / samples)
    term = np.sum(profile * np.exp(-1j * n * angles))
    # A spoke at phase p contributes exp(-i n p), so the term's argument is -n * phase.
    return float(-math.degrees(np.angle(term)) / n) % (360.0 / n)


def _rim_marker_angle(darkness: FloatImage, centre: tuple[float, float], radius: float) -> float:
    """Coarse angle of the brightest patch on the dark rim (the rim marker)."""
    samples = 360
    band = radius * np.linspace(0.9, 0.97, 3)
    profile = _sample_ring(darkness, centre, band, samples)
    smooth = np.convolve(
        np.concatenate([profile[-3:], profile, profile[:3]]), np.ones(7) / 7, "valid"
    )
    return float(np.argmin(smooth)) * 360.0 / samples


def _count_pieces(mask: Image) -> int:
    """Pieces in a binary mask, by blob, counting touching pieces by their area.

    A small opening first drops speckle and the half-coloured rims between two pieces.
    """
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    piece = PIECE_AREA * PIXELS_PER_UNIT**2
    total = 0
    for area in stats[1:count, cv2.CC_STAT_AREA]:
        if area >= MIN_PIECE_AREA * PIXELS_PER_UNIT**2:
            total += max(1, round(float(area) / piece))
    return total


def count_fallen(rectified: Image, outside: Image) -> dict[str, int]:
    """Pieces of each colour lying in the ``outside`` mask (table minus wheel and markers)."""
    hsv = cv2.cvtColor(rectified, cv2.COLOR_BGR2HSV)
    hue = hsv[..., 0].astype(np.float32)
    vivid = (hsv[..., 1] >= 120) & (hsv[..., 2] >= 60) & (outside > 0)
    counts: dict[str, int] = {}
    for name, (centre, tolerance) in PIECE_HUES.items():
        mask = (vivid & (hue_distance(hue, centre) <= tolerance)).astype(np.uint8) * 255
        counts[name] = _count_pieces(mask)
    value = hsv[..., 2]
    # The table's own brightness here: a median over a window several pieces wide ignores
    # the pieces themselves (unlike a morphological opening, which keeps dark blobs).
    # Done at quarter size: the table's brightness changes slowly and this is 16x cheaper.
    height, width = value.shape
    small = cv2.resize(value, (width // 4, height // 4), interpolation=cv2.INTER_AREA)
    table = cv2.resize(cv2.medianBlur(small, 9), (width, height)).astype(np.float32)
    grey = (hsv[..., 1] < 70) & (outside > 0)
    white = (grey & (value > 1.4 * table)).astype(np.uint8) * 255
    black = (grey & (value < 0.5 * table)).astype(np.uint8) * 255
    counts["white"] = _count_pieces(white)
    counts["black"] = _count_pieces(black)
    return counts


def _outside_mask(
    shape: tuple[int, int],
    centre: tuple[float, float],
    radius: float,
    layout: MarkerLayout,
) -> Image:
    """Table pixels where a fallen piece can be: not the wheel, not a marker, not the edge."""
    ppu = PIXELS_PER_UNIT
    mask = np.full(shape, 255, np.uint8)
    edge = ppu // 6
    mask[:edge, :] = 0
    mask[-edge:, :] = 0
    mask[:, :edge] = 0
    mask[:, -edge:] = 0
    for x0, y0, side in layout.values():
        pad = 0.25
        top_left = (round((x0 - pad) * ppu), round((y0 - pad) * ppu))
        bottom_right = (round((x0 + side + pad) * ppu), round((y0 + side + pad) * ppu))
        cv2.rectangle(mask, top_left, bottom_right, (0,), -1)
    cv2.circle(
        mask, (round(centre[0]), round(centre[1])), round(radius + 0.15 * ppu), (0,), -1, cv2.LINE_8
    )
    return mask


def read_wheel(
    frame: Image,
    image_to_table: NDArray[np.float64] | None,
    *,
    divisions: int = DEFAULT_DIVISIONS,
    table_size: tuple[float, float] = TABLE_SIZE,
) -> WheelReading:
    """Measure the wheel and count the pieces outside it in one frame.

    ``image_to_table`` comes from the table's corner markers; None (markers hidden) blocks
    the view, as does a hand over the table, so a reaching arm never counts as a fall.
    """
    if image_to_table is None:
        return WheelReading(blocked=True, reason="table markers not visible")
    ppu = PIXELS_PER_UNIT
    rectified = warp_plane(frame, image_to_table, (0.0, 0.0, *table_size), ppu)
    rectified = np.asarray(cv2.medianBlur(rectified, 3), np.uint8)
    hsv = np.asarray(cv2.cvtColor(rectified, cv2.COLOR_BGR2HSV), np.uint8)
    if cv2.countNonZero(skin_mask(hsv)) >= MIN_HAND_UNITS * ppu * ppu:
        return WheelReading(blocked=True, reason="a hand is over the table")

    darkness = _darkness(np.asarray(cv2.cvtColor(rectified, cv2.COLOR_BGR2GRAY), np.uint8))
    circle = _find_wheel(darkness)
    if circle is None:
        return WheelReading(blocked=True, reason="wheel not found")
    cx, cy, radius = circle
    step = 360.0 / divisions
    spokes = _spoke_phase(darkness, (cx, cy), radius, divisions)
    coarse = _rim_marker_angle(darkness, (cx, cy), radius)
    # The marker sits midway between spokes: pick the mid-gap angle nearest the coarse one.
    mid_gap = spokes + step / 2.0
    turns = round((coarse - mid_gap) / step)
    angle = (mid_gap + turns * step) % 360.0

    outside = _outside_mask(darkness.shape[:2], (cx, cy), radius, _layout_for(table_size))
    return WheelReading(
        blocked=False,
        centre=(cx / ppu, cy / ppu),
        radius=radius / ppu,
        angle_deg=angle,
        fallen=count_fallen(rectified, outside),
    )


def _layout_for(table_size: tuple[float, float]) -> MarkerLayout:
    return TABLE_MARKER_LAYOUT if table_size == TABLE_SIZE else table_marker_layout(table_size)


def angle_difference(a_deg: float, b_deg: float) -> float:
    """Signed smallest rotation from ``b`` to ``a`` in degrees, in (-180, 180]."""
    diff = (a_deg - b_deg) % 360.0
    return diff - 360.0 if diff > 180.0 else diff


@dataclass
class WheelTracker:
    """Accumulates how far the wheel has rolled and how far it has wandered.

    Angles are unwrapped frame to frame (the wheel never turns half a revolution between
    two frames), so the total roll keeps growing past 360 degrees. Blocked frames are
    skipped: the next clear frame continues from the last good one.
    """

    table_centre: tuple[float, float] = (TABLE_SIZE[0] / 2.0, TABLE_SIZE[1] / 2.0)
    drift_warning: float = 3.0
    total_roll_deg: float = 0.0
    last: WheelReading | None = None

    def update(self, reading: WheelReading) -> None:
        if reading.blocked:
            return
        if self.last is not None:
            self.total_roll_deg += angle_difference(reading.angle_deg, self.last.angle_deg)
        self.last = reading

    @property
    def rolled_distance(self) -> float:
        """Distance the rim has travelled, in table units (roll times radius)."""
        radius = self.last.radius if self.last else 0.0
        return math.radians(abs(self.total_roll_deg)) * radius

    @property
    def drift(self) -> tuple[float, float]:
        """Offset of the wheel's centre from the table centre, in table units."""
        if self.last is None:
            return (0.0, 0.0)
        return (
            self.last.centre[0] - self.table_centre[0],
            self.last.centre[1] - self.table_centre[1],
        )

    @property
    def drifted_far(self) -> bool:
        """True when the players should push the wheel back towards the middle."""
        return math.hypot(*self.drift) > self.drift_warning
