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


@pytest.mark.parametrize(
    ("table", "light", "seed", "frame", "colour"),
    [
        ("green felt", "daylight", 46500, 2, "red"),
        ("green felt", "warm", 46500, 2, "red"),
        # A black piece's rim, blended with light wood, is as vivid as the wood: it was
        # counted orange (development seed 44000). Vividness is judged on the body.
        ("light wood", "daylight", 44000, 13, "black"),
    ],
)
def test_a_piece_is_counted_by_its_bodys_colour(
    table: str, light: str, seed: int, frame: int, colour: str
) -> None:
    room = Room(table=table, light=light)
    video = wheel_room_video(np.random.default_rng((seed, 77)), frame + 1, room)
    scene, rendered = video[frame]
    assert [p.colour for p in scene.outside] == [colour]
    reading = read_wheel(rendered.frame, camera_height_cm=room.height_cm)
    assert not reading.blocked, reading.reason
    assert not reading.pieces_reason, reading.pieces_reason
    assert reading.fallen[colour] == 1 and reading.fallen_total == 1, reading.fallen
