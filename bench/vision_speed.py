"""Time the belt and wheel readers on the same real-room frames, for before/after ratios.

    .venv/bin/python bench/vision_speed.py render --out /tmp/rooms.npz [--frames 12] [--seed 34500]
    .venv/bin/python bench/vision_speed.py belt --frames-file /tmp/rooms.npz [--repeat 3]
    .venv/bin/python bench/vision_speed.py wheel --frames-file /tmp/rooms.npz [--repeat 3]

``render`` draws ``--frames`` belt frames and a wheel video of ``--frames`` frames in each
of four rooms (grey cloth in daylight, light wood under a warm lamp, green felt, the camera
at 50 cm; :mod:`hardware.simulator.room`) and keeps them, with each room's calibration
frame, in one file. ``belt`` and ``wheel`` then only load that file and read every frame
``--repeat`` times, so the whole process's CPU time is mostly the reader's: run them under
``/usr/bin/time`` (or any timer of whole processes) with one checkout's code and then
another's (``PYTHONPATH=<checkout>``) and compare. Each prints its median milliseconds a
frame and how many frames it read (not refused), so a speed-up that refuses more shows.
"""

from __future__ import annotations

import argparse
import inspect
import time
from dataclasses import replace
from typing import Any

import numpy as np

CELLS = {"red": (2, 1), "blue": (2, 2), "yellow": (2, 3), "green": (2, 4), "purple": (2, 5)}


def render(out: str, frames: int, seed: int) -> None:
    # Imported here: the readers of an older checkout are timed without these renders.
    from hardware.simulator import BeltScene, random_belt_scene
    from hardware.simulator.room import Room
    from hardware.simulator.room_render import render_belt_room, wheel_room_video

    rooms = {
        "grey": Room(),
        "warm wood": Room(table="light wood", light="warm"),
        "green felt": Room(table="green felt"),
        "50 cm": Room(height_cm=50.0),
    }
    arrays: dict[str, Any] = {}
    for index, (name, room) in enumerate(rooms.items()):
        calm = replace(room, blur=0.6)
        rng = np.random.default_rng((seed, index))
        arrays[f"{index}/calibration"] = render_belt_room(BeltScene(CELLS), rng, calm).frame
        belts = [render_belt_room(random_belt_scene(rng), rng, room).frame for _ in range(frames)]
        arrays[f"{index}/belt"] = np.stack(belts)
        video = wheel_room_video(rng, frames, room)
        arrays[f"{index}/wheel"] = np.stack([rendered.frame for _, rendered in video])
        arrays[f"{index}/height"] = np.float64(room.height_cm)
        print(f"{name}: {frames} belt and {frames} wheel frames")
    np.savez_compressed(out, **arrays)


def read_all(reader: str, path: str, repeat: int) -> None:
    from calibration.geometry import calibrate_board, locate_board
    from companion.vision.board import read_board
    from companion.vision.wheel import read_wheel

    data = np.load(path)
    rooms = len({key.split("/")[0] for key in data.files})
    takes_height = "camera_height_cm" in inspect.signature(read_wheel).parameters
    times: list[float] = []
    read = total = 0
    for index in range(rooms):
        if reader == "belt":
            profiles = calibrate_board(data[f"{index}/calibration"], CELLS).colour_profiles
        for frame in data[f"{index}/{reader}"]:
            for _ in range(repeat):
                start = time.process_time()
                if reader == "belt":
                    reading: Any = read_board(frame, locate_board(frame), profiles)
                elif takes_height:
                    height = float(data[f"{index}/height"])
                    reading = read_wheel(frame, camera_height_cm=height)
                else:
                    reading = read_wheel(frame)
                times.append(time.process_time() - start)
            total += 1
            read += not reading.blocked
    median = 1000.0 * float(np.median(times))
    print(f"{reader}: median {median:.1f} ms CPU a frame; {read} of {total} frames read")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("what", choices=("render", "belt", "wheel"))
    parser.add_argument("--out", default="/tmp/rooms.npz")
    parser.add_argument("--frames-file", default="/tmp/rooms.npz")
    parser.add_argument("--frames", type=int, default=12)
    parser.add_argument("--seed", type=int, default=34500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if args.what == "render":
        render(args.out, args.frames, args.seed)
    else:
        read_all(args.what, args.frames_file, args.repeat)


if __name__ == "__main__":
    main()
