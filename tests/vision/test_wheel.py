"""The upright ring's reader and tracker on simulated frames of the Hamster Wheel.

What players notice: the lowest compartment on the tablet not matching the real wheel, a
push back to the centre counted as a roll, a fall that was not counted (or counted twice),
a reaching arm counted as a fall, and a strip that could not be printed to size.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from calibration.markers import A4_MM, mm_to_px, strip_piece_labels, wheel_strip_pages
from companion.serve import companion_command
from companion.tabletop import RIM_MARKER_IDS
from companion.vision.markers import detect_markers
from companion.vision.wheel import (
    WHEEL_PIECE_NAMES,
    WheelReading,
    WheelTracker,
    angle_difference,
    lowest_compartment,
    read_wheel,
)
from hardware.simulator import (
    PIECE_SHAPES,
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


def read(scene: WheelScene, seed: int = 1, conditions: Conditions | None = None) -> WheelReading:
    rendered = render_wheel(scene, np.random.default_rng(seed), conditions or Conditions())
    return read_wheel(rendered.frame)


@pytest.mark.parametrize("angle", [0.0, 11.0, 95.0, 181.5, 359.0])
@pytest.mark.parametrize("heading", [0.0, 33.0, 160.0, 250.0])
def test_the_rim_angle_is_read_from_the_strip_whatever_way_the_band_lies(
    angle: float, heading: float
) -> None:
    reading = read(WheelScene(angle_deg=angle, heading_deg=heading), 3, Conditions(noise=2.0))
    assert not reading.blocked, reading.reason
    assert abs(angle_difference(reading.angle_deg, angle)) < 1.0
    assert abs(angle_difference(reading.heading_deg, heading)) < 3.0
    assert reading.centre == pytest.approx((8.0, 6.0), abs=0.2)


def test_a_camera_off_vertical_shifts_the_top_but_not_the_angle() -> None:
    """The ring's top is a diameter above the table: a tilted camera sees it displaced.
    A shift of the whole strip is absorbed by the fit."""
    for parallax in ((0.0, 0.0), (0.35, 0.0), (-0.3, 0.25)):
        scene = WheelScene(angle_deg=42.0, heading_deg=20.0, parallax=parallax)
        reading = read(scene, 4, Conditions(perspective=0.7, noise=2.0))
        assert abs(angle_difference(reading.angle_deg, 42.0)) < 1.5, parallax


def test_rolling_adds_up_and_a_push_adds_nothing() -> None:
    tracker = WheelTracker()
    angles = [10.0 + 25.0 * k for k in range(20)]  # 475 degrees of rolling
    for k, angle in enumerate(angles):
        centre = (5.0 + 0.1 * k, 6.0)
        tracker.update(read(WheelScene(centre=centre, angle_deg=angle % 360.0), k))
    rolled = tracker.total_roll_deg
    assert rolled == pytest.approx(475.0, abs=1.5)
    tracker.update(read(WheelScene(centre=(8.0, 6.0), angle_deg=angles[-1] % 360.0), 99))
    assert tracker.total_roll_deg == pytest.approx(rolled, abs=1.0)  # pushed, not turned
    assert lowest_compartment(tracker.total_roll_deg) == round(-475.0 / 30.0) % 12


def test_which_compartment_is_lowest_follows_the_roll_both_ways() -> None:
    """A positive roll brings lower strip ids to the top, and so earlier compartments to
    the bottom (the strip and the compartments rise the same way round the ring)."""
    assert lowest_compartment(0.0) == 0
    assert lowest_compartment(-31.0) == 1
    assert lowest_compartment(31.0) == 11
    assert lowest_compartment(-(360.0 + 65.0)) == 2


def test_fallen_pieces_are_counted_by_colour_outside_the_ring() -> None:
    pieces = tuple(
        WheelPiece(colour, (1.8 + 1.6 * k, 1.9 if k % 2 else 10.1), shape, 15.0 * k)
        for k, (colour, shape) in enumerate(zip(WHEEL_PIECE_NAMES, PIECE_SHAPES * 3, strict=False))
    )
    scene = WheelScene(angle_deg=100.0, outside=pieces, inside=("red", "blue"))
    reading = read(scene, 7, Conditions(perspective=0.6, uneven_light=0.7, noise=5.0, shadows=2))
    assert reading.fallen == expected_fallen(scene)


def test_a_hand_over_the_table_blocks_the_reading() -> None:
    scene = WheelScene(angle_deg=30.0, outside=(WheelPiece("red", (2.0, 2.0)),))
    for seed in range(40):
        rendered = render_wheel(scene, np.random.default_rng(seed), Conditions(hand=True))
        if rendered.hand_mask.any():
            break
    reading = read_wheel(rendered.frame)
    assert reading.blocked or reading.fallen == expected_fallen(scene)


def test_hidden_markers_block_rather_than_guess() -> None:
    blank = np.full((480, 640, 3), 120, np.uint8)
    assert read_wheel(blank).blocked and "markers" in read_wheel(blank).reason


def test_a_video_of_rolls_and_pushes_is_followed_within_two_degrees() -> None:
    video = wheel_video(np.random.default_rng(11), 40, Conditions(perspective=0.5, noise=3.0))
    tracker, true_roll = WheelTracker(), 0.0
    errors = []
    for index, (scene, rendered) in enumerate(video):
        if index:
            true_roll += angle_difference(scene.angle_deg, video[index - 1][0].angle_deg)
        reading = read_wheel(rendered.frame)
        tracker.update(reading)
        errors.append(abs(angle_difference(reading.angle_deg, scene.angle_deg)))
    assert float(np.median(errors)) < 2.0
    assert tracker.total_roll_deg == pytest.approx(true_roll, abs=2.0)


def test_the_printed_strip_is_one_circumference_of_readable_markers(tmp_path: Path) -> None:
    pages = wheel_strip_pages(880.0)
    found: set[int] = set()
    for page in pages:
        colour = cv2.cvtColor(page, cv2.COLOR_GRAY2BGR)
        small = np.asarray(cv2.resize(colour, None, fx=0.4, fy=0.4), np.uint8)
        found |= set(detect_markers(small))
    assert set(RIM_MARKER_IDS) <= found
    slot_px = mm_to_px(880.0 / len(RIM_MARKER_IDS))
    assert slot_px == pytest.approx(math.floor(880.0 / 16 / 25.4 * 300), abs=2)
    result = CliRunner().invoke(
        companion_command,
        ["calibrate", "wheel-strip", str(tmp_path / "strip"), "--circumference-mm", "880"],
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "strip").iterdir())[:2] == [
        "wheel-strip-1.pdf",
        "wheel-strip-1.png",
    ]
    bad = CliRunner().invoke(
        companion_command, ["calibrate", "wheel-strip", str(tmp_path), "--circumference-mm", "5"]
    )
    assert bad.exit_code == 2 and "not plausible" in bad.output


@pytest.mark.parametrize("circumference_mm", [400.0, 880.0, 2500.0])
def test_each_strip_piece_says_its_markers_and_which_way_the_next_joins(
    circumference_mm: float,
) -> None:
    """A piece glued the wrong way round reads the roll backwards: each piece names its
    markers left to right and the end the next piece joins, on one line that fits the page."""
    lines = strip_piece_labels(circumference_mm)
    assert lines[0].startswith(f"piece 1 of {len(lines)}: markers {RIM_MARKER_IDS[0]}-")
    named = [int(n) for line in lines for n in line.split("markers ")[1].split(" ")[0].split("-")]
    assert named[0] == RIM_MARKER_IDS[0] and named[-1] == RIM_MARKER_IDS[-1]
    assert named == sorted(named)
    assert len(lines) == 1 or "piece 2 joins the right-hand end" in lines[0]
    assert "meets piece 1" in lines[-1]
    width = mm_to_px(A4_MM[0]) - 2 * mm_to_px(15)
    for line in lines:
        (text_width, _), _ = cv2.getTextSize(line, cv2.FONT_HERSHEY_SIMPLEX, 1.0, 3)
        assert text_width <= width, line
