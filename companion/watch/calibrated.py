"""What a watcher needs of the camera's calibration, without importing the calibration code.

The calibration package depends on the companion, never the other way round, so watchers
are handed an object with this shape by the composition root (``companion.serve``):
``calibration.watched.WatchedCalibration``, which reloads the saved file when the players
recalibrate from the tablet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

Homography = NDArray[np.float64]


class CameraCalibration(Protocol):
    """The saved calibration for frames of one size, and where the markers put the board."""

    path: Path

    def get(self, image_size: tuple[int, int]) -> Any:
        """The calibration (``colour_profiles``, ``wheel_divisions``, ...) for this frame size;
        raises a ``CompanionError`` saying how to calibrate when there is none."""
        ...

    def locate(self, frame: NDArray[np.uint8], layout: Any = ...) -> Homography | None:
        """The frame's image-to-board homography from its markers (None: markers hidden)."""
        ...
