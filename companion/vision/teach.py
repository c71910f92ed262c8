"""Teach the reader this table's own dice from the rolls people confirmed on the tablet.

The shipped close-up classifier learned from other people's dice; a table's marbled,
numbered or oddly coloured set may be read wrong however sure the model is. Every roll a
person confirms (READ on a proposal) or corrects (types the roll after the camera proposed
one) is a labelled example of *these* dice, so the Pi keeps each die's 32x32 close-up and
its value (:class:`ExampleStore`, bounded), and ``companion dice teach`` fits a new last
layer, a logistic regression in numpy, on the close-up classifier's own features
(:func:`teach`). The shipped models never change: the fitted head is a small file in the
data folder that the reader uses when it is there.

Figures are measured honestly: the confirmed rolls are split by roll into a fitting part
and a held-out part, and before/after are reported on the held-out part only.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import queue
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.errors import CompanionError
from companion.vision.confidence import AUTO_ACCEPT, temper, turned_together

log = logging.getLogger(__name__)

EXAMPLES_DIR = "dice-examples"
INDEX_FILE = "index.json"
HEAD_FILE = "dice-head.npz"
# This table's first-look threshold, learned from rolls fixed on the picture
# (companion/vision/teach_finder.py).
FINDER_FILE = "dice-finder.json"
# At most this many die crops are kept (a 32x32 PNG is ~2 KB: a few MB at most); the
# oldest rolls go first, so the examples follow the dice the table uses now.
MAX_EXAMPLES = 2000
# The confirmed rolls are split by roll into HOLD_OUT parts; each part is read by a head
# fitted on the others, and the figures are measured on those readings. Fewer than
# MIN_ROLLS confirmed rolls cannot give every part a roll to fit and one to read.
HOLD_OUT = 3
MIN_ROLLS = 4
# Each close-up is learned from in its four right-angle turns.
TURNS = 4
# Besides its turns, each close-up is learned from in JITTERS jittered copies (see
# ``jittered``), fewer when there are many (at most JITTER_BUDGET in all, at least 1 each:
# each copy is one more pass of the close-up classifier, which teaching on the Pi waits
# for; a full store already reads 8,000 turns). Few rolls gain most from them. On
# bench/teach_fixes.py's drawn odd set (new rolls of seeds 11, 12, 13, 279 dice) the
# taught reader read 27 dice wrong with the four turns alone, 6 with 8 copies, 3 with 16.
JITTERS = 16
JITTER_BUDGET = 2000
# A jittered copy: shifted up to SHIFT pixels (of FACE), scaled by ZOOM, its light
# multiplied by GAIN and moved by up to LIFT levels, and a BLURRED share of them blurred.
SHIFT = 1.5
ZOOM = (0.9, 1.1)
GAIN = (0.8, 1.2)
LIFT = 15.0
BLURRED = 0.3
# The L2 weight and steps of the logistic regression: strong enough that ~60 crops of
# 128 features do not simply memorise, few enough steps to take well under a second.
L2 = 1e-2
STEPS = 400
RATE = 0.5
# Close-ups go through the classifier this many at a time: the reader's lock is let go
# between batches, so the camera keeps reading while a table is being taught.
BATCH = 64

Image = NDArray[Any]
# A die's box in its frame: x, y, width, height in pixels.
Box = tuple[float, float, float, float]
# A roll waiting to be written: crops, values, boxes, frame.
Job = tuple[list[Image], list[int], Sequence[Box] | None, Image | None]
# The value kept for a find a person removed (a phantom): a close-up of what is not a die.
NOT_A_DIE = 0


class TeachError(CompanionError):
    """Teaching cannot run (no or too few confirmed rolls); the message says what to do."""


@dataclass(frozen=True)
class Example:
    """One die of one confirmed roll: its close-up (FACE x FACE BGR) and its value."""

    crop: Image
    value: int
    roll: int


class ExampleStore:
    """Confirmed dice crops in ``folder`` (PNG files plus ``index.json``), bounded.

    Writes are serialised by a lock; the table's worker never calls :meth:`add_roll`
    directly (see :class:`BackgroundSaver`), so a slow SD card never delays a move.
    """

    def __init__(self, folder: Path, limit: int = MAX_EXAMPLES) -> None:
        self.folder = folder
        self.limit = limit
        self._lock = threading.Lock()

    def _index(self) -> dict[str, Any]:
        path = self.folder / INDEX_FILE
        try:
            index = json.loads(path.read_text())
        except (OSError, ValueError):
            return {"next_roll": 0, "dice": []}
        return (
            index if isinstance(index, dict) and "dice" in index else {"next_roll": 0, "dice": []}
        )

    def add_roll(
        self,
        crops: Sequence[Image],
        values: Sequence[int],
        boxes: Sequence[Box] | None = None,
        frame: Image | None = None,
    ) -> int:
        """Keep one confirmed roll; returns its number. Drops the oldest rolls past the limit.

        A value of NOT_A_DIE marks something the reader took for a die and a person
        removed. ``boxes`` (x, y, w, h in the frame's pixels, one per crop) and the
        ``frame`` itself (a JPEG beside the crops) are what a finder learns where dice are
        from; rolls kept before they were stored have neither.
        """
        with self._lock:
            self.folder.mkdir(parents=True, exist_ok=True)
            index = self._index()
            roll = int(index.get("next_roll", 0))
            picture = None
            if frame is not None:
                picture = f"roll{roll:06d}-frame.jpg"
                cv2.imwrite(str(self.folder / picture), frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
            for number, (crop, value) in enumerate(zip(crops, values, strict=True)):
                name = f"roll{roll:06d}-{number}.png"
                cv2.imwrite(str(self.folder / name), crop)
                row: dict[str, Any] = {"file": name, "value": int(value), "roll": roll}
                if boxes is not None:
                    row["box"] = [round(float(v), 1) for v in boxes[number]]
                if picture is not None:
                    row["frame"] = picture
                index["dice"].append(row)
            index["next_roll"] = roll + 1
            dice = index["dice"]
            while len(dice) > self.limit:
                oldest = dice[0]["roll"]
                for gone in [d for d in dice if d["roll"] == oldest]:
                    (self.folder / gone["file"]).unlink(missing_ok=True)
                    if "frame" in gone:
                        (self.folder / gone["frame"]).unlink(missing_ok=True)
                index["dice"] = dice = [d for d in dice if d["roll"] != oldest]
            temporary = self.folder / (INDEX_FILE + ".tmp")
            temporary.write_text(json.dumps(index))
            os.replace(temporary, self.folder / INDEX_FILE)
            return roll

    def load(self) -> list[Example]:
        """Every kept example whose crop can still be read."""
        with self._lock:
            found = []
            for row in self._index()["dice"]:
                crop = cv2.imread(str(self.folder / row["file"]))
                if crop is not None and 1 <= int(row["value"]) <= 6:
                    found.append(Example(crop, int(row["value"]), int(row["roll"])))
            return found


class BackgroundSaver:
    """Hands confirmed rolls to the disk on its own thread (a bounded queue: if the card
    is so slow that it fills, a roll is dropped rather than the table made to wait)."""

    def __init__(self, store: ExampleStore) -> None:
        self.store = store
        self._queue: queue.Queue[Job | None] = queue.Queue(maxsize=32)
        self._thread = threading.Thread(target=self._run, name="dice-examples", daemon=True)
        self._thread.start()

    def submit(
        self,
        crops: Sequence[Image],
        values: Sequence[int],
        boxes: Sequence[Box] | None = None,
        frame: Image | None = None,
    ) -> bool:
        try:
            self._queue.put_nowait((list(crops), list(values), boxes, frame))
        except queue.Full:
            return False
        return True

    def _run(self) -> None:
        while (job := self._queue.get()) is not None:
            try:
                self.store.add_roll(*job)
            except Exception:  # a full card must never stop the camera
                log.exception("dice examples: a confirmed roll could not be saved")
            finally:
                self._queue.task_done()
        self._queue.task_done()

    def flush(self) -> None:
        """Wait until every submitted roll is written (tests, shutdown)."""
        self._queue.join()

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=5)


def align(read: Sequence[int | None], confirmed: Sequence[int]) -> list[int] | None:
    """The confirmed value of each read die, or None when it cannot be told which is which.

    A person types a roll in any order, so the typed values are matched to the dice the
    camera read: a die whose read value was typed keeps it; the dice left over take the
    values left over, but only when that is unambiguous (one value left, or all equal),
    and never when a value read on several dice was typed fewer times (which one was wrong?).
    """
    if len(read) != len(confirmed):
        return None
    want = Counter(confirmed)
    seen = Counter(v for v in read if v is not None)
    for value, count in seen.items():
        if count > want[value] > 0:
            return None
    left = want - Counter({v: min(c, want[v]) for v, c in seen.items()})
    if len(left) > 1:
        return None
    filler = next(iter(left), None)
    matched: list[int] = []
    for die in read:
        if die is not None and want[die] > 0 and seen[die] <= want[die]:
            matched.append(die)
        elif filler is None:
            return None
        else:
            matched.append(filler)
    return matched if Counter(matched) == Counter(confirmed) else None


@dataclass(frozen=True)
class TaughtHead:
    """A softmax over faces 1-6: the shipped close-up's own face logits plus a correction
    learned from this table's confirmed dice, on standardised close-up features.

    The correction starts at zero and is kept small (L2), so a head taught on a few rolls
    reads like the shipped model wherever those rolls say nothing, and differs only where
    this table's dice showed it wrong. A head fitted from scratch on 20 rolls of two dice
    forgot faces those rolls rarely showed: on a real set it read fewer dice right than
    the shipped model did (``bench/teach_photos.py``). Heads saved before the correction
    existed (``anchored`` False) are read as they were fitted.

    ``model`` is the fingerprint of the close-up classifiers it was taught on
    (:func:`model_fingerprint`): their features mean nothing to a head taught on others,
    so after an update that retrained them the head is set aside (:func:`head_for`).
    Heads saved before fingerprints existed have "" and are used as before.

    ``not_die`` (weights per feature, then a bias) corrects the shipped close-up's "not a
    die" share the same way, when this table's fixed pictures showed it vetoing its dice
    (companion/vision/teach_not_dice.py); None keeps the shipped share.
    """

    mean: NDArray[np.float64]
    scale: NDArray[np.float64]
    weights: NDArray[np.float64]  # features x 6
    bias: NDArray[np.float64]  # 6
    anchored: bool = True
    model: str = ""
    not_die: NDArray[np.float64] | None = None  # features + 1

    def not_a_die(
        self, features: NDArray[np.float64], shipped: NDArray[np.float64], turns: int = 1
    ) -> NDArray[np.float64]:
        """P(not a die) per close-up, one column: the shipped close-up's for the crop as
        cut, or with ``not_die`` its correction over each close-up's ``turns`` (rows in
        groups of quarter turns, as in :func:`turned_together`)."""
        if self.not_die is None:
            return shipped[::turns, :1].copy()
        logits = not_die_logits(shipped) + self.standard(features) @ self.not_die[:-1]
        mean = logits.reshape(-1, turns).mean(axis=1) + self.not_die[-1]
        result: NDArray[np.float64] = 1.0 / (1.0 + np.exp(-mean[:, None]))
        return result

    def standard(self, features: NDArray[np.float64]) -> NDArray[np.float64]:
        """Features as this head reads them: standardised by those it was fitted on."""
        result: NDArray[np.float64] = (features - self.mean) / self.scale
        return result

    def probabilities(
        self, features: NDArray[np.float64], shipped: NDArray[np.float64]
    ) -> NDArray[np.float64]:
        """P(face 1..6) per close-up; ``shipped`` is the shipped close-up's P(not a die,
        1..6) for the same crops (what an anchored head corrects)."""
        logits = self.standard(features) @ self.weights + self.bias
        if self.anchored:
            logits = logits + shipped_face_logits(shipped)
        exp = np.exp(logits - logits.max(axis=1, keepdims=True))
        result: NDArray[np.float64] = exp / exp.sum(axis=1, keepdims=True)
        return result

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp.npz")
        arrays: dict[str, Any] = {
            "mean": self.mean,
            "scale": self.scale,
            "weights": self.weights,
            "bias": self.bias,
            "anchored": np.array(self.anchored),
            "model": np.array(self.model),
        }
        if self.not_die is not None:
            arrays["not_die"] = self.not_die
        np.savez(temporary, **arrays)
        os.replace(temporary, path)


def not_die_logits(shipped: NDArray[np.float64]) -> NDArray[np.float64]:
    """Log-odds of "not a die" as the shipped close-up classifiers read each crop."""
    share = np.clip(shipped[:, 0], 1e-9, 1.0 - 1e-9)
    result: NDArray[np.float64] = np.log(share / (1.0 - share))
    return result


def shipped_face_logits(shipped: NDArray[np.float64]) -> NDArray[np.float64]:
    """Log-probabilities of faces 1-6 as the shipped close-up classifiers read them
    (``shipped`` is their P(not a die, 1..6)), given that it is a die."""
    faces = np.clip(shipped[:, 1:], 1e-12, 1.0)
    result: NDArray[np.float64] = np.log(faces / faces.sum(axis=1, keepdims=True))
    return result


def load_head(path: Path) -> TaughtHead | None:
    """The taught head in ``path``, or None when there is none (or it cannot be read)."""
    try:
        with np.load(path) as saved:
            anchored = bool(saved["anchored"]) if "anchored" in saved.files else False
            model = str(saved["model"]) if "model" in saved.files else ""
            not_die = saved["not_die"] if "not_die" in saved.files else None
            return TaughtHead(
                saved["mean"],
                saved["scale"],
                saved["weights"],
                saved["bias"],
                anchored,
                model,
                not_die,
            )
    except (OSError, KeyError, ValueError):
        return None


STALE_HEAD = (
    "The dice reader was updated since this table's dice were taught, so what it learned "
    "is set aside: press Teach in the calibration panel (or run 'companion dice teach') "
    "again; the confirmed rolls are kept."
)


def head_for(path: Path, model: str) -> tuple[TaughtHead | None, str | None]:
    """The taught head in ``path`` if it was taught on the close-up classifiers with
    fingerprint ``model``, and a sentence for the player when one was set aside."""
    head = load_head(path)
    if head is not None and head.model and head.model != model:
        return None, STALE_HEAD
    return head, None


def save_detect(path: Path, detect: float, model: str) -> None:
    """Keep this table's first-look threshold, with the models it was learned on."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps({"detect": detect, "model": model}))
    os.replace(temporary, path)


def load_detect(path: Path, model: str) -> float | None:
    """This table's first-look threshold, or None when there is none learned on ``model``."""
    try:
        saved = json.loads(path.read_text())
        detect = float(saved["detect"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return detect if saved.get("model") == model and 0.0 < detect <= 1.0 else None


def model_fingerprint(paths: Sequence[Path]) -> str:
    """A short digest of the close-up classifier files, to tell a head which it was
    taught on (a retrained model has the same layers and a different meaning)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def fit_head(
    features: NDArray[np.float64], values: NDArray[np.int64], shipped: NDArray[np.float64]
) -> TaughtHead:
    """Multinomial logistic regression (full-batch gradient descent, L2) in numpy, fitting
    the correction to the shipped close-up's reading (``shipped``: its P(not a die, 1..6)
    per crop; see :class:`TaughtHead`)."""
    mean = features.mean(axis=0)
    scale = features.std(axis=0) + 1e-6
    x = (features - mean) / scale
    base = shipped_face_logits(shipped)
    target = np.eye(6)[values - 1]
    weights = np.zeros((x.shape[1], 6))
    bias = np.zeros(6)
    for _ in range(STEPS):
        logits = base + x @ weights + bias
        exp = np.exp(logits - logits.max(axis=1, keepdims=True))
        error = exp / exp.sum(axis=1, keepdims=True) - target
        weights -= RATE * (x.T @ error / len(x) + L2 * weights)
        bias -= RATE * error.mean(axis=0)
    return TaughtHead(mean, scale, weights, bias)


def jittered(
    crop: Image,
    rng: np.random.Generator,
    shift: float = SHIFT,
    zoom: tuple[float, float] = ZOOM,
) -> Image:
    """The crop as another roll of the same die might show it: turned by any angle, shifted
    and scaled a little (the finder's centre and size are not exact), lit brighter or
    darker, sometimes a little out of focus."""
    size = crop.shape[0]
    centre = (size / 2 + rng.uniform(-shift, shift), size / 2 + rng.uniform(-shift, shift))
    matrix = cv2.getRotationMatrix2D(centre, rng.uniform(0.0, 360.0), rng.uniform(*zoom))
    matrix[0, 2] += size / 2 - centre[0]
    matrix[1, 2] += size / 2 - centre[1]
    moved = cv2.warpAffine(
        crop, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    lit: Image = moved.astype(np.float32) * rng.uniform(*GAIN) + rng.uniform(-LIFT, LIFT)
    if rng.random() < BLURRED:
        lit = cv2.GaussianBlur(lit, (3, 3), rng.uniform(0.5, 1.0))
    result: Image = np.clip(lit, 0, 255).astype(np.uint8)
    return result


def augmented(examples: Sequence[Example]) -> tuple[list[Image], list[int]]:
    """Each crop in its TURNS right-angle turns, as stored first: a die's value does not
    depend on how it lies."""
    crops: list[Image] = []
    values: list[int] = []
    for example in examples:
        crop = example.crop
        for _ in range(TURNS):
            crops.append(crop)
            values.append(example.value)
            crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
    return crops, values


@dataclass(frozen=True)
class TeachReport:
    """What teaching measured, on which examples."""

    rolls: int
    dice: int
    before: float  # share of the confirmed dice the shipped close-up read right
    after: float  # share read right by a head fitted on the other parts' rolls
    accepted: float  # share of held-out dice that head was sure enough of to apply unasked
    accepted_wrong: int  # of those, how many it read wrong
    kept: bool = True  # False: the head read the held-out dice worse, so none is used
    finder: str = ""  # what the finder learned from the fixed pictures (teach_finder)
    not_dice: str = ""  # what the veto learned from them (teach_not_dice)
    # What the pool reader (Rats' d4-d10) learned from confirmed pools (teach_pools), and
    # why the d6s were not taught when only pools were confirmed.
    pools: tuple[str, ...] = ()
    pool_figures: dict[str, Any] | None = None
    skipped: str = ""

    def lines(self) -> list[str]:
        if self.skipped:
            return [self.skipped, *self.pools]
        if not self.kept:
            last = (
                "Teaching did not read this table's held-out dice better than the shipped "
                "model, so the reader keeps the shipped model (no taught head is used); "
                "confirm more rolls, with every face shown a few times, and teach again."
            )
        else:
            last = (
                "The saved head is then refitted on all confirmed rolls; the reader uses "
                "it from now on."
            )
        return [
            f"{self.rolls} confirmed rolls ({self.dice} dice) of this table: "
            f"each roll held out once (split by roll into {HOLD_OUT} parts, each read by "
            "a head fitted on the other parts only).",
            f"Held-out dice read right from their close-ups: before {self.before:.0%} "
            f"(shipped model), after {self.after:.0%} (taught without them); "
            f"{self.accepted:.0%} sure enough to apply without asking, "
            f"{self.accepted_wrong} of them wrong.",
            *([self.not_dice] if self.not_dice else []),
            *([self.finder] if self.finder else []),
            last,
            *self.pools,
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "rolls": self.rolls,
            "dice": self.dice,
            "parts": HOLD_OUT,
            "before": round(self.before, 3),
            "after": round(self.after, 3),
            "accepted": round(self.accepted, 3),
            "accepted_wrong": self.accepted_wrong,
            "kept": self.kept,
            **({"pools": self.pool_figures} if self.pool_figures is not None else {}),
            "lines": self.lines(),
        }


NO_EXAMPLES = (
    "No confirmed rolls yet: roll your dice under the camera a few times, confirm each roll "
    "on the tablet (READ, or type the right values), then teach."
)


def teach_head(reader: Any, data_dir: Path) -> TeachReport:
    """Fit, measure and save the taught head for the examples in ``data_dir`` (the finder
    is taught beside it by :func:`companion.vision.teaching.teach`).

    ``reader`` is a :class:`companion.vision.dice.DiceReader` (``face_readings``); the
    head it should use from now on is set on it.
    """
    examples = ExampleStore(data_dir / EXAMPLES_DIR).load()
    rolls = sorted({e.roll for e in examples})
    if not rolls:
        raise TeachError(NO_EXAMPLES)
    if len(rolls) < MIN_ROLLS:
        raise TeachError(
            f"Only {len(rolls)} confirmed rolls so far: confirm at least {MIN_ROLLS} rolls "
            "on the tablet, then teach."
        )
    turned, fit = readings(reader, examples)
    truth = turned.values[::TURNS]
    before = float(np.mean(np.argmax(turned.shipped[::TURNS, 1:], axis=1) + 1 == truth))
    # Each roll is read once by a head fitted without it (HOLD_OUT parts, by roll), so
    # every confirmed die counts in the comparison and none is read by a head it taught.
    values = np.zeros(len(examples), np.int64)
    confidence = np.zeros(len(examples), np.float64)
    for part in range(HOLD_OUT):
        held = np.isin(turned.rolls, rolls[part::HOLD_OUT])
        head = fit.fitted(~np.isin(fit.rolls, rolls[part::HOLD_OUT]))
        rows = held[::TURNS]
        values[rows], confidence[rows] = taught_reading(
            head, turned.features[held], turned.shipped[held], reader.temperature, TURNS
        )
    after = float(np.mean(values == truth))
    sure = confidence >= AUTO_ACCEPT
    # Only a head that reads the held-out rolls better than the shipped model is used: one
    # that reads them as well or worse has shown nothing to gain and can lose faces these
    # rolls rarely showed. Then the shipped model stays (and any earlier head is dropped).
    kept = after > before
    if kept:
        final = replace(fit.fitted(), model=reader.fingerprint)
        final.save(data_dir / HEAD_FILE)
        reader.head = final
    else:
        (data_dir / HEAD_FILE).unlink(missing_ok=True)
        reader.head = None
    return TeachReport(
        rolls=len(rolls),
        dice=len(examples),
        before=before,
        after=after,
        accepted=float(np.mean(sure)),
        accepted_wrong=int(np.sum(sure & (values != truth))),
        kept=kept,
    )


@dataclass(frozen=True)
class Readings:
    """The shipped classifiers' readings of close-ups (``close_up_readings``), with each
    row's confirmed value and roll."""

    shipped: NDArray[np.float64]
    features: NDArray[np.float64]
    values: NDArray[np.int64]
    rolls: NDArray[np.int64]

    def fitted(self, rows: NDArray[np.bool_] | None = None) -> TaughtHead:
        """A head fitted on ``rows`` (all when None)."""
        if rows is None:
            return fit_head(self.features, self.values, self.shipped)
        return fit_head(self.features[rows], self.values[rows], self.shipped[rows])


def readings(reader: Any, examples: Sequence[Example]) -> tuple[Readings, Readings]:
    """Every close-up read once: (its four turns, rows 4 i .. 4 i + 3 with row 4 i as it was
    stored, which the held-out parts are read from; those turns and its jittered copies,
    which heads are fitted on)."""
    crops, turned_values = augmented(examples)
    count = min(JITTERS, max(1, JITTER_BUDGET // max(1, len(examples))))
    rng = np.random.default_rng(0)  # the same examples teach the same head
    extra = [jittered(e.crop, rng) for e in examples for _ in range(count)]
    shipped, features = close_up_readings(reader, crops + extra)
    rolls = np.array([e.roll for e in examples], np.int64)
    values = np.array(turned_values + [e.value for e in examples for _ in range(count)])
    every = Readings(
        shipped,
        features,
        values.astype(np.int64),
        np.concatenate([np.repeat(rolls, TURNS), np.repeat(rolls, count)]),
    )
    n = len(crops)
    turned = Readings(shipped[:n], features[:n], every.values[:n], every.rolls[:n])
    return turned, every


def taught_reading(
    head: TaughtHead,
    features: NDArray[np.float64],
    shipped: NDArray[np.float64],
    temperature: float,
    turns: int = 1,
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Each close-up's value and confidence as the reader with ``head`` gives them, from
    the shipped classifiers' reading of it (``shipped``, ``features``; with ``turns`` > 1,
    rows in groups of each close-up's quarter turns, as cut first, as the reader reads them).

    The same sums as the reader's with a taught head: the value is the head's (the first
    look's faces do not count), and the confidence is the smaller of the head's and the
    shipped close-up's for that value (the "not a die" share and the temperature
    included), so the accepted share is the one the table would see for these dice.
    """
    cut = shipped[::turns]
    probabilities = cut.copy()
    probabilities[:, :1] = head.not_a_die(features, shipped, turns)
    faces = turned_together(head.probabilities(features, shipped), turns)
    probabilities[:, 1:] = (1.0 - probabilities[:, :1]) * faces
    best = np.argmax(probabilities[:, 1:], axis=1)
    rows = np.arange(len(cut))
    taught = _confidences(probabilities, temperature)[rows, best]
    agree = _confidences(cut, temperature)[rows, best]  # the shipped reader's
    values: NDArray[np.int64] = (best + 1).astype(np.int64)
    return values, np.asarray(np.minimum(taught, agree), np.float64)


def _confidences(probabilities: NDArray[np.float64], temperature: float) -> NDArray[np.float64]:
    """Each face's confidence from close-up probabilities alone (``dice.face_confidences``
    with no first look: a stored close-up has none)."""
    soft = temper(probabilities, temperature)
    result: NDArray[np.float64] = soft[:, 1:] / soft[:, 1:].sum(axis=1, keepdims=True)
    return result * (1.0 - soft[:, :1])


def close_up_readings(
    reader: Any, crops: list[Image]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The shipped classifiers' P(not a die, 1..6) and the features a taught head reads,
    one row per crop, in batches of BATCH (the camera reads in between)."""
    shipped, features = [], []
    for i in range(0, len(crops), BATCH):
        batch = crops[i : i + BATCH]
        probabilities, found = reader.face_readings(batch)
        shipped.append(probabilities)
        features.append(found)
    return np.vstack(shipped), np.vstack(features)
