"""Train the die-face classifier from the labelled dice folder (seeded, reproducible).

    python -m companion.vision.train_dice [DATA_DIR]

Candidates come from the same localiser the reader uses, matched to labels by position:
matched candidates teach the face value, unmatched ones teach "not a die" (class 0), so
the model also rejects tray holes, shadows and table clutter. Each sample is augmented by
the 8 symmetries of a square (a die face looks the same value after any of them) plus
small rotation, scale and shift jitter. Cross-validation is by image (5 folds, seed 0) and
its held-out figures are printed before the final model is fitted on everything.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.dice import (
    MODEL_PATH,
    Die,
    FaceModel,
    Image,
    blob_pose,
    die_patch,
    face_probabilities,
    find_die_blobs,
    patch_features,
    work_lab,
)
from companion.vision.dice_eval import load_labels, match

DEFAULT_DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "dice"
SEED = 0
FOLDS = 5
AUGMENTED_COPIES = 8
CLASSES = 7  # 0 = not a die, 1..6 = face value
EPOCHS = 30
LEARNING_RATE = 1e-3
WEIGHT_DECAY = 1e-4


@dataclass(frozen=True)
class Candidate:
    """One localised blob with its label (0 = not a die) and pose, for training."""

    image: int
    label: int
    lab: Image
    pose: tuple[float, float, float, float]  # cx, cy, size, angle in work px


def collect(data_dir: Path) -> list[Candidate]:
    """Run the localiser on every labelled image and label its candidates."""
    candidates = []
    for index, (name, labelled) in enumerate(load_labels(data_dir / "labels.json")):
        frame = cv2.imread(str(data_dir / "images" / name))
        lab, scale = work_lab(frame)
        blobs = find_die_blobs(lab)
        poses = [blob_pose(b) for b in blobs]
        found = [
            Die(None, (cx / scale, cy / scale), b.size / scale, 0.0)
            for b, (cx, cy, _) in zip(blobs, poses, strict=True)
        ]
        label_of = {fi: labelled[li].value for li, fi in match(labelled, found)}
        for fi, (blob, (cx, cy, angle)) in enumerate(zip(blobs, poses, strict=True)):
            candidates.append(
                Candidate(index, label_of.get(fi, 0), lab, (cx, cy, blob.size, angle))
            )
    return candidates


def features(candidate: Candidate, rng: np.random.Generator | None) -> NDArray[np.float32]:
    """Features of one candidate, with random symmetry and jitter when rng is given."""
    cx, cy, size, angle = candidate.pose
    flip = False
    if rng is not None:
        angle += 90.0 * int(rng.integers(4)) + float(rng.normal(0, 6))
        size *= float(rng.uniform(0.9, 1.1))
        cx += float(rng.normal(0, 0.06 * size))
        cy += float(rng.normal(0, 0.06 * size))
        flip = bool(rng.integers(2))
    patch = die_patch(candidate.lab, cx, cy, size, angle)
    if flip:
        patch = np.ascontiguousarray(patch[:, ::-1])
    return patch_features(patch)


def dataset(
    candidates: list[Candidate], copies: int, rng: np.random.Generator
) -> tuple[NDArray[np.float32], NDArray[np.int32]]:
    """Augmented feature matrix and labels for a set of candidates."""
    rows, labels = [], []
    for candidate in candidates:
        repeats = copies if candidate.label else max(1, copies // 4)
        for _ in range(repeats):
            rows.append(features(candidate, rng))
            labels.append(candidate.label)
    return np.array(rows, dtype=np.float32), np.array(labels, dtype=np.int32)


def fit(x: NDArray[np.float32], y: NDArray[np.int32], seed: int = SEED) -> FaceModel:
    """Train a small softmax MLP (features -> 64 -> 7) with Adam in plain numpy.

    It is tiny on disk, runs in microseconds per die and its softmax output gives the
    probability the reader turns into a confidence.
    """
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    z = (x - mean) / scale
    hidden = 64
    params = [
        rng.normal(0, 1 / np.sqrt(z.shape[1]), (z.shape[1], hidden)),
        np.zeros(hidden),
        rng.normal(0, 1 / np.sqrt(hidden), (hidden, CLASSES)),
        np.zeros(CLASSES),
    ]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    onehot = np.eye(CLASSES)[y]
    step = 0
    for _epoch in range(EPOCHS):
        order = rng.permutation(len(z))
        for start in range(0, len(z), 128):
            batch = order[start : start + 128]
            xb, tb = z[batch], onehot[batch]
            h = np.maximum(xb @ params[0] + params[1], 0)
            logits = h @ params[2] + params[3]
            p = np.exp(logits - logits.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            g_logits = (p - tb) / len(batch)
            g_h = (g_logits @ params[2].T) * (h > 0)
            grads = [
                xb.T @ g_h + WEIGHT_DECAY * params[0],
                g_h.sum(0),
                h.T @ g_logits + WEIGHT_DECAY * params[2],
                g_logits.sum(0),
            ]
            step += 1
            for i, g in enumerate(grads):
                moments[i] = 0.9 * moments[i] + 0.1 * g
                squares[i] = 0.999 * squares[i] + 0.001 * g * g
                m_hat = moments[i] / (1 - 0.9**step)
                v_hat = squares[i] / (1 - 0.999**step)
                params[i] -= LEARNING_RATE * m_hat / (np.sqrt(v_hat) + 1e-8)
    return FaceModel(mean, scale, *params)


def cross_validate(candidates: list[Candidate]) -> list[tuple[int, NDArray[np.float64]]]:
    """Held-out (label, class outputs) for every candidate, folds split by image."""
    rng = np.random.default_rng(SEED)
    images = sorted({c.image for c in candidates})
    fold_of = {
        image: fold
        for fold, image in zip(rng.permutation(len(images)) % FOLDS, images, strict=True)
    }
    held_out: list[tuple[int, NDArray[np.float64]]] = []
    for fold in range(FOLDS):
        train = [c for c in candidates if fold_of[c.image] != fold]
        test = [c for c in candidates if fold_of[c.image] == fold]
        model = fit(*dataset(train, AUGMENTED_COPIES, rng))
        out = face_probabilities(model, [die_patch(c.lab, *c.pose) for c in test])
        held_out.extend(zip((c.label for c in test), out, strict=True))
        print(f"fold {fold}: {len(train)} train, {len(test)} test", file=sys.stderr)
    return held_out


def summarise(held_out: list[tuple[int, NDArray[np.float64]]]) -> None:
    """Print held-out accuracy and the accuracy/coverage trade-off of the output margin."""
    labels = np.array([label for label, _ in held_out])
    outputs = np.array([out for _, out in held_out])
    predicted = outputs.argmax(axis=1)
    margin = outputs.max(axis=1)
    dice = labels > 0
    print(f"held-out candidates {len(labels)}, dice {int(dice.sum())}")
    print(f"held-out value accuracy on dice: {(predicted[dice] == labels[dice]).mean():.4f}")
    print(f"held-out non-dice rejected: {(predicted[~dice] == 0).mean():.4f}")
    for threshold in (0.0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98):
        chosen = dice & (margin >= threshold) & (predicted > 0)
        right = (predicted[chosen] == labels[chosen]).mean() if chosen.any() else 0.0
        print(
            f"  p>={threshold:.2f}: coverage {chosen.sum() / dice.sum():.3f} accuracy {right:.4f}"
        )


def main() -> None:
    """Cross-validate, then fit on all data and save the model next to the reader."""
    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_DATA
    candidates = collect(data_dir)
    summarise(cross_validate(candidates))
    rng = np.random.default_rng(SEED)
    model = fit(*dataset(candidates, AUGMENTED_COPIES, rng))
    MODEL_PATH.parent.mkdir(parents=True, exist_ok=True)
    model.save(MODEL_PATH)
    print(f"saved {MODEL_PATH}")


if __name__ == "__main__":
    main()
