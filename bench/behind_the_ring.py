"""How often a fallen piece lands where the standing ring hides it, by the camera's height.

    .venv/bin/python bench/behind_the_ring.py [--cameras 200] [--seed 5]

For ``--cameras`` simulated webcams over the table (50-100 cm up, as the rooms bench
places them) and the ring somewhere about the table's middle, every place a piece can land
(the simulator's falls: 0.6-3.0 table units beyond the ring's radius, all round) is
checked against the hoop as that camera sees it (``behind_ring``). Printed by height band:
the share of landing places at least 75 % hidden (no camera there can count a piece on
them), and the strip ``companion.vision.behind_the_ring`` tells the players about. The
geometry only: no picture is rendered or read.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from companion.tabletop import TABLE_SIZE, WHEEL_RADIUS
from companion.vision.behind_the_ring import hidden_strip_cm
from hardware.simulator.pinhole import camera_over_table
from hardware.simulator.room_render import behind_ring
from hardware.simulator.wheel import WheelPiece, WheelScene

HIDDEN = 0.75  # the bench's "hidden": as ``bench/vision_rooms.py`` tells such misses apart
BANDS = ((50.0, 66.7), (66.7, 83.3), (83.3, 100.0))


def hidden_share(rng: np.random.Generator, height_cm: float) -> float:
    """Of the landing places round a ring near the middle, the share the hoop hides."""
    camera = camera_over_table(rng, (640, 480), height_cm, 0.0, (0.0, 0.0, *TABLE_SIZE))
    centre = (
        TABLE_SIZE[0] / 2 + float(rng.uniform(-3, 3)),
        TABLE_SIZE[1] / 2 + float(rng.uniform(-1, 1)),
    )
    heading = float(rng.choice([0.0, 180.0])) + float(rng.uniform(-25, 25))
    scene = WheelScene(centre=centre, heading_deg=heading)
    hidden = total = 0
    for angle in np.linspace(0.0, 2 * math.pi, 72, endpoint=False):
        for beyond in np.linspace(0.6, 3.0, 9):
            r = WHEEL_RADIUS + beyond
            spot = (centre[0] + r * math.cos(angle), centre[1] + r * math.sin(angle))
            total += 1
            hidden += behind_ring(camera, scene, WheelPiece("red", spot)) >= HIDDEN
    return hidden / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--cameras", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    found: list[tuple[float, float]] = []
    for _ in range(args.cameras):
        height = float(rng.uniform(50, 100))
        found.append((height, hidden_share(rng, height)))
    print("| camera height | cameras | landing places >= 75 % hidden | strip told to players |")
    print("| --- | --- | --- | --- |")
    for low, high in BANDS:
        shares = [share for height, share in found if low <= height < high]
        middle = (low + high) / 2
        print(
            f"| {low:.0f}-{high:.0f} cm | {len(shares)} | {100 * np.mean(shares):.1f} % "
            f"| {hidden_strip_cm(middle):.0f} cm at {middle:.0f} cm |"
        )


if __name__ == "__main__":
    main()
