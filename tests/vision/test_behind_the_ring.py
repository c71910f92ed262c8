"""What the calibration tells players about the camera's height (issue 34): the strip of
table the standing ring hides, checked against the simulator's own hoop and camera."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from companion.tabletop import CM_PER_UNIT
from companion.vision.behind_the_ring import (
    ADVISED_HEIGHT_CM,
    RING_HEIGHT_CM,
    camera_height_said,
    hidden_strip_cm,
)
from hardware.simulator.pinhole import camera_over_table
from hardware.simulator.room_render import behind_ring
from hardware.simulator.wheel import WheelPiece, WheelScene
from tests.camera.camera_scenes import config_file


@pytest.mark.parametrize("height", [55.0, 70.0, 95.0])
def test_the_strip_said_is_where_the_simulated_hoop_stops_hiding_the_table(height: float) -> None:
    """A piece just inside the strip is wholly behind the hoop as the simulator's camera
    sees it; one just past it is in full view."""
    camera = camera_over_table(np.random.default_rng(3), (640, 480), height, 0.0)
    nadir = np.array(camera.centre[:2])
    away = np.array([0.0, 1.0])  # the ring lies off to one side of the camera, heading across
    offset = 20.0 / CM_PER_UNIT
    ring = nadir + offset * away
    scene = WheelScene(centre=(float(ring[0]), float(ring[1])), heading_deg=0.0)
    strip = hidden_strip_cm(height) / CM_PER_UNIT

    def share(beyond: float) -> float:
        spot = ring + beyond * away
        return behind_ring(camera, scene, WheelPiece("red", (float(spot[0]), float(spot[1]))))

    assert share(strip - 0.3) == 1.0
    assert share(strip + 0.3) == 0.0


def test_the_lower_the_camera_the_wider_the_strip() -> None:
    strips = [hidden_strip_cm(h) for h in (50.0, 70.0, 100.0)]
    assert strips[0] > strips[1] > strips[2] > 0
    assert math.isinf(hidden_strip_cm(RING_HEIGHT_CM))


def test_players_are_told_to_raise_a_low_camera_and_how_much_it_hides() -> None:
    low = camera_height_said(50.0)
    assert "50 cm" in low and f"raise the camera to {ADVISED_HEIGHT_CM:.0f} cm" in low
    assert f"{hidden_strip_cm(50.0):.0f} cm" in low
    high = camera_height_said(90.0)
    assert "raise" not in high and f"{hidden_strip_cm(90.0):.0f} cm" in high
    assert "not set" in camera_height_said(None) and "height_cm" in camera_height_said(0.0)
    assert "not above the ring's top" in camera_height_said(25.0)


def test_calibrate_show_says_what_the_camera_height_means(tmp_path: Path) -> None:
    from companion.serve import companion_command

    config = config_file(tmp_path, "height_cm = 55")
    shown = CliRunner().invoke(
        companion_command,
        ["--config", str(config), "--data-dir", str(tmp_path), "calibrate", "show"],
    )
    assert "Camera height: 55 cm" in shown.output
    assert "raise the camera" in shown.output
