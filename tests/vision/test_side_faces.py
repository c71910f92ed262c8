"""A side face seen beside a top face is never a second die, and separate dice stay."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.vision.dice import read_dice
from companion.vision.dice_eval import load_labels
from companion.vision.side_faces import _window, paired_side_faces, pip_squash, side_faces

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice"
needs_data = pytest.mark.skipif(not (DATA / "labels.json").exists(), reason="no dice photos")

PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
WHITE, GREY, BLACK = (235, 235, 235), (195, 195, 195), (25, 25, 25)


def _face(
    frame: np.ndarray, centre: tuple[float, float], width: float, height: float, value: int
) -> None:
    """A face as the camera sees it: width x height, round pips squashed the same way."""
    cx, cy = centre
    body = WHITE if height >= 0.7 * width else GREY
    corner = (round(cx - width / 2), round(cy - height / 2))
    far = (round(cx + width / 2), round(cy + height / 2))
    cv2.rectangle(frame, corner, far, body, -1, cv2.LINE_AA)
    for ox, oy in PIPS[value]:
        spot = (round(cx + ox * width * 0.27), round(cy + oy * height * 0.27))
        axes = (max(2, round(width / 11)), max(1, round(height / 11)))
        cv2.ellipse(frame, spot, axes, 0, 0, 360, BLACK, -1, cv2.LINE_AA)


def _table() -> np.ndarray:
    rng = np.random.default_rng(5)
    noise = rng.normal(0, 4, (480, 640, 3))
    return np.clip(np.full((480, 640, 3), (150, 160, 165)) + noise, 0, 255).astype(np.uint8)


def _oblique_die(
    frame: np.ndarray, x: float, y: float, side: float, top: int, front: int
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """A die seen at an angle: its top face (a little squashed) and, below, the side
    facing the camera (squashed to under half). Returns both faces as (x, y, size) finds,
    sized as the networks size them (the die's width)."""
    top_height, front_height = 0.8 * side, 0.45 * side
    front_y = y + top_height / 2 + front_height / 2
    _face(frame, (x, y), side, top_height, top)
    _face(frame, (x, front_y), side, front_height, front)
    return (x, y, side), (x, front_y, side)


def test_the_side_face_under_a_top_face_is_dropped_and_the_top_kept() -> None:
    frame = _table()
    top, side = _oblique_die(frame, 200, 200, 64, 5, 6)
    other_top, other_side = _oblique_die(frame, 420, 220, 56, 2, 5)
    dropped = side_faces(frame, [top, side, other_side, other_top])
    assert dropped == {1, 2}


def test_a_side_face_is_dropped_whichever_way_the_camera_looks() -> None:
    """Turned a quarter: the side face now lies to the right of its top face."""
    frame = _table()
    top, side = _oblique_die(frame, 240, 200, 64, 6, 5)
    turned = np.ascontiguousarray(np.rot90(frame, k=1))  # (x, y) -> (y, width - 1 - x)
    width = frame.shape[1]
    finds = [(y, width - 1 - x, s) for x, y, s in (top, side)]
    assert side_faces(turned, finds) == {1}


def test_separate_touching_dice_are_both_kept() -> None:
    """Two dice face to face, sized generously by the network: round pips, both stay."""
    frame = _table()
    _face(frame, (250, 240), 60, 60, 5)
    _face(frame, (310, 240), 60, 60, 6)
    assert side_faces(frame, [(250, 240, 68), (310, 240, 68)]) == set()


def test_a_pair_without_visible_pips_is_kept_by_the_pair_rule() -> None:
    """Blank faces cannot be measured: the pair rule never drops a die on no evidence.
    (The grey face is 0.83 as bright as the white one beside it, so the lone-face rule
    still takes it for a side face: light, not pips, tells there.)"""
    frame = _table()
    cv2.rectangle(frame, (220, 210), (280, 258), WHITE, -1)
    cv2.rectangle(frame, (220, 258), (280, 285), GREY, -1)
    assert paired_side_faces(frame, [(250, 234, 60), (250, 272, 60)]) == set()
    assert side_faces(frame, [(250, 234, 60), (250, 272, 60)]) == {1}
    assert np.isnan(pip_squash(frame, (250, 234), 60, (0.0, 1.0)))


def test_pips_squashed_along_the_axis_measure_below_one() -> None:
    frame = _table()
    _face(frame, (300, 240), 64, 28, 6)
    assert pip_squash(frame, (300, 240), 64, (0.0, 1.0)) < 0.6
    assert pip_squash(frame, (300, 240), 64, (1.0, 0.0)) > 1.5


def test_drawn_oblique_dice_read_as_their_top_faces_only() -> None:
    frame = _table()
    _oblique_die(frame, 200, 200, 64, 2, 6)
    _oblique_die(frame, 420, 220, 64, 1, 5)
    assert sorted(d.value or 0 for d in read_dice(frame)) == [1, 2]


@needs_data
@pytest.mark.parametrize(
    "name",
    [
        "matteop65_train_dice_12.jpg",
        "matteop65_train_dice_21.jpg",
        "matteop65_train_two_25.jpg",
        "matteop65_train_two_26.jpg",
        "matteop65_train_two_38.jpg",
    ],
)
def test_webcam_photos_where_side_faces_were_read_as_dice(name: str) -> None:
    """Each of these oblique frames had one side face read as an extra die (up to 0.91)."""
    labelled = dict(load_labels(DATA / "labels.json"))[name]
    frame = cv2.imread(str(DATA / "images" / name))
    found = read_dice(frame)
    assert sorted(d.value or 0 for d in found) == sorted(d.value for d in labelled)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(8, 60),
    st.integers(8, 60),
    st.integers(2, 40),
    st.data(),
)
def test_a_window_is_the_frame_padded_then_cut_without_padding_the_frame(
    height: int, width: int, side: int, data: st.DataObject
) -> None:
    # Padding only the window (not a 12-megapixel frame) must cut out the same pixels.
    rng = np.random.default_rng(height * 100 + width)
    image = rng.integers(0, 255, (height, width, 3), dtype=np.uint8)
    left = data.draw(st.integers(1 - side, width - 1))
    top = data.draw(st.integers(1 - side, height - 1))
    padded = cv2.copyMakeBorder(image, side, side, side, side, cv2.BORDER_REPLICATE)
    expected = padded[top + side : top + 2 * side, left + side : left + 2 * side]
    assert np.array_equal(_window(image, left, top, side), expected)
