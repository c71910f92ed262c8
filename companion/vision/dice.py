"""Read the face values of six-sided dice in an overhead camera frame.

The reader works in three stages, all plain OpenCV/numpy so it runs on a Pi 4 CPU:

1. Localise dice as "fat" blobs whose colour differs from a smooth estimate of the
   background (a heavily median-filtered thumbnail). That works for dice of any colour on
   felt, wood or cloth and ignores slow lighting gradients; thin things (tray rims,
   cables) vanish by keeping only blob cores, and blobs the size of several touching dice
   are split with k-means.
2. Classify an upright, normalised patch of each die with a small MLP (HOG of brightness
   and of the distance from the die's own face colour, so white-on-black, black-on-white,
   red-on-black and yellow-on-teal pips look alike). Class 0 rejects non-dice.
3. Cross-check with an independent pip count on the face. Only when both agree can a die
   reach AUTO_ACCEPT; a die whose best class is too uncertain is reported with
   ``value=None`` so the game asks the player instead of guessing.
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

# Dice whose confidence is at least this are accepted without asking the player. Chosen on
# 5-fold cross-validation by image (train_dice): held out, 210 of 811 dice reached it and
# none was wrong. Lower confidences still carry a best-effort value, but the app should
# ask the player to confirm them.
AUTO_ACCEPT = 0.9

# A die whose independent pip count disagrees with the classifier keeps its value but
# has its confidence scaled by this, so it can never be auto-accepted.
DISAGREE_PENALTY = 0.5

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
        # cv2.gemm, not numpy's @: a multi-threaded BLAS would spin both of the Pi's spare
        # cores for these tiny products, and OpenCV honours cv2.setNumThreads.
        z = ((features - self.mean) / self.scale).astype(np.float32)
        hidden = np.maximum(_matmul(z, self.w1) + self.b1, 0.0).astype(np.float32)
        logits = _matmul(hidden, self.w2) + self.b2
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


def _matmul(a: NDArray[np.float32], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """a @ b in single precision through OpenCV."""
    empty = np.empty((0, 0), np.float32)
    product = cv2.gemm(a, b.astype(np.float32), 1.0, empty, 0.0)
    return np.asarray(product, dtype=np.float64)


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
    patches = [
        die_patch(lab, cx, cy, blob.size, angle)
        for blob, (cx, cy, angle) in zip(blobs, poses, strict=True)
    ]
    probabilities = face_probabilities(_face_model(), patches)
    dice = []
    for blob, (cx, cy, angle), probs in zip(blobs, poses, probabilities, strict=True):
        value = int(np.argmax(probs[1:])) + 1
        if probs[0] >= probs[value]:
            continue  # the classifier says this blob is not a die (shadow, hole, clutter)
        readable = float(probs[value]) >= READABLE
        confidence = float(probs[value])
        if count_pips(lab, cx, cy, blob.size, angle) != value:
            confidence *= DISAGREE_PENALTY
        dice.append(
            Die(
                value=value if readable else None,
                centre=(cx / scale, cy / scale),
                size=blob.size / scale,
                confidence=round(confidence, 3),
            )
        )
    return dice


def face_probabilities(model: FaceModel, patches: list[FloatImage]) -> NDArray[np.float64]:
    """Class probabilities per patch, averaged over its four quarter turns.

    A die face means the same value after any quarter turn, so averaging the four views
    cancels much of the classifier's orientation noise (held out: +3 points accuracy, and
    more shadows and holes rejected) for four cheap feature extractions per die.
    """
    rows = []
    for patch in patches:
        light, distance = patch_channels(patch)  # rotation-invariant, so computed once
        for turns in range(4):
            light_turned = np.ascontiguousarray(np.rot90(light, turns))
            distance_turned = np.ascontiguousarray(np.rot90(distance, turns))
            rows.append(channel_features(light_turned, distance_turned))
    probabilities = model.probabilities(np.array(rows)).reshape(len(patches), 4, -1).mean(axis=1)
    return np.asarray(probabilities, dtype=np.float64)


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
    bg = cv2.resize(cv2.medianBlur(small, 9), (w, h), interpolation=cv2.INTER_LINEAR)
    diff = cv2.absdiff(lab, bg).astype(np.float32)
    squares = cv2.transform(cv2.multiply(diff, diff), np.ones((1, 3), np.float32))
    distance: FloatImage = np.asarray(cv2.sqrt(squares), np.float32).reshape(h, w)
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


def _outline(piece: Image) -> Image:
    """Points of the largest outer contour: minAreaRect on these is fast and exact."""
    contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return max(contours, key=len)


def _squareness(piece: Image) -> tuple[float, float]:
    """(fill of the rotated bounding box, aspect ratio) of a blob: 1.0 and 1.0 for a die."""
    (_, _), (rw, rh), _ = cv2.minAreaRect(_outline(piece))
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
    if fill > 0.8 and aspect < 1.3:
        parts = 1  # one compact square: a single (maybe large) die, never split it
    elif parts == 1 and (fill < 0.62 or aspect > 1.6) and area > 1.4 * unit:
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
    (cx, cy), _, angle = cv2.minAreaRect(_outline(blob.mask))
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


def patch_channels(patch: FloatImage) -> tuple[Image, Image]:
    """Brightness and distance-from-face-colour images of a patch, both 8-bit.

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
    return light_u8, distance_u8


def channel_features(light_u8: Image, distance_u8: Image) -> NDArray[np.float32]:
    """HOG of both channels plus an 8x8 thumbnail of the distance: the classifier input."""
    thumb = cv2.resize(distance_u8, (8, 8), interpolation=cv2.INTER_AREA).astype(np.float32)
    parts = [
        np.asarray(_HOG.compute(light_u8)).ravel(),
        np.asarray(_HOG.compute(distance_u8)).ravel(),
        thumb.ravel() / 255.0,
    ]
    return np.concatenate(parts).astype(np.float32)


def patch_features(patch: FloatImage) -> NDArray[np.float32]:
    """Classifier input for one upright patch."""
    return channel_features(*patch_channels(patch))


# --------------------------------------------------------------------------- pip count

COUNT_PATCH = 64  # pip counting wants more pixels per pip than the classifier
COUNT_SPAN = 1.5  # generous: the face is found inside the patch, not assumed
FACE_TOLERANCE = 18.0  # Lab distance still counted as face colour
PIP_CONTRAST = 25.0  # minimum Lab distance of a pip from the face colour


def count_pips(lab: Image, cx: float, cy: float, size: float, angle: float) -> int:
    """Count pips independently of the classifier, as a cross-check for confidence.

    The face is the convex hull of the largest face-coloured region; pips are blobs inside
    it whose colour is far from the face colour (any polarity) and whose area is a
    plausible share of the face. Agreement between two unrelated methods is what lets a
    reading be auto-accepted.
    """
    side = COUNT_PATCH
    scale = side / (COUNT_SPAN * size)
    matrix = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    matrix[0, 2] += side / 2 - cx
    matrix[1, 2] += side / 2 - cy
    patch = cv2.warpAffine(lab, matrix, (side, side), borderMode=cv2.BORDER_REPLICATE)
    patch = patch.astype(np.float32)
    q = side // 2 - int(0.2 * side / COUNT_SPAN)
    face = np.median(patch[q:-q, q:-q].reshape(-1, 3), axis=0)
    distance = cv2.GaussianBlur(np.sqrt(((patch - face) ** 2).sum(axis=2)), (3, 3), 0)
    face_mask = (distance < FACE_TOLERANCE).astype(np.uint8)
    face_mask = cv2.morphologyEx(face_mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(face_mask, connectivity=4)
    if count < 2:
        return 0
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    hull = cv2.convexHull(cv2.findNonZero((labels == largest).astype(np.uint8)))
    hull_mask: Image = np.zeros((side, side), np.uint8)
    cv2.fillConvexPoly(hull_mask, hull, (1,))
    hull_mask = cv2.erode(hull_mask, np.ones((3, 3), np.uint8))
    face_area = int(hull_mask.sum())
    if face_area < 30:
        return 0
    threshold = max(PIP_CONTRAST, 0.45 * float(np.percentile(distance[hull_mask > 0], 98)))
    pips = ((distance > threshold) & (hull_mask > 0)).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(pips, connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA]
    return int(((areas >= 0.004 * face_area) & (areas <= 0.09 * face_area)).sum())
