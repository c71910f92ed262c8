"""A player's hand sampled over the belt (issue 34): deep skin in a dim room, which the
belt reader's fixed skin window misses, holds the reading once it is sampled; sampling
at a belt table goes through the same calibration as at the wheel. Rendered rooms, the
calibration taken as players take it (``bench/vision_rooms.belt_calibration``)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bench.vision_rooms import belt_calibration
from calibration.geometry import CalibrationError, locate_board
from calibration.hand_colours import NO_TABLE, add_hand, load_hand_colours
from companion.vision.belt_hands import hand_over_belt
from companion.vision.board import HAND_OVER_BOARD, SLEEVE_OVER_BOARD, read_board
from companion.vision.sampled_hands import NEAR_A_HAND
from hardware.simulator import random_belt_scene
from hardware.simulator.common import NAMED_SKIN_TONES
from hardware.simulator.room import Room
from hardware.simulator.room_render import render_belt_room

DIM_ROOM = Room(hand=True, exposure=0.5, skin=NAMED_SKIN_TONES["deep"])
SEED = 5


def belt_frame(room: Room, index: int) -> np.ndarray:
    rng = np.random.default_rng((SEED, index))
    return render_belt_room(random_belt_scene(rng), rng, room).frame


def test_a_deep_hand_in_a_dim_room_holds_the_belt_once_sampled(tmp_path: Path) -> None:
    calibration = belt_calibration(replace(DIM_ROOM, hand=False), SEED)
    assert calibration is not None and calibration.cloth is not None
    sampled = add_hand(tmp_path / "hands.json", belt_frame(DIM_ROOM, 99))
    hands = load_hand_colours(tmp_path / "hands.json")
    assert hands is not None and hands.colours == (sampled.hand.colour,)
    cloth, profiles = calibration.cloth.chroma, calibration.colour_profiles

    def refusal(frame: np.ndarray, with_hands: tuple[tuple[float, float], ...]) -> str:
        reading = read_board(frame, locate_board(frame), profiles, cloth, with_hands)
        return reading.reason if reading.blocked else ""

    unseen = 0
    for index in range(6):
        frame = belt_frame(DIM_ROOM, index)
        unseen += refusal(frame, ()) == ""
        assert refusal(frame, hands.colours).startswith((HAND_OVER_BOARD, SLEEVE_OVER_BOARD))
    assert unseen >= 4  # without the sample the hand goes unseen: the belt read as if bare


def test_the_same_hand_sampled_twice_over_the_belt_agrees() -> None:
    first = hand_over_belt(belt_frame(DIM_ROOM, 99), locate_board(belt_frame(DIM_ROOM, 99)))
    again = hand_over_belt(belt_frame(DIM_ROOM, 98), locate_board(belt_frame(DIM_ROOM, 98)))
    assert not isinstance(first, str) and not isinstance(again, str)
    assert np.hypot(first[0][0] - again[0][0], first[0][1] - again[0][1]) <= NEAR_A_HAND


def test_a_picture_of_neither_table_says_so_and_keeps_the_hands(tmp_path: Path) -> None:
    path = tmp_path / "hands.json"
    add_hand(path, belt_frame(DIM_ROOM, 99))
    kept = load_hand_colours(path)
    blank = np.full((480, 640, 3), 120, np.uint8)
    with pytest.raises(CalibrationError, match=re.escape(NO_TABLE)):
        add_hand(path, blank)
    assert load_hand_colours(path) == kept
