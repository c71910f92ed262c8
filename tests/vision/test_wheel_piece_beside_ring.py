"""A piece lying beside the ring, in full view, is counted (issue 34).

Touching the ring's outline as the camera sees it, a piece joins the ring in what stands
out from the cloth, so it looked "part of something larger" reaching the ring, and the
count was given up as "a fallen piece lies against the ring" with no piece behind it
(development seeds 43500 and 48500, felt: 52 such frames of 960, none true). A piece about
a piece in size whose only larger part is the ring is now counted; one cut down by the
ring's outline is still not."""

from __future__ import annotations

import numpy as np

from companion.vision.wheel import read_wheel
from hardware.simulator.room import Room
from hardware.simulator.room_render import wheel_room_video


def test_a_piece_touching_the_ring_in_full_view_is_counted_on_felt() -> None:
    room = Room(table="blue felt")
    video = wheel_room_video(np.random.default_rng((48500, 77)), 16, room)
    scene, rendered = video[15]
    assert [p.colour for p in scene.outside] == ["green", "yellow"]
    reading = read_wheel(rendered.frame, camera_height_cm=room.height_cm)
    assert not reading.blocked, reading.reason
    assert not reading.pieces_reason, reading.pieces_reason
    assert reading.fallen["yellow"] == 1 and reading.fallen["green"] == 1
    assert reading.fallen_total == 2
