"""How a standing piece shows from a camera off to one side: drawn out along the line from
the point under the camera, its top leaning away from it.

Two readers need this: the belt's, so a leaning hamster that fills most of its square is
not taken for a card (``board``), and the wheel's, so a standing block is counted as one
piece, not two (``wheel_pieces``). Both look at a blob's spread (its second moments).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray


def picture_middle(
    frame: NDArray[np.uint8], image_to_plane: NDArray[np.float64]
) -> tuple[float, float]:
    """The table point at the picture's middle (the plane's units): roughly the point under
    a camera that looks nearly straight down, which is where standing pieces lean from."""
    height, width = frame.shape[:2]
    x, y, w = image_to_plane @ np.array([width / 2.0, height / 2.0, 1.0])
    return (float(x / w), float(y / w))


class Spread(NamedTuple):
    """A blob's middle and its second central moments (pixels, per pixel of the blob)."""

    x: float
    y: float
    mu20: float
    mu02: float
    mu11: float

    def elongation(self) -> float:
        """How many times its longer axis is its shorter (0 for a blob with no width)."""
        half = math.hypot((self.mu20 - self.mu02) / 2.0, self.mu11)
        longer = (self.mu20 + self.mu02) / 2.0 + half
        shorter = (self.mu20 + self.mu02) / 2.0 - half
        return math.sqrt(longer / shorter) if shorter > 0 else 0.0

    def axis_off(self, below: tuple[float, float]) -> float:
        """How far (degrees, 0-90) its longer axis turns from the line from ``below``
        through its middle."""
        axis = 0.5 * math.atan2(2.0 * self.mu11, self.mu20 - self.mu02)
        away = math.atan2(self.y - below[1], self.x - below[0])
        return abs((math.degrees(axis - away) + 90.0) % 180.0 - 90.0)

    def along_and_across(self, below: tuple[float, float]) -> tuple[float, float, float]:
        """How far its middle lies from ``below``, and its length along the line from there
        and its width across it, as a round piece's (four times the spread); all 0 when
        its middle is ``below`` itself."""
        dx, dy = self.x - below[0], self.y - below[1]
        distance = math.hypot(dx, dy)
        if distance == 0:
            return 0.0, 0.0, 0.0
        ux, uy = dx / distance, dy / distance
        along = ux**2 * self.mu20 + 2 * ux * uy * self.mu11 + uy**2 * self.mu02
        across = uy**2 * self.mu20 - 2 * ux * uy * self.mu11 + ux**2 * self.mu02
        return distance, 4.0 * math.sqrt(max(along, 0.0)), 4.0 * math.sqrt(max(across, 0.0))


def spread(blob: NDArray[np.bool_], corner: tuple[int, int] = (0, 0)) -> Spread | None:
    """The spread of ``blob`` (a mask cut out at ``corner`` of the picture), or None for
    an empty one."""
    moments = cv2.moments(blob.astype(np.uint8), binaryImage=True)
    if moments["m00"] == 0:
        return None
    mass = moments["m00"]
    return Spread(
        corner[0] + moments["m10"] / mass,
        corner[1] + moments["m01"] / mass,
        moments["mu20"] / mass,
        moments["mu02"] / mass,
        moments["mu11"] / mass,
    )
