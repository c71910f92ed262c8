"""A black piece on vivid felt is counted (issue 34): its rim, blended with blue or green
felt, is as saturated as the felt, and at its darkness the hue saturation of its body is
noise, so it was neither a colour nor black and the wheel said fewer pieces had fallen."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.wheel import read_wheel
from hardware.simulator import WheelPiece, WheelScene
from hardware.simulator.room import Room
from hardware.simulator.room_render import render_wheel_room

SCENE = WheelScene(
    centre=(8.3, 6.0),
    heading_deg=12.0,
    angle_deg=100.0,
    outside=(
        WheelPiece("black", (3.0, 9.0), "triangle", 20.0),
        WheelPiece("black", (12.5, 2.6), "disc"),
        WheelPiece("purple", (13.0, 9.5), "square", 30.0),
    ),
)


@pytest.mark.parametrize("room", [Room(table="blue felt"), Room(table="green felt", light="warm")])
@pytest.mark.parametrize("seed", [1, 2])
def test_black_pieces_on_felt_are_counted(room: Room, seed: int) -> None:
    frame = render_wheel_room(SCENE, np.random.default_rng(seed), room).frame
    reading = read_wheel(frame, camera_height_cm=room.height_cm)
    assert not reading.blocked, reading.reason
    assert not reading.pieces_reason, reading.pieces_reason
    assert reading.fallen["black"] == 2, reading.fallen
    assert reading.fallen_total == 3, reading.fallen
