"""The belt and wheel readers with pieces that stand up, against the flat pieces of the
other benches.

    .venv/bin/python -m bench.standing_pieces [--reader belt|wheel] [--frames 30]
        [--seed 36000] [--only TEXT] [--heights CM,CM,...] [--sheet PNG]

Every room of ``bench/vision_rooms.py`` (tables, lamps, blur, camera heights, sleeves,
hands, clutter), the same frames once for each height of piece. A camera off to one side
sees a standing piece's top over the table beyond its base and its sides, so its colour
spills outward; the lower the camera and the farther the piece from the point under it,
the more.

- **belt** (default heights 0, 2.5 and 4 cm: flat tokens, pawns, figures): right / refused
  / wrong, the commonest refusal's reason in brackets. Calibrated with the same pieces on
  the belt, as players would.
- **wheel** (default heights 0, 1.5 and 2.5 cm: the fallen pieces flat, or solid shapes):
  the fallen pieces on the frames whose ring was read, counted right / not counted /
  counted wrong (as ``bench/vision_rooms.py`` judges them, with the watcher's memory).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np

from bench.vision_rooms import ROOMS, Tally, belt_row, short, wheel_row
from companion.tabletop import CM_PER_UNIT
from hardware.simulator.belt import random_belt_scene
from hardware.simulator.room import Room
from hardware.simulator.room_render import render_belt_room

HEIGHTS_CM: dict[str, tuple[float, ...]] = {"belt": (0.0, 2.5, 4.0), "wheel": (0.0, 1.5, 2.5)}


def belt_cell(room: Room, frames: int, seed: int, tall: float) -> tuple[str, Counter[str]]:
    tally: Tally = belt_row(room, frames, seed, tall / CM_PER_UNIT)
    reasons = "; ".join(f"{n} {short(why)}" for why, n in tally.refused.most_common(1))
    text = f"{tally.right} / {sum(tally.refused.values())} / {tally.wrong}"
    totals = Counter(right=tally.right, refused=sum(tally.refused.values()), wrong=tally.wrong)
    return (f"{text} ({reasons})" if reasons else text), totals


def wheel_cell(room: Room, frames: int, seed: int, tall: float) -> tuple[str, Counter[str]]:
    pieces = wheel_row(room, frames, seed, piece_height=tall / CM_PER_UNIT).pieces
    not_counted = sum(pieces.not_counted.values())
    totals = Counter(right=pieces.right, not_counted=not_counted, wrong=pieces.wrong)
    totals["wrong_behind_ring"] = pieces.behind_ring
    return pieces.cell(), totals


def sheet(path: str, seed: int) -> None:
    """One belt with 4 cm figures from 50 and from 100 cm, and the same with flat tokens:
    what the bench measures, to look at."""
    scene = random_belt_scene(np.random.default_rng(seed))
    tiles = []
    for tall in (0.0, 4.0):
        for height in (50.0, 100.0):
            standing = replace(scene, standing=tall / CM_PER_UNIT)
            room = Room(height_cm=height, table="light wood")
            tiles.append(render_belt_room(standing, np.random.default_rng(seed), room).frame)
    cv2.imwrite(path, np.vstack([np.hstack(tiles[:2]), np.hstack(tiles[2:])]))
    print(f"flat tokens (top) and 4 cm figures (bottom), 50 and 100 cm: {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reader", choices=("belt", "wheel"), default="belt")
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--seed", type=int, default=36000)
    parser.add_argument("--only", default=None, help="rooms whose name contains this")
    parser.add_argument("--sheet", default=None, help="write a picture of the belt's pieces")
    parser.add_argument("--heights", default=None, help="pieces' heights, cm, comma-separated")
    args = parser.parse_args()
    if args.sheet:
        sheet(args.sheet, args.seed)
    heights = HEIGHTS_CM[args.reader]
    if args.heights:
        heights = tuple(float(h) for h in args.heights.split(","))
    measure: Callable[[Room, int, int, float], tuple[str, Counter[str]]]
    measure = belt_cell if args.reader == "belt" else wheel_cell
    heads = " | ".join("flat" if h == 0 else f"{h:g} cm tall" for h in heights)
    print(f"| room ({args.reader}, {args.frames} frames, seeds {args.seed}+) | {heads} |")
    print("| --- |" + " --- |" * len(heights))
    totals = {h: Counter[str]() for h in heights}
    for name, room in ROOMS.items():
        if args.only is not None and args.only not in name:
            continue
        cells = []
        for tall in heights:
            text, counts = measure(room, args.frames, args.seed, tall)
            totals[tall].update(counts)
            cells.append(text)
        print(f"| {name} | {' | '.join(cells)} |", flush=True)
    print(json.dumps({f"{h:g} cm": dict(c) for h, c in totals.items()}))


if __name__ == "__main__":
    main()
