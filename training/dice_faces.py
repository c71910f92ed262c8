"""Train the second look at each die: a face classifier on crops at a fixed scale.

    .venv-train/bin/python -m training.dice_faces [--holdout 0.25] [--steps N]

The whole-frame network (``training.dice_net``) is good at *where* dice are, but it reads
faces at whatever size the die happens to be. Small, low-contrast dice (translucent,
marbled, coloured pips) are read far better when each die is cut out and scaled to the
same FACE x FACE pixels first, so the reader asks this classifier for every die it finds
and only trusts a value both agree on. Class 0 is "not a die" (table, tray rim, shadow,
half a die), so it also removes false finds.

Crops are taken at the labelled centres with jitter in position and size like the
detector's own error, any rotation and mirror, and the same colour and light changes as
the detector's training. Every labelled die is equally likely to be drawn (the crowded
trays of small coloured dice are where the errors are), renders make up a quarter, and
"not a die" examples include the places where the whole-frame network fires on a photo
with no die there (keyboard keys, labels, tray rims): the false finds a player would see.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch
from torch import nn
from torch.nn import functional

from companion.vision import dice as reader
from training.dice_net import (
    DEFAULT_DATA,
    SEED,
    Frame,
    chosen_photos,
    load_photos,
    photometric,
    render_frames,
)


class FaceNet(nn.Module):
    """Four small conv stages and a global pool: a few million multiply-adds per die."""

    def __init__(self, widths: tuple[int, int, int] = (16, 32, 64)) -> None:
        super().__init__()
        a, b, c = widths

        def block(cin: int, cout: int) -> list[nn.Module]:
            return [
                nn.Conv2d(cin, cout, 3, 1, 1, bias=False),
                nn.BatchNorm2d(cout),
                nn.ReLU(inplace=True),
            ]

        self.body = nn.Sequential(
            *block(3, a),
            nn.MaxPool2d(2),
            *block(a, b),
            nn.MaxPool2d(2),
            *block(b, b),
            nn.MaxPool2d(2),
            *block(b, c),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(c, 7),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        result: torch.Tensor = self.body(x)
        return result


# Share of close-ups taken from simulator renders; the rest come from the photos, where
# every labelled die is equally likely (so the many small dice of the crowded trays,
# the hard ones, are not drowned out by frames holding one big die).
RENDER_SHARE = 0.25
# Share of close-ups that are "not a die", and of those, the share taken where the
# whole-frame network fires on a photo without a die (keyboard keys, logos, tray edges).
NEGATIVE_SHARE = 0.2
HARD_SHARE = 0.4
# A near-miss counts as "no die" only this many die sizes away from every labelled die:
# closer ones are mostly side faces of tilted dice, which are dice after all.
HARD_CLEARANCE = 1.5


# Share of photo close-ups cut where the whole-frame network put the die (its centre and
# its size estimate, which runs small on the crowded trays: a median 0.76 of the labelled
# box there), so the classifier learns the crops it will really be given.
SEEN_SHARE = 0.5


@dataclass
class Pool:
    """Where close-ups come from: photos (by die), renders, and what the detector saw."""

    photos: list[Frame]
    renders: list[Frame]
    hard: dict[str, np.ndarray] = field(default_factory=dict)  # name -> N x 3 (x, y, size)
    seen: dict[str, np.ndarray] = field(default_factory=dict)  # name -> per labelled die
    invert: float = 0.0  # share of crops turned to their negative (see ``crop_at``)

    def __post_init__(self) -> None:
        self.dice = [(f, d) for f, frame in enumerate(self.photos) for d in range(len(frame.dice))]


def detector_view(
    photos: list[Frame], detector: Path, threshold: float = 0.3
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """What the whole-frame network makes of each photo, for the classifier to learn from.

    Returns the near-misses (it sees a die where no labelled die is near) and, for each
    labelled die, the (x, y, size) it found there (NaN when it missed the die).
    """
    # Only the detector's grid is used; the shipped close-up stands in for the one being
    # trained, so a detector in a folder of its own (no dice_face.onnx beside it) works.
    net = reader.DiceReader(detector, reader.FACE_MODEL_PATHS)
    hard: dict[str, np.ndarray] = {}
    seen: dict[str, np.ndarray] = {}
    for frame in photos:
        work, scale = reader._work_image(frame.image)
        found = np.full((len(frame.dice), 3), np.nan, np.float32)
        rows = []
        for c in reader.find_candidates(net.grid(work), work.shape[:2], threshold):
            x, y, size = c.x / scale, c.y / scale, c.size / scale
            if len(frame.dice):
                gaps = np.hypot(frame.dice[:, 0] - x, frame.dice[:, 1] - y)
                nearest = int(np.argmin(gaps))
                if gaps[nearest] < 0.5 * frame.dice[nearest, 2] and np.isnan(found[nearest, 0]):
                    found[nearest] = (x, y, size)
                if np.any(gaps < np.maximum(frame.dice[:, 2], size) * HARD_CLEARANCE):
                    continue
            rows.append((x, y, size))
        if rows:
            hard[frame.name] = np.array(rows, np.float32)
        seen[frame.name] = found
    return hard, seen


def sample(pool: Pool, rng: np.random.Generator) -> tuple[Any, int]:
    """One augmented crop and its class (0 = not a die, else the face value)."""
    from_render = not pool.photos or (bool(pool.renders) and rng.random() < RENDER_SHARE)
    if rng.random() < NEGATIVE_SHARE:
        frames = pool.renders if from_render else pool.photos
        frame = frames[int(rng.integers(len(frames)))]
        hard = pool.hard.get(frame.name)
        if hard is not None and rng.random() < HARD_SHARE:
            cx, cy, size = hard[int(rng.integers(len(hard)))]
            cx += rng.normal(0, 0.06 * size)
            cy += rng.normal(0, 0.06 * size)
            return crop_at(frame, float(cx), float(cy), float(size), rng, pool.invert), 0
        return negative(frame, rng, pool.invert)
    if from_render:
        frame = pool.renders[int(rng.integers(len(pool.renders)))]
        if not len(frame.dice):
            return negative(frame, rng, pool.invert)
        cx, cy, size, value = frame.dice[int(rng.integers(len(frame.dice)))]
    else:
        f, d = pool.dice[int(rng.integers(len(pool.dice)))]
        frame = pool.photos[f]
        cx, cy, size, value = frame.dice[d]
        seen = pool.seen.get(frame.name)
        if seen is not None and not np.isnan(seen[d, 0]) and rng.random() < SEEN_SHARE:
            cx, cy, size = seen[d]
    cx += rng.normal(0, 0.06 * size)
    cy += rng.normal(0, 0.06 * size)
    return crop_at(frame, float(cx), float(cy), float(size), rng, pool.invert), int(value)


def negative(frame: Frame, rng: np.random.Generator, invert: float = 0.0) -> tuple[Any, int]:
    """A crop with no die at its centre: beside a die (half dice, gaps, shadows) or anywhere."""
    dice = frame.dice
    h, w = frame.image.shape[:2]
    size = float(np.median(dice[:, 2])) if len(dice) else 40.0
    if len(dice) and rng.random() < 0.6:
        x, y, s, _ = dice[int(rng.integers(len(dice)))]
        angle = rng.uniform(0, 2 * math.pi)
        reach = rng.uniform(0.6, 1.2) * s
        cx, cy = x + reach * math.cos(angle), y + reach * math.sin(angle)
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    if len(dice) and np.min(np.hypot(dice[:, 0] - cx, dice[:, 1] - cy) / dice[:, 2]) < 0.45:
        return negative(frame, rng, invert)  # too close to a die's centre to call it "no die"
    return crop_at(frame, float(cx), float(cy), size, rng, invert), 0


def crop_at(
    frame: Frame,
    cx: float,
    cy: float,
    size: float,
    rng: np.random.Generator,
    invert: float = 0.0,
) -> Any:
    """The close-up the reader would take there, with size, turn, mirror and light changes.

    With probability ``invert`` the crop becomes its photographic negative first: the
    labelled photos are mostly light dice with dark pips, and a negative of one is a dark
    die with light pips, the kind the reader misreads most.
    """
    size *= math.exp(rng.normal(0, 0.12))
    angle = rng.uniform(0, 360)
    crop = reader.face_crop(frame.image, (cx, cy), size, angle, native=True)
    if rng.random() < 0.5:
        crop = np.ascontiguousarray(crop[:, ::-1])
    if invert and rng.random() < invert:
        crop = 255 - crop
    return reader.to_face_size(photometric(crop, rng))


def batch(pool: Pool, size: int, rng: np.random.Generator) -> tuple[Any, Any]:
    crops, labels = [], []
    for _ in range(size):
        crop, label = sample(pool, rng)
        crops.append(crop)
        labels.append(label)
    blob = reader.faces_input(crops)
    return torch.from_numpy(blob), torch.tensor(labels)


def train(
    pool: Pool,
    steps: int,
    batch_size: int,
    seed: int,
    widths: tuple[int, int, int] = (16, 32, 64),
) -> FaceNet:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = FaceNet(widths)
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    model.train()
    start = time.time()
    running = 0.0
    for step in range(1, steps + 1):
        images, labels = batch(pool, batch_size, rng)
        loss = functional.cross_entropy(model(images), labels, label_smoothing=0.02)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        running = 0.98 * (running or float(loss.detach())) + 0.02 * float(loss.detach())
        if step % 200 == 0 or step == steps:
            took = time.time() - start
            print(f"step {step}/{steps}  loss {running:.3f}  {took:.0f} s", flush=True)
    model.eval()
    fitted: FaceNet = model
    return fitted


def export(model: FaceNet, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model,
        (torch.zeros(1, 3, reader.FACE, reader.FACE),),
        str(path),
        dynamo=False,
        input_names=["faces"],
        output_names=["logits"],
        dynamic_axes={"faces": {0: "dice"}, "logits": {0: "dice"}},
        opset_version=13,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--holdout", type=float, default=0.0)
    parser.add_argument("--steps", type=int, default=4000)
    parser.add_argument("--batch", type=int, default=48)
    parser.add_argument("--renders", type=int, default=300)
    parser.add_argument(
        "--varied-renders", action="store_true", help="every other render with varied dice looks"
    )
    parser.add_argument(
        "--invert",
        type=float,
        default=0.0,
        help="share of training close-ups turned to their negative (an experiment; 0 ships)",
    )
    parser.add_argument("--out", type=Path, default=reader.FACE_MODEL_PATHS[0])
    parser.add_argument("--seed", type=int, default=SEED, help="seed of the held-out split")
    parser.add_argument(
        "--member",
        type=int,
        default=0,
        help="ensemble member: another start, batches and renders, the same held-out photos",
    )
    parser.add_argument("--widths", default="16,32,64", help="channels of the three stages")
    parser.add_argument(
        "--detector",
        type=Path,
        default=reader.MODEL_PATH,
        help="whole-frame network whose false finds on the photos become 'not a die' examples",
    )
    parser.add_argument("--threads", type=int, default=2, help="CPU threads for torch")
    parser.add_argument(
        "--fold", type=int, help="train on every cross-validation fold but this one"
    )
    parser.add_argument(
        "--face",
        type=int,
        default=reader.FACE,
        help="close-up side in pixels; the reader cuts dice.FACE, so another size is an experiment",
    )
    args = parser.parse_args()
    # The crops are cut and shrunk by the reader's own code, which reads this constant.
    reader.FACE = args.face
    a, b, c = (int(w) for w in args.widths.split(","))
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    photos = load_photos(args.data)
    train_photos, held = chosen_photos(photos, args.holdout, args.seed, args.fold)
    # Member 0 is the shipped classifier as it always was; a further member differs in
    # everything random except which photos are held out (so its figures stay honest).
    run_seed = args.seed + 1000 * args.member
    renders = render_frames(args.renders, np.random.default_rng(run_seed + 1), args.varied_renders)
    hard, seen = detector_view(train_photos, args.detector) if args.detector.exists() else ({}, {})
    print(
        f"{len(train_photos)} photos + {len(renders)} renders, {len(held)} held out, "
        f"{sum(len(v) for v in hard.values())} near-misses in {len(hard)} photos"
    )
    pool = Pool(train_photos, renders, hard, seen, args.invert)
    model = train(pool, args.steps, args.batch, run_seed, (a, b, c))
    export(model, args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
