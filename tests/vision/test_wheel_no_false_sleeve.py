"""The ring reaching the picture's edge is not an arm (issue 34): with the camera low (50 cm)
the standing hoop fills the picture out to its edge, and its shaded grey side passed the
skin test's hue window, so the wheel said "a sleeve is over the table" with nothing
reaching in. Skin is now skin only when its colour, the lamp divided out, is a skin's."""

from __future__ import annotations

import numpy as np
import pytest

import companion.vision.wheel as wheel_reader
from companion.vision.wheel import read_wheel
from hardware.simulator import WheelScene
from hardware.simulator.room import Room
from hardware.simulator.room_render import render_wheel_room

AT_THE_EDGE = WheelScene(centre=(13.0, 5.5), heading_deg=8.0, angle_deg=40.0)


@pytest.mark.parametrize("table", ["blue felt", "green felt"])
def test_the_ring_at_the_pictures_edge_is_not_a_sleeve(table: str) -> None:
    room = Room(table=table, height_cm=50.0)
    frame = render_wheel_room(AT_THE_EDGE, np.random.default_rng(1), room).frame
    reading = read_wheel(frame, camera_height_cm=50.0)
    assert reading.reason not in (wheel_reader.SLEEVE_OVER_TABLE, wheel_reader.HAND_OVER_TABLE)
    assert not reading.blocked, reading.reason


def test_a_hand_by_the_ring_at_the_edge_still_blocks() -> None:
    room = Room(table="blue felt", height_cm=50.0, hand=True)
    frame = render_wheel_room(AT_THE_EDGE, np.random.default_rng(1), room).frame
    reading = read_wheel(frame, camera_height_cm=50.0)
    assert reading.blocked
    assert reading.reason in (wheel_reader.SLEEVE_OVER_TABLE, wheel_reader.HAND_OVER_TABLE)
