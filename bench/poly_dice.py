"""How well the camera reads Rats' pools (d4, d6, d8, d10), on renders only.

    .venv/bin/python -m bench.poly_dice [--pools 200] [--styles held-out|trained] [--seed 7]

Every figure is measured on renders (hardware/simulator/poly_dice.py), never on photos of
real dice: none are available here. ``--styles held-out`` (the default) renders every die in
the serif "triplex" family with numbered d6s, which the reader was never trained on; the
``trained`` figures are the optimistic ones, on styles it was trained on (new renders).

Per kind: dice found, kind right, kind and face right, accepted (applied unasked) and
accepted-and-wrong; per pool: read whole and right, applied unasked, refused by the pool
check (a kind the rat does not have, or the wrong count), and applied wrong.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

import numpy as np

from companion.vision import poly_dice as reader
from hardware.simulator import poly_dice as sim


def _bench(pools: int, styles: tuple[sim.Style, ...], seed: int) -> None:
    rng = np.random.default_rng(seed)
    model = reader.shared_model()
    tally: dict[int, Counter[str]] = {kind: Counter() for kind in sim.KINDS}
    rolls: Counter[str] = Counter()
    spent = 0.0
    for _ in range(pools):
        kinds = [int(k) for k in rng.choice(sim.KINDS, size=int(rng.integers(2, 11)))]
        scene = sim.render_pool(rng, kinds, styles=styles)
        began = time.perf_counter()
        reading = reader.read_dice_pool(scene.frame, kinds, model)
        spent += time.perf_counter() - began
        all_right = len(reading.dice) == len(scene.dice)
        for die in scene.dice:
            counts = tally[die.kind]
            counts["dice"] += 1
            near = [d for d in reading.dice if math.dist(d.centre, die.centre) < die.radius * 0.7]
            if not near:
                all_right = False
                continue
            read = near[0]
            counts["found"] += 1
            counts["kind"] += read.kind == die.kind
            right = read.kind == die.kind and read.face == die.face
            counts["face"] += right
            counts["accepted"] += read.accepted
            counts["accepted wrong"] += read.accepted and not right
            all_right = all_right and right
        rolls["pools"] += 1
        rolls["read right"] += all_right
        rolls["refused"] += reading.problem is not None
        rolls["applied"] += reading.sure
        rolls["applied wrong"] += reading.sure and not all_right
    _print(tally, rolls, spent)


def _print(tally: dict[int, Counter[str]], rolls: Counter[str], spent: float) -> None:
    print(
        f"{'kind':>5} {'dice':>5} {'found':>7} {'kind ok':>8} {'face ok':>8} "
        f"{'accepted':>9} {'acc. wrong':>11}"
    )
    total: Counter[str] = Counter()
    for kind, counts in tally.items():
        total.update(counts)
        _row(f"d{kind}", counts)
    _row("all", total)
    pools = rolls["pools"]
    print(
        f"pools: {pools}; read wholly right {rolls['read right'] / pools:.1%}; applied unasked "
        f"{rolls['applied'] / pools:.1%}; applied wrong {rolls['applied wrong']} "
        f"({rolls['applied wrong'] / pools:.1%}); refused by the pool check {rolls['refused']}"
    )
    print(f"reading time: {1000 * spent / pools:.0f} ms per pool (mean, this machine)")


def _row(name: str, counts: Counter[str]) -> None:
    dice = max(1, counts["dice"])
    print(
        f"{name:>5} {counts['dice']:>5} {counts['found'] / dice:>7.1%} "
        f"{counts['kind'] / dice:>8.1%} "
        f"{counts['face'] / dice:>8.1%} {counts['accepted'] / dice:>9.1%} "
        f"{counts['accepted wrong']:>4} ({counts['accepted wrong'] / dice:.1%})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pools", type=int, default=200)
    parser.add_argument("--styles", choices=("held-out", "trained"), default="held-out")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    styles = (sim.STYLE_OF[sim.HELD_OUT],) if args.styles == "held-out" else sim.TRAINED
    print(
        f"Rats pools on renders ({args.styles} styles: "
        f"{', '.join(s.name for s in styles)}); no real photos"
    )
    _bench(args.pools, styles, args.seed)


if __name__ == "__main__":
    main()
