"""Read the face values of six-sided dice in an overhead camera frame.

The reader works in two stages, both plain OpenCV so it runs on a Pi 4 CPU:

1. Localise dice as compact blobs whose colour differs from a smooth estimate of the
   background (a heavily median-filtered thumbnail). That works for dice of any colour
   on felt, wood or cloth, and is immune to slow lighting gradients. Blobs the size of
   several dice (touching dice) are split with k-means on their pixels.
2. Count pips on each die as small round blobs whose colour differs from the die's own
   face colour. Using the distance from the face colour, not brightness, makes white
   pips on black dice, black on white, red on black and yellow on teal all look alike.

A die is only given a value when the pips form one of the six legal layouts; otherwise it
is reported with ``value=None`` so the game asks the player instead of guessing.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

# Dice whose confidence is at least this are accepted without asking the player. It was
# chosen on the labelled development folder so that accepted dice were essentially never
# wrong (see ``python -m companion.vision.dice_cli eval``); lower confidences still carry
# a best-effort value, but the app should ask for confirmation.
AUTO_ACCEPT = 0.98

# Below this class probability the face is reported unreadable (value None) rather than
# guessed: the most likely value is then wrong about as often as it is right.
READABLE = 0.5

# Frames are reduced to this longest side before reading: dice in a board-game camera
# view are 25-80 px at this size, plenty for pips, and it keeps a Pi 4 under ~30 ms.
WORK_SIDE = 640

# The face classifier, trained by ``python -m companion.vision.train_dice``.
MODEL_PATH = Path(__file__).resolve().parent / "models" / "dice_mlp.json"

# OpenCV hands back arrays whose dtype its stubs cannot name, so frames are typed loosely.
Image = NDArray[Any]
FloatImage = NDArray[np.float32]


@dataclass(frozen=True)
class Die:
    """One die seen in a frame.

    ``value`` is None when the die was found but its face could not be read with any
    certainty; ``centre`` and ``size`` are in pixels of the frame passed in.
    """

    value: int | None
    centre: tuple[float, float]
    size: float
    confidence: float


@dataclass(frozen=True)
class FaceModel:
    """A small MLP from patch features to P(not a die, 1, ..., 6), run in plain numpy."""

    mean: NDArray[np.float64]
    scale: NDArray[np.float64]
    w1: NDArray[np.float64]
    b1: NDArray[np.float64]
    w2: NDArray[np.float64]
    b2: NDArray[np.float64]

    def probabilities(self, features: NDArray[np.float32]) -> NDArray[np.float64]:
        """Softmax class probabilities for a batch of feature rows."""
        z = (features - self.mean) / self.scale
        hidden = np.maximum(z @ self.w1 + self.b1, 0.0)
        logits = hidden @ self.w2 + self.b2
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        result: NDArray[np.float64] = exp / exp.sum(axis=1, keepdims=True)
        return result

    def save(self, path: Path) -> None:
        """Write the weights as JSON (float32 precision is plenty)."""
        fields = ("mean", "scale", "w1", "b1", "w2", "b2")
        data = {k: np.round(getattr(self, k), 5).tolist() for k in fields}
        path.write_text(json.dumps(data, separators=(",", ":")))

    @classmethod
    def load(cls, path: Path) -> FaceModel:
        """Read weights written by ``save``."""
        data = json.loads(path.read_text())
        fields = ("mean", "scale", "w1", "b1", "w2", "b2")
        return cls(*(np.array(data[k], dtype=np.float64) for k in fields))


@dataclass(frozen=True)
class _Blob:
    """A candidate die in working-image pixels: its pixel mask inside a bounding box."""

    x: int
    y: int
    mask: Image
    size: float


def read_dice(frame: Image) -> list[Die]:
    """Find every die in a BGR frame and read its face value."""
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError("read_dice expects a BGR colour frame")
    lab, scale = work_lab(frame)
    blobs = find_die_blobs(lab)
    if not blobs:
        return []
    poses = [blob_pose(blob) for blob in blobs]
    rows = np.array(
        [
            patch_features(die_patch(lab, cx, cy, blob.size, angle))
            for blob, (cx, cy, angle) in zip(blobs, poses, strict=True)
        ]
    )
    probabilities = _face_model().probabilities(rows)
    dice = []
    for blob, (cx, cy, _), probs in zip(blobs, poses, probabilities, strict=True):
        value = int(np.argmax(probs[1:])) + 1
        if probs[0] >= probs[value]:
            continue  # the classifier says this blob is not a die (shadow, hole, clutter)
        confidence = float(probs[value])
        dice.append(
            Die(
                value=value if confidence >= READABLE else None,
                centre=(cx / scale, cy / scale),
                size=blob.size / scale,
                confidence=round(confidence, 3),
            )
        )
    return dice


@lru_cache(maxsize=1)
def _face_model() -> FaceModel:
    """The trained face classifier, loaded once per process."""
    return FaceModel.load(MODEL_PATH)


# --------------------------------------------------------------------------- localisation


def work_lab(frame: Image) -> tuple[Image, float]:
    """The frame in 8-bit Lab at working size, and the scale from frame to work pixels."""
    scale = min(1.0, WORK_SIDE / max(frame.shape[:2]))
    work = frame
    if scale < 1.0:
        size = (round(frame.shape[1] * scale), round(frame.shape[0] * scale))
        work = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(work, cv2.COLOR_BGR2LAB), scale


def background_distance(lab: Image) -> FloatImage:
    """Colour distance of every pixel from a smooth background estimate.

    The background is the median of an 8x thumbnail over a 9-pixel window (~72 px in the
    frame), wide enough that a die never dominates it, so dice stand out whatever their
    colour while gradual light falloff and table texture do not.
    """
    h, w = lab.shape[:2]
    small = cv2.resize(lab, (max(1, w // 8), max(1, h // 8)), interpolation=cv2.INTER_AREA)
    bg = cv2.medianBlur(small, 9).astype(np.float32)
    bg_full = cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)
    diff = lab.astype(np.float32) - bg_full
    distance: FloatImage = np.sqrt((diff * diff).sum(axis=2)).astype(np.float32)
    return distance


def _fill_small_holes(mask: Image, max_hole: float) -> Image:
    """Fill holes (pips!) in foreground blobs, but not big enclosed areas like a tray."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return mask
    filled = mask.copy()
    for contour, info in zip(contours, hierarchy[0], strict=True):
        if info[3] >= 0 and cv2.contourArea(contour) <= max_hole:
            cv2.drawContours(filled, [contour], -1, (255,), thickness=-1)
    return filled


def find_die_blobs(lab: Image, threshold: float = 22.0) -> list[_Blob]:
    """Candidate dice: compact, square-ish foreground blobs of a consistent size."""
    distance = background_distance(lab)
    mask: Image = (distance > threshold).astype(np.uint8) * 255
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel, iterations=2)
    mask = _fill_small_holes(mask, max_hole=900.0)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel, iterations=2)
    unit = _typical_die_area(mask)
    side = math.sqrt(unit)
    # Dice are "fat": far from the mask edge. Thin bands (tray rims, cables, the edge of a
    # shadow) and the narrow necks where dice touch vanish when only cores are kept.
    inside = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    cores = (inside > 0.22 * side).astype(np.uint8) * 255
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cores, connectivity=8)
    grow = max(1, round(0.3 * side))
    pad = grow + 1
    blobs: list[_Blob] = []
    for index in range(1, count):
        x, y, w, h, _ = (int(v) for v in stats[index])
        if max(w, h) > 6 * side:
            continue
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(mask.shape[1], x + w + pad), min(mask.shape[0], y + h + pad)
        core = (labels[y0:y1, x0:x1] == index).astype(np.uint8) * 255
        kernel_size = 2 * grow + 1
        grown = cv2.dilate(core, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kernel_size,) * 2))
        piece = cv2.bitwise_and(grown, mask[y0:y1, x0:x1])
        piece_area = float(cv2.countNonZero(piece))
        if piece_area < 0.3 * unit or piece_area > 12 * unit:
            continue
        blobs.extend(_split_touching(x0, y0, piece, piece_area, unit))
    return [b for b in blobs if _looks_like_die(b)]


def _squareness(piece: Image) -> tuple[float, float]:
    """(fill of the rotated bounding box, aspect ratio) of a blob: 1.0 and 1.0 for a die."""
    points = cv2.findNonZero(piece)
    (_, _), (rw, rh), _ = cv2.minAreaRect(points)
    if rw < 1 or rh < 1:
        return 0.0, 99.0
    return float(cv2.countNonZero(piece)) / (rw * rh), max(rw, rh) / min(rw, rh)


def _typical_die_area(mask: Image) -> float:
    """Median area of the blobs that look like single dice, to know how many touch."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    single = []
    for index in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[index])
        if area < 250 or area > 20000 or max(w, h) > 2 * min(w, h):
            continue
        fill, aspect = _squareness((labels[y : y + h, x : x + w] == index).astype(np.uint8))
        if fill > 0.7 and aspect < 1.35:
            single.append(area)
    return float(np.median(single)) if single else 1200.0


def _split_touching(x: int, y: int, piece: Image, area: float, unit: float) -> list[_Blob]:
    """Split a blob of several touching dice into one blob per die with k-means."""
    parts = max(1, round(area / unit))
    fill, aspect = _squareness(piece)
    if parts == 1 and (fill < 0.62 or aspect > 1.6) and area > 1.4 * unit:
        parts = 2
    if parts == 1:
        return [_Blob(x, y, piece, math.sqrt(area))]
    parts = min(parts, 8)
    ys, xs = np.nonzero(piece)
    points = np.stack([xs, ys], axis=1).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(7)
    _, assign, _ = cv2.kmeans(
        points, parts, np.zeros((len(points), 1), np.int32), criteria, 3, cv2.KMEANS_PP_CENTERS
    )
    blobs = []
    for part in range(parts):
        chosen = assign.ravel() == part
        sub = np.zeros_like(piece)
        sub[ys[chosen], xs[chosen]] = 255
        blobs.append(_Blob(x, y, sub, math.sqrt(float(chosen.sum()))))
    return blobs


def _looks_like_die(blob: _Blob) -> bool:
    """Reject table edges, cables and hands: dice are compact and nearly square."""
    fill, aspect = _squareness(blob.mask)
    return fill > 0.55 and aspect < 1.8 and blob.size >= 16


# --------------------------------------------------------------------------- face reading

PATCH = 32  # side of the normalised die patch the classifier sees
PATCH_SPAN = 1.25  # patch side as a multiple of the blob size: whole die plus a margin
_HOG = cv2.HOGDescriptor((PATCH, PATCH), (16, 16), (8, 8), (8, 8), 9)


def blob_pose(blob: _Blob) -> tuple[float, float, float]:
    """Centre (work px) and rotation (degrees, mod 90) of a die blob."""
    points = cv2.findNonZero(blob.mask)
    (cx, cy), _, angle = cv2.minAreaRect(points)
    return blob.x + cx, blob.y + cy, angle % 90.0


def die_patch(lab: Image, cx: float, cy: float, size: float, angle: float) -> FloatImage:
    """Rotate, scale and crop a die to an upright PATCH x PATCH Lab patch."""
    scale = PATCH / (PATCH_SPAN * size)
    matrix = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    matrix[0, 2] += PATCH / 2 - cx
    matrix[1, 2] += PATCH / 2 - cy
    patch = cv2.warpAffine(
        lab, matrix, (PATCH, PATCH), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return patch.astype(np.float32)


def patch_features(patch: FloatImage) -> NDArray[np.float32]:
    """HOG of the brightness and of the distance from the face colour, plus a thumbnail.

    The face colour is the median of the patch centre, so "differs from the face" lights up
    pips whatever the colours of die and pips, which is what makes one model fit all dice.
    """
    light = patch[:, :, 0]
    light_u8 = np.clip(128 + 2.0 * (light - light.mean()), 0, 255).astype(np.uint8)
    q = PATCH // 4
    face = np.median(patch[q:-q, q:-q].reshape(-1, 3), axis=0)
    diff = patch - face
    distance = np.sqrt((diff * diff).sum(axis=2))
    distance_u8 = np.clip(distance * 3.0, 0, 255).astype(np.uint8)
    thumb = cv2.resize(distance_u8, (8, 8), interpolation=cv2.INTER_AREA).astype(np.float32)
    parts = [
        np.asarray(_HOG.compute(light_u8)).ravel(),
        np.asarray(_HOG.compute(distance_u8)).ravel(),
        thumb.ravel() / 255.0,
    ]
    return np.concatenate(parts).astype(np.float32)
