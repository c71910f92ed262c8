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

from companion.tabletop import CM_PER_UNIT

# Trials of a focal length at most (:func:`_focal_for_height` needs about ten).
FOCAL_TRIALS = 60
Points = NDArray[np.float64]


@dataclass(frozen=True)
class CameraPose:
    """Focal length (pixels), principal point, rotation (world to camera), centre (world)."""

    focal: float
    principal: tuple[float, float]
    rotation: Points
    centre: Points
    lens: float = 0.0  # barrel (negative) or pincushion, as in :func:`undistort`

    def rays(self, pixels: Points) -> Points:
        """The world direction of the ray through each pixel (N x 2 -> N x 3)."""
        ideal = undistort(np.asarray(pixels, np.float64), self.lens, self.principal)
        normalised = (ideal - np.array(self.principal)) / self.focal
        directions = np.column_stack([normalised, np.ones(len(normalised))])
        return np.asarray(directions @ self.rotation, np.float64)

    def project(self, points: Points) -> Points:
        offset = np.asarray(points, np.float64) - self.centre
        r = self.rotation  # (offset @ r.T) written out: no threaded BLAS call per frame
        cam = offset[:, :1] * r[:, 0] + offset[:, 1:2] * r[:, 1] + offset[:, 2:] * r[:, 2]
        ideal = cam[:, :2] / np.maximum(cam[:, 2:3], 1e-6) * self.focal + np.array(self.principal)
        return distort(np.asarray(ideal, np.float64), self.lens, self.principal)


def undistort(pixels: Points, lens: float, principal: tuple[float, float]) -> Points:
    """Where a pinhole would have put each pixel: ``c + (p - c)(1 + lens r^2)``, with ``r``
    the distance from the centre ``c`` over half the frame's diagonal (barrel when
    ``lens`` is negative; a webcam's is about -0.02 to -0.1)."""
    if not lens:
        return pixels
    centre = np.array(principal)
    half = math.hypot(*principal)
    offset = (pixels - centre) / half
    scale = 1.0 + lens * (offset[:, :1] ** 2 + offset[:, 1:] ** 2)
    return np.asarray(centre + offset * scale * half, np.float64)


def distort(ideal: Points, lens: float, principal: tuple[float, float]) -> Points:
    """The inverse of :func:`undistort`, by a few fixed-point steps."""
    if not lens:
        return ideal
    centre = np.array(principal)
    half = math.hypot(*principal)
    target = (ideal - centre) / half
    offset = target.copy()
    for _ in range(6):
        offset = target / (1.0 + lens * (offset[:, :1] ** 2 + offset[:, 1:] ** 2))
    return np.asarray(centre + offset * half, np.float64)


def lens_from_markers(
    image_points: Points, table_points: Points, principal: tuple[float, float]
) -> tuple[float, Points]:
    """The lens's barrel (see :func:`undistort`) that lets the table markers' corners fit
    one homography best, and that homography (table to undistorted image).

    Searched coarse (steps of 0.02 from -0.16 to 0.06), then fine (0.005) round the best
    coarse step: the misfit has one valley over that range, and 18 trials cost less than
    half of the 44 a fine search all the way would.
    """
    coarse = _best_lens(image_points, table_points, principal, np.arange(-0.16, 0.0601, 0.02))
    fine = np.arange(coarse[1] - 0.015, coarse[1] + 0.0151, 0.005)
    best = _best_lens(
        image_points, table_points, principal, fine[(fine > -0.1651) & (fine < 0.0551)]
    )
    return best[1], best[2]


def _best_lens(
    image_points: Points, table_points: Points, principal: tuple[float, float], trials: Points
) -> tuple[float, float, Points]:
    """The misfit, lens and homography of the trial lens whose homography fits best."""
    best = (math.inf, 0.0, np.eye(3))
    for lens in trials:
        ideal = undistort(image_points, float(lens), principal)
        found, _ = cv2.findHomography(table_points, ideal, 0)
        if found is None:
            continue
        projected = cv2.perspectiveTransform(table_points.reshape(-1, 1, 2), found).reshape(-1, 2)
        misfit = float(((projected - ideal) ** 2).sum())
        if misfit < best[0]:
            best = (misfit, float(lens), np.asarray(found, np.float64))
    return best


def _decompose(
    table_to_image: Points, focal: float, principal: tuple[float, float], lens: float = 0.0
) -> CameraPose:
    # K^-1 H, K^-1 written out: this runs a few dozen times a frame.
    m = np.array(table_to_image, np.float64)
    m[0] = (m[0] - principal[0] * m[2]) / focal
    m[1] = (m[1] - principal[1] * m[2]) / focal
    scale = 2.0 / (math.sqrt(float(m[:, 0] @ m[:, 0])) + math.sqrt(float(m[:, 1] @ m[:, 1])))
    if m[2, 2] * scale < 0:  # the table must lie in front of the camera
        scale = -scale
    r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
    r3 = np.array(
        [
            r1[1] * r2[2] - r1[2] * r2[1],
            r1[2] * r2[0] - r1[0] * r2[2],
            r1[0] * r2[1] - r1[1] * r2[0],
        ]
    )
    u, _, vt = np.linalg.svd(np.column_stack([r1, r2, r3]))  # the nearest true rotation
    rotation = u @ vt
    if np.linalg.det(rotation) < 0:
        rotation = -rotation
    centre = -rotation.T @ t
    return CameraPose(focal, principal, np.asarray(rotation, np.float64), centre, lens)


def camera_pose(
    image_points: Points,
    table_points: Points,
    image_size: tuple[int, int],
    height_cm: float,
) -> CameraPose | None:
    """The camera over the table, from the table markers' corners (image and table) and
    the camera's height.

    The lens's barrel comes first (:func:`lens_from_markers`), then the focal length is
    the one for which the homography puts the camera at that height (a longer lens means
    a camera further away: :func:`_focal_for_height`). None when no focal length between 0.2 and
    20 frame widths does (the height is far from what the markers show).
    """
    principal = (image_size[0] / 2.0, image_size[1] / 2.0)
    lens, table_to_image = lens_from_markers(image_points, table_points, principal)
    target = height_cm / CM_PER_UNIT
    focal = _focal_for_height(table_to_image, principal, target, image_size[0])
    pose = _decompose(table_to_image, focal, principal, lens)
    if abs(-float(pose.centre[2]) - target) > 0.05 * target:
        return None
    return pose


def _focal_for_height(
    table_to_image: Points, principal: tuple[float, float], target: float, width: int
) -> float:
    """The focal length (0.2-20 frame widths) that puts the camera ``target`` table units
    over the table, or the end of that range nearest to it.

    The height rises smoothly with the focal length, so a false position on its logarithm
    (the Illinois variant, which halves a stuck end's weight) closes in within about ten
    trials, where halving the range took thirty-four for the same few parts in a billion.
    """

    def above(log_focal: float) -> float:
        focal = math.exp(log_focal)
        return -float(_decompose(table_to_image, focal, principal).centre[2]) - target

    low, high = math.log(0.2 * width), math.log(20.0 * width)
    f_low, f_high = above(low), above(high)
    if f_low * f_high > 0:
        return math.exp(low if abs(f_low) < abs(f_high) else high)
    side = 0
    for _ in range(FOCAL_TRIALS):
        middle = (low * f_high - high * f_low) / (f_high - f_low)
        f_middle = above(middle)
        if abs(f_middle) < 1e-9 * target or high - low < 1e-9:
            return math.exp(middle)
        if f_middle * f_high > 0:
            high, f_high = middle, f_middle
            if side == 1:
                f_low /= 2.0
            side = 1
        else:
            low, f_low = middle, f_middle
            if side == -1:
                f_high /= 2.0
            side = -1
    return math.exp((low * f_high - high * f_low) / (f_high - f_low))


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
    # Dot products written out: a threaded BLAS wakes its threads for each ``@``.
    along = points[..., 0] * axis[0] + points[..., 1] * axis[1] - radius * np.sin(phi)
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
COARSE = 4  # of the unrolled strip's pixels, every 4th (each way) is projected


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
    # The strip's pixels move smoothly over the frame: every COARSE-th one is projected and
    # the rest interpolated between them (off by well under a hundredth of a pixel).
    phi = np.linspace(-reach, reach, -(-(columns - 1) // COARSE) + 1)
    across = np.linspace(-half_width, half_width, -(-(rows - 1) // COARSE) + 1)
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
    coarse = pose.project(grid.reshape(-1, 3)).reshape(len(across), len(phi), 2)
    fine = _between(coarse, np.linspace(-half_width, half_width, rows), across, axis=0)
    fine = _between(fine, np.linspace(-reach, reach, columns), phi, axis=1)
    map_x = np.ascontiguousarray(fine[..., 0], dtype=np.float32)
    map_y = np.ascontiguousarray(fine[..., 1], dtype=np.float32)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    flat = cv2.remap(gray, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    return np.asarray(flat, np.uint8), map_x, map_y


def _between(values: Points, fine: Points, coarse: Points, axis: int) -> Points:
    """``values`` taken at the ``coarse`` positions along ``axis``, interpolated linearly to
    the ``fine`` ones (both rising, the same ends). Gathers, not a matrix product: a
    threaded BLAS spends more than the whole sum waking its threads."""
    left = np.clip(np.searchsorted(coarse, fine, side="right") - 1, 0, len(coarse) - 2)
    share = (fine - coarse[left]) / (coarse[left + 1] - coarse[left])
    shape = [1] * values.ndim
    shape[axis] = len(fine)
    share = share.reshape(shape)
    lower = np.take(values, left, axis=axis)
    upper = np.take(values, left + 1, axis=axis)
    return np.asarray(lower + (upper - lower) * share, np.float64)


def back_to_frame(
    corners: NDArray[np.float32], map_x: NDArray[np.float32], map_y: NDArray[np.float32]
) -> NDArray[np.float64]:
    """Corners found in the unrolled strip (N x 2), as frame pixels (bilinear)."""
    xs = np.asarray(corners[:, 0:1], np.float32).reshape(1, -1)
    ys = np.asarray(corners[:, 1:2], np.float32).reshape(1, -1)
    fx = cv2.remap(map_x, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    fy = cv2.remap(map_y, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.column_stack([np.ravel(fx), np.ravel(fy)]).astype(np.float64)
