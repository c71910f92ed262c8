"""Speed and accuracy of the board and wheel vision on simulated frames.

    .venv/bin/python bench/vision_board.py [--board-frames 500] [--hd-board-frames 100]
        [--videos 5] [--video-frames 60] [--speed-frames 30] [--seed 0] [--frames N]
        [--rooms N]

Prints milliseconds per frame (median, p95) for reading the belt and the wheel, marker
detection included, at 640x480 and 1280x960; then the belt accuracy over random hard
frames (perspective, uneven light, noise, shadows, hands) and the wheel's angle error and
fallen-piece counts over simulated videos. Rendering time is not counted. The last line is
one JSON object with the figures (``bench/vision.py`` collects it); ``--frames N`` is a
quick check with N frames for every part and one video. ``--rooms N`` also prints the
robustness table of ``bench/vision_rooms.py`` (each room x reader: right / refused with
the reason / wrong, N frames a room, seeds 34000 and up) and adds it to the JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from calibration.geometry import Calibration, calibrate_board, locate_board
from companion.vision.board import BoardReading, read_board
from companion.vision.wheel import (
    WheelReading,
    WheelTracker,
    angle_difference,
    lowest_compartment,
    read_wheel,
)
from hardware.simulator import (
    HAMSTER_COLOURS,
    BeltScene,
    Conditions,
    random_belt_scene,
    render_belt,
    wheel_video,
)

# Run as `python bench/vision_board.py`, the repository root is not on sys.path; the room
# table lives beside this file in the bench package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.vision_rooms import ROOMS, robustness

SIZES = ((640, 480), (1280, 960))
Frame = NDArray[np.uint8]


def board_calibration() -> Calibration:
    cells = {colour: (2, lane) for lane, colour in enumerate(HAMSTER_COLOURS, start=1)}
    frame = render_belt(BeltScene(cells), np.random.default_rng(0), Conditions()).frame
    return calibrate_board(frame, cells)


def read_belt(frame: Frame, calibration: Calibration) -> BoardReading:
    return read_board(frame, locate_board(frame), calibration.colour_profiles)


def read_table(frame: Frame) -> WheelReading:
    return read_wheel(frame)


def timed(frames: list[Frame], reader: Callable[[Frame], object]) -> tuple[float, float]:
    """Median and 95th percentile milliseconds of ``reader`` per frame."""
    costs = []
    for frame in frames:
        start = time.perf_counter()
        reader(frame)
        costs.append((time.perf_counter() - start) * 1000.0)
    return float(np.median(costs)), float(np.percentile(costs, 95))


def ms(timing: tuple[float, float]) -> dict[str, float]:
    return {"median": round(timing[0], 1), "p95": round(timing[1], 1)}


def speed(calibration: Calibration, seed: int, count: int = 30) -> dict[str, Any]:
    """Milliseconds per frame by size, for the belt and for the wheel."""
    figures: dict[str, Any] = {"belt": {}, "wheel": {}}
    for size in SIZES:
        rng = np.random.default_rng(seed)
        belts = [
            render_belt(random_belt_scene(rng), rng, Conditions.random(rng, size, 0.0)).frame
            for _ in range(count)
        ]
        video = wheel_video(rng, count, Conditions.random(rng, size, 0.0))
        wheels = [rendered.frame for _, rendered in video]
        board_ms = timed(belts, lambda frame: read_belt(frame, calibration))
        wheel_ms = timed(wheels, read_table)
        label = f"{size[0]}x{size[1]}"
        print(f"board {label}: median {board_ms[0]:.1f} ms, p95 {board_ms[1]:.1f} ms per frame")
        print(f"wheel {label}: median {wheel_ms[0]:.1f} ms, p95 {wheel_ms[1]:.1f} ms per frame")
        figures["belt"][label] = ms(board_ms)
        figures["wheel"][label] = ms(wheel_ms)
    return figures


def board_accuracy(
    calibration: Calibration, frames: int, seed: int, size: tuple[int, int] = SIZES[0]
) -> dict[str, int]:
    """Every square of every frame must be right, unless a hand over the board blocked it."""
    if frames <= 0:
        return {"frames": 0, "exactly_right": 0, "blocked_reported": 0, "wrong": 0}
    right = blocked_by_hand = wrong = cells_right = cells_total = 0
    for index in range(frames):
        rng = np.random.default_rng((seed, index))
        scene = random_belt_scene(rng)
        rendered = render_belt(scene, rng, Conditions.random(rng, size))
        reading = read_belt(rendered.frame, calibration)
        if reading.blocked and rendered.hand_over_board:
            blocked_by_hand += 1
            continue
        frame_cells = len(scene.hamsters) + 1
        frame_right = int(reading.asterisk_row == scene.asterisk_row)
        for colour, where in scene.hamsters.items():
            seen = "pit" if colour in reading.in_pit else reading.hamsters.get(colour)
            frame_right += seen == where
        cells_total += frame_cells
        cells_right += frame_right
        if not reading.blocked and frame_right == frame_cells:
            right += 1
        else:
            wrong += 1
            print(f"  wrong: frame {index} (seed {(seed, index)}): {reading}")
    share = 100.0 * cells_right / max(cells_total, 1)
    print(
        f"board accuracy over {frames} frames at {size[0]}x{size[1]}: {right} exactly right, "
        f"{blocked_by_hand} blocked by a hand, {wrong} wrong; "
        f"{share:.2f}% of pieces and asterisk rows right"
    )
    return {
        "frames": frames,
        "exactly_right": right,
        "blocked_reported": blocked_by_hand,
        "wrong": wrong,
    }


def wheel_accuracy(
    videos: int, frames: int, seed: int, size: tuple[int, int] = SIZES[0]
) -> dict[str, Any]:
    """The upright ring rolling and pushed, on simulated video: the rim angle, which
    compartment is lowest (from the roll added up over the video) and the fallen pieces by
    colour, on every steady frame (no hand, reading not blocked); frames with a hand must
    be blocked or right. A frame whose ring was read but whose pieces were refused
    (``pieces_reason``) counts for the angle and the compartment, and its pieces as refused,
    not as wrong: the table keeps the last count that held and asks the players."""
    if videos <= 0 or frames <= 0:
        return {}
    errors: list[float] = []
    counts_right = lowest_right = blocked = total = hand_frames = hand_excused = 0
    uncounted = 0  # frames read whose fallen pieces were refused (pieces_reason)
    for video_index in range(videos):
        rng = np.random.default_rng((seed, 1000 + video_index))
        conditions = Conditions.random(rng, size, hand_chance=0.0)
        tracker = WheelTracker()
        true_roll, previous = 0.0, None
        base: float | None = None  # the true roll when the tracker took its first reading
        for scene, rendered in wheel_video(rng, frames, conditions, hand_chance=0.2):
            if previous is not None:
                true_roll += angle_difference(scene.angle_deg, previous)
            previous = scene.angle_deg
            reading = read_table(rendered.frame)
            tracker.update(reading)
            if base is None and tracker.last is not None:
                base = true_roll
            expected = scene.fallen_counts()
            error = abs(angle_difference(reading.angle_deg, scene.angle_deg))
            if rendered.hand_mask.any():
                hand_frames += 1
                counted_or_refused = bool(reading.pieces_reason) or reading.fallen == expected
                hand_excused += reading.blocked or (counted_or_refused and error < 2.0)
                continue
            total += 1
            if reading.blocked:
                blocked += 1
                continue
            errors.append(error)
            uncounted += bool(reading.pieces_reason)
            counts_right += not reading.pieces_reason and reading.fallen == expected
            assert base is not None
            lowest_right += lowest_compartment(tracker.total_roll_deg) == lowest_compartment(
                true_roll - base
            )
    figures = {
        "angle_error_deg": {
            "median": round(float(np.median(errors)), 3),
            "p95": round(float(np.percentile(errors, 95)), 3),
            "max": round(float(np.max(errors)), 3),
        },
        "steady_frames": total - blocked,
        "lowest_right": lowest_right,
        "fallen_right": counts_right,
        "fallen_not_counted": uncounted,
        "blocked_clear_frames": blocked,
        "hand_frames_blocked_or_right": hand_excused,
        "hand_frames": hand_frames,
    }
    shown = f"wheel ({size[0]}x{size[1]}) over {videos} videos x {frames} frames"
    print(f"{shown}: {wheel_line(figures)}")
    return figures


def wheel_line(wheel: dict[str, Any]) -> str:
    """The wheel's figures as the bench prints them."""
    angle, steady = wheel["angle_error_deg"], wheel["steady_frames"]
    return (
        f"angle error median {angle['median']:.3f} deg, p95 {angle['p95']:.3f} deg, max "
        f"{angle['max']:.3f} deg; lowest compartment right on {wheel['lowest_right']}/{steady} "
        f"steady frames; fallen pieces (count and colours) right on {wheel['fallen_right']}/"
        f"{steady} (not counted, with a reason, on {wheel['fallen_not_counted']}; "
        f"{wheel['blocked_clear_frames']} clear frames blocked); "
        f"{wheel['hand_frames_blocked_or_right']}/{wheel['hand_frames']} frames with a hand "
        "blocked or right (pieces counted right or refused)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--board-frames", type=int, default=500)
    parser.add_argument("--videos", type=int, default=5)
    parser.add_argument("--video-frames", type=int, default=60)
    parser.add_argument("--hd-board-frames", type=int, default=100, help="at 1280x960")
    parser.add_argument("--speed-frames", type=int, default=30, help="timed frames per size")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--frames", type=int, default=None, help="quick check: N of each")
    parser.add_argument("--rooms", type=int, default=0, help="robustness table, N frames a room")
    args = parser.parse_args()
    if args.frames is not None:
        args.board_frames = args.hd_board_frames = args.speed_frames = args.frames
        args.videos, args.video_frames = 1, args.frames
    calibration = board_calibration()
    timings = speed(calibration, args.seed, args.speed_frames)
    belt = board_accuracy(calibration, args.board_frames, args.seed)
    belt_hd = board_accuracy(calibration, args.hd_board_frames, args.seed + 1, SIZES[1])
    wheel = wheel_accuracy(args.videos, args.video_frames, args.seed)
    wheel_hd = wheel_accuracy(max(1, args.videos // 2), args.video_frames, args.seed, SIZES[1])
    figures = {
        "belt": {**belt, "ms": timings["belt"], "at_1280x960": belt_hd},
        "wheel": {**wheel, "ms": timings["wheel"], "at_1280x960": wheel_hd},
    }
    if args.rooms > 0:
        figures["rooms"] = robustness(ROOMS, args.rooms, 34000)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
