"""The belt and wheel readers in real rooms: right, refused (and why) or wrong, room by room.

    .venv/bin/python bench/vision_rooms.py [--frames 20] [--seed 34000] [--sheet rooms.png]

Each row changes one thing about the room (the table, the lamp, the camera's height, blur,
a sleeve, clutter; :mod:`hardware.simulator.room`), renders ``--frames`` belt frames and a
wheel video of ``--frames`` frames in it, on a seed family the readers were never tuned on
(34000 and up; they were tuned on seeds below 1000), and counts each reader's frames as
right, refused (with the reasons given) or wrong. The belt is calibrated once per room,
on a frame of that room (in focus, nothing on the table), as players calibrate at their
own table. The wheel is judged twice: its ring (read when the frame is not refused; right
when the angle is within ``ANGLE_RIGHT_DEG``) and, on the frames whose ring was read, its
fallen pieces (counted right, not counted with the reason given, or counted wrong). Pieces
not counted as "a fallen piece lies against the ring" are checked against the simulator's
truth (``against_ring``: a piece within 0.3 table units of the hoop as the camera sees it,
or partly behind it): the cell says how many had one, and the JSON how many had none
there (a false reason); a wrong count short only by pieces the ring hides from the camera
(``behind_ring``) is told apart. The wheel's readings pass through the watcher's memory of
the table, as on the tablet (``--single-frames``: each frame judged alone). The lowest
compartment is judged as the game takes it
(``companion.games.hamster_wheel.table.bottom_of``): right or wrong when given, not given
while the bottom lies within the roll's uncertainty of a divider. ``--sheet`` saves one
frame of each room as a contact sheet PNG to look at. Reasons are shortened to their first
clause in the table.
The line before the last sums the rooms; the last line is a JSON object.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import Calibration, CalibrationError, calibrate_board, locate_board
from companion.games.hamster_wheel.table import bottom_of
from companion.vision.board import read_board
from companion.vision.fallen_memory import FallenMemory
from companion.vision.wheel import (
    AGAINST_RING,
    DEFAULT_DIVISIONS,
    WheelReading,
    WheelTracker,
    angle_difference,
    lowest_compartment,
    read_wheel,
)
from hardware.simulator import HAMSTER_COLOURS, BeltScene, random_belt_scene
from hardware.simulator.room import SLEEVES, Room
from hardware.simulator.room_render import render_belt_room, wheel_room_video

Frame = NDArray[np.uint8]
ANGLE_RIGHT_DEG = 5.0  # an angle further off than this is counted wrong

ROOMS: Mapping[str, Room] = {
    "grey cloth, daylight, 70 cm": Room(),
    "JPEG 30, 20% darker, 5 deg tilt": Room(jpeg_quality=30, exposure=0.8, tilt_deg=5.0),
    "blur sigma 2 px": Room(blur=2.0),
    "blur sigma 3 px": Room(blur=3.0),
    "camera shake 6 px": Room(shake=6.0),
    "long exposure (motion blur while rolling)": Room(shutter=0.5),
    "warm light": Room(light="warm"),
    "cool light": Room(light="cool"),
    "light wood": Room(table="light wood"),
    "dark wood": Room(table="dark wood"),
    "green felt": Room(table="green felt"),
    "black felt": Room(table="black felt"),
    "blue felt": Room(table="blue felt"),
    "white table": Room(table="white"),
    "light wood, warm light": Room(table="light wood", light="warm"),
    "dark wood, warm light": Room(table="dark wood", light="warm"),
    "green felt, warm light": Room(table="green felt", light="warm"),
    "black felt, warm light": Room(table="black felt", light="warm"),
    "blue felt, warm light": Room(table="blue felt", light="warm"),
    "white table, warm light": Room(table="white", light="warm"),
    "camera at 50 cm": Room(height_cm=50.0),
    "camera at 100 cm": Room(height_cm=100.0),
    "a sleeve (any colour)": Room(sleeve=SLEEVES[0]),
    "a hand": Room(hand=True),
    "cups and cards": Room(clutter=3),
}


@dataclass
class Tally:
    """One reader in one room: right, refused by reason, wrong (with what it said)."""

    right: int = 0
    wrong: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    wrongs: list[str] = field(default_factory=list)

    def cell(self) -> str:
        reasons = "; ".join(f"{n} {short(why)}" for why, n in self.refused.most_common(2))
        text = f"{self.right} / {sum(self.refused.values())} / {self.wrong}"
        return f"{text} ({reasons})" if reasons else text


def belt_calibration(room: Room, seed: int, standing: float = 0.0) -> Calibration | None:
    cells = {colour: (2, lane) for lane, colour in enumerate(HAMSTER_COLOURS, start=1)}
    # Calibrated once with care: in focus, the camera still, nothing on the table.
    calm = replace(room, hand=False, sleeve=None, clutter=0, blur=0.6, shake=0.0)
    scene = BeltScene(cells, standing=standing)
    frame = render_belt_room(scene, np.random.default_rng(seed), calm).frame
    try:
        return calibrate_board(frame, cells)
    except CalibrationError:
        return None


def belt_row(room: Room, frames: int, seed: int, standing: float = 0.0) -> Tally:
    """The belt reader on ``frames`` random belts in ``room``; ``standing``: hamsters as
    pawns that tall (table units), 0 for flat tokens."""
    tally = Tally()
    calibration = belt_calibration(room, seed, standing)
    if calibration is None:
        tally.refused["calibration failed in this room"] += frames
        return tally
    for index in range(frames):
        rng = np.random.default_rng((seed, index))
        frame_room = room
        if room.sleeve is not None:
            frame_room = replace(room, sleeve=SLEEVES[int(rng.integers(len(SLEEVES)))])
        scene = replace(random_belt_scene(rng), standing=standing)
        rendered = render_belt_room(scene, rng, frame_room)
        cloth = calibration.cloth.chroma if calibration.cloth else None
        reading = read_board(
            rendered.frame, locate_board(rendered.frame), calibration.colour_profiles, cloth
        )
        if reading.blocked:
            tally.refused[reading.reason] += 1
            continue
        right = reading.asterisk_row == scene.asterisk_row
        for colour, where in scene.hamsters.items():
            seen = "pit" if colour in reading.in_pit else reading.hamsters.get(colour)
            right = right and seen == where
        if right:
            tally.right += 1
        else:
            tally.wrong += 1
            tally.wrongs.append(f"belt frame {(seed, index)}: {reading}")
    return tally


def short(reason: str) -> str:
    """A reason's first clause, for a table cell (the JSON keeps them whole)."""
    return reason.split(":")[0].split(" (")[0].split(", so ")[0]


@dataclass
class PiecesTally:
    """The fallen pieces on the frames whose ring was read: counted right, not counted (by
    reason, each "against the ring" checked against the truth), or counted wrong."""

    right: int = 0
    wrong: int = 0
    not_counted: Counter[str] = field(default_factory=Counter)
    wrongs: list[str] = field(default_factory=list)
    behind_ring: int = 0  # counted wrong only by pieces the ring hides from the camera
    held: int = 0  # counted with a piece the ring hides, remembered from earlier frames
    held_right: int = 0  # of those, counted right
    false_against_ring: int = 0  # not counted as "a piece against the ring" with none there

    def cell(self) -> str:
        reasons = "; ".join(f"{n} {short(why)}" for why, n in self.not_counted.most_common(2))
        text = f"{self.right} / {sum(self.not_counted.values())} / {self.wrong}"
        notes = []
        if self.behind_ring:
            notes.append(f"{self.behind_ring} wrong only by pieces hidden behind the ring")
        if self.held:
            notes.append(f"{self.held} counted with a remembered piece, {self.held_right} right")
        against = sum(n for why, n in self.not_counted.items() if AGAINST_RING in why)
        if against:
            notes.append(
                f"of {against} not counted for a piece against the ring, "
                f"{against - self.false_against_ring} had one touching it or partly behind it"
            )
        if reasons:
            notes.append(reasons)
        return f"{text} ({'; '.join(notes)})" if notes else text


@dataclass
class WheelFigures:
    """The ring (angle right / refused / wrong) and, on frames whose ring was read, the
    fallen pieces, judged apart: the angle is worth having without the count."""

    ring: Tally = field(default_factory=Tally)
    pieces: PiecesTally = field(default_factory=PiecesTally)
    errors: list[float] = field(default_factory=list)
    lowest_right: int = 0
    lowest_wrong: int = 0
    on_divider: int = 0  # frames whose bottom lay within the roll's uncertainty of a divider
    read: int = 0


def wheel_row(
    room: Room, frames: int, seed: int, remember: bool = True, piece_height: float = 0.0
) -> WheelFigures:
    """A video in the room: the ring is right when its angle is within ``ANGLE_RIGHT_DEG``
    (a frame counts as read when not blocked); the pieces, on the frames read, are right
    when every colour's count is. With ``remember`` the readings pass through the
    watcher's memory of the table (``FallenMemory``: a piece the ring has come to hide
    is still counted), as on the tablet; without it each frame is judged alone.
    ``piece_height``: the fallen pieces as solids that tall (table units), 0 for flat."""
    figures = WheelFigures()
    memory = FallenMemory()
    rng = np.random.default_rng((seed, 77))
    tracker = WheelTracker()
    true_roll, previous, base = 0.0, None, None
    hidden: list[tuple[float, ...]] = []
    touching: list[tuple[bool, ...]] = []
    video = wheel_room_video(
        rng,
        frames,
        room,
        hand_chance=0.0,
        hidden=hidden,
        touching=touching,
        piece_height=piece_height,
    )
    for (scene, rendered), shares, near in zip(video, hidden, touching, strict=True):
        if previous is not None:
            true_roll += angle_difference(scene.angle_deg, previous)
        previous = scene.angle_deg
        reading = read_wheel(rendered.frame, camera_height_cm=room.height_cm)
        if remember:
            reading = memory.update(reading)
        tracker.update(reading)
        if reading.blocked:
            figures.ring.refused[reading.reason] += 1
            continue
        if base is None:
            base = true_roll
        figures.read += 1
        _judge_lowest(figures, tracker, true_roll - base)
        _judge_ring(figures, reading, scene.angle_deg, f"wheel {(seed, 77)} frame {figures.read}")
        _judge_pieces(figures.pieces, reading, scene, shares, near)
    return figures


def _judge_lowest(figures: WheelFigures, tracker: WheelTracker, true_roll_deg: float) -> None:
    """The compartment at the bottom as the game takes it (``bottom_of``: none is given
    while the bottom lies within the roll's uncertainty of a divider; the game then keeps
    the one it has when that is one of the two, else asks), against the truth."""
    given = bottom_of(
        tracker.total_roll_deg / 360.0, tracker.roll_uncertainty_deg, DEFAULT_DIVISIONS
    )
    if isinstance(given, tuple):
        figures.on_divider += 1
    elif given == lowest_compartment(true_roll_deg):
        figures.lowest_right += 1
    else:
        figures.lowest_wrong += 1


def _judge_ring(figures: WheelFigures, reading: WheelReading, truth_deg: float, where: str) -> None:
    error = abs(angle_difference(reading.angle_deg, truth_deg))
    figures.errors.append(error)
    if error <= ANGLE_RIGHT_DEG:
        figures.ring.right += 1
        return
    figures.ring.wrong += 1
    figures.ring.wrongs.append(
        f"{where}: angle off {error:.1f} deg "
        f"({reading.markers} markers, misfit {reading.fit_error:.3f})"
    )


def _judge_pieces(
    pieces: PiecesTally,
    reading: WheelReading,
    scene: Any,
    shares: tuple[float, ...],
    touching: tuple[bool, ...],
) -> None:
    """Right, not counted (an "against the ring" reason is true when a piece touches the
    hoop as the camera sees it or lies partly behind it: ``touching``) or wrong (told
    apart when short only by pieces hidden behind the ring: ``shares``)."""
    if reading.pieces_reason:
        pieces.not_counted[reading.pieces_reason] += 1
        pieces.false_against_ring += AGAINST_RING in reading.pieces_reason and not any(touching)
        return
    expected = scene.fallen_counts()
    pieces.held += reading.held_behind_ring > 0
    if reading.fallen == expected:
        pieces.right += 1
        pieces.held_right += reading.held_behind_ring > 0
        return
    pieces.wrong += 1
    pieces.behind_ring += _only_hidden_missed(reading.fallen, expected, scene, shares)
    pieces.wrongs.append(
        f"fallen {reading.fallen_total} counted vs {len(scene.outside)} "
        f"(pieces behind the ring: {[round(s, 2) for s in shares]})"
    )


# A piece this much hidden behind the ring (``behind_ring``, its disc's share) cannot be
# seen by the camera: a miss of it is told apart from a miss of a piece in view.
HIDDEN_SHARE = 0.75


def _only_hidden_missed(
    fallen: Mapping[str, int], expected: Mapping[str, int], scene: Any, shares: tuple[float, ...]
) -> bool:
    """Whether the count is short only by pieces the ring hides from the camera."""
    hidden = Counter(
        p.colour for p, s in zip(scene.outside, shares, strict=True) if s >= HIDDEN_SHARE
    )
    short = {c: expected[c] - fallen.get(c, 0) for c in expected}
    return any(short.values()) and all(0 <= short[c] <= hidden[c] for c in short)


def contact_sheet(path: str, seed: int) -> None:
    """One belt and one wheel frame of every room, labelled, in one PNG."""
    tiles = []
    for name, room in ROOMS.items():
        rng = np.random.default_rng((seed, 5))
        belt = render_belt_room(random_belt_scene(rng), rng, room).frame
        _, wheel = wheel_room_video(rng, 1, room)[0]
        for frame in (belt, wheel.frame):
            tile = cv2.resize(frame, (320, 240), interpolation=cv2.INTER_AREA)
            cv2.putText(tile, name, (6, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 255), 1)
            tiles.append(tile)
    per_row = 6
    tiles += [np.zeros_like(tiles[0])] * (-len(tiles) % per_row)
    rows = [np.hstack(tiles[k : k + per_row]) for k in range(0, len(tiles), per_row)]
    cv2.imwrite(path, np.vstack(rows))
    print(f"contact sheet of {len(ROOMS)} rooms written to {path}")


def robustness(
    rooms: Mapping[str, Room],
    frames: int,
    seed: int,
    show: Callable[[str], None] = print,
    remember: bool = True,
) -> dict[str, Any]:
    """The table: each room x reader, right / refused (reason) / wrong; the wheel's ring
    and its fallen pieces apart (``remember``: see :func:`wheel_row`)."""
    show(
        f"| room ({frames} frames each, seeds {seed}+) | belt right / refused / wrong "
        "| ring right / refused / wrong | fallen pieces, of frames read: counted right / "
        "not counted / counted wrong | lowest compartment right, of those given "
        "(not given: on a divider) | ring angle median |"
    )
    show("| --- | --- | --- | --- | --- | --- |")
    figures: dict[str, Any] = {}
    for name, room in rooms.items():
        belt = belt_row(room, frames, seed)
        wheel = wheel_row(room, frames, seed, remember)
        median = f"{np.median(wheel.errors):.2f}°" if wheel.errors else "-"
        lowest = (
            f"{wheel.lowest_right} of {wheel.lowest_right + wheel.lowest_wrong}"
            f" ({wheel.on_divider} on a divider)"
        )
        show(
            f"| {name} | {belt.cell()} | {wheel.ring.cell()} | {wheel.pieces.cell()} "
            f"| {lowest} | {median} |"
        )
        for line in (belt.wrongs + wheel.ring.wrongs + wheel.pieces.wrongs)[:3]:
            show(f"    wrong: {line}")
        figures[name] = {"belt": _belt_figures(belt), "wheel": _wheel_figures(wheel)}
    show(_summary(figures))
    return figures


def _belt_figures(belt: Tally) -> dict[str, Any]:
    return {"right": belt.right, "refused": sum(belt.refused.values()), "wrong": belt.wrong}


def _wheel_figures(wheel: WheelFigures) -> dict[str, Any]:
    pieces = wheel.pieces
    return {
        "ring": {
            "right": wheel.ring.right,
            "refused": dict(wheel.ring.refused),
            "wrong": wheel.ring.wrong,
        },
        "pieces": {
            "right": pieces.right,
            "not_counted": dict(pieces.not_counted),
            "wrong": pieces.wrong,
            "wrong_behind_ring": pieces.behind_ring,
            "against_ring_with_none_there": pieces.false_against_ring,
            "held_behind_ring": pieces.held,
            "held_behind_ring_right": pieces.held_right,
        },
        "angle_median_deg": round(float(np.median(wheel.errors)), 2) if wheel.errors else None,
        "lowest_right": wheel.lowest_right,
        "lowest_wrong": wheel.lowest_wrong,
        "on_divider": wheel.on_divider,
        "read": wheel.read,
    }


def _summary(figures: Mapping[str, Any]) -> str:
    """The totals over every room: belt and ring wrong, pieces counted and wrong."""
    frames = sum(
        f["wheel"]["ring"]["right"]
        + f["wheel"]["ring"]["wrong"]
        + sum(f["wheel"]["ring"]["refused"].values())
        for f in figures.values()
    )
    total = Counter[str]()
    for f in figures.values():
        wheel, pieces = f["wheel"], f["wheel"]["pieces"]
        total["belt wrong"] += f["belt"]["wrong"]
        total["ring read"] += wheel["read"]
        total["ring wrong"] += wheel["ring"]["wrong"]
        total["pieces counted"] += pieces["right"] + pieces["wrong"]
        total["pieces wrong"] += pieces["wrong"]
        total["pieces wrong behind ring"] += pieces["wrong_behind_ring"]
        total["held"] += pieces["held_behind_ring"]
        total["held right"] += pieces["held_behind_ring_right"]
        total["lowest right"] += wheel["lowest_right"]
        total["lowest wrong"] += wheel["lowest_wrong"]
        total["on a divider"] += wheel["on_divider"]
    return (
        f"In all, of {frames} frames a reader: belt {total['belt wrong']} wrong; ring read "
        f"{total['ring read']}, {total['ring wrong']} wrong; fallen pieces counted on "
        f"{total['pieces counted']} of the {total['ring read']} read, {total['pieces wrong']} "
        f"wrong ({total['pieces wrong behind ring']} only by pieces hidden behind the ring; "
        f"{total['held']} counted with a remembered piece the ring hides, "
        f"{total['held right']} of them right); "
        f"lowest compartment right on {total['lowest right']} of "
        f"{total['lowest right'] + total['lowest wrong']} given ({total['on a divider']} "
        "on a divider)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--seed", type=int, default=34000)
    parser.add_argument("--sheet", default=None, help="write a contact sheet PNG here")
    parser.add_argument("--only", default=None, help="rooms whose name contains this")
    parser.add_argument(
        "--single-frames",
        action="store_true",
        help="judge each wheel frame alone, without the watcher's memory of the table",
    )
    args = parser.parse_args()
    if args.sheet:
        contact_sheet(args.sheet, args.seed)
    rooms = {k: v for k, v in ROOMS.items() if args.only is None or args.only in k}
    figures = robustness(rooms, args.frames, args.seed, remember=not args.single_frames)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
