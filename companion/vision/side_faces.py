"""A side face seen beside a top face is not a second die.

A camera that looks at the table at an angle sees, below each die's top face, the side
facing it. Both networks read that side face as a die as readily as the top (it has pips;
0.91 sure on the labelled photos, up to 0.996 on photos of the same kind in issue 17), and
a roll of two dice becomes three. Geometry
tells the two apart where the networks cannot:

* the side face touches the top face of the same die, so their centres are closer than
  any two separate dice can be: two dice that do not overlap are at least one die apart
  centre to centre, while a top face and its side are about three quarters of a die apart;
* the side face is foreshortened across the edge it shares with the top face: its round
  pips show as ellipses squashed along the line joining the two centres, far more than the
  top face's own pips (a top face seen at an angle is squashed a little too).

* the side face is less lit: a room's light comes from above, so a die's top face is its
  brightest and the sides facing the camera show 70-90 % of its brightness (the oblique
  webcam photos; the drawn cubes of ``hardware/simulator/dice_oblique.py``), in the same
  colour. This holds whichever way the camera leans, and where the pips do not tell:
  past ~35 degrees of tilt a side face is no more squashed than its top (drawn cubes).

So of two finds closer than SIDE_GAP times the larger's size (a side face is sized
small), the one whose pips are squashed along the line between them to at most SQUASHED
of their width, and more than the other's, is the side face and is dropped; failing
that, the one NOT_DARKER_THAN to DARKER as bright as the other in the same colour (however
sure the reader is of it: drawn side faces were read at up to 0.96). A pair whose pips
cannot both be measured is kept: a face value that might be wrong is asked about anyway,
while a real die dropped would lose a die.

A side face is also found alone, its top never found (the networks missed it, or placed
their one find on the side): then no pair tells. The light still does: a find on a light
die with, just beyond it in some direction, a plain patch NOT_DARKER_THAN to DARKER as
bright in the same colour is a side face beside its top (``beside_a_brighter_face``). A top
face has no such neighbour: beside it lie the table, its own darker sides, or another top
as bright as itself. Patches that look like the table around the find are not a face (a
white die on a white tray: its top is as bright as the tray), and dark dice are left to
the pairs (grey beside grey tells nothing). Drawn webcam frames tipped 30-45 degrees
(development seeds 3000-3015): side faces taken for dice 17 -> 3, rolls applied wrong
8 -> 3, no top face dropped at any tilt.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

# Centre distance, in estimated die sizes, below which two finds may be one die's
# top and side faces. The five side faces read as dice in the labelled photos (webcam
# frames of the train, calibrate and pick parts; the report part had none) were 0.73-0.84
# sizes from their top face; the closest two separate dice in all 200 photos (crowded
# trays, sizes estimated) 0.81, which is why the pips must confirm it. Measured against
# the larger of the two finds' sizes, not their mean: the networks size a side face small
# (drawn cubes: 30-36 px beside a 40-53 px top); on the 200 photos that drops no die more.
SIDE_GAP = 0.9
# A face whose pips are at most this long along the line to its neighbour as across it is
# foreshortened (side faces measured 0.52-0.64; top faces seen at an angle 0.67-0.84).
SQUASHED = 0.7
# Pips are blobs of this share of the die's area (a 1's pip is the largest, ~5 %).
PIP_AREA = (0.002, 0.06)
# A pixel belongs to a pip when it differs from the face's own grey by at least this (and
# by Otsu's threshold of the crop): pips are printed to be seen.
MIN_CONTRAST = 25.0
# A face between these shares as bright as its neighbour, in the same colour, is the side
# (drawn cubes' side faces 0.70-0.84 of their top's; the labelled webcam photos ~0.8). A
# black die beside a white one is grey beside grey too, but 0.14-0.19 as bright (photos).
DARKER = 0.9
NOT_DARKER_THAN = 0.55
# Two faces are the same colour when their shares of blue, green and red differ by at
# most this (a white die beside a yellow or red one differs by over 0.1).
SAME_COLOUR = 0.05
# A lone find's own face: its window's half side in die sizes; the lighter half of its
# pixels is the body (a squashed side face is mostly pips). Faces darker than LIGHT_FACE
# (mean grey) are not judged alone: a black die's faces are all near black.
FACE_HALF = 0.25
LIGHT_FACE = 50.0
LIGHT_BODY = 0.7
# Where a lone side face's top is looked for: patches of NEIGHBOUR_HALF die sizes, in
# NEIGHBOUR_DIRECTIONS directions, NEIGHBOUR_REACH die sizes out (a side face's top is
# 0.6-1.1 of the side's find size away: the networks size a side face small).
NEIGHBOUR_DIRECTIONS = 16
NEIGHBOUR_REACH = (0.7, 1.0, 1.3)
NEIGHBOUR_HALF = 0.15
# Patches are measured on at most about this many pixels a side (every n-th pixel), and
# a lone find's own face on FACE_PIXELS (medians over a 12 MP frame's die cost ~0.5 ms).
PATCH_PIXELS = 10
FACE_PIXELS = 24
# A patch is one face, not an edge or pips, when this share of its pixels lie within
# PLAIN_GREY of its median grey.
PLAIN_SHARE = 0.6
PLAIN_GREY = 20.0
# The table around a find: a ring TABLE_RING die sizes out; a patch within TABLE_APART of
# its colour in every channel may be the table, not a face.
TABLE_RING = (2.5, 3.5)
TABLE_APART = 25.0
# A lone find and the patch beside it are one die's faces only when their colours agree
# this closely (shares of blue, green and red; a face and its side differ only in light).
ALONE_SAME_COLOUR = 0.015


def pip_squash(image: NDArray[Any], centre: tuple[float, float], size: float, axis: Any) -> float:
    """How long a face's pips are along ``axis`` (a unit vector) as across it: the median
    over pips of the ratio of their spreads; NaN when no pip can be told apart.

    Pips are the blobs inside the die whose grey differs most from the face's (median of
    its middle): dark pips on a light die and light pips on a dark one alike. Blobs that
    touch the crop's edge are the table or a neighbour, not pips.
    """
    half = max(4, round(0.6 * size))
    height, width = image.shape[:2]
    x = min(max(round(centre[0]), 0), width - 1)
    y = min(max(round(centre[1]), 0), height - 1)
    crop = _window(image, x - half, y - half, 2 * half)
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    face = float(np.median(grey[half // 2 : 3 * half // 2, half // 2 : 3 * half // 2]))
    contrast = np.clip(np.abs(grey - face), 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(contrast, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = (contrast > max(MIN_CONTRAST, float(otsu))).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    across = np.array([-axis[1], axis[0]], np.float64)
    ratios = []
    for k in range(1, count):
        left, top, width, height, area = (int(v) for v in stats[k])
        if left == 0 or top == 0 or left + width >= 2 * half or top + height >= 2 * half:
            continue
        if not PIP_AREA[0] * size * size <= area <= PIP_AREA[1] * size * size:
            continue
        ys, xs = np.nonzero(labels == k)
        points = np.stack([xs, ys], axis=1).astype(np.float64)
        points -= points.mean(axis=0)
        # A pixel is a 1x1 square: its own spread (1/12) keeps one-pixel-wide pips finite.
        along = float((points @ np.asarray(axis, np.float64)).var()) + 1 / 12
        sideways = float((points @ across).var()) + 1 / 12
        ratios.append(math.sqrt(along / sideways))
    return float(np.median(ratios)) if ratios else math.nan


def _window(image: NDArray[Any], left: int, top: int, side: int) -> NDArray[Any]:
    """The ``side``-pixel square at (left, top), edges replicated where it leaves the image.

    Only the window is padded, never the whole frame: padding a 12-megapixel photo to cut
    out one die cost ~10 ms a die.
    """
    height, width = image.shape[:2]
    x0, y0 = max(0, left), max(0, top)
    x1, y1 = min(width, left + side), min(height, top + side)
    if x0 >= x1 or y0 >= y1:
        raise ValueError("the window must overlap the image")
    part = image[y0:y1, x0:x1]
    return cv2.copyMakeBorder(
        part,
        y0 - top,
        top + side - y1,
        x0 - left,
        left + side - x1,
        cv2.BORDER_REPLICATE,
    )


def face_colour(image: NDArray[Any], centre: tuple[float, float], size: float) -> NDArray[Any]:
    """The median colour (B, G, R) of the middle half of a face: its body, pips outvoted."""
    half = max(2, round(0.25 * size))
    height, width = image.shape[:2]
    x = min(max(round(centre[0]), 0), width - 1)
    y = min(max(round(centre[1]), 0), height - 1)
    window = _window(image, x - half, y - half, 2 * half).reshape(-1, 3)
    return np.asarray(np.median(window, axis=0), np.float64)


def _darker_side(
    first: NDArray[Any], second: NDArray[Any], same: float = SAME_COLOUR
) -> int | None:
    """0 or 1: which of two face colours is a side face beside the other (NOT_DARKER_THAN
    to DARKER as bright, in colours whose shares differ by at most ``same``); None when
    neither is."""
    shares = [colour / max(float(colour.sum()), 1.0) for colour in (first, second)]
    if float(np.abs(shares[0] - shares[1]).max()) > same:
        return None
    light = (float(first.sum()), float(second.sum()))
    for side, top in ((0, 1), (1, 0)):
        if NOT_DARKER_THAN * light[top] <= light[side] <= DARKER * light[top]:
            return side
    return None


def side_faces(image: NDArray[Any], finds: Sequence[tuple[float, float, float]]) -> set[int]:
    """Indices of the finds (x, y, size in ``image`` pixels) that are side faces: of a pair,
    or alone beside a brighter face."""
    dropped = paired_side_faces(image, finds)
    for index, find in enumerate(finds):
        if index not in dropped and beside_a_brighter_face(image, find):
            dropped.add(index)
    return dropped


def paired_side_faces(image: NDArray[Any], finds: Sequence[tuple[float, float, float]]) -> set[int]:
    """Indices of the finds that are the side face of another find's top (see the module)."""
    dropped: set[int] = set()
    for i, (xi, yi, si) in enumerate(finds):
        for j in range(i + 1, len(finds)):
            xj, yj, sj = finds[j]
            gap = math.hypot(xj - xi, yj - yi)
            if gap == 0.0 or gap >= SIDE_GAP * max(si, sj):
                continue
            axis = ((xj - xi) / gap, (yj - yi) / gap)
            first = pip_squash(image, (xi, yi), si, axis)
            second = pip_squash(image, (xj, yj), sj, axis)
            if math.isnan(first) or math.isnan(second):
                continue
            darker = _darker_side(
                face_colour(image, (xi, yi), si), face_colour(image, (xj, yj), sj)
            )
            if darker is not None:
                dropped.add(i if darker == 0 else j)
            elif first <= SQUASHED and first < second:
                dropped.add(i)
            elif second <= SQUASHED and second < first:
                dropped.add(j)
    return dropped


def beside_a_brighter_face(image: NDArray[Any], find: tuple[float, float, float]) -> bool:
    """Whether a find on a light die has, just beyond it, a plain patch of the same colour
    that is not the table and that it is NOT_DARKER_THAN to DARKER as bright as: its top."""
    x, y, size = find
    try:
        patch = _patch(image, (x, y), FACE_HALF * size)
    except ValueError:
        return False
    step = max(1, patch.shape[0] // FACE_PIXELS)  # a big die's face is plain: every n-th
    window = patch[::step, ::step].reshape(-1, 3).astype(np.float64)
    grey = window.mean(axis=1)
    own = np.median(window[grey >= np.median(grey)], axis=0)
    if float(np.median(grey)) < max(LIGHT_FACE, LIGHT_BODY * float(own.mean())):
        return False
    table = table_colour(image, (x, y), size)
    colours, plain = neighbour_patches(image, (x, y), size)
    if table is not None:
        plain &= np.abs(colours - table).max(axis=1) >= TABLE_APART
    light = colours.sum(axis=1)
    shares = colours / np.maximum(light, 1.0)[:, None]
    same = np.abs(shares - own / max(float(own.sum()), 1.0)).max(axis=1) <= ALONE_SAME_COLOUR
    darker = (NOT_DARKER_THAN * light <= own.sum()) & (own.sum() <= DARKER * light)
    return bool((plain & same & darker).any())


def neighbour_patches(
    image: NDArray[Any], centre: tuple[float, float], size: float
) -> tuple[NDArray[Any], NDArray[Any]]:
    """The patches around a find where its top would be (NEIGHBOUR_DIRECTIONS times
    NEIGHBOUR_REACH): each one's mean colour over its pixels near its median grey, and
    whether it is plain (at least PLAIN_SHARE of them are: one face, not an edge or pips).

    All are cut from one window and measured at once: one by one they cost a 640x480
    frame's reading about as much again.
    """
    half = NEIGHBOUR_HALF * size
    side = max(2, round(2 * half))
    angles = 2 * math.pi * np.arange(NEIGHBOUR_DIRECTIONS) / NEIGHBOUR_DIRECTIONS
    reaches = np.asarray(NEIGHBOUR_REACH) * size
    lefts = np.round(centre[0] + np.outer(np.cos(angles), reaches).ravel() - half).astype(int)
    tops = np.round(centre[1] + np.outer(np.sin(angles), reaches).ravel() - half).astype(int)
    left, top = int(lefts.min()), int(tops.min())
    span = max(int(lefts.max()) - left, int(tops.max()) - top) + side
    region = _window(image, left, top, span)
    xs, ys = lefts - left, tops - top
    step = max(1, side // PATCH_PIXELS)  # every step-th pixel: a big die's patch is plain
    patches = np.stack(
        [region[y : y + side : step, x : x + side : step] for x, y in zip(xs, ys, strict=True)]
    ).reshape(len(lefts), -1, 3)
    pixels = patches.astype(np.float32)
    grey = pixels.mean(axis=2)
    near = np.abs(grey - np.median(grey, axis=1, keepdims=True)) < PLAIN_GREY
    counts = np.maximum(near.sum(axis=1), 1)[:, None]
    colours = np.asarray((pixels * near[..., None]).sum(axis=1) / counts, np.float64)
    height, width = image.shape[:2]
    on_image = (lefts < width) & (tops < height) & (lefts + side > 0) & (tops + side > 0)
    return colours, (near.mean(axis=1) >= PLAIN_SHARE) & on_image


def _patch(image: NDArray[Any], centre: tuple[float, float], half: float) -> NDArray[Any]:
    """The square of half side ``half`` around ``centre`` (edges replicated)."""
    side = max(2, round(2 * half))
    return _window(image, round(centre[0] - half), round(centre[1] - half), side)


def table_colour(
    image: NDArray[Any], centre: tuple[float, float], size: float
) -> NDArray[Any] | None:
    """The median colour on a ring TABLE_RING die sizes around a find, sampled at 64 points
    on each of three circles (a 12 MP photo's ring would be millions of pixels)."""
    height, width = image.shape[:2]
    angles = np.linspace(0.0, 2 * math.pi, 64, endpoint=False)
    radii = np.linspace(TABLE_RING[0], TABLE_RING[1], 3) * size
    xs = (centre[0] + np.outer(radii, np.cos(angles))).round().astype(int).ravel()
    ys = (centre[1] + np.outer(radii, np.sin(angles))).round().astype(int).ravel()
    inside = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
    if int(inside.sum()) < 20:
        return None
    return np.asarray(np.median(image[ys[inside], xs[inside]], axis=0), np.float64)
