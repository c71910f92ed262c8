"""Synthetic overhead frames of the game table, with the ground truth that produced them.

Tests, the bench and the demo mode need camera frames whose answer is known. A scene is
plain data (belt, dice or wheel); it is drawn flat in the table plane, then seen through a
random camera pose (a homography), uneven light, soft shadows, sensor noise and sometimes a
hand reaching in. Every random choice comes from the caller's seeded Generator, so a
failing frame can be rebuilt exactly from its seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.tabletop import (
    ASTERISK_MARKER_IDS,
    BELT_X0,
    BELT_X1,
    BELT_Y0,
    BELT_Y1,
    BOARD_MARKER_LAYOUT,
    LANES,
    RIM_MARKER_FILL,
    RIM_MARKER_IDS,
    ROWS,
    TABLE_MARKER_LAYOUT,
    TABLE_SIZE,
    WHEEL_DEPTH,
    WHEEL_RADIUS,
    MarkerLayout,
    table_marker_layout,
)

BGR = tuple[int, int, int]
Image = NDArray[np.uint8]
Homography = NDArray[np.float64]
Point = tuple[float, float]

HAMSTER_COLOURS: Mapping[str, BGR] = {
    "red": (45, 35, 200),
    "blue": (200, 90, 30),
    "yellow": (30, 210, 230),
    "green": (60, 160, 40),
    "purple": (150, 40, 130),
}
WHEEL_PIECE_COLOURS: Mapping[str, BGR] = {
    "red": (40, 30, 205),
    "orange": (20, 125, 250),
    "yellow": (30, 210, 230),
    "green": (60, 160, 40),
    "blue": (200, 90, 30),
    "purple": (150, 40, 130),
    "white": (238, 238, 235),
    "black": (28, 28, 30),
}
SKIN_TONES: tuple[BGR, ...] = ((165, 185, 232), (125, 155, 210), (85, 110, 160))
TABLE_COLOUR: BGR = (122, 118, 112)
STRIP_COLOUR: BGR = (200, 200, 196)
PIT_COLOUR: BGR = (72, 78, 70)
INK: BGR = (35, 35, 38)
WOOD: BGR = (52, 52, 58)
ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50


@dataclass(frozen=True)
class Conditions:
    """How the camera sees the table: everything that makes a frame hard to read."""

    size: tuple[int, int] = (640, 480)
    perspective: float = 0.0  # 0 = straight overhead; 1 = the strongest tilt and rotation
    uneven_light: float = 0.0  # 0 = even; 1 = the far side gets half the light
    noise: float = 0.0  # sensor noise, standard deviation in grey levels
    shadows: int = 0  # soft shadows cast by things off the table
    hand: bool = False  # a hand reaches in over the play area
    board_to_image: tuple[tuple[float, ...], ...] | None = None  # reuse a camera pose

    @classmethod
    def random(
        cls, rng: np.random.Generator, size: tuple[int, int] = (640, 480), hand_chance: float = 0.3
    ) -> Conditions:
        """A random mix of the hard cases, the way the 500-frame checks draw them."""
        return cls(
            size=size,
            perspective=float(rng.uniform(0.0, 1.0)),
            uneven_light=float(rng.uniform(0.0, 1.0)),
            noise=float(rng.uniform(0.0, 8.0)),
            shadows=int(rng.integers(0, 4)),
            hand=bool(rng.random() < hand_chance),
        )


@dataclass(frozen=True)
class BeltScene:
    """Run, Hamster, Run!: hamster colour -> (row, lane) or "pit"; where the asterisks are."""

    hamsters: Mapping[str, tuple[int, int] | Literal["pit"]]
    asterisk_row: int = 5
    asterisk_markers: bool = False  # stickers 4 and 5 from the marker sheet on its end tabs


DieStyle = Literal["plain", "marbled", "translucent"]
DIE_STYLES: tuple[DieStyle, ...] = ("plain", "marbled", "translucent")
TableTexture = Literal["cloth", "wood", "felt"]


@dataclass(frozen=True)
class Die:
    """One die lying on the table, in table units (a die's edge is ``size``)."""

    value: int
    centre: Point
    angle_deg: float = 0.0
    size: float = 1.0
    colour: BGR = (235, 235, 235)
    pip_colour: BGR = (20, 20, 20)
    # The looks players' dice really have; the defaults draw the flat plain die of old.
    style: DieStyle = "plain"
    streaks: tuple[BGR, ...] = ()  # marbled: the swirl colours laid over ``colour``
    see_through: float = 0.45  # translucent: share of the table that shows through the body
    pattern_seed: int = 0  # marbled: which swirl (a seed, so the scene stays plain data)


@dataclass(frozen=True)
class DiceScene:
    """Dice on a bare table of ``table_size`` die edges; ``markers`` adds corners 10..13.

    ``table_colour`` None keeps the grey cloth of ``TABLE_COLOUR``; ``table_texture`` adds
    wood grain or felt fuzz to whichever colour the table is.
    """

    dice: tuple[Die, ...]
    table_size: tuple[float, float] = (12.0, 9.0)
    markers: bool = False
    table_colour: BGR | None = None
    table_texture: TableTexture = "cloth"


PieceShape = Literal["disc", "square", "triangle"]
PIECE_SHAPES: tuple[PieceShape, ...] = ("disc", "square", "triangle")


@dataclass(frozen=True)
class WheelPiece:
    """A piece of the wheel game (a ``WHEEL_PIECE_COLOURS`` name) lying flat, table units."""

    colour: str
    centre: Point
    shape: PieceShape = "disc"
    angle_deg: float = 0.0


@dataclass(frozen=True)
class WheelScene:
    """The upright ring seen from above on a table of ``TABLE_SIZE`` with markers 10..13.

    ``heading_deg`` is the direction the band's long side points (the rim strip's ids rise
    along it), ``angle_deg`` the rim's angle; ``parallax`` is where the ring's top, a
    diameter above the table, appears shifted when the camera is a little off vertical.
    """

    centre: Point = (TABLE_SIZE[0] / 2.0, TABLE_SIZE[1] / 2.0)
    heading_deg: float = 0.0
    angle_deg: float = 0.0
    radius: float = WHEEL_RADIUS
    depth: float = WHEEL_DEPTH
    parallax: Point = (0.0, 0.0)
    outside: tuple[WheelPiece, ...] = ()
    inside: tuple[str, ...] = ()  # colours of pieces glimpsed through the open sides


@dataclass(frozen=True)
class DieTruth:
    """Where a die ended up in the image, for scoring a dice reader."""

    value: int
    centre: Point  # image pixels
    corners: NDArray[np.float64]  # 4 x 2 image pixels


@dataclass(frozen=True)
class Rendered:
    """A frame plus what it shows: the camera pose and where the hand is."""

    frame: Image
    board_to_image: Homography
    hand_mask: Image
    hand_over_board: bool
    dice: tuple[DieTruth, ...] = field(default=())

    @property
    def image_to_board(self) -> Homography:
        return np.asarray(np.linalg.inv(self.board_to_image), np.float64)


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


def _shade(colour: BGR, factor: float) -> BGR:
    b, g, r = (min(255, max(0, round(channel * factor))) for channel in colour)
    return (b, g, r)


def _lighten(colour: BGR, amount: float) -> BGR:
    b, g, r = (round(channel + (255 - channel) * amount) for channel in colour)
    return (b, g, r)


def _draw_markers(plane: _Plane, layout: MarkerLayout) -> None:
    for marker_id, (x0, y0, side) in layout.items():
        plane.marker(marker_id, x0, y0, side)


def _draw_piece(plane: _Plane, centre: Point, radius: float, colour: BGR) -> None:
    """A round wooden piece from above: a darker edge, the body, a soft highlight."""
    plane.disc((centre[0] + 0.04, centre[1] + 0.05), radius, _shade(TABLE_COLOUR, 0.7))
    plane.disc(centre, radius, _shade(colour, 0.8))
    plane.disc(centre, radius * 0.84, colour)
    plane.disc(
        (centre[0] - radius * 0.3, centre[1] - radius * 0.3), radius * 0.22, _lighten(colour, 0.25)
    )


def _draw_asterisk(plane: _Plane, centre: Point, size: float) -> None:
    for k in range(3):
        angle = math.pi / 2 + k * math.pi / 3
        dx, dy = math.cos(angle) * size / 2, math.sin(angle) * size / 2
        plane.line((centre[0] - dx, centre[1] - dy), (centre[0] + dx, centre[1] + dy), 0.07, INK)


def _draw_belt(plane: _Plane, scene: BeltScene, rng: np.random.Generator) -> None:
    plane.rect(BELT_X0 - 0.05, BELT_Y0 - 0.05, BELT_X1 + 0.05, BELT_Y1 + 0.05, (60, 60, 62))
    plane.rect(BELT_X0, BELT_Y0, BELT_X1, BELT_Y0 + 1, PIT_COLOUR)
    for k in range(4):
        y = BELT_Y0 + 0.2 + 0.2 * k
        plane.line((0.2, y), (LANES - 0.2, y), 0.03, _shade(PIT_COLOUR, 1.25))
    for row in range(1, ROWS + 1):
        tone = float(rng.uniform(0.96, 1.03))
        plane.rect(BELT_X0, row, BELT_X1, row + 1, _shade(STRIP_COLOUR, tone))
        plane.line((BELT_X0, row), (BELT_X1, row), 0.05, (70, 70, 72))
        for lane_edge in range(LANES + 1):
            plane.line((lane_edge, row), (lane_edge, row + 1), 0.03, (95, 95, 98))
    for x in (BELT_X0 + 0.25, BELT_X1 - 0.25):
        _draw_asterisk(plane, (x, scene.asterisk_row + 0.5), 0.36)
    if scene.asterisk_markers:
        side = 0.4
        for marker_id, x in zip(ASTERISK_MARKER_IDS, (BELT_X0, BELT_X1 - 0.5), strict=True):
            plane.marker(marker_id, x + 0.05, scene.asterisk_row + 0.55, side)

    pit_xs: list[float] = []
    for colour, where in scene.hamsters.items():
        radius = float(rng.uniform(0.28, 0.32))
        if where == "pit":
            x = _free_pit_x(pit_xs, rng)
            pit_xs.append(x)
            centre = (x, BELT_Y0 + 0.5 + float(rng.uniform(-0.1, 0.1)))
        else:
            row, lane = where
            jitter = rng.uniform(-0.1, 0.1, 2)
            centre = (lane - 0.5 + float(jitter[0]), row + 0.5 + float(jitter[1]))
        _draw_piece(plane, centre, radius, HAMSTER_COLOURS[colour])


def _free_pit_x(taken: list[float], rng: np.random.Generator) -> float:
    for _ in range(100):
        x = float(rng.uniform(0.45, LANES - 0.45))
        if all(abs(x - other) > 0.75 for other in taken):
            return x
    raise ValueError("Too many hamsters in the Pit to draw them apart.")


def _camera_pose(
    region: tuple[float, float, float, float],
    size: tuple[int, int],
    perspective: float,
    rng: np.random.Generator,
) -> Homography:
    """A random board-to-image homography that keeps ``region`` inside the frame.

    The region's long side follows the frame's long side (how anyone would mount the
    camera), turned either way round, then rotated, scaled and tilted within limits.
    """
    x0, y0, x1, y1 = region
    width, height = size
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    centred = corners - corners.mean(axis=0)
    turn = (math.pi / 2 if (y1 - y0 > x1 - x0) == (width > height) else 0.0) + (
        math.pi if rng.random() < 0.5 else 0.0
    )
    turn += math.radians(float(rng.uniform(-12.0, 12.0)) * perspective)
    rotation = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    turned = centred @ rotation.T
    span = turned.max(axis=0) - turned.min(axis=0)
    scale = float(rng.uniform(0.8, 0.9)) * min(width / span[0], height / span[1])
    tilt = rng.uniform(-1.0, 1.0, (4, 2)) * perspective * 0.07 * min(width, height)
    image_corners = turned * scale + np.array([width / 2, height / 2]) + tilt
    slack = np.array([width, height]) - (image_corners.max(axis=0) - image_corners.min(axis=0))
    offset = rng.uniform(-0.4, 0.4, 2) * np.maximum(slack, 0) / 2
    image_corners += offset
    pose: Homography = cv2.getPerspectiveTransform(
        corners.astype(np.float32), image_corners.astype(np.float32)
    ).astype(np.float64)
    return pose


def _pixels_per_unit(pose: Homography, region: tuple[float, float, float, float]) -> float:
    """Average image pixels per table unit over ``region`` (from its projected area)."""
    x0, y0, x1, y1 = region
    corners = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64)
    projected = cv2.perspectiveTransform(corners, pose)[0].astype(np.float32)
    return math.sqrt(abs(cv2.contourArea(projected)) / ((x1 - x0) * (y1 - y0)))


def _int_point(point: NDArray[np.float64]) -> tuple[int, int]:
    return round(float(point[0])), round(float(point[1]))


def _hand(
    size: tuple[int, int], target: Point, unit: float, rng: np.random.Generator
) -> tuple[Image, Image]:
    """A hand (palm, fingers, forearm to the nearest frame edge) as a colour layer and mask."""
    width, height = size
    mask = np.zeros((height, width), np.uint8)
    tx, ty = target
    edges = {(tx, -unit * 4): ty, (tx, height + unit * 4): height - ty, (-unit * 4, ty): tx}
    edges[(width + unit * 4, ty)] = width - tx
    elbow = min(edges, key=lambda point: edges[point])
    direction = np.array([tx - elbow[0], ty - elbow[1]], np.float64)
    direction /= np.linalg.norm(direction) + 1e-9
    angle = math.degrees(math.atan2(direction[1], direction[0]))
    palm = (int(tx), int(ty))
    cv2.line(mask, (int(elbow[0]), int(elbow[1])), palm, (255,), int(unit * 1.5))
    cv2.ellipse(mask, palm, (int(unit * 1.0), int(unit * 0.85)), angle, 0, 360, (255,), -1)
    spread = float(rng.uniform(8.0, 18.0))
    for k in range(4):
        finger_angle = math.radians(angle + (k - 1.5) * spread)
        length = unit * float(rng.uniform(0.9, 1.3))
        base = np.array(palm, np.float64) + unit * 0.7 * np.array(
            [math.cos(finger_angle), math.sin(finger_angle)]
        )
        tip = base + length * np.array([math.cos(finger_angle), math.sin(finger_angle)])
        finger = max(2, int(unit * 0.32))
        cv2.line(mask, _int_point(base), _int_point(tip), (255,), finger)
    thumb_angle = math.radians(angle + (70 if rng.random() < 0.5 else -70))
    thumb = np.array(palm, np.float64) + unit * 1.2 * np.array(
        [math.cos(thumb_angle), math.sin(thumb_angle)]
    )
    cv2.line(mask, palm, _int_point(thumb), (255,), max(2, int(unit * 0.35)))
    tone = np.array(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], np.float32)
    tone *= np.float32(rng.uniform(0.92, 1.08))
    shading = _soft(mask.astype(np.float32) / 255.0, unit * 0.4)
    colour = tone[None, None, :] * (0.75 + 0.3 * shading[..., None])
    return np.clip(colour, 0, 255).astype(np.uint8), mask


def _soft(layer: NDArray[np.float32], sigma: float) -> NDArray[np.float32]:
    """A wide Gaussian blur done at low resolution: soft light needs no fine detail."""
    height, width = layer.shape
    factor = max(1, int(sigma // 3))
    small = cv2.resize(
        layer, (max(1, width // factor), max(1, height // factor)), interpolation=cv2.INTER_AREA
    )
    small = cv2.GaussianBlur(small, (0, 0), sigma / factor)
    return np.asarray(
        cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR), np.float32
    )


def _finish(
    plane: _Plane,
    pose: Homography,
    conditions: Conditions,
    play_area: tuple[float, float, float, float],
    rng: np.random.Generator,
) -> Rendered:
    """Photograph the plane: warp, light, shadows, hand, optics and sensor noise."""
    width, height = conditions.size
    plane_to_board = np.array(
        [[1 / plane.ppu, 0, plane.x0], [0, 1 / plane.ppu, plane.y0], [0, 0, 1]]
    )
    frame = cv2.warpPerspective(
        plane.image,
        pose @ plane_to_board,
        (width, height),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    ).astype(np.float32)

    light = np.ones((height, width), np.float32)
    if conditions.uneven_light > 0:
        direction = rng.normal(size=2)
        direction /= np.linalg.norm(direction)
        xs = np.arange(width, dtype=np.float32)[None, :] - width / 2
        ys = np.arange(height, dtype=np.float32)[:, None] - height / 2
        ramp = xs * np.float32(direction[0]) + ys * np.float32(direction[1])
        ramp = (ramp - ramp.min()) / max(float(ramp.max() - ramp.min()), 1.0)
        light *= 1.1 - conditions.uneven_light * 0.5 * ramp
    unit = _pixels_per_unit(pose, play_area)
    for _ in range(conditions.shadows):
        shadow = np.zeros((height, width), np.float32)
        centre = (int(rng.uniform(0, width)), int(rng.uniform(0, height)))
        axes = (int(rng.uniform(1.0, 4.0) * unit), int(rng.uniform(0.7, 2.5) * unit))
        cv2.ellipse(shadow, centre, axes, float(rng.uniform(0, 180)), 0, 360, (1.0,), -1)
        shadow = _soft(shadow, unit * float(rng.uniform(0.4, 1.0)))
        light *= 1.0 - float(rng.uniform(0.2, 0.4)) * shadow

    hand_mask = np.zeros((height, width), np.uint8)
    if conditions.hand:
        x0, y0, x1, y1 = play_area
        spot = np.array([[[rng.uniform(x0 - 0.5, x1 + 0.5), rng.uniform(y0 - 0.5, y1 + 0.5)]]])
        target = cv2.perspectiveTransform(spot, pose)[0, 0]
        skin, hand_mask = _hand((width, height), (float(target[0]), float(target[1])), unit, rng)
        offset = (int(unit * 0.3), int(unit * 0.3))
        cast = _soft(np.roll(hand_mask, offset, (0, 1)).astype(np.float32) / 255.0, unit * 0.3)
        light *= 1.0 - 0.35 * cast
        frame = frame * light[..., None]
        inside = hand_mask > 0
        frame[inside] = skin[inside].astype(np.float32) * (0.5 + 0.5 * light[inside][:, None])
    else:
        frame = frame * light[..., None]

    frame = np.asarray(cv2.GaussianBlur(frame, (0, 0), 0.6), np.float32)
    if conditions.noise > 0:
        frame += rng.standard_normal(frame.shape, dtype=np.float32) * np.float32(conditions.noise)
    image = np.clip(frame, 0, 255).astype(np.uint8)
    return Rendered(
        frame=image,
        board_to_image=pose,
        hand_mask=hand_mask,
        hand_over_board=_covers(hand_mask, pose, play_area),
    )


def _covers(mask: Image, pose: Homography, area: tuple[float, float, float, float]) -> bool:
    if not mask.any():
        return False
    x0, y0, x1, y1 = area
    corners = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64)
    polygon = cv2.perspectiveTransform(corners, pose)[0].astype(np.int32)
    area_mask = np.zeros_like(mask)
    cv2.fillConvexPoly(area_mask, polygon, (255,))
    return bool(cv2.countNonZero(cv2.bitwise_and(mask, area_mask)))


def _pose_for(
    conditions: Conditions, region: tuple[float, float, float, float], rng: np.random.Generator
) -> Homography:
    if conditions.board_to_image is not None:
        return np.array(conditions.board_to_image, np.float64)
    return _camera_pose(region, conditions.size, conditions.perspective, rng)


def _plane_for(
    pose: Homography,
    region: tuple[float, float, float, float],
    rng: np.random.Generator,
    table: BGR = TABLE_COLOUR,
    texture: TableTexture = "cloth",
) -> _Plane:
    """A plane raster a little sharper than the camera will see it, with a table margin."""
    ppu = min(1.3 * _pixels_per_unit(pose, region), 120.0)
    x0, y0, x1, y1 = region
    return _Plane((x0 - 1.0, y0 - 1.0, x1 + 1.0, y1 + 1.0), ppu, rng, table, texture)


BELT_REGION = (BELT_X0 - 1.6, BELT_Y0 - 1.6, BELT_X1 + 1.6, BELT_Y1 + 1.6)


def render_belt(scene: BeltScene, rng: np.random.Generator, conditions: Conditions) -> Rendered:
    """The belt with its corner markers, asterisk strip and hamsters, as the camera sees it."""
    pose = _pose_for(conditions, BELT_REGION, rng)
    plane = _plane_for(pose, BELT_REGION, rng)
    _draw_belt(plane, scene, rng)
    _draw_markers(plane, BOARD_MARKER_LAYOUT)
    return _finish(plane, pose, conditions, (BELT_X0, BELT_Y0, BELT_X1, BELT_Y1), rng)


def random_belt_scene(
    rng: np.random.Generator, colours: Sequence[str] = tuple(HAMSTER_COLOURS)
) -> BeltScene:
    """Hamsters on distinct squares (some in the Pit), asterisk strip on any row."""
    cells = [(row, lane) for row in range(1, ROWS + 1) for lane in range(1, LANES + 1)]
    picks = rng.choice(len(cells), size=len(colours), replace=False)
    hamsters: dict[str, tuple[int, int] | Literal["pit"]] = {}
    for colour, pick in zip(colours, picks, strict=True):
        hamsters[colour] = "pit" if rng.random() < 0.15 else cells[int(pick)]
    return BeltScene(hamsters=hamsters, asterisk_row=int(rng.integers(1, ROWS + 1)))


_PIPS: Mapping[int, tuple[Point, ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


_CORNERS: tuple[tuple[int, int], ...] = ((-1, -1), (1, -1), (1, 1), (-1, 1))
_WHITE: BGR = (255, 255, 255)


def _draw_die(plane: _Plane, die: Die) -> NDArray[np.float64]:
    """A die's top face with rounded corners and its pips; returns its corners (table units).

    A plain die is filled straight onto the table; the other looks need per-pixel colour,
    so they draw the same shapes as masks and blend (see ``_draw_styled_die``).
    """
    c, s = math.cos(math.radians(die.angle_deg)), math.sin(math.radians(die.angle_deg))

    def at(dx: float, dy: float) -> Point:
        return (die.centre[0] + dx * c - dy * s, die.centre[1] + dx * s + dy * c)

    half = die.size / 2
    outline = [at(half * sx, half * sy) for sx, sy in _CORNERS]
    # A translucent die lets light through, so it casts a paler shadow.
    darkness = 0.8 if die.style == "translucent" else 0.65
    plane.poly(
        [at(half * sx + 0.05, half * sy + 0.06) for sx, sy in _CORNERS],
        _shade(plane.table, darkness),
    )
    if die.style == "plain":
        rim = _shade(die.colour, 0.85)
        _die_body(plane, die, at, rim, die.colour)
        _die_pips(plane, die, at, die.pip_colour)
    else:
        _draw_styled_die(plane, die, at)
    return np.array(outline, np.float64)


def _die_body(
    plane: _Plane, die: Die, at: Callable[[float, float], Point], rim: BGR, top: BGR | None
) -> None:
    """The rounded outline in ``rim`` and, unless ``top`` is None, the flat top face."""
    half = die.size / 2
    corner = die.size * 0.12
    plane.poly([at(half * sx, half * sy - corner * sy) for sx, sy in _CORNERS], rim)
    plane.poly([at(half * sx - corner * sx, half * sy) for sx, sy in _CORNERS], rim)
    for sx, sy in _CORNERS:
        plane.disc(at((half - corner) * sx, (half - corner) * sy), corner, rim)
    if top is not None:
        _die_top(plane, die, at, top)


def _die_top(plane: _Plane, die: Die, at: Callable[[float, float], Point], top: BGR) -> None:
    inner = die.size / 2 * 0.9
    plane.poly([at(inner * sx, inner * sy) for sx, sy in _CORNERS], top)


def _die_pips(plane: _Plane, die: Die, at: Callable[[float, float], Point], colour: BGR) -> None:
    for px, py in _PIPS[die.value]:
        plane.disc(at(px * die.size * 0.26, py * die.size * 0.26), die.size * 0.085, colour)


def _draw_styled_die(plane: _Plane, die: Die, at: Callable[[float, float], Point]) -> None:
    """A marbled or translucent die: masks of body, top and pips in a window round the
    die, a per-pixel body colour, then body and pips blended over the table."""
    reach = die.size * 0.8  # past the corners at any angle
    ppu = plane.ppu
    height, width = plane.image.shape[:2]
    ix0 = max(0, math.floor((die.centre[0] - reach - plane.x0) * ppu))
    iy0 = max(0, math.floor((die.centre[1] - reach - plane.y0) * ppu))
    ix1 = min(width, math.ceil((die.centre[0] + reach - plane.x0) * ppu) + 1)
    iy1 = min(height, math.ceil((die.centre[1] + reach - plane.y0) * ppu) + 1)
    if ix1 <= ix0 or iy1 <= iy0:
        return
    origin = (plane.x0 + ix0 / ppu, plane.y0 + iy0 / ppu)
    shape = (iy1 - iy0, ix1 - ix0)
    body, top, pips = (_Plane.blank(origin, ppu, shape) for _ in range(3))
    _die_body(body, die, at, _WHITE, _WHITE)
    _die_top(top, die, at, _WHITE)
    _die_pips(pips, die, at, _WHITE)
    body_a, top_a, pip_a = (
        layer.image.astype(np.float32)[..., None] / 255.0 for layer in (body, top, pips)
    )

    # Each pixel's place on the die: u along its first edge, v along the second, -0.5..0.5.
    xs = origin[0] + np.arange(shape[1], dtype=np.float32)[None, :] / ppu - die.centre[0]
    ys = origin[1] + np.arange(shape[0], dtype=np.float32)[:, None] / ppu - die.centre[1]
    c, s = math.cos(math.radians(die.angle_deg)), math.sin(math.radians(die.angle_deg))
    u = np.asarray((xs * c + ys * s) / die.size, np.float32)
    v = np.asarray((-xs * s + ys * c) / die.size, np.float32)

    under = plane.image[iy0:iy1, ix0:ix1].astype(np.float32)
    colour = np.array(die.colour, np.float32)
    pip_strength = 1.0
    if die.style == "marbled":
        face = _marble(die, u, v)
        rim_colour = face * 0.85
    else:  # translucent: the table shows through, more so across the thin top than the rim
        t = die.see_through
        filtered = under * (0.35 + 0.65 * colour / 255.0)  # the plastic tints what it shows
        glow = 1.0 + 0.12 * np.clip(1.0 - 2.0 * np.maximum(np.abs(u), np.abs(v)), 0.0, 1.0)
        face = np.asarray(((1.0 - t) * colour + t * filtered) * glow[..., None], np.float32)
        rim_colour = (1.0 - t * 0.5) * colour * 0.7 + t * 0.5 * filtered
        pip_strength = 0.85  # painted pips on clear plastic look a little washed out
    surface = rim_colour * (1.0 - top_a) + face * top_a
    blended = under * (1.0 - body_a) + surface * body_a
    if die.style == "translucent":  # the underside's pips, faint and mirrored, seen through
        ghost = _Plane.blank(origin, ppu, shape)
        _die_pips(ghost, replace(die, value=7 - die.value), lambda x, y: at(-x, y), _WHITE)
        ghost_a = ghost.image.astype(np.float32)[..., None] / 255.0 * 0.18 * top_a
        blended = blended * (1.0 - ghost_a) + np.array(die.pip_colour, np.float32) * ghost_a
    pip_a = pip_a * pip_strength
    blended = blended * (1.0 - pip_a) + np.array(die.pip_colour, np.float32) * pip_a
    plane.image[iy0:iy1, ix0:ix1] = np.clip(blended + 0.5, 0, 255).astype(np.uint8)


def _smooth_noise(
    rng: np.random.Generator, u: NDArray[np.float32], v: NDArray[np.float32], cells: int
) -> NDArray[np.float32]:
    """Low-frequency noise (about ``cells`` bumps across a die) sampled at ``u``, ``v``."""
    grid = rng.normal(0.0, 1.0, (cells + 3, cells + 3)).astype(np.float32)
    fine = np.asarray(cv2.resize(grid, (64, 64), interpolation=cv2.INTER_CUBIC), np.float32)
    map_x = ((u + 0.5) * 40.0 + 12.0).astype(np.float32)
    map_y = ((v + 0.5) * 40.0 + 12.0).astype(np.float32)
    return np.asarray(
        cv2.remap(fine, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT), np.float32
    )


def _marble(die: Die, u: NDArray[np.float32], v: NDArray[np.float32]) -> NDArray[np.float32]:
    """The die's colour with swirling streaks of each streak colour: soft bands whose course
    is bent by smooth noise (a domain warp) and that fade in and out along their length,
    the first broad, the others narrower wisps. Fixed to the die (u, v), so the swirl turns
    with it, and drawn from its ``pattern_seed`` alone."""
    rng = np.random.default_rng(die.pattern_seed)
    face = np.broadcast_to(np.array(die.colour, np.float32), (*u.shape, 3)).copy()
    for k, streak in enumerate(die.streaks):
        warp = float(rng.uniform(0.2, 0.35))
        wu = u + warp * _smooth_noise(rng, u, v, 2)
        wv = v + warp * _smooth_noise(rng, u, v, 2)
        theta = float(rng.uniform(0, math.pi))
        along = wu * math.cos(theta) + wv * math.sin(theta)
        frequency = float(rng.uniform(1.0, 1.8)) if k == 0 else float(rng.uniform(1.8, 3.0))
        wave = np.abs(np.sin(math.pi * frequency * along + float(rng.uniform(0, 6.3))))
        width = 0.6 if k == 0 else float(rng.uniform(0.25, 0.4))
        band = np.clip(1.0 - wave / width, 0.0, 1.0)
        band = band * band * (3.0 - 2.0 * band)  # smoothstep: soft-edged, not a drawn line
        fade = np.clip(0.6 + 0.6 * _smooth_noise(rng, u, v, 3), 0.0, 1.0)
        weight = (band * fade * float(rng.uniform(0.75, 0.95)))[..., None]
        face = face * (1.0 - weight) + np.array(streak, np.float32) * weight
    return face


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


def render_dice(scene: DiceScene, rng: np.random.Generator, conditions: Conditions) -> Rendered:
    """Dice on the table; the ground truth lists each die's value and image outline."""
    width, height = scene.table_size
    region = (0.0, 0.0, width, height)
    pose = _pose_for(conditions, region, rng)
    table = TABLE_COLOUR if scene.table_colour is None else scene.table_colour
    plane = _plane_for(pose, region, rng, table, scene.table_texture)
    if scene.markers:
        _draw_markers(plane, table_marker_layout(scene.table_size))
    outlines = [_draw_die(plane, die) for die in scene.dice]
    rendered = _finish(plane, pose, conditions, region, rng)
    truths = []
    for die, outline in zip(scene.dice, outlines, strict=True):
        corners = cv2.perspectiveTransform(outline[None], pose)[0]
        centre = cv2.perspectiveTransform(np.array([[die.centre]], np.float64), pose)[0, 0]
        truths.append(DieTruth(die.value, (float(centre[0]), float(centre[1])), corners))
    return Rendered(
        frame=rendered.frame,
        board_to_image=rendered.board_to_image,
        hand_mask=rendered.hand_mask,
        hand_over_board=rendered.hand_over_board,
        dice=tuple(truths),
    )


def random_dice_scene(
    rng: np.random.Generator,
    count: int,
    table_size: tuple[float, float] = (12.0, 9.0),
    touching: bool = False,
    varied: bool = False,
) -> DiceScene:
    """``count`` dice of random faces, colours and angles; ``touching`` packs them in pairs.

    ``varied`` also draws the looks players really own (coloured pips, marbled and
    translucent bodies, a table of another colour and grain). Its extra random draws come
    after the ones a default scene makes, so ``varied=False`` scenes stay as they were.
    """
    palette: tuple[tuple[BGR, BGR], ...] = (
        ((235, 235, 235), (20, 20, 20)),
        ((30, 30, 190), (240, 240, 240)),
        ((25, 25, 25), (240, 240, 240)),
        ((40, 200, 230), (20, 20, 20)),
        ((170, 80, 30), (240, 240, 240)),
        ((60, 150, 50), (240, 240, 240)),
    )
    dice: list[Die] = []
    for _ in range(count):
        body, pips = palette[int(rng.integers(len(palette)))]
        angle = float(rng.uniform(0, 90))
        for _attempt in range(500):
            if touching and dice and rng.random() < 0.6:
                anchor = dice[-1]
                angle = anchor.angle_deg
                side = float(rng.choice([0.0, 90.0, 180.0, 270.0]))
                a = math.radians(anchor.angle_deg + side)
                centre = (
                    anchor.centre[0] + 1.02 * math.cos(a),
                    anchor.centre[1] + 1.02 * math.sin(a),
                )
            else:
                centre = (
                    float(rng.uniform(1.0, table_size[0] - 1.0)),
                    float(rng.uniform(1.0, table_size[1] - 1.0)),
                )
            inside = (
                0.8 <= centre[0] <= table_size[0] - 0.8 and 0.8 <= centre[1] <= table_size[1] - 0.8
            )
            apart = all(math.dist(centre, other.centre) >= 1.0 for other in dice)
            if inside and apart:
                break
        else:
            raise ValueError(f"Cannot fit {count} dice on a {table_size} table.")
        die = Die(int(rng.integers(1, 7)), centre, angle, 1.0, body, pips)
        dice.append(_vary_die(die, rng) if varied else die)
    if not varied:
        return DiceScene(dice=tuple(dice), table_size=table_size)
    table_colour, textures = VARIED_TABLES[int(rng.integers(len(VARIED_TABLES)))]
    texture = textures[int(rng.integers(len(textures)))]
    return DiceScene(
        dice=tuple(dice), table_size=table_size, table_colour=table_colour, table_texture=texture
    )


# Body and pip colours of plain dice with coloured pips (BGR).
COLOURED_PIPS: tuple[tuple[BGR, BGR], ...] = (
    ((40, 200, 230), (35, 35, 195)),  # yellow, red pips
    ((30, 30, 190), (45, 190, 235)),  # red, gold pips
    ((235, 235, 235), (35, 35, 195)),  # white, red pips
    ((235, 235, 235), (170, 80, 30)),  # white, blue pips
    ((25, 25, 25), (50, 185, 230)),  # black, gold pips
    ((25, 25, 25), (40, 40, 200)),  # black, red pips
    ((60, 150, 50), (40, 215, 240)),  # green, yellow pips
    ((130, 40, 110), (240, 240, 240)),  # purple, white pips
    ((20, 120, 240), (25, 25, 25)),  # orange, black pips
    ((150, 60, 20), (45, 190, 235)),  # blue, gold pips
)
# Marbled dice: body, swirl colours, pips. ``_vary_die`` adds one more wisp close to the
# pip colour on purpose: a reader must tell a streak from a pip by shape, not colour.
MARBLED: tuple[tuple[BGR, tuple[BGR, ...], BGR], ...] = (
    ((160, 70, 25), ((235, 225, 215), (60, 25, 10)), (240, 240, 240)),  # blue/white
    ((50, 130, 40), ((20, 40, 15), (220, 235, 220)), (235, 235, 235)),  # green/black
    ((35, 35, 180), ((40, 180, 230), (25, 20, 90)), (235, 235, 235)),  # red/yellow
    ((120, 40, 110), ((230, 215, 230), (60, 20, 50)), (230, 230, 230)),  # purple/white
    ((40, 40, 40), ((210, 210, 210), (110, 110, 110)), (40, 190, 230)),  # black/grey, gold
    ((200, 215, 225), ((70, 100, 140), (45, 60, 90)), (30, 30, 30)),  # cream/brown, black
    ((30, 150, 220), ((20, 80, 180), (30, 30, 40)), (25, 25, 25)),  # amber/orange, black
)
# Translucent bodies (the colour the plastic tints things) and their painted pips.
TRANSLUCENT: tuple[tuple[BGR, BGR], ...] = (
    ((40, 40, 200), (240, 240, 240)),  # red
    ((200, 110, 30), (240, 240, 240)),  # blue
    ((60, 170, 50), (240, 240, 240)),  # green
    ((40, 170, 230), (30, 30, 30)),  # amber
    ((160, 60, 140), (240, 240, 240)),  # purple
    ((225, 225, 220), (30, 30, 30)),  # clear/smoke
    ((50, 45, 45), (240, 240, 240)),  # smoky black
)
# Table colours (None: the default grey cloth) with the surfaces each may have.
VARIED_TABLES: tuple[tuple[BGR | None, tuple[TableTexture, ...]], ...] = (
    (None, ("cloth",)),
    ((225, 228, 230), ("cloth",)),  # white tray
    ((40, 62, 98), ("wood", "cloth")),  # dark wood
    ((95, 140, 185), ("wood",)),  # light wood
    ((30, 30, 33), ("felt", "cloth")),  # black felt
    ((45, 105, 35), ("felt",)),  # green felt
    ((130, 75, 35), ("felt", "cloth")),  # blue
)


def _vary_die(die: Die, rng: np.random.Generator) -> Die:
    """Restyle a plain die: plain / marbled / translucent about 50/25/25, plain ones half
    the time with coloured pips."""
    style = DIE_STYLES[int(rng.choice(3, p=[0.5, 0.25, 0.25]))]
    if style == "plain":
        if rng.random() < 0.5:
            return die
        body, pips = COLOURED_PIPS[int(rng.integers(len(COLOURED_PIPS)))]
        return replace(die, colour=body, pip_colour=pips)
    if style == "marbled":
        body, streaks, pips = MARBLED[int(rng.integers(len(MARBLED)))]
        seed = int(rng.integers(2**31))
        wisp = tuple(round(0.8 * p + 0.2 * b) for p, b in zip(pips, body, strict=True))
        streaks = (*streaks, (wisp[0], wisp[1], wisp[2]))
        return replace(
            die, colour=body, pip_colour=pips, style=style, streaks=streaks, pattern_seed=seed
        )
    body, pips = TRANSLUCENT[int(rng.integers(len(TRANSLUCENT)))]
    see_through = float(rng.uniform(0.3, 0.6))
    return replace(die, colour=body, pip_colour=pips, style=style, see_through=see_through)


def _draw_wheel_piece(plane: _Plane, piece: WheelPiece, size: float) -> None:
    colour = WHEEL_PIECE_COLOURS[piece.colour]
    cx, cy = piece.centre
    plane.disc((cx + 0.04, cy + 0.05), size * 0.9, _shade(TABLE_COLOUR, 0.75))
    if piece.shape == "disc":
        plane.disc(piece.centre, size, colour)
        return
    corners = 4 if piece.shape == "square" else 3
    radius = size * (1.25 if corners == 4 else 1.45)
    start = math.radians(piece.angle_deg)
    plane.poly(
        [
            (
                cx + radius * math.cos(start + k * 2 * math.pi / corners),
                cy + radius * math.sin(start + k * 2 * math.pi / corners),
            )
            for k in range(corners)
        ],
        colour,
    )


VISIBLE_RIM_DEG = 75.0  # beyond this from the top the rim is too steep to draw a sticker on


def _draw_wheel(plane: _Plane, scene: WheelScene) -> None:
    """The band (depth by diameter), pieces glimpsed inside, and the rim strip over the top."""
    h = math.radians(scene.heading_deg)
    u, v = (math.cos(h), math.sin(h)), (-math.sin(h), math.cos(h))
    cx, cy = scene.centre

    def at(a: float, b: float, shift: Point = (0.0, 0.0)) -> Point:
        return (cx + a * u[0] + b * v[0] + shift[0], cy + a * u[1] + b * v[1] + shift[1])

    r, half = scene.radius, scene.depth / 2.0
    plane.poly([at(-r, -half), at(r, -half), at(r, half), at(-r, half)], WOOD)
    for k, colour in enumerate(scene.inside):  # pieces seen through the open sides
        a = -r * 0.8 + 1.6 * r * ((k * 0.37) % 1.0)
        plane.disc(at(a, half * (0.8 if k % 2 else -0.8)), 0.15, WHEEL_PIECE_COLOURS[colour])
    top = scene.parallax
    reach = r * math.sin(math.radians(VISIBLE_RIM_DEG))
    slot = 2.0 * math.pi * r / len(RIM_MARKER_IDS)
    side = RIM_MARKER_FILL * slot
    strip = min(half * 0.9, (side / 2.0 + side / 6.0) * 1.15)  # paper a little wider than a sticker
    plane.poly(
        [at(-reach, -strip, top), at(reach, -strip, top), at(reach, strip, top),
         at(-reach, strip, top)],
        (236, 236, 236),
    )  # fmt: skip
    for k, marker_id in enumerate(RIM_MARKER_IDS):
        phi = (k * 360.0 / len(RIM_MARKER_IDS) + scene.angle_deg + 180.0) % 360.0 - 180.0
        if abs(phi) > VISIBLE_RIM_DEG:
            continue
        squeeze = math.cos(math.radians(phi))
        half_side = side / 2.0 + side / 6.0
        plane.marker_box(
            marker_id,
            at(r * math.sin(math.radians(phi)), 0.0, top),
            half_side * squeeze,
            half_side,
            scene.heading_deg,
        )


def render_wheel(scene: WheelScene, rng: np.random.Generator, conditions: Conditions) -> Rendered:
    """The upright ring, its rim strip, and pieces fallen on the table around it."""
    region = (0.0, 0.0, *TABLE_SIZE)
    pose = _pose_for(conditions, region, rng)
    plane = _plane_for(pose, region, rng)
    _draw_markers(plane, TABLE_MARKER_LAYOUT)
    for piece in scene.outside:
        _draw_wheel_piece(plane, piece, 0.25)
    _draw_wheel(plane, scene)
    return _finish(plane, pose, conditions, region, rng)


def random_fallen_spot(
    rng: np.random.Generator, wheel: Point, radius: float, taken: Sequence[Point]
) -> Point:
    """A free spot on the table near the wheel, clear of the rim, the markers and other pieces."""
    width, height = TABLE_SIZE
    for _ in range(1000):
        angle = float(rng.uniform(0, 2 * math.pi))
        distance = radius + float(rng.uniform(0.6, 3.0))
        spot = (wheel[0] + distance * math.cos(angle), wheel[1] + distance * math.sin(angle))
        on_table = 0.6 <= spot[0] <= width - 0.6 and 0.6 <= spot[1] <= height - 0.6
        clear_of_markers = all(
            not (x0 - 0.6 <= spot[0] <= x0 + side + 0.6 and y0 - 0.6 <= spot[1] <= y0 + side + 0.6)
            for x0, y0, side in TABLE_MARKER_LAYOUT.values()
        )
        if on_table and clear_of_markers and all(math.dist(spot, other) > 0.8 for other in taken):
            return spot
    raise ValueError("No free spot left on the table for another fallen piece.")


def wheel_video(
    rng: np.random.Generator, frames: int, conditions: Conditions, hand_chance: float = 0.0
) -> list[tuple[WheelScene, Rendered]]:
    """A fixed camera watching the ring roll back and forth, get pushed back to the middle
    without turning, and lose pieces now and then.

    Rolling turns the rim and moves the band by the same arc (``radius * angle``); a push
    moves it and leaves the angle. ``conditions.hand`` is ignored: each frame has a hand
    with probability ``hand_chance``. The camera is a few degrees off vertical, so the
    ring's top appears shifted by a fixed parallax.
    """
    pose = _camera_pose((0.0, 0.0, *TABLE_SIZE), conditions.size, conditions.perspective, rng)
    fixed = replace(
        conditions, hand=False, board_to_image=tuple(tuple(float(v) for v in row) for row in pose)
    )
    with_hand = replace(fixed, hand=True)
    colours = tuple(WHEEL_PIECE_COLOURS)
    tilt = math.radians(3.0 * conditions.perspective + 1.0)
    lean = float(rng.uniform(0, 2 * math.pi))
    parallax = (
        2 * WHEEL_RADIUS * math.tan(tilt) * math.cos(lean),
        2 * WHEEL_RADIUS * math.tan(tilt) * math.sin(lean),
    )
    centre = (TABLE_SIZE[0] / 2 + float(rng.uniform(-1, 1)), TABLE_SIZE[1] / 2)
    heading = float(rng.choice([0.0, 180.0])) + float(rng.uniform(-25, 25))
    angle = float(rng.uniform(0, 360))
    inside = tuple(colours[int(rng.integers(len(colours)))] for _ in range(int(rng.integers(0, 5))))
    fallen: list[WheelPiece] = []
    result = []
    direction = 1.0
    for _ in range(frames):
        h = math.radians(heading)
        if rng.random() < 0.08:  # a push back towards the middle: moves, does not turn
            home = (TABLE_SIZE[0] / 2 - centre[0], TABLE_SIZE[1] / 2 - centre[1])
            centre = (centre[0] + 0.5 * home[0], centre[1] + 0.5 * home[1])
        else:
            turn = direction * float(rng.uniform(0.0, 8.0))
            angle = (angle + turn) % 360.0
            move = math.radians(turn) * WHEEL_RADIUS
            step = (centre[0] - move * math.cos(h), centre[1] - move * math.sin(h))
            if 3.8 < step[0] < TABLE_SIZE[0] - 3.8 and 2.4 < step[1] < TABLE_SIZE[1] - 2.4:
                centre = step
            else:
                direction = -direction
        if rng.random() < 0.08 and len(fallen) < 8:
            try:
                spot = random_fallen_spot(rng, centre, WHEEL_RADIUS, [p.centre for p in fallen])
            except ValueError:
                spot = None
            if spot is not None:
                shape = PIECE_SHAPES[int(rng.integers(len(PIECE_SHAPES)))]
                colour = colours[int(rng.integers(len(colours)))]
                fallen.append(WheelPiece(colour, spot, shape, float(rng.uniform(0, 360))))
        fallen = [p for p in fallen if not _under_band(p.centre, centre, heading)]
        scene = WheelScene(
            centre=centre,
            heading_deg=heading,
            angle_deg=angle,
            parallax=parallax,
            outside=tuple(fallen),
            inside=inside,
        )
        hand = hand_chance > 0 and rng.random() < hand_chance
        result.append((scene, render_wheel(scene, rng, with_hand if hand else fixed)))
    return result


def _under_band(point: Point, centre: Point, heading_deg: float, margin: float = 0.6) -> bool:
    """Whether ``point`` lies under (or against) the ring's footprint."""
    h = math.radians(heading_deg)
    dx, dy = point[0] - centre[0], point[1] - centre[1]
    along = dx * math.cos(h) + dy * math.sin(h)
    across = -dx * math.sin(h) + dy * math.cos(h)
    return abs(along) < WHEEL_RADIUS + margin and abs(across) < WHEEL_DEPTH / 2 + margin
