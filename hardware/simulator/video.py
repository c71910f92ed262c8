"""A fixed camera watching the Hamster Wheel roll, get pushed and lose pieces: frame after
frame, each with the scene that produced it."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace

import numpy as np

from companion.tabletop import TABLE_SIZE, WHEEL_DEPTH, WHEEL_RADIUS
from hardware.simulator.camera import _camera_pose
from hardware.simulator.common import WHEEL_PIECE_COLOURS, Conditions, Point, Rendered
from hardware.simulator.wheel import (
    PIECE_SHAPES,
    WheelPiece,
    WheelScene,
    random_fallen_spot,
    render_wheel,
)


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
    tilt = math.radians(3.0 * conditions.perspective + 1.0)
    lean = float(rng.uniform(0, 2 * math.pi))
    parallax = (
        2 * WHEEL_RADIUS * math.tan(tilt) * math.cos(lean),
        2 * WHEEL_RADIUS * math.tan(tilt) * math.sin(lean),
    )
    result = []
    for scene, _turn in wheel_motion(rng, frames, parallax):
        hand = hand_chance > 0 and rng.random() < hand_chance
        result.append((scene, render_wheel(scene, rng, with_hand if hand else fixed)))
    return result


def wheel_motion(
    rng: np.random.Generator, frames: int, parallax: Point
) -> Iterator[tuple[WheelScene, float]]:
    """The ring's scenes frame by frame, with how far it turned since the last (degrees).

    A generator, so a renderer can draw from the same ``rng`` between frames and every
    video stays the same for the same seed.
    """
    colours = tuple(WHEEL_PIECE_COLOURS)
    centre = (TABLE_SIZE[0] / 2 + float(rng.uniform(-1, 1)), TABLE_SIZE[1] / 2)
    heading = float(rng.choice([0.0, 180.0])) + float(rng.uniform(-25, 25))
    angle = float(rng.uniform(0, 360))
    inside = tuple(colours[int(rng.integers(len(colours)))] for _ in range(int(rng.integers(0, 5))))
    fallen: list[WheelPiece] = []
    direction = 1.0
    for _ in range(frames):
        h = math.radians(heading)
        turn = 0.0
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
        yield scene, turn


def _under_band(point: Point, centre: Point, heading_deg: float, margin: float = 0.6) -> bool:
    """Whether ``point`` lies under (or against) the ring's footprint."""
    h = math.radians(heading_deg)
    dx, dy = point[0] - centre[0], point[1] - centre[1]
    along = dx * math.cos(h) + dy * math.sin(h)
    across = -dx * math.sin(h) + dy * math.cos(h)
    return abs(along) < WHEEL_RADIUS + margin and abs(across) < WHEEL_DEPTH / 2 + margin
