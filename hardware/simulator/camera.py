"""Photographing the table plane: a random camera pose (a homography), uneven light, soft
shadows, a hand reaching in, a little blur and sensor noise.

Every random choice comes from the caller's seeded Generator, so a failing frame can be
rebuilt exactly from its seed.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.simulator.common import (
    BGR,
    SKIN_TONES,
    TABLE_COLOUR,
    Conditions,
    Homography,
    Image,
    Point,
    Rendered,
    TableTexture,
)
from hardware.simulator.plane import _Plane


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
    size: tuple[int, int],
    target: Point,
    unit: float,
    rng: np.random.Generator,
    skin: BGR | None = None,
) -> tuple[Image, Image]:
    """A hand (palm, fingers, forearm to the nearest frame edge) as a colour layer and mask;
    its skin ``skin``, else one of ``SKIN_TONES`` at random."""
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
    chosen = skin or SKIN_TONES[int(rng.integers(len(SKIN_TONES)))]
    tone = np.array(chosen, np.float32)
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
