"""The cloth in the ring's shadow is not a piece against the ring (issue 34).

On green felt the ring's shadow darkens the cloth beside its outline; a few pixels of it,
the felt's own green 30 darker, passed for a green piece cut off by the ring, and a frame
with no fallen piece at all was refused as "a fallen piece lies against the ring" (a video
of development seed 41000). A real piece against the ring is still not counted."""

from __future__ import annotations

import numpy as np
import pytest

import companion.vision.wheel as wheel_reader
from companion.vision.wheel import angle_difference, read_wheel
from hardware.simulator.room import Room
from hardware.simulator.room_render import render_wheel_room, wheel_room_video
from tests.vision.test_wheel_behind_ring import piece_beyond_the_end


def test_felt_in_the_rings_shadow_with_nothing_fallen_is_read() -> None:
    video = wheel_room_video(np.random.default_rng((41000, 77)), 26, Room(table="green felt"))
    scene, rendered = video[25]
    assert scene.outside == ()
    reading = read_wheel(rendered.frame, camera_height_cm=70.0)
    assert not reading.blocked, reading.reason
    assert not reading.pieces_reason, reading.pieces_reason
    assert reading.fallen_total == 0


@pytest.mark.parametrize("table", ["green felt", "blue felt"])
@pytest.mark.parametrize(("beyond", "end"), [(0.8, -1), (1.0, -1)])
def test_a_piece_against_the_ring_on_felt_is_still_not_counted(
    table: str, beyond: float, end: int
) -> None:
    """The count is not given, naming the ring; the ring itself is read."""
    room = Room(table=table, light="warm")
    scene = piece_beyond_the_end(beyond, end)
    frame = render_wheel_room(scene, np.random.default_rng(2), room)
    reading = read_wheel(frame.frame, camera_height_cm=70.0)
    assert not reading.blocked, reading.reason
    assert abs(angle_difference(reading.angle_deg, scene.angle_deg)) < 2.0
    assert reading.fallen == {}
    assert reading.pieces_reason == wheel_reader.AGAINST_RING


def test_light_wood_at_the_rings_shadow_with_nothing_fallen_is_read() -> None:
    """The same cause on wood: beside the ring's shadow the wood, lighter than the median
    the shadow pulls down, stood out as an orange shape reaching the ring's outline (a
    video of development seed 47000, with no fallen piece)."""
    video = wheel_room_video(np.random.default_rng((47000, 77)), 28, Room(table="light wood"))
    scene, rendered = video[27]
    assert scene.outside == ()
    reading = read_wheel(rendered.frame, camera_height_cm=70.0)
    assert not reading.blocked, reading.reason
    assert not reading.pieces_reason, reading.pieces_reason
    assert reading.fallen_total == 0


def test_a_white_piece_in_the_rings_shadow_is_said_to_lie_in_a_shadow() -> None:
    """A white piece in the standing ring's shadow on green felt, wholly in view and clear
    of the ring (the simulator's truth), with no cup or card on the table, was refused as
    "part of something larger (a cup or a card ...)": a false reason. Its surroundings are
    the felt, darker and greyer: the count is still refused (counting it left a black
    piece in the same shadow uncounted), now with the true reason (development seed
    36000, frame 12)."""
    from companion.vision.wheel_pieces import IN_SHADOW

    hidden: list[tuple[float, ...]] = []
    room = Room(table="green felt")
    video = wheel_room_video(np.random.default_rng((36000, 77)), 13, room, hidden=hidden)
    scene, rendered = video[12]
    assert [p.colour for p in scene.outside] == ["black", "white"]
    assert hidden[12] == (0.0, 0.0) and room.clutter == 0
    reading = read_wheel(rendered.frame, camera_height_cm=70.0)
    assert not reading.blocked, reading.reason
    assert reading.pieces_reason == IN_SHADOW
