"""Read the face values of six-sided dice in an overhead camera frame.

Two small convolutional networks, trained by ``make train-dice`` from the labelled
photos plus simulator frames and run by OpenCV's own ``dnn`` module (a Pi 4 needs nothing
beyond opencv and numpy):

* ``models/dice_net.onnx`` (~110 KB) looks at the whole frame once and marks, on a grid of
  8x8-pixel cells, how likely a die's centre is there, which face it shows, where exactly
  the centre is and how big the die is. Reading the whole frame at once is what copes with
  touching dice, dice of any colour and busy backgrounds: there is no separate "find the
  blob" step to get wrong.
* ``models/dice_face.onnx`` (~530 KB) takes a second look: each die cut out and scaled to
  32x32 pixels is classified as "not a die" or a face value. Small, low-contrast dice are
  read far better this way than at whatever size they have in the frame.

A die's value is the face both looks find most likely together and its confidence their
joint probability, the close-up's softened by a temperature fitted on photos the
detector never saw (``make calibrate-dice``), so that it means what it says. Below
READABLE the value is None (the player is asked), and only dice at or above AUTO_ACCEPT
are applied without asking.
"""

from __future__ import annotations

import dataclasses
import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.confidence import AUTO_ACCEPT as AUTO_ACCEPT  # the bar, where readers look
from companion.vision.confidence import temper, turned_together
from companion.vision.side_faces import side_faces
from companion.vision.teach import (
    FINDER_FILE,
    HEAD_FILE,
    TaughtHead,
    head_for,
    load_detect,
    model_fingerprint,
)

# The close-up classifier's logits are divided by this before its confidence is used
# (temperature scaling; ``judge`` keeps the value and the "not a die" veto untempered).
# Fitted by ``make calibrate-dice`` (``training.calibrate_dice``) on the "calibrate" part
# of the labelled photos (``dice_split``: the detector never saw them, but the close-up
# classifier was trained on them, so on a new table it is, if anything, still too sure):
# mean negative log-likelihood 0.143 at 1.0, 0.131 at 1.3.
FACE_TEMPERATURE = 1.3

# Below this face probability the die is reported unreadable (value None), not guessed.
READABLE = 0.5

# A cell may be a die's centre when its "die here" probability is a local maximum above
# DETECT; it is reported only if the close-up does not find "not a die" more likely than
# NOT_A_DIE. The close-up learned the whole-frame network's own false finds (keyboard
# keys, logos, tray rims), so its veto holds however sure the first look was.
DETECT = 0.5
NOT_A_DIE = 0.5
# Two finds closer than this many (estimated) die sizes are one die. The size estimate runs
# small (a median 0.76 of the true size on crowded trays), so touching dice are still at
# least ~1.3 estimated sizes apart; at 0.8 some were merged, at 0.5 some dice counted twice.
DUPLICATE_GAP = 0.65
# A find weaker than DETECT within this many sizes of a stronger one is part of that die
# (see ``folded``): the weak peaks of an unfamiliar set sit on its pips, ~0.9-1.0 of their
# (pip-sized) estimate apart, while touching dice are at least ~1.3 estimated sizes apart.
FOLD_GAP = 1.1

# Frames are reduced to about this longest side before reading (see ``_work_image``):
# dice in a board-game camera view are 25-100 px at this size, and it keeps one frame
# within ~30 ms of one core.
WORK_SIDE = 640
# A big frame may be looked at up to this much wider than WORK_SIDE when that lets it be
# shrunk by a whole factor (see ``_work_image``): 4032 px -> 672 px.
MAX_WORK_STRETCH = 1.25

# The whole-frame network finds dice best at 40-48 px (held-out photos shrunk or enlarged
# so their dice are N px, found at DETECT: 95.6 % at 28-32 px, 98 % at 40, 97.2 % at 48,
# 85.7 % at 80; ``build``-free check: ``python -m bench.vision_dice found``). So when the
# first look's dice are under SMALL pixels and the camera gave more pixels, each group of
# them is read again (``closer_regions``) so that a die is about CLOSE_SIZE pixels, never
# beyond the camera's own resolution. The first look locates dice with the lower COARSE
# threshold (at 0.2, 98 % of 28 px dice and 72 % of 16 px ones are located); each find
# opens a window REGION_MARGIN die sizes around it (dice beside it the first look missed),
# overlapping windows are one region, at most REGION_PIXELS are read in all (~2x a
# 640x480 frame), and only if FINER times finer than the first look.
# REGION_PIXELS was 1,000,000; the closer look then cost most of the p95 time (a whole
# 1280x960 frame read again at ~0.9x). On the held-out frames of the calibrate and pick
# parts (bench/dice_canvas.py) 300k-600k all found at least as many dice as 1,000,000;
# 400k and 500k each lost a die on the real 1920x1080 photos of datasets/dice-skovy
# (which so were looked at for this choice), 600k none. Report part's frames:
# ``python -m bench.vision_dice found``.
SMALL = 36.0
# A first look's find at least this big (working pixels; ~95 % found at 28 px) is as
# trustworthy as a closer look's: where both see one die the stronger is kept.
RELIABLE = 28.0
CLOSE_SIZE = 48.0
COARSE = 0.2
REGION_MARGIN = 2.0
REGION_PIXELS = 600_000
FINER = 1.25
# A closer look's find whose centre lies within this many of its sizes of a region's cut
# edge (not the frame's) may be half a die: the neighbouring region, or the first look,
# sees it whole.
EDGE_GAP = 0.5

# The network's grid: one cell per STRIDE pixels; inputs are padded to a multiple of
# PAD (its coarsest stride). Channels: die-here logit, six face logits, centre offset
# x and y within the cell, log(size / SIZE_UNIT).
STRIDE = 8
PAD = 16
CHANNELS = 10
SIZE_UNIT = 32.0

MODEL_PATH = Path(__file__).resolve().parent / "models" / "dice_net.onnx"

# The second look: each die cut out at FACE_SPAN times its size, scaled to FACE x FACE
# pixels, and classified as "not a die" or a face value (``make train-dice``).
FACE = 32
FACE_SPAN = 1.4
# The whole-frame network reads faces less well than the close-up (75 % against 95 % of
# held-out dice), so its face probabilities count with this power: it can still veto a
# close-up that is unsure, but no longer outvote one that is sure.
FRAME_WEIGHT = 0.5
# The close-up classifier (trained on crops cut where the whole-frame network puts each
# die, and on its false finds as "not a die"). A tuple, so an ensemble can be averaged.
FACE_MODEL_PATHS = (MODEL_PATH.with_name("dice_face.onnx"),)
# How many symmetric views of each close-up are read and their readings averaged
# (``views``): 1 reads the crop as cut.
FACE_VIEWS = 1
# A taught head reads each close-up in its TAUGHT_VIEWS quarter turns (it learned every
# kept crop in all four) and their readings are multiplied: on bench/teach_fixes.py's 30
# new rolls 61 -> 69 of 79 found dice read right (an idea tried on those rolls, so that
# figure is on seen data; teaching's own held-out parts agree: ``dice teach`` "after").
TAUGHT_VIEWS = 4
# The close-up classifier's layer whose output (128 pooled features) a taught head reads
# (``companion dice teach``, companion/vision/teach.py).
FEATURE_LAYER = "onnx_node!/body/body.16/Flatten"

# OpenCV hands back arrays whose dtype its stubs cannot name, so frames are typed loosely.
Image = NDArray[Any]


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
    # How sure the close-up is that this is a die at all (1 - its tempered "not a die"):
    # the shipped reader's ``confidence`` is this times how sure it is of the face (with
    # a taught head, the confidence is the lower of the two readers' instead).
    is_die: float = 1.0


def face_crop(
    image: Image,
    centre: tuple[float, float],
    size: float,
    angle: float = 0.0,
    native: bool = False,
) -> Image:
    """A die cut out upright-ish around its centre: FACE x FACE, or at its own scale.

    The crop is first taken at the die's own pixel scale and then shrunk with area
    averaging, so big dice are not aliased; ``native`` stops before the shrink (training
    changes the light and focus at that scale, as a camera would).
    """
    side = max(FACE, round(FACE_SPAN * size))
    matrix = cv2.getRotationMatrix2D(centre, angle, side / (FACE_SPAN * size))
    matrix[0, 2] += side / 2 - centre[0]
    matrix[1, 2] += side / 2 - centre[1]
    crop = cv2.warpAffine(
        image, matrix, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return crop if native else to_face_size(crop)


def to_face_size(crop: Image) -> Image:
    """Shrink a native-scale crop to FACE x FACE."""
    if crop.shape[0] == FACE and crop.shape[1] == FACE:
        return crop
    return cv2.resize(crop, (FACE, FACE), interpolation=cv2.INTER_AREA)


def views(crop: Image, count: int) -> list[Image]:
    """The crop and its symmetric views: ``count`` 1 (itself), 4 (its quarter turns) or 8
    (each also mirrored). A die shows the same value in all of them, so the classifier's
    readings of them may be averaged; the crop itself comes first."""
    turns = [np.rot90(crop, k) for k in range(1 if count == 1 else 4)]
    if count == 8:
        turns += [np.ascontiguousarray(turn[:, ::-1]) for turn in turns]
    return [np.ascontiguousarray(turn) for turn in turns]


def faces_input(crops: list[Image]) -> NDArray[np.float32]:
    """FACE x FACE BGR crops as the face classifier's Nx3xFACExFACE input."""
    blob = cv2.dnn.blobFromImages(
        crops, scalefactor=1.0 / 255.0, mean=(127.5, 127.5, 127.5), swapRB=False
    )
    return np.asarray(blob, np.float32)


def to_input(image: Image) -> NDArray[np.float32]:
    """A BGR image (height and width multiples of PAD) as the network's 1x3xHxW input."""
    blob = cv2.dnn.blobFromImage(
        image, scalefactor=1.0 / 255.0, mean=(127.5, 127.5, 127.5), swapRB=False
    )
    return np.asarray(blob, np.float32)


@dataclass(frozen=True)
class Candidate:
    """A die as the whole-frame network sees it, in working-image pixels."""

    x: float
    y: float
    size: float
    here: float  # probability that a die's centre is in this cell
    faces: NDArray[np.float64]  # the network's six face probabilities


class DiceReader:
    """Both networks loaded once; ``read`` may be called from any thread.

    cv2.dnn nets keep per-call buffers, so calls are serialised with a lock rather than
    loading one copy per thread (the Pi has memory to spare but not for nothing).
    """

    def __init__(
        self,
        model_path: Path = MODEL_PATH,
        face_paths: tuple[Path, ...] | None = None,
        temperature: float = FACE_TEMPERATURE,
        views: int = FACE_VIEWS,
    ) -> None:
        if views not in (1, 4, 8):
            raise ValueError(
                "A close-up is read in 1, 4 (its quarter turns) or 8 (also mirrored) views."
            )
        if face_paths is None:
            face_paths = tuple(model_path.with_name(p.name) for p in FACE_MODEL_PATHS)
        for path in (model_path, *face_paths):
            if not path.exists():
                raise FileNotFoundError(
                    f"The dice model {path} is missing: reinstall the companion or run "
                    "'make train-dice' to build it."
                )
        self._net = cv2.dnn.readNetFromONNX(str(model_path))
        self._faces = [cv2.dnn.readNetFromONNX(str(path)) for path in face_paths]
        #: Which close-up classifiers these are, so a taught head knows it was taught on them.
        self.fingerprint = model_fingerprint(face_paths)
        self._lock = threading.Lock()
        self.temperature = temperature
        #: How many symmetric views of each close-up are read and averaged (``views``).
        self.views = views
        #: This table's own dice, taught from confirmed rolls (``companion dice teach``):
        #: when set, it reads the face of every close-up instead of the shipped last layer.
        self.head: TaughtHead | None = None
        #: The first look's "die here" threshold: DETECT, or this table's own, learned
        #: from rolls fixed on the picture (companion/vision/teach_finder.py).
        self.detect = DETECT

    def grid(self, image: Image) -> NDArray[np.float32]:
        """The raw CHANNELS x rows x cols output for a padded BGR image."""
        with self._lock:
            self._net.setInput(to_input(image))
            out: NDArray[np.float32] = self._net.forward()[0]
        return out

    def face_probabilities(self, crops: list[Image]) -> NDArray[np.float64]:
        """P(not a die, 1, ..., 6) for each FACE x FACE crop, averaged over the shipped
        classifiers (:meth:`with_head` gives this table's taught reading of them)."""
        probabilities, _ = self._close_ups(crops, features=False)
        return probabilities

    def face_readings(self, crops: list[Image]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The shipped P(not a die, 1..6) and the features a taught head reads (the first
        classifier's pooled features and its logits), one row per crop, each classifier
        run once."""
        return self._close_ups(crops, features=True)

    def _close_ups(
        self, crops: list[Image], *, features: bool
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Every classifier run once over the crops; the first also gives its features when
        asked (a taught head reads them), from the same pass."""
        if not crops:
            return np.zeros((0, 7)), np.zeros((0, 135))
        count = len(crops)
        blob = faces_input([view for crop in crops for view in views(crop, self.views)])
        total = np.zeros((count, 7), np.float64)
        found: NDArray[np.float64] = np.zeros((count, 0))
        with self._lock:
            for index, net in enumerate(self._faces):
                net.setInput(blob)
                if index == 0 and features:
                    pooled, raw = net.forward([FEATURE_LAYER, "logits"])
                    # A taught head learned the features of the crop as it was cut.
                    upright = slice(None, None, self.views)
                    pooled = np.asarray(pooled, np.float64).reshape(len(raw), -1)
                    found = np.hstack([pooled[upright], raw[upright]])
                else:
                    raw = net.forward()
                each = _softmax(np.asarray(raw, np.float64)).reshape(count, self.views, 7)
                total += each.mean(axis=1)
        return total / len(self._faces), found

    def with_head(
        self, shipped: NDArray[np.float64], features: NDArray[np.float64], turns: int = 1
    ) -> NDArray[np.float64]:
        """The shipped P(not a die, 1..6) with the faces read by this table's taught head,
        when there is one (``shipped`` is left as it is). With ``turns`` > 1 the rows are
        each close-up's quarter turns, as cut first, and the head's readings of them are
        multiplied (see TAUGHT_VIEWS); one row per close-up comes back."""
        head = self.head
        if head is None:
            return shipped[::turns]
        result = shipped[::turns].copy()
        result[:, :1] = head.not_a_die(features, shipped, turns)  # this table's, if taught
        faces = turned_together(head.probabilities(features, shipped), turns)
        result[:, 1:] = (1.0 - result[:, :1]) * faces
        return result

    def read(self, frame: Image) -> list[Die]:
        """Every die in a BGR frame, with its value (or None) and confidence.

        The whole frame is looked at once at WORK_SIDE; when that shows the dice are small
        there and the camera gave more pixels, the region holding them is looked at again
        at up to the camera's own resolution (``find``). Each die is then cut out
        of the full-resolution frame, so the close-up sees every pixel the camera took.
        """
        if frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError("The dice reader needs a colour (BGR) frame.")
        candidates = self.find(frame)
        if not candidates:
            return []
        crops = [face_crop(frame, (c.x, c.y), c.size) for c in candidates]
        head = self.head
        if head is None:
            shipped = taught = self.face_probabilities(crops)
        else:
            turned = [view for crop in crops for view in views(crop, TAUGHT_VIEWS)]
            every, features = self.face_readings(turned)
            shipped = every[::TAUGHT_VIEWS]
            taught = self.with_head(every, features, TAUGHT_VIEWS)
        kept = []
        for candidate, faces, plain in zip(candidates, taught, shipped, strict=True):
            if head is None:
                die = judge(candidate, faces, 1.0, self.temperature, FRAME_WEIGHT)
            else:
                # A taught head knows this table's dice better than the first look does,
                # so it alone says which face shows; but a die is applied without asking
                # only when the shipped reader is sure of that face too (a head taught
                # on a few rolls can be sure and wrong).
                die = judge(candidate, faces, 1.0, self.temperature, 0.0)
                if die is not None and die.value is not None:
                    agree = face_confidences(candidate, plain, self.temperature, FRAME_WEIGHT)
                    sure = min(die.confidence, float(agree[die.value - 1]))
                    die = dataclasses.replace(die, confidence=round(sure, 3))
            if die is not None:
                kept.append((candidate, die))
        sides = side_faces(frame, [(c.x, c.y, c.size) for c, _ in kept])
        return [die for index, (_, die) in enumerate(kept) if index not in sides]

    def find(self, frame: Image) -> list[Candidate]:
        """Where the dice are, in frame pixels: the first look at WORK_SIDE, then, where
        its dice are too small there, a closer look at each group of them
        (``closer_regions``). Both looks' finds are pooled and a die seen twice is one
        (``distinct``): on 12 MP frames with 25-40 px dice at the first look, the closer
        look alone found 96.4 % of the dice, pooled with the first look 98.6 %
        (``python -m bench.vision_dice found``)."""
        work, scale = _work_image(frame)
        grid = self.grid(work)
        found = find_candidates(grid, work.shape[:2], self.detect)
        first = [_rescaled(c, scale) for c in folded(found)]
        regions = closer_regions(frame, scale, find_candidates(grid, work.shape[:2], COARSE))
        if not regions:
            return first
        closer = [find for region in regions for find in self._read_region(frame, region)]
        # A die the first look saw well enough competes with the closer look's on strength;
        # one it saw too small yields to the closer look's wherever that found one.
        sound = [c for c in first if c.size * scale >= RELIABLE]
        faint = [c for c in first if c.size * scale < RELIABLE]
        return distinct(closer + sound, faint)

    def _read_region(self, frame: Image, region: Region) -> list[Candidate]:
        """The whole-frame network's finds in one region, in frame pixels, without those
        that may be a die cut in half by the region's edge."""
        left, top, right, bottom = region.box
        size = (round((right - left) * region.zoom), round((bottom - top) * region.zoom))
        image = shrunk(frame[top:bottom, left:right], size)
        finds = find_candidates(self.grid(_padded(image)), image.shape[:2])
        placed = [
            dataclasses.replace(c, x=left + c.x, y=top + c.y)
            for c in (_rescaled(c, region.zoom) for c in finds)
        ]
        height, width = frame.shape[:2]
        return [c for c in placed if not region.cuts(c, width, height)]


@dataclass(frozen=True)
class Region:
    """Where a second, closer look goes: a box (left, top, right, bottom) in frame pixels
    and the zoom (frame pixels to looked-at pixels, at most 1: never beyond the camera's)."""

    box: tuple[int, int, int, int]
    zoom: float

    def holds(self, x: float, y: float) -> bool:
        left, top, right, bottom = self.box
        return left <= x < right and top <= y < bottom

    def cuts(self, find: Candidate, width: int, height: int) -> bool:
        """Whether ``find`` lies so near one of the box's edges inside the frame that it
        may be only part of a die."""
        left, top, right, bottom = self.box
        gap = EDGE_GAP * find.size
        return (
            (left > 0 and find.x - left < gap)
            or (top > 0 and find.y - top < gap)
            or (right < width and right - find.x < gap)
            or (bottom < height and bottom - find.y < gap)
        )


def closer_regions(frame: Image, scale: float, coarse: list[Candidate]) -> list[Region]:
    """The regions to read again at a finer scale; none when the first look suffices.

    ``coarse`` are the first look's finds (at a low threshold, so that dice too small to
    read are still located; working-image pixels). Each opens a window REGION_MARGIN die
    sizes around it; overlapping windows merge into one region (so dice spread over a big
    table cost only the pixels around them, and a group is read in one piece). All are
    looked at so a typical die is about CLOSE_SIZE pixels, never above the camera's
    resolution and within REGION_PIXELS together. None when the dice are not SMALL in the
    first look, or when the closer look would be hardly finer.
    """
    if not coarse or scale >= 1.0:
        return []
    sizes = sorted(c.size / scale for c in coarse)
    typical = sizes[len(sizes) // 2]
    if typical * scale >= SMALL:
        return []
    height, width = frame.shape[:2]
    half = (0.5 + REGION_MARGIN) * sizes[-1]
    boxes = merged_boxes([(c.x / scale, c.y / scale, half) for c in coarse], width, height)
    area = sum((right - left) * (bottom - top) for left, top, right, bottom in boxes)
    zoom = min(1.0, CLOSE_SIZE / typical, math.sqrt(REGION_PIXELS / area))
    if zoom < FINER * scale:
        return []
    return [Region(box, zoom) for box in boxes]


def merged_boxes(
    windows: list[tuple[float, float, float]], width: int, height: int
) -> list[tuple[int, int, int, int]]:
    """Square windows (centre x, centre y, half side) clipped to the frame, with any that
    overlap merged into their bounding box until none overlap."""
    boxes = [
        (
            max(0, int(x - half)),
            max(0, int(y - half)),
            min(width, int(x + half) + 1),
            min(height, int(y + half) + 1),
        )
        for x, y, half in windows
    ]
    done = False
    while not done:
        done = True
        pairs = ((i, j) for i in range(len(boxes)) for j in range(i + 1, len(boxes)))
        for first, second in pairs:
            a, b = boxes[first], boxes[second]
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                boxes[first] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                del boxes[second]
                done = False
                break
    return boxes


def shrunk(image: Image, size: tuple[int, int]) -> Image:
    """``image`` area-averaged to ``size`` (width, height), no larger than it is.

    A shrink by a whole factor k is first done over k x k blocks, which OpenCV does several
    times faster than averaging by fractional weights; the small fractional rest follows.
    """
    height, width = image.shape[:2]
    if size[0] >= width:
        return image
    factor = width // size[0]
    if factor >= 2:
        blocks = (width // factor, height // factor)
        image = cv2.resize(
            image[: blocks[1] * factor, : blocks[0] * factor], blocks, interpolation=cv2.INTER_AREA
        )
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def distinct(finds: list[Candidate], fallback: Sequence[Candidate] = ()) -> list[Candidate]:
    """The finds, strongest first, without any within DUPLICATE_GAP sizes of a stronger
    one (one die seen by two overlapping looks); then those of ``fallback`` (a coarser
    look's) that lie near none of them, so a die seen at both scales is read as the finer
    look placed and sized it."""
    kept: list[Candidate] = []
    for group in (finds, fallback):
        chosen: list[Candidate] = []
        for find in sorted(group, key=lambda c: -c.here):
            if all(
                math.hypot(find.x - k.x, find.y - k.y) >= DUPLICATE_GAP * max(find.size, k.size)
                for k in kept + chosen
            ):
                chosen.append(find)
        kept += chosen
    return kept


def folded(finds: list[Candidate]) -> list[Candidate]:
    """The finds (strongest first) with each one weaker than DETECT that lies within
    FOLD_GAP sizes of a stronger find folded into it.

    Why: a table's taught finder may look below the shipped DETECT (``teach_finder``), and
    there an unfamiliar die can light up as several weak peaks, one on each pip, each
    sized like a pip and so too far apart for DUPLICATE_GAP (drawn odd set, fixed rolls
    of seed 6: one four showed three peaks at 0.35-0.49, 31-39 px apart, sizes 29-45 px,
    on a 60 px die). Kept apart they are a die counted two or three times, each read from
    a pip's close-up, and the learner rightly refuses the lower threshold. A weak find is
    folded into the stronger find it lies near: one at DETECT or above keeps its place and
    size (the shipped look placed it); a weak one grows to the bounding box of the peaks
    folded into it, which is then the die (its pips spread over its face). Finds at DETECT
    or above are never folded, so the shipped reading is unchanged.
    """
    groups: list[list[Candidate]] = []
    for find in finds:
        home = None
        if find.here < DETECT:
            home = next(
                (
                    group
                    for group in groups
                    if any(
                        math.hypot(find.x - c.x, find.y - c.y) < FOLD_GAP * max(find.size, c.size)
                        for c in group
                    )
                ),
                None,
            )
        if home is None:
            groups.append([find])
        elif home[0].here < DETECT:
            home.append(find)
    return [_spanned(group) for group in groups]


def _spanned(group: list[Candidate]) -> Candidate:
    """The group's first (strongest) find, placed and sized as the bounding box of all."""
    head = group[0]
    if len(group) == 1:
        return head
    left = min(c.x - c.size / 2 for c in group)
    right = max(c.x + c.size / 2 for c in group)
    top = min(c.y - c.size / 2 for c in group)
    bottom = max(c.y + c.size / 2 for c in group)
    size = max(head.size, min(right - left, bottom - top))
    return dataclasses.replace(head, x=(left + right) / 2, y=(top + bottom) / 2, size=size)


def _rescaled(candidate: Candidate, scale: float) -> Candidate:
    """A find in pixels of an image ``scale`` times the frame, in frame pixels."""
    return dataclasses.replace(
        candidate, x=candidate.x / scale, y=candidate.y / scale, size=candidate.size / scale
    )


def judge(
    candidate: Candidate,
    second: NDArray[np.float64],
    scale: float,
    temperature: float = FACE_TEMPERATURE,
    frame_weight: float = FRAME_WEIGHT,
) -> Die | None:
    """One die from both looks, or None when the close-up says it is not a die.

    The value is the face both looks find most likely together (product of their
    probabilities, the whole frame's tempered by FRAME_WEIGHT); the confidence is that
    joint probability, so a die is sure only when the whole-frame network and the close-up
    agree. The close-up's probabilities are softened by the fitted ``temperature`` for the
    confidence only: what is found and what is read are those the models were tuned with,
    and calibration changes nothing but how sure the reader says it is.
    """
    not_a_die = float(second[0])
    if not_a_die > NOT_A_DIE:
        return None
    joint = candidate.faces**frame_weight * second[1:]
    total = float(joint.sum())
    if total <= 0.0:
        return None
    best = int(np.argmax(joint))
    readable = float(joint[best]) / total * (1.0 - not_a_die) >= READABLE
    confidence = float(face_confidences(candidate, second, temperature, frame_weight)[best])
    return Die(
        value=best + 1 if readable else None,
        centre=(candidate.x / scale, candidate.y / scale),
        size=candidate.size / scale,
        confidence=round(confidence, 3),
        is_die=round(1.0 - float(temper(second, temperature)[0]), 3),
    )


def face_confidences(
    candidate: Candidate,
    second: NDArray[np.float64],
    temperature: float = FACE_TEMPERATURE,
    frame_weight: float = FRAME_WEIGHT,
) -> NDArray[np.float64]:
    """How sure the reader is of each face 1-6 (the confidence :func:`judge` gives the
    face it reads): both looks' joint probability with the close-up tempered, times the
    close-up's share for "a die"."""
    soft = temper(second, temperature)
    calibrated = candidate.faces**frame_weight * soft[1:]
    result: NDArray[np.float64] = calibrated / calibrated.sum() * (1.0 - float(soft[0]))
    return result


def _work_image(frame: Image) -> tuple[Image, float]:
    """The frame at working size, padded (by edge replication) to a multiple of PAD.

    A frame several times WORK_SIDE is averaged over whole k x k blocks (k = how many
    times WORK_SIDE fits in its long side), which OpenCV does several times faster than
    averaging by fractional weights: a 4032x3024 photo becomes 672x504 in well under half
    the time a direct shrink to 640x480 takes, and its dice come out a little larger.
    """
    side = max(frame.shape[:2])
    factor = side // WORK_SIDE
    if factor >= 2 and side / factor <= WORK_SIDE * MAX_WORK_STRETCH:
        h, w = frame.shape[:2]
        size = (w // factor, h // factor)
        work = cv2.resize(
            frame[: size[1] * factor, : size[0] * factor], size, interpolation=cv2.INTER_AREA
        )
        return _padded(work), 1.0 / factor
    scale = min(1.0, WORK_SIDE / side)
    work = frame
    if scale < 1.0:
        size = (round(frame.shape[1] * scale), round(frame.shape[0] * scale))
        work = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    return _padded(work), scale


def _padded(image: Image) -> Image:
    """The image padded (by edge replication) on the right and bottom to a multiple of PAD."""
    h, w = image.shape[:2]
    bottom, right = -h % PAD, -w % PAD
    if bottom or right:
        image = cv2.copyMakeBorder(image, 0, bottom, 0, right, cv2.BORDER_REPLICATE)
    return image


def _softmax(logits: NDArray[np.float64]) -> NDArray[np.float64]:
    """Probabilities along the last axis (rows of logits)."""
    exp = np.exp(logits - logits.max(axis=-1, keepdims=True))
    result: NDArray[np.float64] = exp / exp.sum(axis=-1, keepdims=True)
    return result


def _sigmoid(x: NDArray[np.float32]) -> NDArray[np.float32]:
    return np.asarray(1.0 / (1.0 + np.exp(-x)), np.float32)


def find_candidates(
    grid: NDArray[np.float32], shape: tuple[int, int], threshold: float = DETECT
) -> list[Candidate]:
    """Local maxima of "die here" in the network's grid, strongest first.

    Two peaks closer than DUPLICATE_GAP sizes are one die seen twice (a big die can light
    up two neighbouring cells, a pip on its edge a third); the weaker is dropped. Peaks in
    the padding are ignored. Training asks with a lower ``threshold`` to collect
    near-misses to learn from.
    """
    here = _sigmoid(grid[0])
    peaks = (here >= threshold) & (here >= cv2.dilate(here, np.ones((3, 3), np.uint8)))
    rows, cols = np.nonzero(peaks)
    order = np.argsort(-here[rows, cols])
    height, width = shape
    found: list[Candidate] = []
    for index in order:
        i, j = int(rows[index]), int(cols[index])
        x = (j + float(grid[7, i, j])) * STRIDE
        y = (i + float(grid[8, i, j])) * STRIDE
        size = SIZE_UNIT * math.exp(float(np.clip(grid[9, i, j], -3.0, 3.0)))
        if x >= width or y >= height:
            continue
        if any(math.hypot(x - c.x, y - c.y) < DUPLICATE_GAP * max(size, c.size) for c in found):
            continue
        faces = _softmax(grid[1:7, i, j].astype(np.float64)[None])[0]
        found.append(Candidate(x, y, size, float(here[i, j]), faces))
    return found


@lru_cache(maxsize=1)
def _reader() -> DiceReader:
    """The shipped model, loaded once per process."""
    return DiceReader()


def shared_reader() -> DiceReader:
    """The reader ``read_dice`` uses (the camera's), e.g. to give it a taught head."""
    return _reader()


def use_taught_head(data_dir: Path) -> str | None:
    """Read with this table's taught head from ``data_dir`` when there is one it can use;
    a sentence for the player when the head there was taught on another model."""
    reader = _reader()
    reader.head, why = head_for(data_dir / HEAD_FILE, reader.fingerprint)
    reader.detect = load_detect(data_dir / FINDER_FILE, reader.fingerprint) or DETECT
    return why


def read_dice(frame: Image) -> list[Die]:
    """Find every die in a BGR frame and read its face value."""
    return _reader().read(frame)
