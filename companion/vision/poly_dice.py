"""Read a pool of dice of mixed sizes from overhead (Rats rolls such pools): each die's kind
(d4, d6, d8, d10) and the face it shows.

Three steps, each simple enough to check by eye:

1. **Find**: dice stand out from the table, whose colour is taken from the frame's border;
   every blob of another colour big enough to be a die is one die (dice must not touch).
2. **Kind from the outline**: a d4 from above is a triangle, a d6 a square, a d8 a hexagon
   and a d10 an elongated kite-and-sides; the outline's fit to a triangle and to a rectangle
   and its length-to-width say which.
3. **Face**: the die is cut out, turned through 24 steps, and a small classifier (HOG features
   and a one-hidden-layer network trained on renders, training/poly_faces.py) says at which
   turn it sees an upright numeral (or pips) and which (kind, face) it is. The outline's kind
   and the classifier's must agree, and the kind must be in the pool due, or the die is not
   accepted: a person confirms it.

Measured on renders only (bench/poly_dice.py), never on photos of real dice.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]

KINDS = (4, 6, 8, 10)
CLASSES: tuple[tuple[int, int], ...] = tuple(
    (kind, face) for kind in KINDS for face in range(1, kind + 1)
)  # the network's class i + 1; class 0 is "not upright at this turn"
TURNS = 24
CROP = 48
CROP_SPAN = 3.0  # the crop's side in equal-area radii of the die
MIN_RADIUS = 7.0  # pixels: smaller blobs are specks, not dice
ACCEPT = 0.85  # a die is applied unasked only when the classifier is this sure
MODEL_PATH = Path(__file__).resolve().parent / "models" / "poly_faces.npz"


@dataclass(frozen=True)
class Blob:
    """One die found: where (pixels), how big (equal-area radius) and what its outline says."""

    centre: tuple[float, float]
    radius: float
    outline_kind: int


@dataclass(frozen=True)
class PolyDie:
    """One die read: its kind and face, how sure the reader is, and whether it is accepted."""

    centre: tuple[float, float]
    radius: float
    kind: int
    face: int
    confidence: float
    accepted: bool
    outline_kind: int = 0  # the kind the outline alone says
    seen_kind: int = 0  # the kind the classifier says among all four, pool or not


def table_colour(frame: Image) -> NDArray[np.float32]:
    """The table's colour: the median of the frame's border, where no die is whole."""
    border = np.concatenate([frame[:4].reshape(-1, 3), frame[-4:].reshape(-1, 3)])
    border = np.concatenate([border, frame[:, :4].reshape(-1, 3), frame[:, -4:].reshape(-1, 3)])
    return np.asarray(np.median(border, axis=0), np.float32)


def outline_kind(hull: NDArray[Any]) -> int:
    """The kind a die's convex outline looks like from overhead."""
    area = cv2.contourArea(hull)
    triangle_area, _ = cv2.minEnclosingTriangle(hull.reshape(-1, 1, 2).astype(np.float32))
    (_, _), (w, h), _ = cv2.minAreaRect(hull)
    if triangle_area > 0 and area / triangle_area > 0.86:
        return 4
    if w * h > 0 and area / (w * h) > 0.86:
        return 6
    return 10 if max(w, h) / max(1.0, min(w, h)) > 1.28 else 8


def find_dice(frame: Image) -> list[Blob]:
    """Every blob that stands out from the table and is big enough to be a die."""
    smooth = cv2.GaussianBlur(frame, (0, 0), 1.0).astype(np.float32)
    away = np.abs(smooth - table_colour(frame)).max(axis=2)
    level = max(35.0, float(np.percentile(away, 50)) + 25.0)
    mask = (away > level).astype(np.uint8) * 255
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel, iterations=2)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for contour in contours:
        hull = cv2.convexHull(contour)
        area = cv2.contourArea(hull)
        radius = float(np.sqrt(area / np.pi))
        if radius < MIN_RADIUS:
            continue
        moments = cv2.moments(hull)
        centre = (moments["m10"] / moments["m00"], moments["m01"] / moments["m00"])
        found.append(Blob(centre, radius, outline_kind(hull)))
    return sorted(found, key=lambda blob: (blob.centre[1], blob.centre[0]))


def grey_of(frame: Image) -> Image:
    """The frame in grey (as it is when it already is)."""
    return (
        frame if frame.ndim == 2 else np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), np.uint8)
    )


def crop(frame: Image, centre: tuple[float, float], radius: float, turn: float) -> Image:
    """The die cut out as CROP x CROP grey pixels, turned ``turn`` degrees counter-clockwise
    (``frame`` in colour or already grey: convert once when cutting many)."""
    scale = CROP / (CROP_SPAN * radius)
    matrix = cv2.getRotationMatrix2D(centre, turn, scale).astype(np.float64)
    matrix[:, 2] += np.array([CROP / 2 - centre[0], CROP / 2 - centre[1]])
    grey = grey_of(frame)
    out: Image = np.asarray(
        cv2.warpAffine(grey, matrix, (CROP, CROP), borderMode=cv2.BORDER_REPLICATE), np.uint8
    )
    return out


@functools.cache
def _hog() -> cv2.HOGDescriptor:
    return cv2.HOGDescriptor((CROP, CROP), (12, 12), (6, 6), (6, 6), 9)


def features(crops: Sequence[Image]) -> NDArray[np.float32]:
    """HOG of each crop (unsigned gradients: light numerals on dark dice read as dark on light)."""
    hog = _hog()
    return np.stack([np.asarray(hog.compute(c), np.float32).ravel() for c in crops])


@dataclass(frozen=True)
class FaceModel:
    """A one-hidden-layer network over standardised HOG features, as trained."""

    mean: NDArray[np.float32]
    scale: NDArray[np.float32]
    w1: NDArray[np.float32]
    b1: NDArray[np.float32]
    w2: NDArray[np.float32]
    b2: NDArray[np.float32]

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> FaceModel:
        if not path.exists():
            raise FileNotFoundError(
                f"No pool reader model at {path}: train it with "
                "`.venv/bin/python -m training.poly_faces`."
            )
        data = np.load(path)
        return cls(
            *(np.asarray(data[k], np.float32) for k in ("mean", "scale", "w1", "b1", "w2", "b2"))
        )

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path, mean=self.mean, scale=self.scale, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2
        )

    def probabilities(self, x: NDArray[np.float32]) -> NDArray[np.float32]:
        hidden = np.maximum(0, ((x - self.mean) / self.scale) @ self.w1 + self.b1)
        logits = hidden @ self.w2 + self.b2
        logits -= logits.max(axis=1, keepdims=True)
        odds = np.exp(logits)
        out: NDArray[np.float32] = odds / odds.sum(axis=1, keepdims=True)
        return out


@functools.cache
def shared_model() -> FaceModel:
    return FaceModel.load()


def read_blob(frame: Image, blob: Blob, model: FaceModel, kinds: Sequence[int]) -> PolyDie:
    """Read one die's face among ``kinds``; accepted only if the outline and the face agree."""
    grey = grey_of(frame)
    turns = [360.0 * step / TURNS for step in range(TURNS)]
    chances = model.probabilities(
        features([crop(grey, blob.centre, blob.radius, t) for t in turns])
    )
    best = chances[:, 1:].max(axis=0)  # each (kind, face)'s chance at its best turn
    allowed = np.array([kind in kinds for kind, _ in CLASSES])
    pick = int(np.argmax(np.where(allowed, best, -1.0)))
    kind, face = CLASSES[pick]
    overall_kind = CLASSES[int(np.argmax(best))][0]
    confidence = float(best[pick])
    agree = kind == blob.outline_kind == overall_kind
    accepted = agree and confidence >= ACCEPT
    return PolyDie(
        blob.centre, blob.radius, kind, face, confidence, accepted, blob.outline_kind, overall_kind
    )


def read_pool(
    frame: Image, pool: Sequence[int] = KINDS, model: FaceModel | None = None
) -> list[PolyDie]:
    """Every die in ``frame`` read as one of the kinds in ``pool`` (all four by default)."""
    model = model or shared_model()
    kinds = sorted(set(pool))
    grey = grey_of(frame)
    return [read_blob(grey, blob, model, kinds) for blob in find_dice(frame)]


def pool_problem(dice: Sequence[PolyDie], pool: Sequence[int]) -> str | None:
    """One sentence when what the camera sees cannot be the pool due, else None.

    A die whose outline and whose face both say it is a kind the pool does not hold is
    someone else's die (or a misread): the reading is refused rather than bent to fit.
    """
    for die in dice:
        if die.outline_kind not in pool and die.seen_kind not in pool:
            return (
                f"The camera sees a d{die.seen_kind} but the dice due are "
                f"{', '.join(f'd{k}' for k in sorted(pool))}: take other dice out of view, "
                "or type the faces."
            )
    if len(dice) != len(pool):
        return (
            f"The camera sees {len(dice)} dice but {len(pool)} are due: "
            "spread the dice so none touch, or type the faces."
        )
    if Counter(die.kind for die in dice) != Counter(pool):
        return (
            f"The camera sees {', '.join(f'd{d.kind}' for d in dice)} but the dice due are "
            f"{', '.join(f'd{k}' for k in sorted(pool))}: type the faces."
        )
    return None


@dataclass(frozen=True)
class PoolReading:
    """A pool as the camera read it: each die, or why it cannot be the pool due."""

    dice: tuple[PolyDie, ...]
    problem: str | None

    @property
    def faces(self) -> dict[int, list[int]]:
        """Faces by kind, as the pool's dice would be typed."""
        out: dict[int, list[int]] = {}
        for die in self.dice:
            out.setdefault(die.kind, []).append(die.face)
        return out

    @property
    def sure(self) -> bool:
        """Whether every die is accepted and the pool checks out."""
        return self.problem is None and all(die.accepted for die in self.dice)


def read_dice_pool(
    frame: Image, pool: Sequence[int], model: FaceModel | None = None
) -> PoolReading:
    """The pool in ``frame``: read each die among the pool's kinds, then cross-check."""
    model = model or shared_model()
    found = find_dice(frame)
    kinds = sorted(set(pool))
    grey = grey_of(frame)
    dice = tuple(read_blob(grey, blob, model, kinds) for blob in found)
    return PoolReading(dice, pool_problem(dice, pool))
