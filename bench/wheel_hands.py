"""Hands of every skin over the wheel's table (or the belt): is the frame refused, or read
as if nothing were there?

    .venv/bin/python -m bench.wheel_hands [--frames 10] [--seed 81000] [--belt] [--sampled]

A hand reaching over the table must hold the reading (the pieces it moves are no fall, and
Hamster Wheel tells a failed try from Higher Powers by it). The readers find a hand by a
fixed skin window (hue, saturation, brightness, then chromaticity) against the cloth's
colour. This renders ``--frames`` wheel frames with a bare hand (no sleeve) for each skin
tone below in each room, and counts them refused as a hand or sleeve, refused for another
reason, or read (the hand unseen). Tones: the simulator's three (light, middle, dark) and
three it does not use elsewhere (pale, very dark, deep), BGR. ``--belt`` does the same for
the belt reader, calibrated once per room with nothing on the table (as
``bench/vision_rooms.py`` does), the hand reaching over the belt. ``--sampled`` reads the
wheel (or, with ``--belt``, the belt, the hand sampled over it) with each hand's colour
sampled first, in the same room, from a frame of its own (as
a player does at calibration, ``companion calibrate hand``), and also reads as many frames
of that room with no hand, counting those taken for a hand; and at the end, for each room,
three times as many hand-free frames read with every tone's hand sampled at once (a table
of six players). The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import replace

import numpy as np

from bench.vision_rooms import belt_calibration
from calibration.geometry import locate_board
from calibration.hand_colours import CLOSE_TO_CLOTH
from companion.vision.belt_hands import hand_over_belt
from companion.vision.board import HAND_OVER_BOARD, SLEEVE_OVER_BOARD, BoardReading, read_board
from companion.vision.sampled_hands import NO_HAND, close_to_cloth
from companion.vision.wheel import (
    HAND_OVER_TABLE,
    SLEEVE_OVER_TABLE,
    HandSeen,
    hand_sampled,
    read_wheel,
)
from hardware.simulator import random_belt_scene
from hardware.simulator.common import BGR, NAMED_SKIN_TONES, Image
from hardware.simulator.room import Room
from hardware.simulator.room_render import render_belt_room, wheel_room_video

TONES = NAMED_SKIN_TONES
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


def belt_row(tone: BGR, room: Room, frames: int, seed: int, sample: bool = False) -> Counter[str]:
    """How the belt frames of one skin tone in one room were taken (``sample``: with that
    hand sampled over the belt first, and as many hand-free frames read, as :func:`row`)."""
    taken: Counter[str] = Counter()
    calibration = belt_calibration(room, seed)
    if calibration is None:
        taken["refused: other"] += frames
        return taken
    cloth = calibration.cloth.chroma if calibration.cloth else None
    hand = belt_sampled_hand(tone, room, seed) if sample else None
    hands = () if hand is None else (hand,)

    def read(frame: Image) -> BoardReading:
        return read_board(frame, locate_board(frame), calibration.colour_profiles, cloth, hands)

    if hand is not None:
        for index in range(frames):
            rng = np.random.default_rng((seed, 78, index))
            empty = render_belt_room(random_belt_scene(rng), rng, replace(room, hand=False))
            reason = read(empty.frame).reason
            taken["false hand"] += reason.startswith((HAND_OVER_BOARD, SLEEVE_OVER_BOARD))
    for index in range(frames):
        rng = np.random.default_rng((seed, index))
        frame = render_belt_room(random_belt_scene(rng), rng, replace(room, skin=tone)).frame
        reading = read(frame)
        if not reading.blocked:
            taken["read (hand unseen)"] += 1
        elif reading.reason.startswith((HAND_OVER_BOARD, SLEEVE_OVER_BOARD)):
            taken["refused: hand"] += 1
        else:
            taken["refused: other"] += 1
    return taken


def belt_sampled_hand(tone: BGR, room: Room, seed: int) -> tuple[float, float] | None:
    """The hand's colour as calibration samples it over the belt (``hand_over_belt``,
    what ``calibration.hand_colours.sample_hand`` does at a belt table), from frames of its
    own; None when the sampling refuses (the reason is printed)."""
    found: tuple[tuple[float, float], tuple[float, float]] | str = NO_HAND
    for attempt in range(SAMPLING_TRIES):
        rng = np.random.default_rng((seed, 99, attempt))
        frame = render_belt_room(random_belt_scene(rng), rng, replace(room, skin=tone)).frame
        found = hand_over_belt(frame, locate_board(frame))
        if found != NO_HAND:
            break
    if isinstance(found, str):
        print(f"    sampling over the belt refused ({tone}): {found}")
        return None
    return found[0]


SAMPLING_TRIES = 3  # a player told "no hand is seen" holds the hand further in and tries again


def sampled_hand(tone: BGR, room: Room, seed: int) -> tuple[float, float] | None:
    """The hand's colour as calibration samples it, from frames of its own (another
    moment, the hand elsewhere; tried again when no hand is seen, as a player would);
    None when the sampling refuses (the reason is printed)."""
    found: HandSeen | str = NO_HAND
    for attempt in range(SAMPLING_TRIES):
        rng = np.random.default_rng((seed, 99, attempt))
        video = wheel_room_video(rng, 1, replace(room, skin=tone))
        found = hand_sampled(video[0][1].frame, camera_height_cm=room.height_cm)
        if found != NO_HAND:
            break
    if isinstance(found, str):
        print(f"    sampling refused ({tone}): {found}")
        return None
    if close_to_cloth(found.colour, found.cloth):
        print(f"    sampled ({tone}) with the warning: {CLOSE_TO_CLOTH}")
    return found.colour


def row(tone: BGR, room: Room, frames: int, seed: int, sample: bool = False) -> Counter[str]:
    """How the wheel frames of one skin tone in one room were taken (``sample``: with that
    hand sampled at calibration first, in the same room; then as many frames of the room
    with no hand are read too, and those refused as a hand counted as false hands)."""
    hand = sampled_hand(tone, room, seed) if sample else None
    hands = () if hand is None else (hand,)
    video = wheel_room_video(np.random.default_rng((seed, 77)), frames, replace(room, skin=tone))
    taken: Counter[str] = Counter()
    if hand is not None:
        empty = wheel_room_video(
            np.random.default_rng((seed, 78)), frames, replace(room, hand=False)
        )
        for _, rendered in empty:
            reading = read_wheel(rendered.frame, camera_height_cm=room.height_cm, hands=hands)
            taken["false hand"] += reading.reason in (HAND_OVER_TABLE, SLEEVE_OVER_TABLE)
    for _, rendered in video:
        reading = read_wheel(rendered.frame, camera_height_cm=room.height_cm, hands=hands)
        if not reading.blocked:
            taken["read (hand unseen)"] += 1
            said = reading.cloth_close_to_skin or reading.hand_close_to_cloth
            taken["of which the cloth said"] += said
        elif reading.reason in (HAND_OVER_TABLE, SLEEVE_OVER_TABLE):
            taken["refused: hand"] += 1
        else:
            taken["refused: other"] += 1
    return taken


def everyone(room: Room, frames: int, seed: int) -> str:
    """Frames of ``room`` with no hand, read with the hands of all six tones sampled there
    (those that could be), as "refused as a hand, of read" ("1 of 30 (6 hands)")."""
    hands = [sampled_hand(tone, room, seed) for tone in TONES.values()]
    kept = tuple(hand for hand in hands if hand is not None)
    empty = wheel_room_video(np.random.default_rng((seed, 79)), frames, replace(room, hand=False))
    readings = [read_wheel(r.frame, camera_height_cm=room.height_cm, hands=kept) for _, r in empty]
    false = sum(reading.reason in (HAND_OVER_TABLE, SLEEVE_OVER_TABLE) for reading in readings)
    return f"{false} of {len(readings)} ({len(kept)} hands)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--seed", type=int, default=81000)
    parser.add_argument("--belt", action="store_true", help="the belt reader, not the wheel's")
    parser.add_argument(
        "--sampled", action="store_true", help="each hand sampled first (wheel or belt)"
    )
    args = parser.parse_args()

    def reader(tone: BGR, room: Room, frames: int, seed: int) -> Counter[str]:
        if args.belt:
            return belt_row(tone, room, frames, seed, args.sampled)
        return row(tone, room, frames, seed, args.sampled)

    print("| skin | " + " | ".join(ROOMS) + " |")
    print("| --- |" + " --- |" * len(ROOMS))
    figures: dict[str, dict[str, dict[str, int]]] = {}
    for name, tone in TONES.items():
        cells = []
        figures[name] = {}
        for room_name, room in ROOMS.items():
            taken = reader(tone, room, args.frames, args.seed)
            figures[name][room_name] = dict(taken)
            cell = f"{taken['refused: hand']} / {taken['read (hand unseen)']}"
            if taken["of which the cloth said"]:
                cell += f" ({taken['of which the cloth said']} said)"
            if args.sampled:
                cell += f" / {taken['false hand']}" if "false hand" in taken else " / unsampled"
            cells.append(cell)
        print(f"| {name} | " + " | ".join(cells) + " |")
    print(
        "cells: frames refused as a hand or sleeve / frames read with the hand unseen (of "
        "those, how many said the cloth may hide a hand)"
        + (" / hand-free frames refused as a hand" if args.sampled else "")
    )
    if args.sampled and not args.belt:
        cells = [everyone(room, 3 * args.frames, args.seed) for room in ROOMS.values()]
        print(
            "| every hand sampled, hand-free frames refused as a hand | " + " | ".join(cells) + " |"
        )
    reader_name = ("belt" if args.belt else "wheel") + (", hands sampled" if args.sampled else "")
    print(json.dumps({"reader": reader_name, "frames": args.frames, "seed": args.seed,
                      "figures": figures}))  # fmt: skip


if __name__ == "__main__":
    main()
