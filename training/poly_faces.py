"""Train the pool reader's face classifier (companion/vision/poly_dice.py) on renders.

    .venv/bin/python -m training.poly_faces [--per-class 260] [--epochs 30] [--out PATH]

Data: renders only (hardware/simulator/poly_dice.py), one die per picture on a random table,
in every style **except** ``HELD_OUT`` (the serif "triplex" family with numbered d6s), which
bench/poly_dice.py keeps for measurement. Each die is found by the reader's own finder and
cut out the way the reader cuts it, so the classifier learns what the reader will see.

Classes: (kind, face) for d4, d6, d8 and d10 (28), and class 0, "not upright at this turn":
the same dice turned well away from any upright reading (for a d4, away from all three
faces' upright numbers; for a d6 with pips, away from all four quarter turns), so that the
reader, which tries 24 turns, only trusts a turn at which a face is upright.

Seeded (numpy, SEED) so the same command makes the same model on the same machine; a
tenth of the renders is kept back to print a validation figure (same styles as training:
an optimistic figure, not the bench's).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from companion.vision import poly_dice as reader
from hardware.simulator import poly_dice as sim

SEED = 20261128


def _upright_turns(die: sim.PolyDie) -> list[float]:
    """The turns (reader's convention) at which this die shows its face upright."""
    if die.kind == 4:
        copies = 3
    elif die.kind == 6 and die.style.pips:
        copies = 4
    else:
        copies = 1
    return [(-die.angle + 360.0 * k / copies) % 360 for k in range(copies)]


def _turned_away(rng: np.random.Generator, die: sim.PolyDie) -> float | None:
    """A turn well away from every upright one (None where every turn looks upright)."""
    if die.kind == 6 and die.style.pips and die.face == 1:
        return None
    ups = _upright_turns(die)
    for _ in range(50):
        turn = float(rng.uniform(0, 360))
        gaps = [abs((turn - up + 180) % 360 - 180) for up in ups]
        # a lone 0, 1 or 8 turned half-way round looks upright: not a "turned" one; any other
        # numeral upside down is (a serif 4 or 5 upside down was read as a 1 before)
        symmetric = len(ups) == 1 and sim.label(die.kind, die.face) in ("0", "1", "8")
        if min(gaps) > 30 and (not symmetric or gaps[0] < 150):
            return turn
    return None


def render_one(
    rng: np.random.Generator, kind: int, face: int, styles: tuple[sim.Style, ...]
) -> tuple[NDArray[np.uint8], sim.PolyDie]:
    """One die alone on a random table, with camera blur and noise."""
    radius = float(rng.uniform(14, 36))
    side = int(radius * 4.2)
    table = sim.TABLES[int(rng.integers(len(sim.TABLES)))]
    frame = np.empty((side, side, 3), np.uint8)
    frame[:] = table
    centre = (side / 2 + rng.uniform(-3, 3), side / 2 + rng.uniform(-3, 3))
    die = sim.random_die(rng, kind, centre, radius, styles, table)
    die = sim.PolyDie(kind, face, die.centre, die.radius, die.angle, die.body, die.ink, die.style)
    sim.draw_die(frame, die)
    return sim.finish(frame, rng, float(rng.uniform(0.3, 1.0)), float(rng.uniform(1.0, 4.0))), die


def examples(
    rng: np.random.Generator, per_class: int
) -> tuple[NDArray[np.float32], NDArray[np.int64]]:
    """Crops as the reader cuts them: upright ones labelled by class, turned ones class 0."""
    crops: list[NDArray[np.uint8]] = []
    labels: list[int] = []
    for index, (kind, face) in enumerate(reader.CLASSES, start=1):
        made = 0
        while made < per_class:
            frame, die = render_one(rng, kind, face, sim.TRAINED)
            blobs = reader.find_dice(frame)
            if len(blobs) != 1:
                continue
            blob = blobs[0]
            ups = _upright_turns(die)
            turn = ups[int(rng.integers(len(ups)))] + float(rng.uniform(-7.5, 7.5))
            crops.append(reader.crop(frame, blob.centre, blob.radius, turn))
            labels.append(index)
            away = _turned_away(rng, die)
            if away is not None:
                crops.append(reader.crop(frame, blob.centre, blob.radius, away))
                labels.append(0)
            made += 1
    return reader.features(crops), np.array(labels, np.int64)


def train(
    x: NDArray[np.float32], y: NDArray[np.int64], rng: np.random.Generator, epochs: int
) -> reader.FaceModel:
    """A one-hidden-layer network by mini-batch Adam on cross-entropy."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    z = (x - mean) / scale
    classes = len(reader.CLASSES) + 1
    hidden = 256
    params = [
        rng.normal(0, np.sqrt(2 / z.shape[1]), (z.shape[1], hidden)).astype(np.float32),
        np.zeros(hidden, np.float32),
        rng.normal(0, np.sqrt(1 / hidden), (hidden, classes)).astype(np.float32),
        np.zeros(classes, np.float32),
    ]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    step, rate, decay = 0, 1e-3, 1e-4
    for epoch in range(epochs):
        order = rng.permutation(len(z))
        for start in range(0, len(z), 128):
            batch = order[start : start + 128]
            xb, yb = z[batch], y[batch]
            h = np.maximum(0, xb @ params[0] + params[1])
            logits = h @ params[2] + params[3]
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            p[np.arange(len(yb)), yb] -= 1
            p /= len(yb)
            dh = (p @ params[2].T) * (h > 0)
            grads = [xb.T @ dh, dh.sum(0), h.T @ p, p.sum(0)]
            step += 1
            for i, (param, grad) in enumerate(zip(params, grads, strict=True)):
                grad = grad + decay * param
                m, v = moments[i]
                m[:] = 0.9 * m + 0.1 * grad
                v[:] = 0.999 * v + 0.001 * grad * grad
                m_hat = m / (1 - 0.9**step)
                v_hat = v / (1 - 0.999**step)
                param -= (rate * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
        if epoch == epochs // 2:
            rate /= 3
    return reader.FaceModel(mean, scale, *params)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-class", type=int, default=260)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--out", type=Path, default=reader.MODEL_PATH)
    args = parser.parse_args()
    rng = np.random.default_rng(SEED)
    began = time.monotonic()
    x, y = examples(rng, args.per_class)
    print(f"{len(y)} crops rendered in {time.monotonic() - began:.0f} s")
    order = rng.permutation(len(y))
    keep = order[: len(y) // 10]
    fit = order[len(y) // 10 :]
    model = train(x[fit], y[fit], rng, args.epochs)
    guessed = model.probabilities(x[keep]).argmax(axis=1)
    right = float((guessed == y[keep]).mean())
    print(f"validation (training styles, single crops): {right:.1%} of {len(keep)} crops right")
    model.save(args.out)
    print(f"saved {args.out} after {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
