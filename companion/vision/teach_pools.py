"""Teach the pool reader (d4, d6, d8, d10) this table's own dice from confirmed Rats pools.

Like the d6 teacher (companion/vision/teach.py): every pool a person confirms (READ) or
types after the camera proposed it is a labelled example of *these* dice. Each die is kept
as a grey cut (twice the reader's resolution) turned to where its face is upright, with
its (kind, face) as the class number (``POOL_EXAMPLES_DIR``, bounded like the d6 store);
``companion dice teach`` then refits the face classifier's last layer on them, pulled
towards the shipped layer so it forgets nothing the pools did not show, and saves the whole
model as ``POOL_MODEL_FILE`` in the data folder, which the pool reader uses when present.

The figures are held out as for d6s: the pools are split by pool into HOLD_OUT parts, each
read by a layer fitted on the others, and the taught model is kept only when it reads the
held-out dice better than the shipped one.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision import poly_dice as reader
from companion.vision.teach import HOLD_OUT, MIN_ROLLS, Box, Example, ExampleStore, align

POOL_EXAMPLES_DIR = "pool-examples"
POOL_MODEL_FILE = "pool-faces.npz"
CUT = 2 * reader.CROP  # a kept die's side in pixels: the reader's crop, twice as sharp
# Each kept die is learned from in COPIES jittered upright cuts (within TILT degrees of
# upright, as the reader's 24 turns are) and as many turned well away (class 0).
COPIES = 8
# At most this many jittered cuts in one fit (each is one HOG pass, which teaching on the Pi
# waits for): a full store of pools gets fewer copies of each die, at least one.
COPY_BUDGET = 8000
TILT = 7.5
AWAY = 30.0
# The last layer's fit: Adam steps on cross-entropy plus ANCHOR x the squared distance to
# the shipped layer (a few pools must not unteach the faces they never showed). On
# bench/teach_pools.py (seeds 3, 4, 5) 0.01 forgot most (trained styles read 4 dice of 189
# wrong after), 3.0 learned least; 0.1 read the new style best with 0-1 dice forgotten.
STEPS = 300
RATE = 3e-3
ANCHOR = 0.1

Image = NDArray[np.uint8]


def cut(frame: Image, centre: tuple[float, float], radius: float, turn: float = 0.0) -> Image:
    """The die as CUT x CUT grey pixels, the reader's crop (same span) at twice its size."""
    scale = CUT / (reader.CROP_SPAN * radius)
    matrix = cv2.getRotationMatrix2D(centre, turn, scale).astype(np.float64)
    matrix[:, 2] += np.array([CUT / 2 - centre[0], CUT / 2 - centre[1]])
    out: Image = np.asarray(
        cv2.warpAffine(reader.grey_of(frame), matrix, (CUT, CUT), borderMode=cv2.BORDER_REPLICATE),
        np.uint8,
    )
    return out


def reader_crop(kept: Image, turn: float, shift: tuple[float, float] = (0.0, 0.0)) -> Image:
    """A kept cut as the reader's crop turned ``turn`` degrees (its middle ``shift``ed)."""
    middle = (CUT / 2 + shift[0], CUT / 2 + shift[1])
    matrix = cv2.getRotationMatrix2D(middle, turn, reader.CROP / CUT).astype(np.float64)
    matrix[:, 2] += np.array([reader.CROP / 2 - middle[0], reader.CROP / 2 - middle[1]])
    out: Image = np.asarray(
        cv2.warpAffine(kept, matrix, (reader.CROP, reader.CROP), borderMode=cv2.BORDER_REPLICATE),
        np.uint8,
    )
    return out


def turn_chances(model: reader.FaceModel, kept: Image, offset: float = 0.0) -> NDArray[np.float32]:
    """The classifier's chances at the reader's 24 turns (from ``offset``) of a kept cut."""
    turns = [offset + 360.0 * step / reader.TURNS for step in range(reader.TURNS)]
    return model.probabilities(reader.features([reader_crop(kept, t) for t in turns]))


def class_of(kind: int, face: int) -> int:
    """The network's class number of a (kind, face): 1 .. 28."""
    return reader.CLASSES.index((kind, face)) + 1


class PoolExampleStore(ExampleStore):
    """Confirmed pool dice: each an upright grey cut and its class (``class_of``)."""

    def __init__(self, folder: Path, model: reader.FaceModel | None = None) -> None:
        super().__init__(folder)
        self.model = model

    def add_roll(
        self,
        crops: Sequence[Any],
        values: Sequence[int],
        boxes: Sequence[Box] | None = None,
        frame: Any = None,
    ) -> int:
        """Keep one confirmed pool: ``crops`` are ``cut`` at turn 0, ``values`` classes;
        each is kept turned to where the classifier finds its confirmed class upright."""
        model = self.model or pool_model()
        upright = []
        for kept, value in zip(crops, values, strict=True):
            best = int(np.argmax(turn_chances(model, kept)[:, value]))
            turn = 360.0 * best / reader.TURNS
            upright.append(turned(kept, turn))
        return super().add_roll(upright, values, boxes, None)

    def load(self) -> list[Example]:
        """Every kept pool die whose cut can still be read (``value``: its class)."""
        with self._lock:
            found = []
            for row in self._index()["dice"]:
                kept = cv2.imread(str(self.folder / row["file"]), cv2.IMREAD_GRAYSCALE)
                if kept is not None and 1 <= int(row["value"]) <= len(reader.CLASSES):
                    found.append(Example(kept, int(row["value"]), int(row["roll"])))
            return found


def turned(kept: Image, turn: float) -> Image:
    """A kept cut turned ``turn`` degrees, same size."""
    matrix = cv2.getRotationMatrix2D((CUT / 2, CUT / 2), turn, 1.0)
    out: Image = np.asarray(
        cv2.warpAffine(kept, matrix, (CUT, CUT), borderMode=cv2.BORDER_REPLICATE), np.uint8
    )
    return out


def pool_labels(
    kinds: Sequence[int],
    read: Sequence[int],
    confirmed: Sequence[int],
    sizes: Sequence[int],
) -> list[int] | None:
    """Each read die's confirmed class, or None when it cannot be told which is which.

    ``kinds`` and ``read`` are the proposed dice; ``confirmed`` the faces a person gave,
    with their ``sizes`` (empty when they were not named: then only a READ of the same
    faces counts). Within each kind the faces are matched as d6 rolls are (:func:`align`).
    """
    if not sizes:
        sizes = kinds if tuple(confirmed) == tuple(read) else ()
    if len(sizes) != len(confirmed) or Counter(sizes) != Counter(kinds):
        return None
    faces: list[int | None] = [None] * len(kinds)
    for kind in set(kinds):
        mine = [i for i, k in enumerate(kinds) if k == kind]
        typed = [f for f, s in zip(confirmed, sizes, strict=True) if s == kind]
        matched = align([read[i] for i in mine], typed)
        if matched is None or any(not 1 <= f <= kind for f in matched):
            return None
        for i, face in zip(mine, matched, strict=True):
            faces[i] = face
    return [class_of(kind, int(face or 0)) for kind, face in zip(kinds, faces, strict=True)]


_taught: dict[str, reader.FaceModel | None] = {"model": None}
_taught_lock = threading.Lock()


def pool_model() -> reader.FaceModel:
    """The model the pool reader uses: this table's taught one when there is one."""
    with _taught_lock:
        return _taught["model"] or reader.shared_model()


def use_taught_pool_model(data_dir: Path) -> None:
    """Read pools with the model taught in ``data_dir`` when there is one (else shipped)."""
    path = data_dir / POOL_MODEL_FILE
    taught = None
    if path.exists():
        try:
            taught = reader.FaceModel.load(path)
        except (OSError, KeyError, ValueError):
            taught = None
    with _taught_lock:
        _taught["model"] = taught


def _jittered_set(
    examples: Sequence[Example], rng: np.random.Generator
) -> tuple[NDArray[np.float32], NDArray[np.int64]]:
    """Upright jittered cuts labelled by class, and cuts turned away labelled 0."""
    crops: list[Image] = []
    labels: list[int] = []
    copies = min(COPIES, max(1, COPY_BUDGET // max(1, len(examples))))
    for example in examples:
        kind = reader.CLASSES[example.value - 1][0]
        ups = {4: 3, 6: 4}.get(kind, 2)  # d8/d10: upside down kept out of the 0s too
        for _ in range(copies):
            shift = (float(rng.uniform(-1.5, 1.5)), float(rng.uniform(-1.5, 1.5)))
            gain, lift = rng.uniform(0.8, 1.2), rng.uniform(-15, 15)
            lit = np.clip(example.crop * gain + lift, 0, 255).astype(np.uint8)
            crops.append(reader_crop(lit, float(rng.uniform(-TILT, TILT)), shift))
            labels.append(example.value)
            turn = float(rng.uniform(0, 360))
            gaps = [abs((turn - 360.0 * k / ups + 180) % 360 - 180) for k in range(ups)]
            if min(gaps) > AWAY:
                crops.append(reader_crop(lit, turn, shift))
                labels.append(0)
    return reader.features(crops), np.array(labels, np.int64)


def fit_last_layer(
    model: reader.FaceModel, x: NDArray[np.float32], y: NDArray[np.int64]
) -> reader.FaceModel:
    """The model with its last layer refitted on ``x``/``y``, anchored to the shipped one."""
    hidden = np.maximum(0, ((x - model.mean) / model.scale) @ model.w1 + model.b1)
    w2, b2 = model.w2.copy(), model.b2.copy()
    target = np.eye(w2.shape[1], dtype=np.float32)[y]
    moments = [np.zeros_like(w2), np.zeros_like(w2), np.zeros_like(b2), np.zeros_like(b2)]
    for step in range(1, STEPS + 1):
        logits = hidden @ w2 + b2
        odds = np.exp(logits - logits.max(axis=1, keepdims=True))
        error = odds / odds.sum(axis=1, keepdims=True) - target
        grads = (
            hidden.T @ error / len(y) + ANCHOR * (w2 - model.w2),
            error.mean(axis=0) + ANCHOR * (b2 - model.b2),
        )
        for param, grad, m, v in ((w2, grads[0], *moments[:2]), (b2, grads[1], *moments[2:])):
            m[:] = 0.9 * m + 0.1 * grad
            v[:] = 0.999 * v + 0.001 * grad * grad
            param -= RATE * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return replace(model, w2=w2.astype(np.float32), b2=b2.astype(np.float32))


@dataclass(frozen=True)
class PoolTeachReport:
    """What teaching the pool reader measured, on held-out confirmed pools."""

    pools: int
    dice: int
    before: float  # share of held-out dice the shipped model read right
    after: float  # share read right by a last layer fitted without them
    accepted_wrong_before: int  # held-out dice the shipped model would apply unasked, wrong
    accepted_wrong_after: int
    kept: bool

    def lines(self) -> list[str]:
        last = (
            "The pool reader uses this table's taught model from now on."
            if self.kept
            else "Teaching did not read the held-out pool dice better, so the pool reader "
            "keeps the shipped model; confirm more pools and teach again."
        )
        return [
            f"{self.pools} confirmed Rats pools ({self.dice} dice): held-out dice "
            f"(kind and face) read right before {self.before:.0%}, after {self.after:.0%}; "
            f"sure enough to apply unasked and wrong: before {self.accepted_wrong_before}, "
            f"after {self.accepted_wrong_after}.",
            last,
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "pools": self.pools,
            "dice": self.dice,
            "before": round(self.before, 3),
            "after": round(self.after, 3),
            "accepted_wrong_before": self.accepted_wrong_before,
            "accepted_wrong_after": self.accepted_wrong_after,
            "kept": self.kept,
        }


def held_out_reading(model: reader.FaceModel, example: Example, offset: float) -> tuple[bool, bool]:
    """(read right, accepted) for a kept die read as the reader reads it: 24 turns from
    ``offset``, all four kinds; accepted when sure and of the confirmed kind (the outline
    check, which teaching does not change, is taken to agree)."""
    best = turn_chances(model, example.crop, offset)[:, 1:].max(axis=0)
    pick = int(np.argmax(best))
    right = pick + 1 == example.value
    same_kind = reader.CLASSES[pick][0] == reader.CLASSES[example.value - 1][0]
    return right, same_kind and float(best[pick]) >= reader.ACCEPT


def teach_pools(data_dir: Path) -> PoolTeachReport | str | None:
    """Fit, measure and (when better) save this table's pool model; None when no pool was
    ever confirmed, a sentence when too few were. The pool reader uses it from now on."""
    examples = PoolExampleStore(data_dir / POOL_EXAMPLES_DIR).load()
    rolls = sorted({e.roll for e in examples})
    if not rolls:
        return None
    if len(rolls) < MIN_ROLLS:
        return (
            f"Only {len(rolls)} confirmed Rats pools so far: confirm at least {MIN_ROLLS} "
            "pools on the tablet, then teach."
        )
    shipped = reader.shared_model()
    rng = np.random.default_rng(0)  # the same pools teach the same model
    offsets = rng.uniform(0, 360, len(examples))
    before = [held_out_reading(shipped, e, o) for e, o in zip(examples, offsets, strict=True)]
    after: list[tuple[bool, bool]] = [(False, False)] * len(examples)
    for part in range(HOLD_OUT):
        held = set(rolls[part::HOLD_OUT])
        x, y = _jittered_set([e for e in examples if e.roll not in held], rng)
        model = fit_last_layer(shipped, x, y)
        for i, example in enumerate(examples):
            if example.roll in held:
                after[i] = held_out_reading(model, example, float(offsets[i]))
    right_before = float(np.mean([r for r, _ in before]))
    right_after = float(np.mean([r for r, _ in after]))
    kept = right_after > right_before
    path = data_dir / POOL_MODEL_FILE
    if kept:
        fit_last_layer(shipped, *_jittered_set(examples, rng)).save(path)
    else:
        path.unlink(missing_ok=True)
    use_taught_pool_model(data_dir)
    return PoolTeachReport(
        pools=len(rolls),
        dice=len(examples),
        before=right_before,
        after=right_after,
        accepted_wrong_before=sum(a and not r for r, a in before),
        accepted_wrong_after=sum(a and not r for r, a in after),
        kept=kept,
    )
