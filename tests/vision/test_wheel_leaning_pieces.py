"""A standing piece's lean is not counted as more pieces; two pieces side by side still are."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.wheel_pieces import PIXELS_PER_UNIT, Overhead, leaning_area

# A camera 50 cm up over the table point (8, 6), in rectified pixels (24 a table unit).
CAMERA = Overhead(8.0 * PIXELS_PER_UNIT, 6.0 * PIXELS_PER_UNIT, 50.0 / 4.7 * PIXELS_PER_UNIT)


def _blob(points: list[tuple[float, float]], radius: float) -> tuple[np.ndarray, tuple[int, int]]:
    """Discs of ``radius`` (table units) at ``points`` (table units), as one blob cut out
    of the rectified table: the mask and its corner."""
    canvas = np.zeros((12 * PIXELS_PER_UNIT, 16 * PIXELS_PER_UNIT), np.uint8)
    for x, y in points:
        centre = (round(x * PIXELS_PER_UNIT), round(y * PIXELS_PER_UNIT))
        cv2.circle(canvas, centre, round(radius * PIXELS_PER_UNIT), (255,), -1)
    x, y, w, h = cv2.boundingRect(canvas)
    return canvas[y : y + h, x : x + w] > 0, (x, y)


def test_a_round_piece_lying_flat_has_no_lean() -> None:
    blob, corner = _blob([(2.5, 2.5)], 0.25)
    assert leaning_area(blob, corner, CAMERA) < 0.05 * blob.sum()


def test_a_piece_drawn_out_away_from_the_camera_may_be_one_standing_piece() -> None:
    # The same disc swept 0.3 units away from the camera, as a 2.5 cm block's top leans
    # there: most of the extra area is allowed for as lean.
    away = np.array([2.5 - 8.0, 2.5 - 6.0]) / np.hypot(2.5 - 8.0, 2.5 - 6.0)
    sweep = [(2.5 + t * away[0], 2.5 + t * away[1]) for t in np.linspace(0, 0.3, 7)]
    blob, corner = _blob(sweep, 0.25)
    flat, _ = _blob([(2.5, 2.5)], 0.25)
    extra = float(blob.sum() - flat.sum())
    assert 0.6 * extra < leaning_area(blob, corner, CAMERA) <= 1.3 * extra


def test_two_pieces_side_by_side_across_that_line_are_not_taken_for_a_lean() -> None:
    away = np.array([2.5 - 8.0, 2.5 - 6.0]) / np.hypot(2.5 - 8.0, 2.5 - 6.0)
    across = (-away[1], away[0])
    pair = [(2.5 - 0.25 * across[0], 2.5 - 0.25 * across[1])]
    pair.append((2.5 + 0.25 * across[0], 2.5 + 0.25 * across[1]))
    blob, corner = _blob(pair, 0.25)
    assert leaning_area(blob, corner, CAMERA) == 0.0


def test_near_the_point_under_the_camera_a_piece_cannot_lean_far() -> None:
    # Two pieces in a row pointing away from the camera, right beside the point under it:
    # a piece there leans hardly at all, so almost nothing is allowed.
    pair, corner = _blob([(8.6, 6.0), (9.1, 6.0)], 0.25)
    assert leaning_area(pair, corner, CAMERA) < 0.15 * pair.sum()
