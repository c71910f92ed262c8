"""The ring's angle from a camera that knows its height: the rim strip stands off the table.

The table markers give a homography, which is all a camera says about the table plane.
The rim strip is not in that plane: where it passes the top of the ring it stands a
diameter above the table, and a webcam 50-100 cm up sees it up to twice as large and
shifted. Knowing the camera's height (measured at calibration), the homography splits into
the camera's focal length, rotation and position (``K [r1 r2 t]``); every marker corner
seen on the rim is then a ray from the camera, and for a trial angle ``theta`` each corner
has a known height (``R (1 + cos(place + theta))``), so its ray meets that height at one
point of the table. The right ``theta`` is the one whose points line up along the band as
``c + R sin(place + theta)``; the spread left over is the fit's quality, in table units.

World coordinates are table units with ``z = -height`` (the table's x right, y down, as
the camera sees it); one table unit is a belt square, about 4.7 cm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

CM_PER_UNIT = 4.7
Points = NDArray[np.float64]


@dataclass(frozen=True)
class CameraPose:
    """Focal length (pixels), principal point, rotation (world to camera), centre (world)."""

    focal: float
    principal: tuple[float, float]
    rotation: Points
    centre: Points

    def rays(self, pixels: Points) -> Points:
        """The world direction of the ray through each pixel (N x 2 -> N x 3)."""
        normalised = (np.asarray(pixels, np.float64) - np.array(self.principal)) / self.focal
        directions = np.column_stack([normalised, np.ones(len(normalised))])
        return np.asarray(directions @ self.rotation, np.float64)

    def project(self, points: Points) -> Points:
        cam = (np.asarray(points, np.float64) - self.centre) @ self.rotation.T
        return np.asarray(
            cam[:, :2] / np.maximum(cam[:, 2:3], 1e-6) * self.focal + np.array(self.principal),
            np.float64,
        )


def _decompose(table_to_image: Points, focal: float, principal: tuple[float, float]) -> CameraPose:
    k_inverse = np.linalg.inv(
        np.array([[focal, 0, principal[0]], [0, focal, principal[1]], [0, 0, 1.0]])
    )
    m = k_inverse @ table_to_image
    scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    if m[2, 2] * scale < 0:  # the table must lie in front of the camera
        scale = -scale
    r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
    r3 = np.cross(r1, r2)
    u, _, vt = np.linalg.svd(np.column_stack([r1, r2, r3]))  # the nearest true rotation
    rotation = u @ vt
    if np.linalg.det(rotation) < 0:
        rotation = -rotation
    centre = -rotation.T @ t
    return CameraPose(focal, principal, np.asarray(rotation, np.float64), centre)


def camera_pose(
    image_to_table: Points, image_size: tuple[int, int], height_cm: float
) -> CameraPose | None:
    """The camera over the table, from the table homography and the camera's height.

    The focal length is the one for which the homography puts the camera at that height
    (a bisection: a longer lens means a camera further away). None when no focal length
    between 0.2 and 20 frame widths does (the height is far from the homography's).
    """
    table_to_image = np.asarray(np.linalg.inv(image_to_table), np.float64)
    principal = (image_size[0] / 2.0, image_size[1] / 2.0)
    target = height_cm / CM_PER_UNIT
    low, high = 0.2 * image_size[0], 20.0 * image_size[0]
    for _ in range(60):
        middle = math.sqrt(low * high)
        height = -float(_decompose(table_to_image, middle, principal).centre[2])
        if height < target:
            low = middle
        else:
            high = middle
    pose = _decompose(table_to_image, math.sqrt(low * high), principal)
    if abs(-float(pose.centre[2]) - target) > 0.05 * target:
        return None
    return pose


@dataclass(frozen=True)
class RimFit:
    """The ring's angle (degrees), its footprint's centre and heading, and the fit's
    quality: the root-mean-square distance (table units) of the corners from the model."""

    angle_deg: float
    centre: tuple[float, float]
    heading_deg: float
    error: float
    uncertainty_deg: float = 0.0  # about two standard errors of the angle


# Marker corners are found to about this (table units, 1 mm) at best.
CORNER_NOISE = 0.02


def fit_rim(
    pose: CameraPose,
    pixels: Points,
    places_deg: Points,
    x_dirs: Points,
    radius: float,
) -> RimFit:
    """Fit the angle to the rim corners ``pixels`` (N x 2) whose places on the rim are
    ``places_deg`` (N); ``x_dirs`` (M x 2, in the table) say which way the ids rise."""
    rays = pose.rays(pixels)
    heading = math.atan2(float(x_dirs[:, 1].sum()), float(x_dirs[:, 0].sum()))
    thetas = np.arange(0.0, 360.0, 1.0)
    for _round in range(2):
        axis = np.array([math.cos(heading), math.sin(heading)])
        errors, _ = _spread(pose, rays, places_deg, thetas, axis, radius)
        best = float(thetas[int(np.argmin(errors))])
        fine = best + np.arange(-1.5, 1.5, 0.02)
        errors, points = _spread(pose, rays, places_deg, fine, axis, radius)
        index = int(np.argmin(errors))
        theta = float(fine[index]) % 360.0
        lifted = points[index]
        heading = _heading(lifted, places_deg, heading)
    axis = np.array([math.cos(heading), math.sin(heading)])
    steps = np.array([-2.0, 0.0, 2.0])
    errors, points = _spread(pose, rays, places_deg, theta + steps, axis, radius)
    lifted = points[1]
    # How sharply the misfit rises either side says how well the corners pin the angle:
    # markers all near the top trade the angle for a shift along the band.
    curvature = max((errors[0] + errors[2] - 2.0 * errors[1]) / (2.0 * 4.0), 1e-12)
    noise = max(CORNER_NOISE**2, float(errors[1]) * len(rays) / max(len(rays) - 2, 1))
    uncertainty = 2.0 * math.sqrt(noise / (len(rays) * curvature))
    along = lifted @ axis - radius * np.sin(np.radians(places_deg + theta))
    across = lifted @ np.array([-axis[1], axis[0]])
    foot = axis * float(along.mean()) + np.array([-axis[1], axis[0]]) * float(np.median(across))
    return RimFit(
        theta,
        (float(foot[0]), float(foot[1])),
        math.degrees(heading) % 360.0,
        math.sqrt(float(errors[1])),
        uncertainty,
    )


def _spread(
    pose: CameraPose,
    rays: Points,
    places_deg: Points,
    thetas: Points,
    axis: Points,
    radius: float,
) -> tuple[Points, Points]:
    """For each trial angle: the mean squared misfit along the band, and the corners
    lifted to their heights (T x N x 2 table points)."""
    phi = np.radians(places_deg[None, :] + thetas[:, None])
    heights = radius * (1.0 + np.cos(phi))  # above the table
    z = -heights
    t = (z - pose.centre[2]) / rays[None, :, 2]
    points = pose.centre[None, None, :2] + t[..., None] * rays[None, :, :2]
    along = points @ axis - radius * np.sin(phi)
    errors = ((along - along.mean(axis=1, keepdims=True)) ** 2).mean(axis=1)
    return np.asarray(errors, np.float64), np.asarray(points, np.float64)


def _heading(lifted: Points, places_deg: Points, previous: float) -> float:
    """The band's direction from the lifted corners: each marker's right corners lie
    after its left ones along the band."""
    count = len(lifted) // 4
    corners = lifted.reshape(count, 4, 2)
    x_dirs = (corners[:, 1] + corners[:, 2] - corners[:, 0] - corners[:, 3]) / 2.0
    heading = math.atan2(float(x_dirs[:, 1].sum()), float(x_dirs[:, 0].sum()))
    return heading if count else previous


UNROLL_STEP = 0.02  # table units per pixel of the unrolled strip
UNROLL_REACH_DEG = 80.0  # how far round from the top the strip is unrolled


def unroll_strip(
    frame: NDArray[np.uint8], pose: CameraPose, fit: RimFit, radius: float, half_width: float
) -> tuple[NDArray[np.uint8], NDArray[np.float32], NDArray[np.float32]]:
    """The rim strip as if peeled off the ring and laid flat: a grey image whose columns
    run round the rim (from ``-UNROLL_REACH_DEG`` to ``+``) and rows across it, plus the
    frame pixel (x, y) each of its pixels was taken from.

    Markers bent round the ring's shoulders, squeezed past reading in the frame, are
    square again here; a corner found in this image is mapped back to the frame through
    the same table of pixels, so the fit that follows needs no trust in the ring's place
    used to unroll it.
    """
    reach = math.radians(UNROLL_REACH_DEG)
    columns = int(2 * reach * radius / UNROLL_STEP)
    rows = int(2 * half_width / UNROLL_STEP)
    phi = np.linspace(-reach, reach, columns)
    across = np.linspace(-half_width, half_width, rows)
    h = math.radians(fit.heading_deg)
    u = np.array([math.cos(h), math.sin(h), 0.0])
    v = np.array([-math.sin(h), math.cos(h), 0.0])
    up = np.array([0.0, 0.0, -1.0])
    axle = np.array([fit.centre[0], fit.centre[1], 0.0]) + up * radius
    grid = (
        axle[None, None, :]
        + radius * np.sin(phi)[None, :, None] * u
        + radius * np.cos(phi)[None, :, None] * up
        + across[:, None, None] * v
    )
    pixels = pose.project(grid.reshape(-1, 3)).reshape(rows, columns, 2).astype(np.float32)
    map_x, map_y = pixels[..., 0], pixels[..., 1]
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    flat = cv2.remap(gray, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    return np.asarray(flat, np.uint8), map_x, map_y


def back_to_frame(
    corners: NDArray[np.float32], map_x: NDArray[np.float32], map_y: NDArray[np.float32]
) -> NDArray[np.float64]:
    """Corners found in the unrolled strip (N x 2), as frame pixels (bilinear)."""
    xs = np.asarray(corners[:, 0:1], np.float32).reshape(1, -1)
    ys = np.asarray(corners[:, 1:2], np.float32).reshape(1, -1)
    fx = cv2.remap(map_x, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    fy = cv2.remap(map_y, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.column_stack([np.ravel(fx), np.ravel(fy)]).astype(np.float64)
