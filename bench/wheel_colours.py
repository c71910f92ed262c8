"""Fallen pieces of sets whose colours are not the typical set's: counted with the typical
hue windows, and with the windows sampled from one calibration picture of that set.

    .venv/bin/python bench/wheel_colours.py [--sets 30] [--frames 6] [--seed 52000]
                                            [--spread 8]

Each set shifts every coloured piece's hue by up to ``--spread`` (OpenCV hue, 0..180; 8 is
16 degrees of the colour wheel: an amber orange, a bluish green, a violet purple) and
lies in a random room (a table on which coloured pieces can be counted: grey cloth, light
or dark wood, green or blue felt; any lamp; the camera 50-100 cm up). One webcam per set
takes the calibration picture (one piece of each colour laid out in two rows along the
table's long edges, away from the ring and all in view, as the page asks) and
``--frames`` frames of play (the ring anywhere near the middle, one to four pieces fallen
at random). A frame is judged only when every fallen piece is in full view (the ring
hides none: ``behind_ring``), since the colours are what is measured here: counted right
(every colour's count), not counted (with the reason), or counted wrong. A set whose
calibration picture is refused (two colours the camera cannot tell apart) is read with
the typical windows, as the companion does, and listed. The last line is a JSON object.
"""

from __future__ import annotations

import argparse
import colorsys
import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from calibration.geometry import CalibrationError
from calibration.wheel_colours import COLOURED_SETS, sample_wheel_colours
from companion.tabletop import TABLE_SIZE
from companion.vision.wheel import PIECE_HUES, read_wheel
from companion.vision.wheel_pieces import HueWindows
from hardware.simulator import WheelPiece, WheelScene
from hardware.simulator.common import BGR, WHEEL_PIECE_COLOURS
from hardware.simulator.pinhole import Pinhole, camera_over_table
from hardware.simulator.room import LIGHTS, Room
from hardware.simulator.room_render import behind_ring, render_wheel_room
from hardware.simulator.wheel import random_fallen_spot

COUNTABLE_TABLES = ("grey cloth", "light wood", "dark wood", "green felt", "blue felt")


@dataclass
class Tally:
    """Frames of play read with one set of hue windows: counted right, not counted (by
    reason), counted wrong (what was counted against what fell)."""

    right: int = 0
    wrong: int = 0
    not_counted: Counter[str] = field(default_factory=Counter)
    wrongs: list[str] = field(default_factory=list)

    def line(self) -> str:
        not_counted = sum(self.not_counted.values())
        return f"{self.right} right / {not_counted} not counted / {self.wrong} wrong"


def shifted_paints(rng: np.random.Generator, spread: float) -> dict[str, BGR]:
    """Each coloured set's paint with its hue moved by up to ``spread`` (OpenCV units)."""
    paints = {}
    for name in COLOURED_SETS:
        b, g, r = (v / 255.0 for v in WHEEL_PIECE_COLOURS[name])
        hue, saturation, value = colorsys.rgb_to_hsv(r, g, b)
        hue = (hue + float(rng.uniform(-spread, spread)) / 180.0) % 1.0
        red, green, blue = colorsys.hsv_to_rgb(hue, saturation, value)
        paints[name] = (round(blue * 255), round(green * 255), round(red * 255))
    return paints


def _ring(rng: np.random.Generator, pieces: tuple[WheelPiece, ...] = ()) -> WheelScene:
    centre = (
        TABLE_SIZE[0] / 2 + float(rng.uniform(-1.0, 1.0)),
        TABLE_SIZE[1] / 2 + float(rng.uniform(-0.8, 0.8)),
    )
    return WheelScene(
        centre=centre,
        heading_deg=float(rng.uniform(-30, 30)),
        angle_deg=float(rng.uniform(0, 360)),
        outside=pieces,
    )


def _pieces(
    rng: np.random.Generator, scene: WheelScene, colours: list[str], paints: dict[str, BGR]
) -> WheelScene:
    taken: list[tuple[float, float]] = []
    pieces = []
    for colour in colours:
        spot = random_fallen_spot(rng, scene.centre, scene.radius, taken)
        taken.append(spot)
        shape = ("disc", "square", "triangle")[int(rng.integers(3))]
        angle = float(rng.uniform(0, 90))
        pieces.append(WheelPiece(colour, spot, shape, angle, paints.get(colour)))  # type: ignore[arg-type]
    return WheelScene(scene.centre, scene.heading_deg, scene.angle_deg, outside=tuple(pieces))


def _laid_out(rng: np.random.Generator, paints: dict[str, BGR]) -> WheelScene:
    """The calibration picture's scene: the six coloured pieces in two rows along the
    table's long edges, away from the ring, in a random order, as a player lays them."""
    spots = [(x, y) for y in (1.4, TABLE_SIZE[1] - 1.4) for x in (4.0, 8.0, 12.0)]
    order = rng.permutation(len(COLOURED_SETS))
    pieces = tuple(
        WheelPiece(
            COLOURED_SETS[k],
            (spot[0] + float(rng.uniform(-0.4, 0.4)), spot[1] + float(rng.uniform(-0.2, 0.2))),
            paint=paints[COLOURED_SETS[k]],
        )
        for k, spot in zip(order, spots, strict=True)
    )
    scene = _ring(rng)
    return WheelScene(scene.centre, scene.heading_deg, scene.angle_deg, outside=pieces)


def _judge(tally: Tally, reading: Any, scene: WheelScene) -> None:
    if reading.blocked or reading.pieces_reason:
        tally.not_counted[(reading.reason or reading.pieces_reason).split(":")[0]] += 1
        return
    expected = scene.fallen_counts()
    if reading.fallen == expected:
        tally.right += 1
    else:
        tally.wrong += 1
        seen = {k: v for k, v in reading.fallen.items() if v}
        truth = {k: v for k, v in expected.items() if v}
        tally.wrongs.append(f"counted {seen}, fallen {truth}")


def one_set(index: int, seed: int, frames: int, spread: float, tallies: tuple[Tally, ...]) -> str:
    """Calibrate one set in its room and read its frames both ways; a line about it.
    ``tallies``: typical and sampled windows on sets whose colours were sampled, then the
    same on sets whose calibration picture was refused (read with the typical windows)."""
    typical, sampled, refused, refused_too = tallies
    rng = np.random.default_rng((seed, index))
    paints = shifted_paints(rng, spread)
    room = Room(
        table=COUNTABLE_TABLES[int(rng.integers(len(COUNTABLE_TABLES)))],
        light=list(LIGHTS)[int(rng.integers(len(LIGHTS)))],
        height_cm=float(rng.uniform(50, 100)),
    )
    camera: Pinhole = camera_over_table(rng, (640, 480), room.height_cm, room.tilt_deg)
    laid = _laid_out(rng, paints)
    while any(behind_ring(camera, laid, piece) > 0.0 for piece in laid.outside):
        laid = _laid_out(rng, paints)
    picture = render_wheel_room(laid, rng, room, camera).frame
    try:
        windows: HueWindows = sample_wheel_colours(picture).windows
        said = "sampled"
    except CalibrationError as error:
        windows, said = PIECE_HUES, f"refused ({str(error).split(': lay')[0][:110]})"
        typical, sampled = refused, refused_too
    judged, wrong_before = 0, (typical.wrong, sampled.wrong)
    for _ in range(frames * 4):
        if judged == frames:
            break
        count = int(rng.integers(1, 5))
        colours = [COLOURED_SETS[int(k)] for k in rng.integers(len(COLOURED_SETS), size=count)]
        scene = _pieces(rng, _ring(rng), colours, paints)
        if any(behind_ring(camera, scene, piece) > 0.0 for piece in scene.outside):
            continue
        frame = render_wheel_room(scene, rng, room, camera).frame
        judged += 1
        _judge(typical, read_wheel(frame, camera_height_cm=room.height_cm), scene)
        reading = read_wheel(frame, camera_height_cm=room.height_cm, piece_hues=windows)
        _judge(sampled, reading, scene)
    return (
        f"set {index}: {room.table}, {room.light}, {room.height_cm:.0f} cm; colours {said}; "
        f"wrong {typical.wrong - wrong_before[0]} typical, {sampled.wrong - wrong_before[1]} "
        "sampled"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=int, default=30)
    parser.add_argument("--frames", type=int, default=6)
    parser.add_argument("--seed", type=int, default=52000)
    parser.add_argument("--spread", type=float, default=8.0)
    args = parser.parse_args()
    tallies = (Tally(), Tally(), Tally(), Tally())
    typical, sampled, refused, _ = tallies
    lines = [one_set(i, args.seed, args.frames, args.spread, tallies) for i in range(args.sets)]
    print("\n".join(lines))
    for name, tally in (("typical", typical), ("sampled", sampled)):
        for wrong in tally.wrongs:
            print(f"sets sampled, {name} windows, wrong: {wrong}")
    taken = args.sets - sum("refused" in line for line in lines)
    print(f"{taken} sets sampled, typical windows: {typical.line()}")
    print(f"{taken} sets sampled, sampled windows: {sampled.line()}")
    print(f"{args.sets - taken} sets refused, typical windows: {refused.line()}")
    print(
        json.dumps(
            {
                "seed": args.seed,
                "sets": args.sets,
                "spread": args.spread,
                "refused": sum("refused" in line for line in lines),
                "refused_sets_typical": {"right": refused.right, "wrong": refused.wrong},
                "typical": {
                    "right": typical.right,
                    "wrong": typical.wrong,
                    "not_counted": dict(typical.not_counted),
                },
                "sampled": {
                    "right": sampled.right,
                    "wrong": sampled.wrong,
                    "not_counted": dict(sampled.not_counted),
                },
            }
        )
    )


if __name__ == "__main__":
    main()
