"""A pinhole camera over the table, for renders of things that stand up from it.

The flat renders see the table through a homography, which is all a camera can say about
the table plane. Anything with height (the Hamster Wheel's ring stands a diameter tall)
needs the real camera: a focal length, a position at a height above the table and a
rotation. World coordinates are table units with ``z = -height``, so that a camera looking
straight down sees the table the right way round (x right, y down, markers unmirrored).
One table unit is a belt square, about 4.7 cm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from companion.tabletop import CM_PER_UNIT as CM_PER_UNIT
from companion.tabletop import TABLE_SIZE


@dataclass(frozen=True)
class Pinhole:
    """Focal length (pixels), principal point, rotation (world to camera) and centre."""

    focal: float
    principal: tuple[float, float]
    rotation: NDArray[np.float64]  # 3 x 3, world -> camera
    centre: NDArray[np.float64]  # camera position in world units (z = -height)

    @property
    def height(self) -> float:
        """Height above the table, in table units."""
        return float(-self.centre[2])

    def project(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """World points (N x 3, z = -height) to image pixels (N x 2)."""
        cam = (np.asarray(points, np.float64) - self.centre) @ self.rotation.T
        depth = np.maximum(cam[:, 2:3], 1e-6)
        return np.asarray(cam[:, :2] / depth * self.focal + np.array(self.principal), np.float64)

    def depth(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Distance along the view axis, for drawing far things first."""
        return np.asarray(((np.asarray(points) - self.centre) @ self.rotation.T)[:, 2])

    def table_homography(self) -> NDArray[np.float64]:
        """The table plane (z = 0) to the image: ``K [r1 r2 t]``."""
        k = np.array(
            [[self.focal, 0, self.principal[0]], [0, self.focal, self.principal[1]], [0, 0, 1]]
        )
        t = -self.rotation @ self.centre
        pose = np.column_stack([self.rotation[:, 0], self.rotation[:, 1], t])
        homography = k @ pose
        return np.asarray(homography / homography[2, 2], np.float64)


def _rotation(yaw: float, tilt: float, tilt_towards: float) -> NDArray[np.float64]:
    """Looking straight down, turned ``yaw`` about the vertical, then tipped ``tilt``
    radians about a horizontal axis (the view leans towards ``tilt_towards``)."""
    cy, sy = math.cos(yaw), math.sin(yaw)
    turn = np.array([[cy, sy, 0.0], [-sy, cy, 0.0], [0.0, 0.0, 1.0]])
    axis = np.array([-math.sin(tilt_towards), math.cos(tilt_towards), 0.0])
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    tip = np.eye(3) + math.sin(tilt) * k + (1 - math.cos(tilt)) * (k @ k)
    return np.asarray(turn @ tip.T, np.float64)


def camera_over_table(
    rng: np.random.Generator,
    size: tuple[int, int],
    height_cm: float,
    tilt_deg: float = 0.0,
    region: tuple[float, float, float, float] = (0.0, 0.0, *TABLE_SIZE),
) -> Pinhole:
    """A camera ``height_cm`` above a point near the region's middle, tipped up to
    ``tilt_deg``, its long side along the region's, with a focal length that fits the
    region in 80-90 % of the frame (a wide webcam at 50 cm, a narrower view higher up)."""
    x0, y0, x1, y1 = region
    width, height = size
    yaw = (math.pi / 2 if (y1 - y0 > x1 - x0) == (width > height) else 0.0) + (
        math.pi if rng.random() < 0.5 else 0.0
    )
    yaw += math.radians(float(rng.uniform(-5.0, 5.0)))
    tilt = math.radians(float(rng.uniform(0.0, tilt_deg)))
    towards = float(rng.uniform(0, 2 * math.pi))
    rotation = _rotation(yaw, tilt, towards)
    h = height_cm / CM_PER_UNIT
    looked_at = np.array(
        [
            (x0 + x1) / 2 + float(rng.uniform(-0.5, 0.5)),
            (y0 + y1) / 2 + float(rng.uniform(-0.5, 0.5)),
            0.0,
        ]
    )
    view = rotation.T @ np.array([0.0, 0.0, 1.0])  # the optical axis in the world
    centre = looked_at - view * (h / max(view[2], 0.2))
    probe = Pinhole(1.0, (0.0, 0.0), rotation, centre)
    corners = np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]], np.float64)
    spread = np.abs(probe.project(corners)).max(axis=0)
    focal = float(rng.uniform(0.8, 0.9)) * min(width / 2 / spread[0], height / 2 / spread[1])
    return Pinhole(focal, (width / 2.0, height / 2.0), rotation, centre)
