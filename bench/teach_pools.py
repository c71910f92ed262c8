"""Teaching the pool reader a style of dice it was never trained on, on renders only.

    .venv/bin/python -m bench.teach_pools [--teach 10] [--pools 30] [--seed 3]

Dice are rendered (hardware/simulator/poly_dice.py) in ``UNFAMILIAR``, an italic serif
family with numbered d6s that is none of the simulator's five styles, so neither training
(four of them) nor the held-out bench (the fifth) has seen it. ``--teach`` pools are read by
the shipped model and confirmed (each die found is kept with its true kind and face, as a
person's READ or typed pool would keep it), ``companion dice teach``'s pool step is run on
them, and ``--pools`` new pools are read before (shipped model) and after (taught model),
in the unfamiliar style and then (to see that nothing was forgotten) in the trained styles:
dice read right (kind and face), pools read wholly right, and dice accepted (applied
unasked) and wrong.
"""

from __future__ import annotations

import argparse
import math
import tempfile
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from companion.vision import poly_dice as reader
from companion.vision import teach_pools as teacher
from hardware.simulator import poly_dice as sim

UNFAMILIAR = sim.Style("italic", cv2.FONT_HERSHEY_COMPLEX | cv2.FONT_ITALIC, 0.12, pips=False)


def pool_kinds(rng: np.random.Generator) -> list[int]:
    """A Rats pool: 5 to 8 dice of any kinds (a rat starts with six)."""
    return [int(k) for k in rng.choice(sim.KINDS, size=int(rng.integers(5, 9)))]


def confirm_pools(data_dir: Path, count: int, rng: np.random.Generator) -> int:
    """Render ``count`` pools, read them with the shipped model and keep each die found
    with its true (kind, face), as a confirmed pool is kept; returns the dice kept."""
    store = teacher.PoolExampleStore(data_dir / teacher.POOL_EXAMPLES_DIR, reader.shared_model())
    kept = 0
    for _ in range(count):
        kinds = pool_kinds(rng)
        scene = sim.render_pool(rng, kinds, styles=(UNFAMILIAR,))
        crops, values = [], []
        for blob in reader.find_dice(scene.frame):
            near = [d for d in scene.dice if math.dist(d.centre, blob.centre) < d.radius * 0.7]
            if near:
                crops.append(teacher.cut(scene.frame, blob.centre, blob.radius))
                values.append(teacher.class_of(near[0].kind, near[0].face))
        store.add_roll(crops, values)
        kept += len(values)
    return kept


def score(model: reader.FaceModel, scenes: list[tuple[list[int], sim.PoolScene]]) -> Counter[str]:
    """Dice read right, accepted, accepted and wrong; pools read wholly right."""
    tally: Counter[str] = Counter()
    for kinds, scene in scenes:
        reading = reader.read_dice_pool(scene.frame, kinds, model)
        whole = len(reading.dice) == len(scene.dice)
        for die in scene.dice:
            tally["dice"] += 1
            near = [d for d in reading.dice if math.dist(d.centre, die.centre) < die.radius * 0.7]
            right = bool(near) and near[0].kind == die.kind and near[0].face == die.face
            accepted = bool(near) and near[0].accepted
            tally["right"] += right
            tally["accepted"] += accepted
            tally["accepted wrong"] += accepted and not right
            whole = whole and right
        tally["pools"] += 1
        tally["pools right"] += whole
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teach", type=int, default=10)
    parser.add_argument("--pools", type=int, default=30)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        data_dir = Path(folder)
        kept = confirm_pools(data_dir, args.teach, rng)
        report = teacher.teach_pools(data_dir)
        print(f"{args.teach} confirmed pools of the unfamiliar style ({kept} dice) taught:")
        for line in report.lines() if isinstance(report, teacher.PoolTeachReport) else [report]:
            print(f"  {line}")
        taught = teacher.pool_model()
        teacher.use_taught_pool_model(Path(folder) / "none")  # back to the shipped model
    for title, styles in (("unfamiliar style", (UNFAMILIAR,)), ("trained styles", sim.TRAINED)):
        scenes = []
        for _ in range(args.pools):
            kinds = pool_kinds(rng)
            scenes.append((kinds, sim.render_pool(rng, kinds, styles=styles)))
        _compare(title, score(reader.shared_model(), scenes), score(taught, scenes))


def _compare(title: str, before: Counter[str], after: Counter[str]) -> None:
    print(f"{before['pools']} new pools, {title} ({before['dice']} dice), before -> after:")
    for name, of in (("right", "dice"), ("accepted", "dice"), ("pools right", "pools")):
        print(
            f"  {name}: {before[name]}/{before[of]} ({before[name] / before[of]:.0%}) -> "
            f"{after[name]}/{after[of]} ({after[name] / after[of]:.0%})"
        )
    print(f"  accepted and wrong: {before['accepted wrong']} -> {after['accepted wrong']}")


if __name__ == "__main__":
    main()
