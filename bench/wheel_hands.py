"""Hands of every skin over the wheel's table (or the belt): is the frame refused, or read
as if nothing were there?

    .venv/bin/python -m bench.wheel_hands [--frames 10] [--seed 81000] [--belt]

A hand reaching over the table must hold the reading (the pieces it moves are no fall, and
Hamster Wheel tells a failed try from Higher Powers by it). The readers find a hand by a
fixed skin window (hue, saturation, brightness, then chromaticity) against the cloth's
colour. This renders ``--frames`` wheel frames with a bare hand (no sleeve) for each skin
tone below in each room, and counts them refused as a hand or sleeve, refused for another
reason, or read (the hand unseen). Tones: the simulator's three (light, middle, dark) and
three it does not use elsewhere (pale, very dark, deep), BGR. ``--belt`` does the same for
the belt reader, calibrated once per room with nothing on the table (as
``bench/vision_rooms.py`` does), the hand reaching over the belt. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import replace

import numpy as np

from bench.vision_rooms import belt_calibration
from calibration.geometry import locate_board
from companion.vision.board import HAND_OVER_BOARD, SLEEVE_OVER_BOARD, read_board
from companion.vision.wheel import HAND_OVER_TABLE, SLEEVE_OVER_TABLE, read_wheel
from hardware.simulator import random_belt_scene
from hardware.simulator.common import BGR
from hardware.simulator.room import Room
from hardware.simulator.room_render import render_belt_room, wheel_room_video

TONES: dict[str, BGR] = {
    "pale": (200, 210, 240),
    "light": (165, 185, 232),
    "middle": (125, 155, 210),
    "dark": (85, 110, 160),
    "very dark": (45, 58, 88),
    "deep": (35, 45, 70),
}
ROOMS: dict[str, Room] = {
    "grey cloth, daylight": Room(hand=True),
    "light wood, warm, 20 % darker": Room(
        table="light wood", light="warm", exposure=0.8, hand=True
    ),
    "dark wood, warm, 20 % darker": Room(table="dark wood", light="warm", exposure=0.8, hand=True),
    "green felt, cool, 20 % darker": Room(
        table="green felt", light="cool", exposure=0.8, hand=True
    ),
    "white table, daylight": Room(table="white", hand=True),
}


def belt_row(tone: BGR, room: Room, frames: int, seed: int) -> Counter[str]:
    """How the belt frames of one skin tone in one room were taken."""
    taken: Counter[str] = Counter()
    calibration = belt_calibration(room, seed)
    if calibration is None:
        taken["refused: other"] += frames
        return taken
    cloth = calibration.cloth.chroma if calibration.cloth else None
    for index in range(frames):
        rng = np.random.default_rng((seed, index))
        frame = render_belt_room(random_belt_scene(rng), rng, replace(room, skin=tone)).frame
        reading = read_board(frame, locate_board(frame), calibration.colour_profiles, cloth)
        if not reading.blocked:
            taken["read (hand unseen)"] += 1
        elif reading.reason.startswith((HAND_OVER_BOARD, SLEEVE_OVER_BOARD)):
            taken["refused: hand"] += 1
        else:
            taken["refused: other"] += 1
    return taken


def row(tone: BGR, room: Room, frames: int, seed: int) -> Counter[str]:
    """How the wheel frames of one skin tone in one room were taken."""
    video = wheel_room_video(np.random.default_rng((seed, 77)), frames, replace(room, skin=tone))
    taken: Counter[str] = Counter()
    for _, rendered in video:
        reading = read_wheel(rendered.frame, camera_height_cm=room.height_cm)
        if not reading.blocked:
            taken["read (hand unseen)"] += 1
        elif reading.reason in (HAND_OVER_TABLE, SLEEVE_OVER_TABLE):
            taken["refused: hand"] += 1
        else:
            taken["refused: other"] += 1
    return taken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--seed", type=int, default=81000)
    parser.add_argument("--belt", action="store_true", help="the belt reader, not the wheel's")
    args = parser.parse_args()
    reader = belt_row if args.belt else row
    print("| skin | " + " | ".join(ROOMS) + " |")
    print("| --- |" + " --- |" * len(ROOMS))
    figures: dict[str, dict[str, dict[str, int]]] = {}
    for name, tone in TONES.items():
        cells = []
        figures[name] = {}
        for room_name, room in ROOMS.items():
            taken = reader(tone, room, args.frames, args.seed)
            figures[name][room_name] = dict(taken)
            cells.append(f"{taken['refused: hand']} / {taken['read (hand unseen)']}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("cells: frames refused as a hand or sleeve / frames read with the hand unseen")
    reader_name = "belt" if args.belt else "wheel"
    print(json.dumps({"reader": reader_name, "frames": args.frames, "seed": args.seed,
                      "figures": figures}))  # fmt: skip


if __name__ == "__main__":
    main()
