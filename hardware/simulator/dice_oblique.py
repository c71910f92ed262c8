"""Dice as cubes seen by a tilted webcam: top and side faces with pips, and hands.

The flat dice renders (:mod:`hardware.simulator.dice`) paint each die's top face on the
table plane, so a camera that leans never sees a side face there. A real webcam beside the
table does: below each top face (towards the point straight under the camera) one or two
side faces show, with their own pips, foreshortened and less lit than the top. Those side
faces are what the reader took for extra dice on oblique webcam photos (issue 33). Here
each die is a cube of edge 1 (table units are die edges) photographed by a pinhole camera
tipped ``tilt_deg`` from straight down, its lean pointing any way in the picture; visible
faces are drawn far to near, each lit by where it faces, on a table with soft shadows; a
hand may reach in, or hold a die up in its fingers. Drawn at twice the size and shrunk,
softened, noised and JPEG-compressed as a webcam's frame is.

Every random choice comes from the caller's Generator, so a frame is rebuilt from its seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.simulator.camera import _hand
from hardware.simulator.common import BGR, Image, Point, TableTexture
from hardware.simulator.die import _PIPS
from hardware.simulator.pinhole import Pinhole
from hardware.simulator.plane import _Plane

HandPose = Literal["none", "reaching", "holding"]

# Pip places on a face of edge 1 are the flat dice's (`die._PIPS`); their spacing and radius.
PIP_SPACING = 0.26
PIP_RADIUS = 0.085
# The face texture's side in pixels (warped onto the frame per face).
TEXTURE = 96
# Where the room's light comes from (unit vector, z up is negative): mostly above, a little
# to one side, so the top face is the brightest and side faces 70-95 % of it (white
# dice in diffuse room light, as on the oblique webcam photos).
SUPERSAMPLE = 2

# Tables a webcam sees dice on: colour and surface (light wood as in the oblique photos).
TABLES: tuple[tuple[BGR, TableTexture], ...] = (
    ((170, 205, 225), "wood"),  # pale desk wood
    ((95, 140, 185), "wood"),  # light wood
    ((122, 118, 112), "cloth"),  # grey cloth
    ((45, 105, 35), "felt"),  # green felt
    ((225, 228, 230), "cloth"),  # white tray
)

# Die bodies and pips: white dice most (the oblique photos' dice), a few other plain ones.
BODIES: tuple[tuple[BGR, BGR], ...] = (
    ((228, 236, 238), (25, 25, 25)),
    ((232, 232, 232), (20, 20, 20)),
    ((215, 230, 240), (30, 30, 30)),
    ((30, 30, 190), (240, 240, 240)),
    ((25, 25, 25), (240, 240, 240)),
    ((40, 200, 230), (20, 20, 20)),
)


@dataclass(frozen=True)
class CubeDie:
    """A die lying on the table: top value, centre (table units), turn about the vertical."""

    value: int
    centre: Point
    angle_deg: float = 0.0
    colour: BGR = (228, 236, 238)
    pip_colour: BGR = (25, 25, 25)


@dataclass(frozen=True)
class ObliqueScene:
    """Dice on a table and how the camera and a hand see them.

    ``lean_deg`` is where, in the picture, the point under the camera lies (90: below the
    frame, as a webcam tipped towards the table sees it); ``distance`` is how far the
    camera is from the dice along its view, in die edges (10-15: dice of 35-60 px at 640,
    as on the oblique webcam photos).
    """

    dice: tuple[CubeDie, ...]
    tilt_deg: float
    lean_deg: float = 90.0
    distance: float = 11.0
    table: tuple[BGR, TableTexture] = TABLES[0]
    hand: HandPose = "none"
    size: tuple[int, int] = (640, 480)


@dataclass(frozen=True)
class CubeTruth:
    """Where a die's top face is in the picture, and where its visible side faces are."""

    value: int
    centre: Point  # top face's centre, image pixels
    corners: NDArray[np.float64]  # top face, 4 x 2 image pixels
    sides: tuple[NDArray[np.float64], ...]  # each visible side face, 4 x 2 image pixels


@dataclass(frozen=True)
class ObliqueRendered:
    """A webcam frame of the scene with its truth: dice, the hand's mask, the camera."""

    frame: Image
    dice: tuple[CubeTruth, ...]
    hand_mask: Image
    camera: Pinhole

    @property
    def nadir(self) -> Point:
        """Where the point straight under the camera is in the picture (may be far off it)."""
        down = self.camera.rotation @ np.array([0.0, 0.0, 1.0])
        depth = max(float(down[2]), 1e-6)
        x, y = down[:2] / depth * self.camera.focal + np.array(self.camera.principal)
        return (float(x), float(y))


def tilted_camera(scene: ObliqueScene, focal: float) -> Pinhole:
    """A camera ``scene.distance`` from the dice' middle, tipped ``tilt_deg`` so the point
    under it lies towards ``lean_deg`` in the picture."""
    tilt, lean = math.radians(scene.tilt_deg), math.radians(scene.lean_deg)
    # Straight down the world->camera rotation is the identity (x right, y down, z into
    # the table); tip about the image x axis (the nadir moves to +y), then turn the image.
    tip = np.array(
        [[1, 0, 0], [0, math.cos(tilt), math.sin(tilt)], [0, -math.sin(tilt), math.cos(tilt)]]
    )
    roll = lean - math.pi / 2
    turn = np.array(
        [[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]]
    )
    rotation = turn @ tip
    middle = np.mean([d.centre for d in scene.dice], axis=0) if scene.dice else np.zeros(2)
    looked_at = np.array([middle[0], middle[1], -0.5])
    view = rotation.T @ np.array([0.0, 0.0, 1.0])
    centre = looked_at - view * scene.distance
    width, height = scene.size
    return Pinhole(focal, (width / 2.0, height / 2.0), rotation, centre)


def render_oblique(scene: ObliqueScene, rng: np.random.Generator) -> ObliqueRendered:
    """The scene as a webcam frame (see the module's docstring) and its truth."""
    width, height = scene.size
    focal = float(rng.uniform(0.85, 1.0)) * width  # a ~55-60 degree webcam
    camera = tilted_camera(scene, focal)
    big = _scaled(camera, SUPERSAMPLE)
    canvas = _table(big, scene, rng).astype(np.float32)
    light = _light_direction(rng)
    for die in scene.dice:
        _shadow(canvas, big, die, light)
    cubes = sorted(scene.dice, key=lambda d: -float(big.depth(_cube(d)).mean()))
    truths = {id(d): _draw_cube(canvas, big, d, light, rng) for d in cubes}
    hand_mask = np.zeros((height * SUPERSAMPLE, width * SUPERSAMPLE), np.uint8)
    if scene.hand != "none":
        hand_mask = _draw_hand(canvas, big, scene, light, rng)
    frame = _webcam(canvas, scene.size, rng)
    small_mask = cv2.resize(hand_mask, scene.size, interpolation=cv2.INTER_NEAREST)
    return ObliqueRendered(
        frame=frame,
        dice=tuple(_shrunk_truth(truths[id(d)]) for d in scene.dice),
        hand_mask=np.asarray(small_mask, np.uint8),
        camera=camera,
    )


def random_oblique_scene(
    rng: np.random.Generator,
    tilt: tuple[float, float],
    count: int | None = None,
    hand: HandPose = "none",
    webcam_lean: bool = False,
) -> ObliqueScene:
    """1-5 dice (or ``count``), apart or touching, under a camera tipped within ``tilt``
    degrees; ``webcam_lean`` keeps the lean within 25 degrees of the frame's bottom (a
    webcam on its stand), else it points any way."""
    count = int(rng.integers(1, 6)) if count is None else count
    body, pips = BODIES[int(rng.choice(len(BODIES), p=[0.3, 0.25, 0.2, 0.1, 0.1, 0.05]))]
    dice: list[CubeDie] = []
    for _ in range(count):
        for _attempt in range(200):
            touching = bool(dice) and rng.random() < 0.3
            if touching:  # beside the last die, face to face
                anchor = dice[-1]
                a = math.radians(anchor.angle_deg + 90.0 * int(rng.integers(4)))
                centre = (
                    anchor.centre[0] + 1.03 * math.cos(a),
                    anchor.centre[1] + 1.03 * math.sin(a),
                )
                angle = anchor.angle_deg
            else:
                centre = (float(rng.uniform(-2.5, 2.5)), float(rng.uniform(-1.8, 1.8)))
                angle = float(rng.uniform(0.0, 90.0))
            others = dice[:-1] if touching else dice
            if all(math.dist(centre, d.centre) >= 1.45 for d in others):
                break
        else:
            raise ValueError(f"Cannot fit {count} dice apart in the camera's view.")
        dice.append(CubeDie(int(rng.integers(1, 7)), centre, angle, body, pips))
    lean = 90.0 + float(rng.uniform(-25.0, 25.0)) if webcam_lean else float(rng.uniform(0, 360))
    return ObliqueScene(
        dice=tuple(dice),
        tilt_deg=float(rng.uniform(*tilt)),
        lean_deg=lean,
        distance=float(rng.uniform(10.0, 15.0)),
        table=TABLES[int(rng.integers(len(TABLES)))],
        hand=hand,
    )


def side_values(top: int, turn: int) -> tuple[int, int, int, int]:
    """The four side faces' values going round a die showing ``top`` (opposite faces add
    to 7), started ``turn`` quarter turns round."""
    ring = [v for v in range(1, 7) if v not in (top, 7 - top)]
    first, second = ring[0], next(v for v in ring if v not in (ring[0], 7 - ring[0]))
    order = [first, second, 7 - first, 7 - second]
    k = turn % 4
    return (order[k], order[(k + 1) % 4], order[(k + 2) % 4], order[(k + 3) % 4])


def _scaled(camera: Pinhole, factor: int) -> Pinhole:
    px, py = camera.principal
    return Pinhole(
        camera.focal * factor, (px * factor, py * factor), camera.rotation, camera.centre
    )


def _cube(die: CubeDie, lift: float = 0.0) -> NDArray[np.float64]:
    """The die's 8 corners (world, z = -height): the base's four, then the top's four."""
    c, s = math.cos(math.radians(die.angle_deg)), math.sin(math.radians(die.angle_deg))
    base = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
    points = []
    for z in (-lift, -lift - 1.0):
        for u, v in base:
            points.append((die.centre[0] + u * c - v * s, die.centre[1] + u * s + v * c, z))
    return np.array(points, np.float64)


# Each face as indices into ``_cube``'s corners, in the order its texture's corners
# (top-left, top-right, bottom-right, bottom-left) go, and its outward normal's index.
_TOP = (4, 5, 6, 7)
_SIDES = ((4, 5, 1, 0), (5, 6, 2, 1), (6, 7, 3, 2), (7, 4, 0, 3))


def _draw_cube(
    canvas: NDArray[np.float32],
    camera: Pinhole,
    die: CubeDie,
    light: NDArray[np.float64],
    rng: np.random.Generator,
    lift: float = 0.0,
) -> CubeTruth:
    """Draw the die's visible faces (sides first, then the top) and return its truth."""
    corners = _cube(die, lift)
    image = camera.project(corners)
    centre = corners.mean(axis=0)
    values = side_values(die.value, int(rng.integers(4)))
    sides = []
    for index, face in enumerate(_SIDES):
        points = corners[list(face)]
        normal = points.mean(axis=0) - centre
        normal[2] = 0.0
        normal /= np.linalg.norm(normal)
        if float(normal @ (camera.centre - points.mean(axis=0))) <= 0:
            continue  # faces away from the camera
        shade = 0.68 + 0.3 * max(0.0, float(-normal @ light))
        _draw_face(canvas, image[list(face)], values[index], die, shade)
        sides.append(image[list(face)] / SUPERSAMPLE)
    top = image[list(_TOP)]
    _draw_face(canvas, top, die.value, die, 0.82 + 0.18 * max(0.0, float(light[2])))
    middle = top.mean(axis=0)
    return CubeTruth(die.value, (float(middle[0]), float(middle[1])), top, tuple(sides))


def _face_texture(value: int, die: CubeDie) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """A face of edge TEXTURE: the body with rounded, darker edges and its pips; and the
    face's coverage (rounded corners let the table show)."""
    t = TEXTURE
    body = np.zeros((t, t, 3), np.float32)
    body[:] = die.colour
    xs = (np.arange(t, dtype=np.float32) + 0.5) / t - 0.5
    edge = np.maximum(np.abs(xs)[None, :], np.abs(xs)[:, None])
    body *= (1.0 - 0.25 * np.clip((edge - 0.40) / 0.1, 0.0, 1.0))[..., None]
    pips = np.zeros((t, t), np.float32)
    for px, py in _PIPS[value]:
        centre = (
            round((0.5 + px * PIP_SPACING) * t * 16),
            round((0.5 + py * PIP_SPACING) * t * 16),
        )
        cv2.circle(pips, centre, round(PIP_RADIUS * t * 16), (1.0,), -1, cv2.LINE_AA, 4)
    body = body * (1.0 - pips[..., None]) + np.array(die.pip_colour, np.float32) * pips[..., None]
    cover = np.zeros((t, t), np.float32)
    r = int(0.1 * t)
    cv2.rectangle(cover, (r, 0), (t - 1 - r, t - 1), (1.0,), -1)
    cv2.rectangle(cover, (0, r), (t - 1, t - 1 - r), (1.0,), -1)
    for cx in (r, t - 1 - r):
        for cy in (r, t - 1 - r):
            cv2.circle(cover, (cx, cy), r, (1.0,), -1, cv2.LINE_AA)
    return body, cover


def _draw_face(
    canvas: NDArray[np.float32], quad: NDArray[np.float64], value: int, die: CubeDie, shade: float
) -> None:
    """Warp one face's texture onto ``quad`` (image pixels) and blend it in, lit by ``shade``."""
    body, cover = _face_texture(value, die)
    t = TEXTURE - 1
    source = np.array([[0, 0], [t, 0], [t, t], [0, t]], np.float32)
    warp = cv2.getPerspectiveTransform(source, quad.astype(np.float32))
    size = (canvas.shape[1], canvas.shape[0])
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(size[0], x1), min(size[1], y1)
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ warp
    window = (x1 - x0, y1 - y0)
    colour = cv2.warpPerspective(body, shift, window, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(cover, shift, window, flags=cv2.INTER_LINEAR)[..., None]
    part = canvas[y0:y1, x0:x1]
    canvas[y0:y1, x0:x1] = part * (1.0 - alpha) + colour * shade * alpha


def _light_direction(rng: np.random.Generator) -> NDArray[np.float64]:
    """Where the light shines (unit vector): down from above, leaning up to ~40 degrees."""
    lean = math.radians(float(rng.uniform(10.0, 40.0)))
    turn = float(rng.uniform(0.0, 2 * math.pi))
    return np.array(
        [math.sin(lean) * math.cos(turn), math.sin(lean) * math.sin(turn), math.cos(lean)]
    )


def _table(camera: Pinhole, scene: ObliqueScene, rng: np.random.Generator) -> Image:
    """The table as the camera sees it: a textured plane raster warped into the frame."""
    width, height = scene.size[0] * SUPERSAMPLE, scene.size[1] * SUPERSAMPLE
    to_image = camera.table_homography()
    frame_corners = np.array([[[0, 0], [width, 0], [width, height], [0, height]]], np.float64)
    seen = cv2.perspectiveTransform(frame_corners, np.linalg.inv(to_image))[0]
    x0, y0 = seen.min(axis=0) - 1.0
    x1, y1 = seen.max(axis=0) + 1.0
    ppu = min(camera.focal / scene.distance * 0.7, 1800.0 / max(x1 - x0, y1 - y0))
    colour, texture = scene.table
    plane = _Plane((x0, y0, x1, y1), ppu, rng, colour, texture)
    plane_to_table = np.array([[1 / ppu, 0, x0], [0, 1 / ppu, y0], [0, 0, 1]])
    return np.asarray(
        cv2.warpPerspective(
            plane.image,
            to_image @ plane_to_table,
            (width, height),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        ),
        np.uint8,
    )


def _shadow(
    canvas: NDArray[np.float32], camera: Pinhole, die: CubeDie, light: NDArray[np.float64]
) -> None:
    """A soft shadow on the table, cast away from the light."""
    base = _cube(die)[:4].copy()
    reach = light[:2] / max(light[2], 0.3) * 0.9
    grown = base + np.array([reach[0], reach[1], 0.0])
    points = camera.project(np.vstack([base, grown]))
    hull = cv2.convexHull(points.astype(np.float32)).astype(np.int32)
    drawn = np.zeros(canvas.shape[:2], np.float32)
    cv2.fillConvexPoly(drawn, hull, (1.0,), cv2.LINE_AA)
    blur = max(1.0, float(np.ptp(points[:, 0])) * 0.08)
    mask = np.asarray(cv2.GaussianBlur(drawn, (0, 0), blur), np.float32)
    canvas *= (1.0 - 0.4 * mask)[..., None]


def _draw_hand(
    canvas: NDArray[np.float32],
    camera: Pinhole,
    scene: ObliqueScene,
    light: NDArray[np.float64],
    rng: np.random.Generator,
) -> Image:
    """A hand reaching in over the dice (palm about 5 die edges wide), or holding a die up
    between its fingers; returns the hand's mask."""
    size = (canvas.shape[1], canvas.shape[0])
    middle = np.mean([d.centre for d in scene.dice], axis=0) if scene.dice else np.zeros(2)
    spot = middle + rng.uniform(-2.0, 2.0, 2)
    target = camera.project(np.array([[spot[0], spot[1], -3.0]]))[0]
    unit = camera.focal / scene.distance * 2.9  # one hand unit is ~4.7 cm, a die 1.6 cm
    skin, mask = _hand(size, (float(target[0]), float(target[1])), unit, rng)
    inside = mask > 0
    canvas[inside] = skin[inside].astype(np.float32)
    if scene.hand == "holding":
        held = CubeDie(
            int(rng.integers(1, 7)), (float(spot[0]), float(spot[1])), float(rng.uniform(0, 90))
        )
        _draw_cube(canvas, camera, held, light, rng, lift=3.0)
        # Thumb and finger tips over the die's near corners.
        corners = camera.project(_cube(held, 3.0))
        tone = skin[inside].mean(axis=0) if inside.any() else np.array([150, 170, 220])
        for a, b in ((0, 6), (3, 5)):
            tip = corners[a] * 0.65 + corners[b] * 0.35
            cv2.circle(mask, (int(tip[0]), int(tip[1])), max(2, int(unit * 0.18)), (255,), -1)
            cv2.line(
                mask,
                (int(tip[0]), int(tip[1])),
                (int(target[0]), int(target[1])),
                (255,),
                max(2, int(unit * 0.3)),
            )
        cover = mask > 0
        cover &= ~inside
        canvas[cover] = tone
    return mask


def _webcam(canvas: NDArray[np.float32], size: tuple[int, int], rng: np.random.Generator) -> Image:
    """Shrink, uneven light, soft focus, sensor noise and JPEG, as a cheap webcam gives."""
    frame = np.asarray(cv2.resize(canvas, size, interpolation=cv2.INTER_AREA), np.float32)
    width, height = size
    direction = rng.normal(size=2)
    direction /= np.linalg.norm(direction)
    xs = np.arange(width, dtype=np.float32)[None, :] / width - 0.5
    ys = np.arange(height, dtype=np.float32)[:, None] / height - 0.5
    ramp = xs * np.float32(direction[0]) + ys * np.float32(direction[1])
    frame *= (1.0 + float(rng.uniform(0.0, 0.4)) * ramp)[..., None]
    frame = np.asarray(cv2.GaussianBlur(frame, (0, 0), float(rng.uniform(0.5, 1.1))), np.float32)
    frame += rng.standard_normal(frame.shape).astype(np.float32) * np.float32(rng.uniform(1.5, 5.0))
    image = np.clip(frame, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 92))])
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8) if ok else image


def _shrunk_truth(truth: CubeTruth) -> CubeTruth:
    """A truth drawn at SUPERSAMPLE times, in the frame's pixels (sides already are)."""
    corners = truth.corners / SUPERSAMPLE
    middle = corners.mean(axis=0)
    return CubeTruth(truth.value, (float(middle[0]), float(middle[1])), corners, truth.sides)
