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
the detector's training.
"""

from __future__ import annotations

import argparse
import math
import time
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
    load_photos,
    photometric,
    render_frames,
    split,
)

FACE = reader.FACE


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


def sample(frame: Frame, rng: np.random.Generator) -> tuple[Any, int]:
    """One augmented crop and its class (0 = not a die, else the face value)."""
    dice = frame.dice
    negative = len(dice) == 0 or rng.random() < 0.2
    if negative:
        h, w = frame.image.shape[:2]
        size = float(np.median(dice[:, 2])) if len(dice) else 40.0
        if len(dice) and rng.random() < 0.6:  # beside a die: half dice, gaps, shadows
            x, y, s, _ = dice[int(rng.integers(len(dice)))]
            angle = rng.uniform(0, 2 * math.pi)
            reach = rng.uniform(0.6, 1.2) * s
            cx, cy = x + reach * math.cos(angle), y + reach * math.sin(angle)
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        if len(dice) and np.min(np.hypot(dice[:, 0] - cx, dice[:, 1] - cy) / dice[:, 2]) < 0.45:
            return sample(frame, rng)  # too close to a die's centre to call it "no die"
        label = 0
    else:
        cx, cy, size, value = dice[int(rng.integers(len(dice)))]
        cx += rng.normal(0, 0.06 * size)
        cy += rng.normal(0, 0.06 * size)
        label = int(value)
    size *= math.exp(rng.normal(0, 0.12))
    angle = rng.uniform(0, 360)
    crop = reader.face_crop(frame.image, (float(cx), float(cy)), float(size), angle, native=True)
    if rng.random() < 0.5:
        crop = np.ascontiguousarray(crop[:, ::-1])
    return reader.to_face_size(photometric(crop, rng)), label


def batch(frames: list[Frame], size: int, rng: np.random.Generator) -> tuple[Any, Any]:
    crops, labels = [], []
    for _ in range(size):
        crop, label = sample(frames[int(rng.integers(len(frames)))], rng)
        crops.append(crop)
        labels.append(label)
    blob = reader.faces_input(crops)
    return torch.from_numpy(blob), torch.tensor(labels)


def train(
    frames: list[Frame],
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
        images, labels = batch(frames, batch_size, rng)
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
        (torch.zeros(1, 3, FACE, FACE),),
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
    parser.add_argument("--out", type=Path, default=reader.FACE_MODEL_PATHS[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--widths", default="16,32,64", help="channels of the three stages")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads for torch")
    args = parser.parse_args()
    a, b, c = (int(w) for w in args.widths.split(","))
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    photos = load_photos(args.data)
    train_photos, held = split(photos, args.holdout, args.seed) if args.holdout else (photos, [])
    renders = render_frames(args.renders, np.random.default_rng(args.seed + 1))
    print(f"{len(train_photos)} photos + {len(renders)} renders, {len(held)} held out")
    model = train(train_photos + renders, args.steps, args.batch, args.seed, (a, b, c))
    export(model, args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
