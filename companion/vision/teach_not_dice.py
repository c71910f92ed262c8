"""Teach the reader that this table's dice are dice, from the rolls fixed on the picture.

The close-up classifier vetoes a find it rates more likely "not a die" than NOT_A_DIE. An
unfamiliar set can sit just over it: on the drawn odd set (``bench/teach_fixes.py``,
development seeds 11, 12, 13) 9 of the 279 dice of new rolls were found, then dropped so,
after the taught head read nearly all the others right. A fixed picture says where every
die is, so everything else in it is not a die: its removed finds, and close-ups cut at
random places at least a die's size from every fixed die. A correction of the shipped
"not a die" log-odds is fitted on these and the kept dice (anchored and kept small as the
face head's is, see :class:`companion.vision.teach.TaughtHead`) and used only when, read by
corrections fitted without them, the held-out rolls' dice are dropped less often and none
of their not-dice close-ups is let in that the shipped classifier kept out.

Applying a die unasked still needs the shipped classifier's own confidence (the reader
takes the smaller of the two), so a find this lets in is at most asked about, never
applied unasked, unless the shipped reader would have applied it anyway.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.dice import NOT_A_DIE, DiceReader, face_crop
from companion.vision.teach import (
    EXAMPLES_DIR,
    HEAD_FILE,
    HOLD_OUT,
    INDEX_FILE,
    L2,
    RATE,
    STEPS,
    TURNS,
    Example,
    ExampleStore,
    TaughtHead,
    augmented,
    close_up_readings,
    jittered,
    not_die_logits,
)

# Close-ups cut from each fixed picture at random places at least a die's size (as big as
# the picture's fixed dice, give or take a fifth) from every fixed die.
PLACES = 12
ATTEMPTS = 60
# At most this many kept dice are read again for it (the most recent): each is read in its
# four turns, and so is each of its COPIES copies, and teaching on the Pi waits for it.
MAX_DICE = 100
# Places are cut from at most this many fixed pictures (the most recent).
MAX_PICTURES = 25
# Each kept die is also learned from in COPIES copies cut as the finder may cut it: off
# centre by up to OFF_CENTRE pixels (of 32, the die ~23 of them) and up to OFF_SIZE too small.
COPIES = 3
OFF_CENTRE = 6.0
OFF_SIZE = (0.9, 1.6)


def not_dice(folder: Path, rng: np.random.Generator) -> list[Example]:
    """What the fixed pictures in ``folder`` show is not a die (value 0): each find a
    person removed, and PLACES close-ups per picture away from every fixed die."""
    try:
        index = json.loads((folder / INDEX_FILE).read_text())
    except (OSError, ValueError):
        return []
    found: list[Example] = []
    pictures: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    rolls: dict[str, int] = {}
    for row in index.get("dice", []):
        if int(row["value"]) == 0:
            crop = cv2.imread(str(folder / row["file"]))
            if crop is not None:
                found.append(Example(crop, 0, int(row["roll"])))
        elif "frame" in row and "box" in row:
            x, y, w, h = row["box"]
            pictures[row["frame"]].append((x + w / 2, y + h / 2, max(w, h)))
            rolls[row["frame"]] = int(row["roll"])
    recent = sorted(pictures, key=rolls.__getitem__)[-MAX_PICTURES:]
    for name in recent:
        dice = pictures[name]
        frame = cv2.imread(str(folder / name))
        if frame is not None:
            found += [Example(c, 0, rolls[name]) for c in away_from_dice(frame, dice, rng)]
    return found


def away_from_dice(
    frame: Any, dice: list[tuple[float, float, float]], rng: np.random.Generator
) -> list[Any]:
    """Up to PLACES close-ups of ``frame`` whose centres are at least a die's size from
    every die in ``dice`` (x, y, size)."""
    size = float(np.median([s for _, _, s in dice]))
    height, width = frame.shape[:2]
    if width <= 2 * size or height <= 2 * size:
        return []
    crops: list[Any] = []
    for _ in range(ATTEMPTS):
        x, y = rng.uniform(size, width - size), rng.uniform(size, height - size)
        if all(math.hypot(x - dx, y - dy) >= max(size, ds) for dx, dy, ds in dice):
            crops.append(face_crop(frame, (x, y), size * rng.uniform(0.8, 1.2)))
            if len(crops) == PLACES:
                break
    return crops


def fit_not_die(
    head: TaughtHead, features: NDArray[np.float64], shipped: NDArray[np.float64], labels: Any
) -> NDArray[np.float64]:
    """The correction of the shipped "not a die" log-odds (weights, then bias) by logistic
    regression on ``head``'s standardised features, each class weighing half."""
    x = head.standard(features)
    base = not_die_logits(shipped)
    target = np.asarray(labels, np.float64)
    weight = np.where(target > 0, 0.5 / max(1.0, target.sum()), 0.5 / max(1.0, (1 - target).sum()))
    weights = np.zeros(x.shape[1])
    bias = 0.0
    for _ in range(STEPS):
        error = (1.0 / (1.0 + np.exp(-(base + x @ weights + bias))) - target) * weight
        weights -= RATE * (x.T @ error + L2 * weights)
        bias -= RATE * float(error.sum())
    result: NDArray[np.float64] = np.append(weights, bias)
    return result


def teach_not_dice(reader: DiceReader, data_dir: Path) -> str:
    """Fit, measure and, when it helps, keep the "not a die" correction on ``reader``'s
    taught head (saved with it); a line saying what happened."""
    head = reader.head
    if head is None:
        return ""
    folder = data_dir / EXAMPLES_DIR
    others = not_dice(folder, np.random.default_rng(1))
    if not others:
        return ""
    rng = np.random.default_rng(0)
    confirmed = ExampleStore(folder).load()[-MAX_DICE:]
    dice = confirmed + [
        replace(e, crop=jittered(e.crop, rng, OFF_CENTRE, OFF_SIZE))
        for e in confirmed
        for _ in range(COPIES)
    ]
    crops, _ = augmented([*dice, *others])
    shipped, features = close_up_readings(reader, crops)
    labels = np.repeat([e.value == 0 for e in (*dice, *others)], TURNS)
    rolls = np.repeat([e.roll for e in (*dice, *others)], TURNS)
    order = sorted(set(rolls.tolist()))
    plain = replace(head, not_die=None)
    before = plain.not_a_die(features, shipped, TURNS)[:, 0]
    after = np.zeros_like(before)
    for part in range(HOLD_OUT):
        held = np.isin(rolls, order[part::HOLD_OUT])
        fitted = fit_not_die(plain, features[~held], shipped[~held], labels[~held])
        taught = replace(plain, not_die=fitted)
        after[held[::TURNS]] = taught.not_a_die(features[held], shipped[held], TURNS)[:, 0]
    is_die = ~labels[::TURNS]
    let_in = int(np.sum((after <= NOT_A_DIE) & (before > NOT_A_DIE) & ~is_die))
    better = log_loss(after, is_die) < log_loss(before, is_die)
    kept = better and let_in == 0
    final = replace(plain, not_die=fit_not_die(plain, features, shipped, labels) if kept else None)
    final.save(data_dir / HEAD_FILE)
    reader.head = final
    share = (float(np.mean(before[is_die])), float(np.mean(after[is_die])))
    if not kept:
        return (
            "Not a die: a correction read the held-out rolls no better "
            f"(or let in {let_in} close-ups that are not dice), so the shipped veto stays."
        )
    return (
        "Not a die: read by a correction fitted without them, the held-out dice's "
        f'"not a die" share fell from {share[0]:.0%} to {share[1]:.0%} on average, and none '
        f"of {int(np.sum(~is_die))} close-ups of what is not a die in the fixed pictures "
        "was let in; the reader uses it from now on."
    )


def log_loss(not_die: NDArray[np.float64], is_die: NDArray[np.bool_]) -> float:
    """Mean negative log-likelihood of die / not a die, each class weighing half."""
    p = np.clip(np.where(is_die, 1.0 - not_die, not_die), 1e-9, 1.0)
    return float(-0.5 * np.mean(np.log(p[is_die])) - 0.5 * np.mean(np.log(p[~is_die])))
