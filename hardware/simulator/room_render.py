"""Renders of the belt and the wheel in a real room (:class:`~hardware.simulator.room.Room`).

The same scenes as the flat renders, photographed the way a webcam over a real table
photographs them: a pinhole camera at a height, the ring as a solid hoop with its shading,
highlight, shadow and motion blur while it rolls, any tablecloth, a lamp's colour, lens
distortion, vignetting, noise and compression, a sleeve, cups and cards. The flat renders
are left exactly as they were (tests depend on them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.tabletop import (
    BELT_X0,
    BELT_X1,
    BELT_Y0,
    BELT_Y1,
    BOARD_MARKER_LAYOUT,
    TABLE_MARKER_LAYOUT,
    TABLE_SIZE,
)
from hardware.simulator.belt import BELT_REGION, BeltScene, _draw_belt
from hardware.simulator.camera import _covers, _hand, _pixels_per_unit, _plane_for, _soft
from hardware.simulator.common import TABLE_COLOUR, Image, Point, Rendered
from hardware.simulator.pinhole import Pinhole, camera_over_table
from hardware.simulator.plane import _draw_markers, _Plane
from hardware.simulator.ring import draw_ring, ring_shadow
from hardware.simulator.room import (
    LIGHTS,
    SLEEVES,
    TABLES,
    FloatImage,
    Room,
    draw_clutter,
    lamp_and_lens,
    light_direction,
    motion_blur,
    optics,
    sensor,
    sleeve_layer,
)
from hardware.simulator.solids import Solid, draw_solids
from hardware.simulator.video import wheel_motion
from hardware.simulator.wheel import (
    WheelPiece,
    WheelScene,
    _draw_wheel_piece,
    piece_outline,
    piece_paint,
)

Area = tuple[float, float, float, float]


@dataclass(frozen=True)
class Layer:
    """Something standing over the table, drawn straight into the image (colour, coverage)."""

    colour: Image
    cover: Image


def _table_plane(pose: np.ndarray, region: Area, room: Room, rng: np.random.Generator) -> _Plane:
    """The tablecloth, wide enough to fill the frame of a wide lens held low."""
    table = TABLE_COLOUR if room.table_colour is None else room.table_colour
    x0, y0, x1, y1 = region
    return _plane_for(pose, (x0 - 4.0, y0 - 3.0, x1 + 4.0, y1 + 3.0), rng, table, room.texture)


def _arm(
    size: tuple[int, int],
    pose: np.ndarray,
    area: Area,
    unit: float,
    room: Room,
    rng: np.random.Generator,
) -> tuple[FloatImage, Image]:
    """A hand reaching over ``area`` and, if the room says so, its sleeve."""
    x0, y0, x1, y1 = area
    spot = np.array([[[rng.uniform(x0 - 0.5, x1 + 0.5), rng.uniform(y0 - 0.5, y1 + 0.5)]]])
    target = cv2.perspectiveTransform(spot, pose)[0, 0]
    skin, mask = _hand(size, (float(target[0]), float(target[1])), unit, rng, room.skin)
    layer = skin.astype(np.float32)
    if room.sleeve is not None:
        width, height = size
        tx, ty = float(target[0]), float(target[1])
        edges = {(tx, -unit * 4): ty, (tx, height + unit * 4): height - ty, (-unit * 4, ty): tx}
        edges[(width + unit * 4, ty)] = width - tx
        elbow = min(edges, key=lambda point: edges[point])
        colour, sleeve = sleeve_layer(
            mask, (int(elbow[0]), int(elbow[1])), (int(tx), int(ty)), unit, room.sleeve
        )
        layer[sleeve > 0] = colour[sleeve > 0]
        mask = np.maximum(mask, sleeve)
    return layer, mask


def photograph(
    plane: _Plane,
    pose: np.ndarray,
    room: Room,
    area: Area,
    rng: np.random.Generator,
    layers: Sequence[Layer] = (),
    size: tuple[int, int] = (640, 480),
) -> Rendered:
    """The table plane seen through ``pose``, things standing on it, a lamp, a hand, the lens
    and the sensor."""
    width, height = size
    plane_to_board = np.array(
        [[1 / plane.ppu, 0, plane.x0], [0, 1 / plane.ppu, plane.y0], [0, 0, 1]]
    )
    frame = cv2.warpPerspective(
        plane.image,
        pose @ plane_to_board,
        size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    ).astype(np.float32)
    for layer in layers:
        alpha = layer.cover.astype(np.float32)[..., None] / 255.0
        frame = frame * (1.0 - alpha) + layer.colour.astype(np.float32) * alpha
    # A lamp lights the table unevenly: brighter under it, a fifth darker across.
    ramp = np.linspace(0.0, 1.0, width, dtype=np.float32)[None, :] * float(rng.uniform(-1, 1))
    ramp = ramp + np.linspace(0.0, 1.0, height, dtype=np.float32)[:, None] * float(
        rng.uniform(-1, 1)
    )
    light = 1.05 - 0.2 * (ramp - ramp.min()) / max(float(ramp.max() - ramp.min()), 1e-6)
    hand_mask = np.zeros((height, width), np.uint8)
    unit = _pixels_per_unit(pose, area)
    if room.hand or room.sleeve is not None:
        arm, hand_mask = _arm(size, pose, area, unit, room, rng)
        cast = _soft(
            np.roll(hand_mask, (int(unit * 0.3), int(unit * 0.3)), (0, 1)).astype(np.float32)
            / 255.0,
            unit * 0.3,
        )
        light = light * (1.0 - 0.35 * cast)
        inside = hand_mask > 0
        frame[inside] = arm[inside]
    frame = frame * light[..., None]
    frame = lamp_and_lens(frame, room, rng)
    frame = optics(frame, room)
    image = sensor(frame, room, rng)
    return Rendered(
        frame=image,
        board_to_image=pose,
        hand_mask=hand_mask,
        hand_over_board=_covers(hand_mask, pose, area),
    )


def render_belt_room(
    scene: BeltScene, rng: np.random.Generator, room: Room, size: tuple[int, int] = (640, 480)
) -> Rendered:
    """The belt as a webcam ``room.height_cm`` over a real table photographs it."""
    camera = camera_over_table(rng, size, room.height_cm, room.tilt_deg, BELT_REGION)
    pose = camera.table_homography()
    plane = _table_plane(pose, BELT_REGION, room, rng)
    pieces = _draw_belt(plane, scene, rng)
    _draw_markers(plane, BOARD_MARKER_LAYOUT)
    clear = [(BELT_X0, BELT_Y0, BELT_X1, BELT_Y1)] + [
        (x, y, x + s, y + s) for x, y, s in BOARD_MARKER_LAYOUT.values()
    ]
    draw_clutter(plane, room.clutter, clear, rng)
    layers: tuple[Layer, ...] = ()
    if scene.standing > 0:
        pawns = [
            Solid(_circle(p.centre, p.radius), scene.standing, p.colour, top=0.9) for p in pieces
        ]
        layers = (Layer(*draw_solids(camera, pawns, size)),)
    return photograph(plane, pose, room, (BELT_X0, BELT_Y0, BELT_X1, BELT_Y1), rng, layers, size)


def render_wheel_room(
    scene: WheelScene,
    rng: np.random.Generator,
    room: Room,
    camera: Pinhole | None = None,
    size: tuple[int, int] = (640, 480),
    rolling_deg: float = 0.0,
    light: tuple[float, float, float] | None = None,
) -> Rendered:
    """The ring as a solid hoop on a real table; ``rolling_deg`` is how far it turned while
    the shutter was open (the ring smears along its heading)."""
    region = (0.0, 0.0, *TABLE_SIZE)
    camera = camera or camera_over_table(rng, size, room.height_cm, room.tilt_deg, region)
    lamp = light or light_direction(rng)
    pose = camera.table_homography()
    plane = _table_plane(pose, region, room, rng)
    _draw_markers(plane, TABLE_MARKER_LAYOUT)
    solid = scene.piece_height > 0
    for piece in scene.outside:
        _draw_wheel_piece(plane, piece, 0.25, solid)
    ring_shadow(plane, scene, lamp)
    reach = scene.radius + 1.0
    clear = [
        (
            scene.centre[0] - reach,
            scene.centre[1] - reach,
            scene.centre[0] + reach,
            scene.centre[1] + reach,
        )
    ]
    clear += [
        (p.centre[0] - 0.4, p.centre[1] - 0.4, p.centre[0] + 0.4, p.centre[1] + 0.4)
        for p in scene.outside
    ]
    clear += [(x, y, x + s, y + s) for x, y, s in TABLE_MARKER_LAYOUT.values()]
    draw_clutter(plane, room.clutter, clear, rng)
    colour, cover = draw_ring(camera, scene, size, lamp)
    if rolling_deg:
        smear = abs(math.radians(rolling_deg)) * scene.radius * 2.0 * _pixels_per_unit(pose, region)
        heading = _image_heading(camera, scene)
        colour = motion_blur(colour.astype(np.float32), smear, heading).astype(np.uint8)
        cover = motion_blur(cover.astype(np.float32), smear, heading).astype(np.uint8)
    ring = Layer(colour, cover)
    if not solid:
        return photograph(plane, pose, room, region, rng, (ring,), size)
    behind, before = _pieces_round_the_ring(camera, scene, size)
    return photograph(plane, pose, room, region, rng, (behind, ring, before), size)


def _pieces_round_the_ring(
    camera: Pinhole, scene: WheelScene, size: tuple[int, int]
) -> tuple[Layer, Layer]:
    """The fallen pieces as solids, in two layers: those farther from the point under the
    camera than the ring's middle (the ring, drawn over them, hides what it stands in
    front of) and the nearer ones (drawn over the ring)."""

    def reach(point: Point) -> float:
        return float(np.hypot(*(np.array(point) - camera.centre[:2])))

    far: list[Solid] = []
    near: list[Solid] = []
    for piece in scene.outside:
        solid = Solid(tuple(piece_outline(piece, 0.25)), scene.piece_height, piece_paint(piece))
        (far if reach(piece.centre) > reach(scene.centre) else near).append(solid)
    return Layer(*draw_solids(camera, far, size)), Layer(*draw_solids(camera, near, size))


def _circle(centre: Point, radius: float, points: int = 24) -> tuple[Point, ...]:
    turns = np.linspace(0.0, 2.0 * math.pi, points, endpoint=False)
    return tuple(
        (centre[0] + radius * float(math.cos(t)), centre[1] + radius * float(math.sin(t)))
        for t in turns
    )


def _image_heading(camera: Pinhole, scene: WheelScene) -> float:
    """The direction the ring's top moves in the image as it rolls (degrees)."""
    h = math.radians(scene.heading_deg)
    top = np.array([scene.centre[0], scene.centre[1], -2.0 * scene.radius])
    ahead = top + np.array([math.cos(h), math.sin(h), 0.0])
    a, b = camera.project(np.array([top, ahead]))
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))


# How near the hoop's outline (table units) a piece counts as lying against the ring: the
# strip a reader looks at for a piece behind it (``companion.vision.wheel_pieces.RIM_ZONE``).
AGAINST_REACH = 0.3


def behind_ring(camera: Pinhole, scene: WheelScene, piece: WheelPiece) -> float:
    """How much of a fallen piece (its disc of 0.25 table units, sampled) the standing hoop
    hides from ``camera``: its top and ends stand above the table and, seen from off to
    one side, cover the table beyond the footprint. 1.0 means no view of it at all."""
    ring = np.linspace(0.0, 2.0 * math.pi, 12, endpoint=False)
    spots = [(0.0, 0.0)] + [(r * math.cos(a), r * math.sin(a)) for r in (0.12, 0.24) for a in ring]
    return float(np.mean(_under_hoop(camera, scene, piece.centre, spots)))


def against_ring(camera: Pinhole, scene: WheelScene, piece: WheelPiece, reach: float) -> bool:
    """Whether a fallen piece's edge (a disc of 0.25 table units) comes within ``reach``
    table units of the hoop as ``camera`` sees it: touching it, or partly behind it."""
    ring = np.linspace(0.0, 2.0 * math.pi, 36, endpoint=False)
    radii = (0.0, 0.12, 0.25, 0.25 + reach / 2.0, 0.25 + reach)
    spots = [(r * math.cos(a), r * math.sin(a)) for r in radii for a in ring]
    return bool(np.any(_under_hoop(camera, scene, piece.centre, spots)))


def _under_hoop(
    camera: Pinhole, scene: WheelScene, centre: Point, spots: list[tuple[float, float]]
) -> list[bool]:
    """Which of the table points ``centre`` + ``spots`` the standing hoop covers as
    ``camera`` sees it."""
    h = math.radians(scene.heading_deg)
    u, v = np.array([math.cos(h), math.sin(h)]), np.array([-math.sin(h), math.cos(h)])
    hoop = []
    for phi in np.radians(np.arange(0.0, 360.0, 5.0)):
        for across in (-scene.depth / 2.0, scene.depth / 2.0):
            flat = np.array(scene.centre) + scene.radius * math.sin(phi) * u + across * v
            hoop.append((flat[0], flat[1], -scene.radius * (1.0 + math.cos(phi))))
    outline = cv2.convexHull(camera.project(np.array(hoop)).astype(np.float32))
    points = np.array([(centre[0] + x, centre[1] + y, 0.0) for x, y in spots])
    seen = camera.project(points)
    return [cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0 for x, y in seen]


def wheel_room_video(
    rng: np.random.Generator,
    frames: int,
    room: Room,
    size: tuple[int, int] = (640, 480),
    hand_chance: float = 0.0,
    hidden: list[tuple[float, ...]] | None = None,
    touching: list[tuple[bool, ...]] | None = None,
    piece_height: float = 0.0,
) -> list[tuple[WheelScene, Rendered]]:
    """A fixed webcam over a real table watching the ring roll, get pushed back and lose
    pieces (the motion of :func:`~hardware.simulator.video.wheel_video`); each frame has a
    hand with probability ``hand_chance``. ``hidden``, when given, receives each frame's
    :func:`behind_ring` share of every fallen piece (the truth a bench needs to tell a
    piece no camera there could see from one the reader missed); ``touching`` whether each
    comes within 0.3 table units of the hoop as the camera sees it (:func:`against_ring`:
    what a reader's "a piece lies against the ring" claims). ``piece_height``: the fallen
    pieces as solids that tall (table units), 0 for flat ones."""
    camera = camera_over_table(rng, size, room.height_cm, room.tilt_deg, (0.0, 0.0, *TABLE_SIZE))
    lamp = light_direction(rng)
    result = []
    for moving, turn in wheel_motion(rng, frames, (0.0, 0.0)):
        scene = replace(moving, piece_height=piece_height)
        hand = hand_chance > 0 and rng.random() < hand_chance
        here = Room(**{**room.__dict__, "hand": hand or room.hand})
        rendered = render_wheel_room(scene, rng, here, camera, size, turn * room.shutter, lamp)
        result.append((scene, rendered))
        if hidden is not None:
            hidden.append(tuple(behind_ring(camera, scene, piece) for piece in scene.outside))
        if touching is not None:
            near = tuple(against_ring(camera, scene, p, AGAINST_REACH) for p in scene.outside)
            touching.append(near)
    return result


def random_room(rng: np.random.Generator) -> Room:
    """A random room of the kinds the robustness table measures one at a time."""
    table = list(TABLES)[int(rng.integers(len(TABLES)))]
    light = list(LIGHTS)[int(rng.integers(len(LIGHTS)))]
    sleeve = SLEEVES[int(rng.integers(len(SLEEVES)))] if rng.random() < 0.2 else None
    return Room(
        table=table,
        light=light,
        height_cm=float(rng.uniform(50, 100)),
        clutter=int(rng.integers(0, 3)),
        sleeve=sleeve,
        exposure=float(rng.uniform(0.8, 1.1)),
    )
