"""The belt reader with hamsters that stand up: flat tokens against pawns 2.5 and 4 cm tall.

    .venv/bin/python -m bench.standing_hamsters [--frames 30] [--seed 36000] [--only TEXT]
        [--heights 0,2.5,4] [--sheet PNG]

Every room of ``bench/vision_rooms.py`` (tables, lamps, blur, camera heights, sleeves,
hands, clutter), the same frames three times: the hamsters as flat wooden tokens, as pawns
2.5 cm tall and as figures 4 cm tall. A camera off to one side sees a pawn's top over the
table beyond its base, so its colour spills outward into the next square; the lower the
camera and the nearer the belt's ends, the more. Each cell: right / refused / wrong, the
commonest refusal's reason in brackets. Calibration is done with the same pieces on the
belt, as players would.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import replace

import cv2
import numpy as np

from bench.vision_rooms import ROOMS, Tally, belt_row, short
from companion.tabletop import CM_PER_UNIT
from hardware.simulator.belt import random_belt_scene
from hardware.simulator.room import Room
from hardware.simulator.room_render import render_belt_room

HEIGHTS_CM = (0.0, 2.5, 4.0)


def cell(tally: Tally) -> str:
    reasons = "; ".join(f"{n} {short(why)}" for why, n in tally.refused.most_common(1))
    text = f"{tally.right} / {sum(tally.refused.values())} / {tally.wrong}"
    return f"{text} ({reasons})" if reasons else text


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
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--seed", type=int, default=36000)
    parser.add_argument("--only", default=None, help="rooms whose name contains this")
    parser.add_argument("--sheet", default=None, help="write a picture of the pieces here")
    parser.add_argument(
        "--heights", default=",".join(f"{h:g}" for h in HEIGHTS_CM), help="pieces' heights, cm"
    )
    args = parser.parse_args()
    heights = tuple(float(h) for h in args.heights.split(","))
    if args.sheet:
        sheet(args.sheet, args.seed)
    heads = " | ".join("flat tokens" if h == 0 else f"pawns {h:g} cm" for h in heights)
    print(f"| room ({args.frames} frames, seeds {args.seed}+) | {heads} |")
    print("| --- |" + " --- |" * len(heights))
    totals = {h: Counter[str]() for h in heights}
    wrongs: list[str] = []
    for name, room in ROOMS.items():
        if args.only is not None and args.only not in name:
            continue
        cells = []
        for tall in heights:
            tally = belt_row(room, args.frames, args.seed, tall / CM_PER_UNIT)
            totals[tall].update(
                right=tally.right, refused=sum(tally.refused.values()), wrong=tally.wrong
            )
            wrongs += [f"{tall:g} cm: {line}" for line in tally.wrongs]
            cells.append(cell(tally))
        print(f"| {name} | {' | '.join(cells)} |", flush=True)
    for line in wrongs[:10]:
        print(f"    wrong: {line}")
    print(json.dumps({f"{h:g} cm": dict(c) for h, c in totals.items()}))


if __name__ == "__main__":
    main()
