"""The Hamster Wheel's ring as a solid: a hoop standing on its edge, seen by a pinhole camera.

The flat render draws the ring as a band on the table with the rim strip shifted a little;
a real ring's top stands a diameter above the table, so from a webcam 50-100 cm up it looks
up to twice as large as its footprint, offset, with a side and the inside in view. Here the
hoop is cut into small quads (outer tread, inner tread, two side faces), each shaded by a
lamp (diffuse plus a highlight), culled when it faces away and drawn far to near; the rim
strip's markers are drawn cell by cell on the curved tread, as printed stickers bend.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.tabletop import RIM_MARKER_FILL, RIM_MARKER_IDS
from hardware.simulator.common import BGR, WHEEL_PIECE_COLOURS, WOOD, Image
from hardware.simulator.pinhole import Pinhole
from hardware.simulator.plane import _Plane
from hardware.simulator.wheel import VISIBLE_RIM_DEG, WheelScene

ARUCO = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
THICKNESS = 0.25  # the hoop's wall, table units (about 1.2 cm)
SHIFT = 4
Quad = NDArray[np.float64]  # 4 x 3 world points


class _Ring:
    """Where a point of the hoop is, from its place on the rim and across the tread."""

    def __init__(self, scene: WheelScene):
        h = math.radians(scene.heading_deg)
        self.u = np.array([math.cos(h), math.sin(h), 0.0])
        self.v = np.array([-math.sin(h), math.cos(h), 0.0])
        self.up = np.array([0.0, 0.0, -1.0])
        self.foot = np.array([scene.centre[0], scene.centre[1], 0.0])
        self.radius, self.depth = scene.radius, scene.depth

    def point(self, phi_deg: float, across: float, radius: float | None = None) -> Quad:
        """``phi`` from the top (degrees), ``across`` along the axle."""
        r = self.radius if radius is None else radius
        phi = math.radians(phi_deg)
        axle = self.foot + self.up * self.radius
        return np.asarray(
            axle + r * math.sin(phi) * self.u + r * math.cos(phi) * self.up + across * self.v
        )

    def normal(self, phi_deg: float) -> Quad:
        phi = math.radians(phi_deg)
        return np.asarray(math.sin(phi) * self.u + math.cos(phi) * self.up)


def _lit(colour: BGR, normal: Quad, centre: Quad, camera: Pinhole, light: Quad) -> BGR:
    """Lambert shading plus a Blinn-Phong highlight (a varnished ring shines)."""
    diffuse = max(0.0, float(normal @ light))
    view = camera.centre - centre
    view = view / (np.linalg.norm(view) + 1e-9)
    half = (view + light) / (np.linalg.norm(view + light) + 1e-9)
    shine = 90.0 * max(0.0, float(normal @ half)) ** 40
    b, g, r = (min(255, round(c * (0.45 + 0.65 * diffuse) + shine)) for c in colour)
    return (b, g, r)


def _faces(ring: _Ring, strip: float) -> Iterator[tuple[Quad, Quad, BGR]]:
    """Every quad of the hoop: (4 world corners, outward normal, base colour)."""
    step = 6.0
    half = ring.depth / 2.0
    inner = ring.radius - THICKNESS
    paper: BGR = (236, 236, 236)
    bands = ((-half, -strip, WOOD), (-strip, strip, paper), (strip, half, WOOD))
    for k in range(int(360 / step)):
        a, b = k * step, (k + 1) * step
        mid = (a + b) / 2.0
        for s0, s1, colour in bands:  # the outer tread, the rim strip in its middle
            quad = np.array(
                [ring.point(a, s0), ring.point(b, s0), ring.point(b, s1), ring.point(a, s1)]
            )
            yield quad, ring.normal(mid), colour
        quad = np.array(
            [ring.point(a, -half, inner), ring.point(b, -half, inner), ring.point(b, half, inner),
             ring.point(a, half, inner)]
        )  # fmt: skip
        yield quad, -ring.normal(mid), _dim(WOOD, 0.8)
        for side in (-half, half):  # the side faces of the wall
            quad = np.array(
                [ring.point(a, side), ring.point(b, side), ring.point(b, side, inner),
                 ring.point(a, side, inner)]
            )  # fmt: skip
            yield quad, ring.v * math.copysign(1.0, side), _dim(WOOD, 1.15)


def _dim(colour: BGR, factor: float) -> BGR:
    b, g, r = (min(255, max(0, round(c * factor))) for c in colour)
    return (b, g, r)


def _faces_camera(quad: Quad, normal: Quad, camera: Pinhole) -> bool:
    return float((camera.centre - quad.mean(axis=0)) @ normal) > 0.0


def _fill(canvas: Image, mask: Image, quad: Quad, camera: Pinhole, colour: BGR) -> None:
    points = np.round(camera.project(quad) * (1 << SHIFT)).astype(np.int32)
    cv2.fillConvexPoly(canvas, points, colour, cv2.LINE_8, SHIFT)
    cv2.fillConvexPoly(mask, points, (255,), cv2.LINE_AA, SHIFT)


def _shade_face(
    canvas: Image,
    mask: Image,
    face: tuple[Quad, Quad, BGR],
    camera: Pinhole,
    lamp: Quad,
) -> None:
    quad, normal, colour = face
    if _faces_camera(quad, normal, camera):
        _fill(canvas, mask, quad, camera, _lit(colour, normal, quad.mean(axis=0), camera, lamp))


def _marker_cells(ring: _Ring, angle_deg: float) -> Iterator[tuple[Quad, Quad, BGR]]:
    """Each printed cell of each rim marker on the upper tread, bent round the rim."""
    slot = 2.0 * math.pi * ring.radius / len(RIM_MARKER_IDS)
    side = RIM_MARKER_FILL * slot
    half_side = side / 2.0 + side / 6.0
    half_arc = math.degrees(half_side / ring.radius)
    for k, marker_id in enumerate(RIM_MARKER_IDS):
        phi = (k * 360.0 / len(RIM_MARKER_IDS) + angle_deg + 180.0) % 360.0 - 180.0
        if abs(phi) > VISIBLE_RIM_DEG + 15.0:
            continue
        bits = cv2.aruco.generateImageMarker(ARUCO, marker_id, 6, borderBits=1)
        patch = np.full((8, 8), 255, np.uint8)
        patch[1:7, 1:7] = bits
        for row in range(8):
            s0 = -half_side + row * half_side / 4.0
            for col in range(8):
                a = phi - half_arc + col * half_arc / 4.0
                b = a + half_arc / 4.0
                grey = int(patch[row, col])
                lift = 1.0 + 1e-3  # a sticker sits on the paper, never behind it
                r = ring.radius * lift
                quad = np.array(
                    [ring.point(a, s0, r), ring.point(b, s0, r),
                     ring.point(b, s0 + half_side / 4.0, r), ring.point(a, s0 + half_side / 4.0, r)]
                )  # fmt: skip
                yield quad, ring.normal((a + b) / 2.0), (grey, grey, grey)


def draw_ring(
    camera: Pinhole,
    scene: WheelScene,
    size: tuple[int, int],
    light: tuple[float, float, float],
) -> tuple[Image, Image]:
    """The ring as the camera sees it: a colour layer and its coverage (0..255)."""
    width, height = size
    canvas = np.zeros((height, width, 3), np.uint8)
    mask = np.zeros((height, width), np.uint8)
    ring = _Ring(scene)
    lamp = np.array(light, np.float64) / np.linalg.norm(light)
    slot = 2.0 * math.pi * ring.radius / len(RIM_MARKER_IDS)
    side = RIM_MARKER_FILL * slot
    strip = min(ring.depth / 2.0 * 0.9, (side / 2.0 + side / 6.0) * 1.15)
    faces = list(_faces(ring, strip))
    order = np.argsort([-float(camera.depth(quad).mean()) for quad, _, _ in faces])
    inner = [int(i) for i in order if faces[int(i)][2] == _dim(WOOD, 0.8)]
    rest = [int(i) for i in order if faces[int(i)][2] != _dim(WOOD, 0.8)]
    for index in inner:  # the inner tread first, then what lies on it, then the rest
        _shade_face(canvas, mask, faces[index], camera, lamp)
    _inside_pieces(canvas, mask, ring, scene, camera)
    for index in rest:  # far to near: the painter's way, good enough for a convex hoop
        _shade_face(canvas, mask, faces[index], camera, lamp)
    for quad, normal, colour in _marker_cells(ring, scene.angle_deg):
        if _faces_camera(quad, normal, camera):
            _fill(canvas, mask, quad, camera, _lit(colour, normal, quad.mean(axis=0), camera, lamp))
    return canvas, mask


def _inside_pieces(
    canvas: Image, mask: Image, ring: _Ring, scene: WheelScene, camera: Pinhole
) -> None:
    """Pieces lying on the inner tread at the bottom, glimpsed past the rim."""
    for k, colour in enumerate(scene.inside):
        along = -ring.radius * 0.5 + ring.radius * ((k * 0.37) % 1.0)
        across = ring.depth / 2.0 * (0.55 if k % 2 else -0.55)
        centre = ring.foot + ring.u * along + ring.v * across + ring.up * (THICKNESS + 0.05)
        outline = np.array(
            [
                centre + 0.15 * (math.cos(t) * ring.u + math.sin(t) * ring.v)
                for t in np.linspace(0, 2 * math.pi, 12)
            ]
        )
        points = np.round(camera.project(outline) * (1 << SHIFT)).astype(np.int32)
        cv2.fillPoly(canvas, [points], WHEEL_PIECE_COLOURS[colour], cv2.LINE_8, SHIFT)
        cv2.fillPoly(mask, [points], (255,), cv2.LINE_AA, SHIFT)


def ring_shadow(plane: _Plane, scene: WheelScene, light: tuple[float, float, float]) -> None:
    """The ring's soft shadow on the table plane, thrown away from the lamp."""
    ring = _Ring(scene)
    lamp = np.array(light, np.float64) / np.linalg.norm(light)
    points = [
        ring.point(phi, s) for phi in range(0, 360, 10) for s in (-ring.depth / 2, ring.depth / 2)
    ]
    cast = [(p[0] - p[2] * lamp[0] / lamp[2], p[1] - p[2] * lamp[1] / lamp[2]) for p in points]
    hull = cv2.convexHull(np.array(cast, np.float32)).reshape(-1, 2)
    layer = _Plane.blank((plane.x0, plane.y0), plane.ppu, plane.image.shape[:2])
    layer.poly([(float(x), float(y)) for x, y in hull], (255, 255, 255))  # one channel: 255
    soft = cv2.GaussianBlur(layer.image.astype(np.float32) / 255.0, (0, 0), plane.ppu * 0.35)
    shade = 1.0 - 0.45 * soft
    plane.image = np.clip(plane.image.astype(np.float32) * shade[..., None], 0, 255).astype(
        np.uint8
    )
