"""Why a wheel frame's fallen pieces are not counted names the true cause (issue 34): on a
blurred picture the markers' paper looks darker, so a grey cloth passed for one that hides
white pieces; a soft picture now names the blur first, as every other wheel refusal does.
The ring itself is still read: only the count is not given."""

from __future__ import annotations

import numpy as np
import pytest

import companion.vision.wheel as wheel_reader
import companion.vision.wheel_pieces as wheel_pieces
from companion.vision.room_light import BLURRED, SOFT, sharpness
from companion.vision.wheel import angle_difference, read_wheel
from hardware.simulator import WheelPiece, WheelScene
from hardware.simulator.room import Room
from hardware.simulator.room_render import render_wheel_room

SCENE = WheelScene(
    centre=(8.3, 6.0),
    heading_deg=12.0,
    angle_deg=100.0,
    outside=(WheelPiece("red", (2.5, 3.0)), WheelPiece("white", (13.0, 9.5), "square", 30.0)),
)
CLOTH = wheel_reader.CLOTH_HIDES.format("white")


@pytest.mark.parametrize(("blur", "soft"), [(2.0, True), (0.0, False)])
def test_a_fallen_piece_refusal_on_a_soft_picture_names_the_blur(
    monkeypatch: pytest.MonkeyPatch, blur: float, soft: bool
) -> None:
    frame = render_wheel_room(SCENE, np.random.default_rng(0), Room(blur=blur)).frame
    assert (sharpness(frame) < SOFT) == soft
    monkeypatch.setattr(wheel_pieces, "fallen_pieces", lambda *_: CLOTH)
    reading = read_wheel(frame, camera_height_cm=70.0)
    assert not reading.blocked, reading.reason
    assert abs(angle_difference(reading.angle_deg, SCENE.angle_deg)) < 2.0
    assert reading.fallen == {}
    if soft:
        assert reading.pieces_reason.startswith(BLURRED), reading.pieces_reason
        assert CLOTH in reading.pieces_reason
    else:
        assert reading.pieces_reason == CLOTH
