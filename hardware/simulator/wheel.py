"""Hamster Wheel: the upright ring seen from above, its rim strip of markers, and pieces
fallen on the table around it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from companion.tabletop import (
    RIM_MARKER_FILL,
    RIM_MARKER_IDS,
    TABLE_MARKER_LAYOUT,
    TABLE_SIZE,
    WHEEL_DEPTH,
    WHEEL_RADIUS,
)
from hardware.simulator.camera import _finish, _plane_for, _pose_for
from hardware.simulator.common import (
    BGR,
    WHEEL_PIECE_COLOURS,
    WOOD,
    Conditions,
    Point,
    Rendered,
    _shade,
)
from hardware.simulator.plane import _draw_markers, _Plane

PieceShape = Literal["disc", "square", "triangle"]


PIECE_SHAPES: tuple[PieceShape, ...] = ("disc", "square", "triangle")


@dataclass(frozen=True)
class WheelPiece:
    """A piece of the wheel game (a ``WHEEL_PIECE_COLOURS`` name) lying flat, table units."""

    colour: str
    centre: Point
    shape: PieceShape = "disc"
    angle_deg: float = 0.0
    paint: BGR | None = None  # another set's shade of ``colour`` (default: ours)


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
    # The fallen pieces as solid shapes this tall (table units; a real set's are 1-2 cm),
    # drawn by the room's camera so a piece off to one side shows its sides and leans
    # outward. 0 draws them flat on the cloth, as of old.
    piece_height: float = 0.0

    def fallen_counts(self) -> dict[str, int]:
        """How many pieces of each colour lie outside the ring (every colour, 0 included):
        what a reader's count is judged against."""
        counts = dict.fromkeys(WHEEL_PIECE_COLOURS, 0)
        for piece in self.outside:
            counts[piece.colour] += 1
        return counts


def piece_outline(piece: WheelPiece, size: float) -> list[Point]:
    """A piece's outline on the table (table units): a disc's as 24 points."""
    cx, cy = piece.centre
    if piece.shape == "disc":
        corners, radius, start = 24, size, 0.0
    else:
        corners = 4 if piece.shape == "square" else 3
        radius = size * (1.25 if corners == 4 else 1.45)
        start = math.radians(piece.angle_deg)
    return [
        (
            cx + radius * math.cos(start + k * 2 * math.pi / corners),
            cy + radius * math.sin(start + k * 2 * math.pi / corners),
        )
        for k in range(corners)
    ]


def piece_paint(piece: WheelPiece) -> BGR:
    return piece.paint or WHEEL_PIECE_COLOURS[piece.colour]


def _draw_wheel_piece(plane: _Plane, piece: WheelPiece, size: float, solid: bool = False) -> None:
    """A piece lying flat on the cloth with its contact shadow; ``solid``: the shadow only
    (the room's camera draws a solid piece, see ``room_render``)."""
    cx, cy = piece.centre
    plane.disc((cx + 0.04, cy + 0.05), size * 0.9, _shade(plane.table, 0.75))
    if solid:
        return
    if piece.shape == "disc":
        plane.disc(piece.centre, size, piece_paint(piece))
        return
    plane.poly(piece_outline(piece, size), piece_paint(piece))


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
