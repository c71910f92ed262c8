"""Run, Hamster, Run!'s belt as the camera sees it: the Pit, the rows of squares, the
asterisk strip and the hamsters, with the corner markers."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from companion.tabletop import (
    ASTERISK_MARKER_IDS,
    BELT_X0,
    BELT_X1,
    BELT_Y0,
    BELT_Y1,
    BOARD_MARKER_LAYOUT,
    LANES,
    ROWS,
)
from hardware.simulator.camera import _finish, _plane_for, _pose_for
from hardware.simulator.common import (
    BGR,
    HAMSTER_COLOURS,
    INK,
    PIT_COLOUR,
    STRIP_COLOUR,
    TABLE_COLOUR,
    Conditions,
    Point,
    Rendered,
    _lighten,
    _shade,
)
from hardware.simulator.plane import _draw_markers, _Plane


@dataclass(frozen=True)
class BeltScene:
    """Run, Hamster, Run!: hamster colour -> (row, lane) or "pit"; where the asterisks are."""

    hamsters: Mapping[str, tuple[int, int] | Literal["pit"]]
    asterisk_row: int = 5
    asterisk_markers: bool = False  # stickers 4 and 5 from the marker sheet on its end tabs
    # Hamsters a player left off their square's centre: colour -> (across, along) in squares
    # (half a square puts it on the line).
    off_centre: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    # Hamsters as pawns standing this tall (table units; a square is one): seen from a
    # camera off to one side, a pawn's top leans outward over the next square. 0 draws the
    # flat wooden tokens of old, lying on the cloth.
    standing: float = 0.0


@dataclass(frozen=True)
class Piece:
    """A hamster where it stands on the table: its base's centre and radius, its colour."""

    centre: Point
    radius: float
    colour: BGR


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


def _draw_belt(plane: _Plane, scene: BeltScene, rng: np.random.Generator) -> list[Piece]:
    """The belt and its hamsters on the cloth; returns where the hamsters are. Standing
    pawns leave only their contact shadow here: the camera's own projection draws them
    (``room_render``), since a flat plane cannot show something with height."""
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
    pieces: list[Piece] = []
    for colour, where in scene.hamsters.items():
        radius = float(rng.uniform(0.28, 0.32))
        if where == "pit":
            x = _free_pit_x(pit_xs, rng)
            pit_xs.append(x)
            centre = (x, BELT_Y0 + 0.5 + float(rng.uniform(-0.1, 0.1)))
        else:
            row, lane = where
            jitter = rng.uniform(-0.1, 0.1, 2)
            across, along = scene.off_centre.get(colour, (0.0, 0.0))
            centre = (
                lane - 0.5 + across + float(jitter[0]),
                row + 0.5 + along + float(jitter[1]),
            )
        pieces.append(Piece(centre, radius, HAMSTER_COLOURS[colour]))
        if scene.standing > 0:
            plane.disc((centre[0] + 0.04, centre[1] + 0.05), radius, _shade(TABLE_COLOUR, 0.7))
        else:
            _draw_piece(plane, centre, radius, HAMSTER_COLOURS[colour])
    return pieces


def _free_pit_x(taken: list[float], rng: np.random.Generator) -> float:
    """Where along the Pit the next hamster lies: a random spot clear of the others, or,
    once the Pit is too crowded for chance to find one (four or five hamsters there), the
    spot farthest from them, where a player would squeeze it in. A crowded Pit used to stop
    the render (and every bench whose seed drew one) with an error."""
    for _ in range(100):
        x = float(rng.uniform(0.45, LANES - 0.45))
        if all(abs(x - other) > 0.75 for other in taken):
            return x
    spots = np.linspace(0.45, LANES - 0.45, 83)
    clearance = np.min(np.abs(spots[:, None] - np.asarray(taken)[None, :]), axis=1)
    return float(spots[int(np.argmax(clearance))])


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
