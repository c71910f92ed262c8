"""Renders of a real room: what a webcam over a real table would show, checked by what a
person looking at the frame would notice (no pixel-exact expectations)."""

from __future__ import annotations

import numpy as np

from companion.vision.markers import detect_markers
from hardware.simulator import BeltScene, WheelScene
from hardware.simulator.pinhole import camera_over_table
from hardware.simulator.room import Room
from hardware.simulator.room_render import render_belt_room, render_wheel_room, wheel_room_video

CELLS = {"red": (2, 1), "blue": (5, 3)}


def test_a_lower_camera_sees_the_ring_larger_than_its_footprint() -> None:
    """The ring's top stands a diameter above the table: from 50 cm it fills more of the
    picture, relative to the table's markers, than from 100 cm."""
    covered = {}
    for height in (50.0, 100.0):
        rng = np.random.default_rng(3)
        camera = camera_over_table(rng, (640, 480), height)
        pose = camera.table_homography()
        flat = np.array([[0, 0, 1], [16, 0, 1], [16, 12, 1], [0, 12, 1]], np.float64) @ pose.T
        table_px = np.ptp(flat[:, 0] / flat[:, 2])
        rendered = render_wheel_room(WheelScene(), rng, Room(height_cm=height), camera)
        top = camera.project(np.array([[5.0, 6.0, -6.0], [11.0, 6.0, -6.0]]))
        covered[height] = abs(top[1, 0] - top[0, 0]) / table_px
        assert len(detect_markers(rendered.frame)) >= 4
    assert covered[50.0] > 1.3 * covered[100.0]


def test_warm_light_with_locked_white_balance_tints_the_paper_orange() -> None:
    frames = {}
    for light in ("daylight", "warm"):
        rng = np.random.default_rng(1)
        frames[light] = render_belt_room(BeltScene(CELLS), rng, Room(light=light)).frame
    for light, frame in frames.items():
        b, _g, r = (float(np.median(frame[..., c])) for c in range(3))
        assert (r > 1.3 * b) == (light == "warm")


def test_a_sleeve_covers_the_table_in_its_own_colour() -> None:
    rng = np.random.default_rng(2)
    rendered = render_belt_room(BeltScene(CELLS), rng, Room(sleeve=(200, 90, 30)))
    covered = rendered.frame[rendered.hand_mask > 0].astype(np.float32)
    bluish = covered[:, 0] > covered[:, 2] + 40
    assert rendered.hand_mask.any() and bluish.mean() > 0.2


def test_a_video_keeps_its_camera_and_rolls_the_ring() -> None:
    video = wheel_room_video(np.random.default_rng(5), 4, Room(table="green felt"))
    assert len(video) == 4
    poses = {tuple(np.round(rendered.board_to_image, 6).ravel()) for _, rendered in video}
    assert len(poses) == 1
    angles = [scene.angle_deg for scene, _ in video]
    assert len(set(angles)) > 1


def _red_on_the_table(room: Room, standing: float) -> float:
    """How far (table units, along the belt) the red hamster's colour reaches past its
    square's middle, row 10 being the belt's far end, seen through the table's pose."""
    scene = BeltScene({"red": (10, 3)}, standing=standing)
    shot = render_belt_room(scene, np.random.default_rng(4), room)
    image_to_board = np.linalg.inv(shot.board_to_image)
    ys, xs = np.nonzero(
        (shot.frame[..., 2] > 120) & (shot.frame[..., 1] < 90) & (shot.frame[..., 0] < 90)
    )
    points = np.column_stack([xs, ys, np.ones_like(xs)]).astype(np.float64) @ image_to_board.T
    rows = points[:, 1] / points[:, 2]
    return float(rows.max() - 10.5)


def test_a_standing_pawn_leans_outward_the_more_the_lower_the_camera() -> None:
    flat = _red_on_the_table(Room(height_cm=50.0), 0.0)
    low = _red_on_the_table(Room(height_cm=50.0), 4.0 / 4.7)
    high = _red_on_the_table(Room(height_cm=100.0), 4.0 / 4.7)
    assert flat < 0.55  # a token stays on its square (its radius 0.3, placed within 0.1)
    assert low > high > flat + 0.2
    assert low > 0.85  # from 50 cm, well over the line into the next square
