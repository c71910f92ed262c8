"""Printed ArUco markers found in a frame, and the homography their known places give.

Shared by every reader that stands on the table's markers: the belt (corner markers), the
wheel's table area (markers 10-13) and the wheel's rim strip (markers 20 and up). The
marker layouts themselves live in :mod:`companion.tabletop`.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.tabletop import BOARD_MARKER_LAYOUT, MarkerLayout

ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
# Two markers give eight corners: already a well-posed homography for a flat board.
MIN_MARKERS = 2

Image = NDArray[np.uint8]
Homography = NDArray[np.float64]
MarkerCorners = dict[int, NDArray[np.float32]]


def marker_corners(layout_entry: tuple[float, float, float]) -> NDArray[np.float32]:
    """The four corners (ArUco order: clockwise from top-left) of a marker in the layout."""
    x0, y0, side = layout_entry
    return np.array(
        [[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]], np.float32
    )


def make_detector() -> cv2.aruco.ArucoDetector:
    """An ArUco detector tuned for small markers seen at an angle under uneven light."""
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # Two threshold windows instead of OpenCV's three: the markers are found just as
    # reliably on the simulated hard frames, in roughly half the time.
    parameters.adaptiveThreshWinSizeMin = 9
    parameters.adaptiveThreshWinSizeMax = 21
    parameters.adaptiveThreshWinSizeStep = 12
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
    return cv2.aruco.ArucoDetector(dictionary, parameters)


_DETECTOR = make_detector()
# Markers are found on a copy at most this wide, then their corners are refined on the
# full frame: detection cost grows with pixels, corner accuracy does not need them.
DETECTION_WIDTH = 800
_SUBPIX_CRITERIA = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)


def detect_markers(frame: Image) -> MarkerCorners:
    """Every marker seen in ``frame``: id -> its four corners in pixels (ArUco order)."""
    gray = np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame)
    scale = min(1.0, DETECTION_WIDTH / gray.shape[1])
    small = (
        gray
        if scale == 1.0
        else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    )
    corners, ids, _rejected = _DETECTOR.detectMarkers(small)
    if ids is None:
        return {}
    found = {}
    for marker_id, quad in zip(ids.ravel(), corners, strict=True):
        points = np.asarray(quad, np.float32).reshape(4, 2)
        if scale < 1.0:
            # Pixel centres sit at integers, so undo the resize about pixel corners.
            points = (points + 0.5) / scale - 0.5
            window = max(2, round(1.5 / scale))
            refined = cv2.cornerSubPix(gray, points, (window, window), (-1, -1), _SUBPIX_CRITERIA)
            points = np.asarray(refined, np.float32).reshape(4, 2)
        found[int(marker_id)] = points
    return found


def homography_from_markers(
    found: Mapping[int, NDArray[np.float32]],
    layout: MarkerLayout = BOARD_MARKER_LAYOUT,
    min_markers: int = MIN_MARKERS,
) -> Homography | None:
    """Image-to-board homography from the layout's markers in ``found``; None if too few.

    All corners of all visible markers are used in one least-squares fit: the markers'
    spread over the board matters more for accuracy than any one corner.
    """
    ids = [marker_id for marker_id in layout if marker_id in found]
    if len(ids) < min_markers:
        return None
    image_points = np.concatenate([found[i] for i in ids]).astype(np.float64)
    board_points = np.concatenate([marker_corners(layout[i]) for i in ids]).astype(np.float64)
    homography, _ = cv2.findHomography(image_points, board_points, 0)
    if homography is None:
        return None
    result: Homography = homography.astype(np.float64)
    return result
