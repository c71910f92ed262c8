"""The wheel reader and tracker on simulated video of the Hamster Wheel.

What players notice: the roll shown on the tablet drifting away from the real wheel, a
fall that was not counted (or counted twice), a reaching arm counted as a fall.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from calibration.geometry import locate_board
from companion.vision.wheel import (
    TABLE_MARKER_LAYOUT,
    TABLE_SIZE,
    WHEEL_PIECE_NAMES,
    WheelReading,
    WheelTracker,
    angle_difference,
    read_wheel,
)
from hardware.simulator import (
    Conditions,
    WheelPiece,
    WheelScene,
    render_wheel,
    wheel_video,
)


def expected_fallen(scene: WheelScene) -> dict[str, int]:
    counts = dict.fromkeys(WHEEL_PIECE_NAMES, 0)
    for piece in scene.outside:
        counts[piece.colour] += 1
    return counts


def read(scene: WheelScene, seed: int, conditions: Conditions) -> WheelReading:
    frame = render_wheel(scene, np.random.default_rng(seed), conditions).frame
    return read_wheel(frame, locate_board(frame, TABLE_MARKER_LAYOUT), divisions=scene.divisions)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_simulated_video_angle_and_falls(seed: int) -> None:
    rng = np.random.default_rng(seed)
    video = wheel_video(rng, 30, Conditions.random(rng, hand_chance=0.0))
    errors = []
    for scene, rendered in video:
        image_to_table = locate_board(rendered.frame, TABLE_MARKER_LAYOUT)
        reading = read_wheel(rendered.frame, image_to_table)
        assert not reading.blocked, reading.reason
        errors.append(abs(angle_difference(reading.angle_deg, scene.angle_deg)))
        assert reading.fallen == expected_fallen(scene)
        assert math.dist(reading.centre, scene.centre) < 0.1
        assert abs(reading.radius - scene.radius) < 0.1
    assert float(np.median(errors)) <= 2.0


def test_every_colour_of_fallen_piece_is_counted() -> None:
    pieces = tuple(
        WheelPiece(colour, (2.5 + 1.5 * k, 1.8 if k % 2 else 10.2), shape, 15.0 * k)  # type: ignore[arg-type]
        for k, (colour, shape) in enumerate(
            zip(WHEEL_PIECE_NAMES, ("disc", "square", "triangle") * 3, strict=False)
        )
    )
    scene = WheelScene(angle_deg=100.0, outside=pieces)
    conditions = Conditions(perspective=0.6, uneven_light=0.7, noise=5.0, shadows=2)
    reading = read(scene, 7, conditions)
    assert reading.fallen == dict.fromkeys(WHEEL_PIECE_NAMES, 1)


def test_pieces_inside_the_wheel_are_not_falls() -> None:
    inside = (WheelPiece("red", (9.8, 6.0)), WheelPiece("black", (6.2, 6.0)))
    reading = read(WheelScene(angle_deg=0.0, inside=inside), 8, Conditions(noise=3.0))
    assert reading.fallen_total == 0


@pytest.mark.parametrize("divisions", [8, 12, 16])
def test_angle_with_other_division_counts(divisions: int) -> None:
    scene = WheelScene(angle_deg=217.0, divisions=divisions)
    reading = read(scene, 9, Conditions(perspective=0.5, noise=3.0))
    assert abs(angle_difference(reading.angle_deg, 217.0)) < 2.0


def test_a_hand_over_the_table_is_blocked_or_exactly_right() -> None:
    for seed in range(8):
        scene = WheelScene(angle_deg=30.0 * seed, outside=(WheelPiece("blue", (3.0, 3.0)),))
        rendered = render_wheel(scene, np.random.default_rng(seed), Conditions(hand=True))
        image_to_table = locate_board(rendered.frame, TABLE_MARKER_LAYOUT)
        reading = read_wheel(rendered.frame, image_to_table)
        if not reading.blocked:
            assert reading.fallen == expected_fallen(scene)
            assert abs(angle_difference(reading.angle_deg, scene.angle_deg)) < 2.0


def test_hidden_markers_block_the_view() -> None:
    reading = read_wheel(np.zeros((480, 640, 3), np.uint8), None)
    assert reading.blocked


def reading_at(angle: float, centre: tuple[float, float] = (8.0, 6.0)) -> WheelReading:
    return WheelReading(blocked=False, centre=centre, radius=2.5, angle_deg=angle)


def test_tracker_accumulates_roll_across_the_zero_mark() -> None:
    tracker = WheelTracker()
    for angle in (350.0, 10.0, 40.0, 100.0, 170.0, 250.0, 340.0, 20.0):
        tracker.update(reading_at(angle))
    assert tracker.total_roll_deg == pytest.approx(390.0)
    assert tracker.rolled_distance == pytest.approx(math.radians(390.0) * 2.5)


def test_tracker_rolls_backwards_too() -> None:
    tracker = WheelTracker()
    for angle in (10.0, 350.0, 300.0):
        tracker.update(reading_at(angle))
    assert tracker.total_roll_deg == pytest.approx(-70.0)


def test_tracker_skips_blocked_frames() -> None:
    tracker = WheelTracker()
    tracker.update(reading_at(0.0))
    tracker.update(WheelReading(blocked=True, reason="a hand is over the table"))
    tracker.update(reading_at(30.0))
    assert tracker.total_roll_deg == pytest.approx(30.0)


def test_tracker_warns_when_the_wheel_wanders_off() -> None:
    tracker = WheelTracker()
    tracker.update(reading_at(0.0, (TABLE_SIZE[0] / 2 + 1.0, TABLE_SIZE[1] / 2)))
    assert not tracker.drifted_far
    tracker.update(reading_at(10.0, (TABLE_SIZE[0] / 2 + 4.0, TABLE_SIZE[1] / 2 + 1.0)))
    assert tracker.drift == pytest.approx((4.0, 1.0))
    assert tracker.drifted_far


def test_tracker_follows_a_simulated_video() -> None:
    rng = np.random.default_rng(11)
    video = wheel_video(rng, 25, Conditions(perspective=0.5, noise=3.0))
    tracker = WheelTracker()
    true_roll = 0.0
    for index, (scene, rendered) in enumerate(video):
        frame = rendered.frame
        tracker.update(read_wheel(frame, locate_board(frame, TABLE_MARKER_LAYOUT)))
        if index:
            true_roll += angle_difference(scene.angle_deg, video[index - 1][0].angle_deg)
    assert tracker.total_roll_deg == pytest.approx(true_roll, abs=2.0)
