"""A red piece on green felt is counted red, and a black one on light wood black, not
orange (issue 34).

The rim of a piece, blended with a vivid felt, takes a hue between the two: a red triangle
on green felt averaged hue 7.6, nearer orange than red, and the wheel said an orange piece
had fallen on every frame of a development video (seed 46500). The hue is now its body's,
the pixels furthest from the cloth round them."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.wheel import read_wheel
from hardware.simulator.room import Room
from hardware.simulator.room_render import wheel_room_video


@pytest.mark.parametrize("light", ["daylight", "warm"])
def test_a_red_piece_on_green_felt_is_counted_red(light: str) -> None:
    room = Room(table="green felt", light=light)
    video = wheel_room_video(np.random.default_rng((46500, 77)), 3, room)
    scene, rendered = video[2]
    assert [p.colour for p in scene.outside] == ["red"]
    reading = read_wheel(rendered.frame, camera_height_cm=room.height_cm)
    assert not reading.blocked, reading.reason
    assert not reading.pieces_reason, reading.pieces_reason
    assert reading.fallen["red"] == 1 and reading.fallen_total == 1, reading.fallen


def test_a_black_piece_on_light_wood_is_counted_black() -> None:
    """A black piece's rim, blended with light wood, is as vivid as the wood: it was
    counted orange (development seed 44000, daylight). Vividness is judged on the body."""
    room = Room(table="light wood")
    video = wheel_room_video(np.random.default_rng((44000, 77)), 14, room)
    scene, rendered = video[13]
    assert [p.colour for p in scene.outside] == ["black"]
    reading = read_wheel(rendered.frame, camera_height_cm=room.height_cm)
    assert not reading.blocked, reading.reason
    assert not reading.pieces_reason, reading.pieces_reason
    assert reading.fallen["black"] == 1 and reading.fallen_total == 1, reading.fallen
