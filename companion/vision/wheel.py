"""Watch the Hamster Wheel from above: where the upright ring stands, how far it has
rolled, and what fell out of it.

The ring stands on its edge, axle horizontal, so an overhead camera sees a *band*: the
ring's depth by its diameter, lying along the direction it rolls. Rolling moves the band
and turns the rim under the camera; a push moves the band without turning it. So the
position comes from the band's footprint, but the rotation is read from the rim itself:
a printed strip of coded markers (ArUco ids ``RIM_MARKER_IDS``, evenly spaced, rising in
the direction of building) stuck round the outer rim. Where the strip passes the top, a
marker ``k`` whose place on the rim is ``alpha_k`` lies at ``R sin(alpha_k + theta)``
along the band from the top's point; fitting ``theta`` and that point to every marker seen
gives the wheel's angle, and any shift of the whole strip (the camera a few degrees off
vertical sees the ring's top, a diameter above the table, slightly displaced) cancels out.

Everything is measured in the table plane (table units, one belt cell) after the
homography from the table's corner markers 10-13.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.tabletop import (  # the layout, shared with the simulator
    DEFAULT_DIVISIONS as DEFAULT_DIVISIONS,
)
from companion.tabletop import (
    RIM_MARKER_FILL,
    RIM_MARKER_IDS,
    TABLE_MARKER_LAYOUT,
    TABLE_SIZE,
    WHEEL_DEPTH,
    WHEEL_RADIUS,
    MarkerLayout,
)
from companion.tabletop import (
    RIM_MARKER_ID as RIM_MARKER_ID,
)
from companion.tabletop import (
    table_marker_layout as table_marker_layout,
)
from companion.vision.board import hue_distance, skin_mask, warp_plane
from companion.vision.markers import (
    MarkerCorners,
    detect_markers,
    homography_from_markers,
    marker_corners,
)
from companion.vision.room_light import (
    BLURRED,
    SOFT,
    balanced,
    blurred,
    chromaticity,
    colour_distance,
    distance_from_skin,
    paper_gains,
    sharpness,
    table_colour,
)
from companion.vision.wheel_pose import (
    CameraPose,
    RimFit,
    back_to_frame,
    camera_pose,
    fit_rim,
    unroll_strip,
)

PIXELS_PER_UNIT = 24
# Fallen pieces are ~0.5 units across; anything much smaller is noise or a piece's rim.
PIECE_AREA = 0.2
MIN_PIECE_AREA = 0.07
MIN_HAND_UNITS = 0.35
MIN_RIM_MARKERS = 2  # the fit needs two markers to tell the angle from a shift
# The rim corners may lie this far (RMS, table units: 0.15 is 7 mm) from the fitted ring;
# further, the angle is not trusted.
MAX_FIT_ERROR = 0.15
# Markers all near the top trade the angle for a shift along the band; a reading whose
# angle could be this far off (two standard errors, degrees) is not given.
MAX_UNCERTAINTY_DEG = 4.0
MAX_FALLEN = 16  # a game has 8 pieces a colour; more than 16 out at once is not a fall
MAX_BLOB_PIECES = 6  # a blob larger than this many pieces is a cup, a card or an arm
MAX_PIECE_SIDE = 1.1  # table units: a piece is at most 0.75 across, two touching 1.1
MIN_FILL = 0.4  # a piece fills at least this share of its bounding box (a triangle 0.5)
# A blob whose whole outline, before the hidden parts are cut off, is this many times its
# own area is a part of something larger.
PART_OF_MORE = 1.8
# Lab chroma distance from the free table's colour beyond which the local background of a
# blob is not cloth (a cup filling the median window); pieces on cloth measured <= 7.
NOT_CLOTH = 8.5
STANDS_OUT = 20.0  # Lab distance from the cloth around it that makes a pixel something
SKIN_STANDS_OUT = 3.0  # chromaticity distance from the cloth that makes skin a hand
RIM_STEP = 360.0 / len(RIM_MARKER_IDS)

Image = NDArray[np.uint8]
FloatImage = NDArray[np.float32]

# OpenCV hue windows of the seven coloured piece sets; white and black are found by
# brightness against the table instead, because they have no hue.
PIECE_HUES: Mapping[str, tuple[float, float]] = {
    "red": (179.0, 6.0),
    "orange": (13.0, 5.0),
    "yellow": (27.0, 6.0),
    "green": (62.0, 16.0),
    "blue": (108.0, 12.0),
    "purple": (145.0, 12.0),
}
WHEEL_PIECE_NAMES = (*PIECE_HUES, "white", "black")


@dataclass(frozen=True)
class WheelReading:
    """One frame's view of the wheel; ``blocked`` frames carry no measurement.

    ``angle_deg`` is the rim's angle (0..360, from the strip), ``heading_deg`` the
    direction of the band's long side in the table plane (the way it rolls), ``centre``
    the middle of its footprint; ``markers`` how many rim markers the angle rests on.
    ``pieces_reason`` is empty when ``fallen`` is this frame's count, else why the fallen
    pieces could not be counted while the ring itself was measured (a cloth that hides a
    piece colour, a piece against the ring): the angle is worth having without the count.
    """

    blocked: bool
    reason: str = ""
    centre: tuple[float, float] = (0.0, 0.0)
    heading_deg: float = 0.0
    radius: float = WHEEL_RADIUS
    angle_deg: float = 0.0
    markers: int = 0
    fallen: dict[str, int] = field(default_factory=dict)
    fit_error: float = 0.0  # how far the rim corners lie from the fitted ring, table units
    angle_uncertainty_deg: float = 0.0  # how far off the angle could be (about 2 sigma)
    pieces_reason: str = ""

    @property
    def fallen_total(self) -> int:
        return sum(self.fallen.values())


# The reason a frame is not read while a hand reaches over the table (watchers test it).
HAND_OVER_TABLE = "a hand is over the table"
SLEEVE_OVER_TABLE = "a sleeve is over the table (an arm reaching in)"
# Of what reaches in from the edge, more than this share not skin is a sleeve (bare arms
# with their shadow measured <= 0.2, coloured sleeves 0.46-0.68 on seeds 500+).
SLEEVE_SHARE = 0.35
POOR_FIT = (
    "the rim markers do not agree on one angle: check the camera height in the calibration "
    "and that the strip lies flat on the rim"
)
HEIGHT_MISMATCH = (
    "the camera height in the calibration does not match what the table markers show: "
    "measure the camera's height again"
)
UNSURE = (
    "only {} rim markers are readable, too close together to pin the angle (to within "
    "{:.0f} degrees): light the ring evenly or use a sharper camera setting"
)
STRIP_BLURRED = (
    "the rim strip is blurred (the ring rolling, or the camera out of focus): the angle is "
    "read when the ring rests"
)
PARTLY_HIDDEN = (
    "something piece-coloured beside the wheel is part of something larger (a cup or a card, "
    "or cut off by the picture's edge, the ring or a marker), so a fallen piece cannot be "
    "told from it: move cups and cards away from the wheel"
)
AGAINST_RING = (
    "a fallen piece lies against the ring, partly behind it as the camera sees it (the "
    "ring stands taller than the table), so fallen pieces cannot be counted: they are "
    "counted again when the ring rolls on, or move the piece away from the ring"
)
TOO_MANY_FALLEN = (
    "{} fallen pieces is more than can fall: the cloth's colours read as pieces; "
    "recalibrate the colours"
)


def _darkness(gray: Image) -> FloatImage:
    """How much darker than the surrounding table each pixel is (0 = table, 1 = black).

    A closing with a kernel wider than the rim and spokes estimates the table's local
    brightness, so a light gradient or a soft shadow does not read as wood.
    """
    background = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, np.ones((21, 21), np.uint8))
    background = cv2.GaussianBlur(background, (0, 0), 3.0)
    ratio = gray.astype(np.float32) / np.maximum(background.astype(np.float32), 1.0)
    result: FloatImage = np.clip(1.0 - ratio, 0.0, 1.0)
    return result


Band = tuple[tuple[float, float], tuple[float, float], float]  # centre, (long, short), angle


def find_band(darkness: FloatImage) -> Band | None:
    """The ring's footprint in the rectified table: centre (px), size (long, short) (px) and
    the long side's direction (degrees), or None when no band-sized dark shape is there.

    The white rim strip splits the dark wood lengthwise; a closing as wide as the strip
    joins the two halves again before the outline is taken.
    """
    mask = (darkness > 0.35).astype(np.uint8) * 255
    width = round(1.6 * PIXELS_PER_UNIT) | 1
    kernel = np.ones((width, width), np.uint8)
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel), np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    biggest = max(contours, key=cv2.contourArea)
    if cv2.contourArea(biggest) < 4.0 * PIXELS_PER_UNIT**2:
        return None
    (cx, cy), (w, h), angle = cv2.minAreaRect(biggest)
    if w < h:
        w, h, angle = h, w, angle + 90.0
    return (float(cx), float(cy)), (float(w), float(h)), float(angle) % 180.0


def rim_angle(
    along: NDArray[np.float64], places: NDArray[np.float64], radius: float
) -> tuple[float, float]:
    """Fit ``along_k = c + R sin(places_k + theta)`` (degrees); returns (theta, residual).

    A coarse search over the whole turn, then a fine one around the best: cheap (a few
    hundred markers-times-angles) and free of a solver's local minima.
    """

    def fit(thetas: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        shape = np.sin(np.radians(places[None, :] + thetas[:, None])) * radius
        centre = (along[None, :] - shape).mean(axis=1, keepdims=True)
        return thetas, ((along[None, :] - shape - centre) ** 2).mean(axis=1)

    thetas, errors = fit(np.arange(0.0, 360.0, 1.0))
    best = float(thetas[int(np.argmin(errors))])
    thetas, errors = fit(best + np.arange(-1.5, 1.5, 0.01))
    index = int(np.argmin(errors))
    return float(thetas[index]) % 360.0, float(errors[index])


def _rim_markers(
    found: MarkerCorners, image_to_table: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """The rim markers seen: their corners in table units (N x 4 x 2), the rim place of
    each corner (degrees), each marker's own x direction (N x 2) and the corners in the
    image (N x 4 x 2).

    A marker is printed upright on the strip with its x axis pointing to the next id, so
    its left corners sit half a marker before its place on the rim and its right corners
    half a marker after: four points a marker, each at a known place, pin the fit down far
    better than the centre alone.
    """
    ids = [i for i in RIM_MARKER_IDS if i in found]
    if not ids:
        empty = np.zeros((0, 4, 2), np.float64)
        return empty, np.zeros((0, 4), np.float64), np.zeros((0, 2), np.float64), empty
    pixels = np.array([found[i] for i in ids], np.float64)
    table = np.asarray(cv2.perspectiveTransform(pixels.reshape(-1, 1, 2), image_to_table))
    corners = np.asarray(table.reshape(-1, 4, 2), np.float64)
    half = math.degrees(RIM_MARKER_FILL * math.pi / len(RIM_MARKER_IDS))  # half a marker
    centre = np.array([(i - RIM_MARKER_IDS[0]) * RIM_STEP for i in ids], np.float64)
    places = centre[:, None] + np.array([-half, half, half, -half])[None, :]
    x_dirs = np.asarray((corners[:, 1] + corners[:, 2] - corners[:, 0] - corners[:, 3]) / 2.0)
    return corners, np.asarray(places, np.float64), x_dirs, pixels


# A white piece is counted when it is this much lighter than the cloth round it, a black
# one this much darker (Lab lightness, 0-255; ``_piece_colour``): on a cloth within that
# of the markers' paper (white) or ink (black), plus a margin of 5, such a piece cannot be
# seen. Rendered rooms (seed (37000, 77)): a white table is 9-11 darker than the paper
# and black felt 16-24 lighter than the ink; the nearest other cloths 52 (light wood
# under a warm lamp) and 50 (dark wood).
SEEN_AGAINST_CLOTH = 30.0
CLOTH_HIDES = (
    "a {} piece cannot be told from this table cloth, so fallen pieces cannot be counted: "
    "lay a mat of another colour under the wheel"
)


def hidden_piece_colours(rectified: Image, outside: Image, layout: MarkerLayout) -> str:
    """ "white" or "black" (or "") when the cloth is as light as the markers' paper or as
    dark as their ink, which is what a fallen piece of that colour would look like."""
    ppu = PIXELS_PER_UNIT
    lab = np.asarray(cv2.cvtColor(rectified[::3, ::3], cv2.COLOR_BGR2LAB), np.uint8)
    free = lab[outside[::3, ::3] > 0]
    if len(free) == 0:
        return ""
    cloth = float(np.median(free[:, 0]))
    papers, inks = [], []
    for x0, y0, side in layout.values():
        top, left = round(y0 * ppu), round(x0 * ppu)
        patch = rectified[
            max(top, 0) : top + round(side * ppu), max(left, 0) : left + round(side * ppu)
        ]
        if patch.size == 0:
            continue
        lightness = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)[..., 0]
        papers.append(float(np.percentile(lightness, 90)))
        inks.append(float(np.percentile(lightness, 10)))
    if not papers:
        return ""
    if float(np.median(papers)) - cloth < SEEN_AGAINST_CLOTH:
        return "white"
    if cloth - float(np.median(inks)) < SEEN_AGAINST_CLOTH:
        return "black"
    return ""


# How far past the ring's modelled outline the table is left out (table units): the
# outline matches the rendered hoop to a pixel or two; its shadow is told from a piece by
# its shape.
RING_MARGIN = 0.2


def _table_masks(
    shape: tuple[int, int], ring: NDArray[np.float64], layout: MarkerLayout
) -> tuple[Image, Image]:
    """The table where a fallen piece can be (not the ring as the camera sees it, a polygon
    in rectified pixels; not a marker; not the edge) and the strip just outside the ring's
    outline (``RIM_ZONE`` wide) where a piece behind the ring would show."""
    ppu = PIXELS_PER_UNIT
    free = np.full(shape, 255, np.uint8)
    edge = ppu // 6
    free[:edge, :] = 0
    free[-edge:, :] = 0
    free[:, :edge] = 0
    free[:, -edge:] = 0
    for x0, y0, side in layout.values():
        pad = 0.25
        top_left = (round((x0 - pad) * ppu), round((y0 - pad) * ppu))
        bottom_right = (round((x0 + side + pad) * ppu), round((y0 + side + pad) * ppu))
        cv2.rectangle(free, top_left, bottom_right, (0,), -1)
    grow = round(0.2 * ppu) * 2 + 1
    free = np.asarray(cv2.erode(free, np.ones((grow, grow), np.uint8)), np.uint8)
    hull = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(ring.astype(np.float32)).astype(np.int32), (255,))
    grow = round(RING_MARGIN * ppu) * 2 + 1
    outside = free.copy()
    outside[cv2.dilate(hull, np.ones((grow, grow), np.uint8)) > 0] = 0
    grow = round(RIM_ZONE * ppu) * 2 + 1
    zone = np.asarray(cv2.dilate(hull, np.ones((grow, grow), np.uint8)), np.uint8)
    return outside, np.asarray(zone & ~hull & free, np.uint8)


def _band_polygon(band: Band) -> NDArray[np.float64]:
    return np.asarray(cv2.boxPoints(band), np.float64)


def _ring_polygon(
    pose: CameraPose, fit: RimFit, radius: float, image_to_table: NDArray[np.float64]
) -> NDArray[np.float64]:
    """The whole hoop as the camera sees it, drawn back onto the table (rectified px)."""
    h = math.radians(fit.heading_deg)
    u, v = np.array([math.cos(h), math.sin(h)]), np.array([-math.sin(h), math.cos(h)])
    points = []
    for phi in np.radians(np.arange(0.0, 360.0, 15.0)):
        for across in (-WHEEL_DEPTH / 2.0, WHEEL_DEPTH / 2.0):
            flat = np.array(fit.centre) + radius * math.sin(phi) * u + across * v
            points.append((flat[0], flat[1], -radius * (1.0 + math.cos(phi))))
    pixels = pose.project(np.array(points, np.float64))
    table = cv2.perspectiveTransform(pixels.reshape(-1, 1, 2), image_to_table).reshape(-1, 2)
    return np.asarray(table * PIXELS_PER_UNIT, np.float64)


class Fallen(NamedTuple):
    """The pieces counted outside the ring, how many piece-coloured blobs run on into
    the hidden parts of the picture (the edge, the ring, a marker), so cannot be sized,
    and whether a piece's colour shows against the ring's outline (a piece behind it)."""

    counts: dict[str, int]
    partly_hidden: int
    against_ring: bool = False


# A piece lying against the ring is mostly hidden behind the hoop (its top stands a
# diameter above the table, so from a camera off to one side it covers the table beyond
# its footprint) and shows as a sliver of colour at the ring's outline. A sliver is
# pixels within ``RIM_ZONE`` (table units) outside the outline whose colour (Lab a, b)
# lies this far from the cloth's round them, and not between the cloth and grey (the
# grey ring's edge blended with the cloth, its shadow).
RIM_ZONE = 0.3
SLIVER_CHROMA = 22.0
SLIVER_OFF_GREY = 10.0
SLIVER_PIXELS = 5


Blobs = tuple[NDArray[np.int32], list[int]]  # connected-component labels, the counted ones


def _sliver_at_ring(
    lab: Image, cloth: FloatImage, free_sample: Image, rim_zone: Image, blobs: Blobs
) -> bool:
    """Whether a piece's colour shows just outside the ring's outline (see ``RIM_ZONE``):
    away from both the cloth round it (``cloth``, whose median the ring darkens there) and
    the free table's colour (the median of ``free_sample``, Lab pixels), and not the edge
    of a piece counted beside the ring (``blobs``: the labels and the counted ones; a piece
    cut down to a sliver by the ring's outline is not counted, so it shows here)."""
    x, y, w, h = cv2.boundingRect(rim_zone)
    box = (slice(y, y + h), slice(x, x + w))  # the ring's surroundings only: cheaper
    lab, cloth, rim_zone = lab[box], cloth[box], rim_zone[box]
    where = rim_zone > 0
    pixel = lab[where][:, 1:].astype(np.float32) - 128.0
    limit = SLIVER_CHROMA**2
    away = _sum_squares(pixel - (cloth[where][:, 1:] - 128.0)) > limit
    if np.count_nonzero(away) < SLIVER_PIXELS or len(free_sample) == 0:
        return False  # most frames: nothing at the ring's outline stands out
    free = np.median(free_sample[:, 1:], axis=0).astype(np.float32) - 128.0
    away &= _sum_squares(pixel - free) > limit
    # Distance from the segment grey..cloth: the ring's edge and shadow lie on it.
    t = np.clip(pixel @ free / max(float(free @ free), 1e-6), 0.0, 1.0).astype(np.float32)
    away &= _sum_squares(pixel - t[:, None] * free[None, :]) > SLIVER_OFF_GREY**2
    sliver = np.zeros(rim_zone.shape, np.uint8)
    sliver[where] = away.astype(np.uint8) * 255
    count, labels, stats, _ = cv2.connectedComponentsWithStats(sliver, connectivity=8)
    if count < 2 or stats[1:, cv2.CC_STAT_AREA].max() < SLIVER_PIXELS:
        return False
    labelled, counted = blobs
    seen = np.isin(labelled[box], counted).astype(np.uint8)
    near_seen = cv2.dilate(seen, np.ones((5, 5), np.uint8)) > 0
    next_to_a_piece = set(np.unique(labels[near_seen]).tolist())
    return any(
        stats[k, cv2.CC_STAT_AREA] >= SLIVER_PIXELS and k not in next_to_a_piece
        for k in range(1, count)
    )


Components = tuple[NDArray[np.int32], NDArray[np.int32]]  # labels, stats


def _standing_out(
    rectified: Image, outside: Image
) -> tuple[Image, FloatImage, Components, Components]:
    """The picture in Lab, the cloth round each pixel (the local median, several pieces
    wide), the blobs standing out from it in ``outside`` (opened) and everywhere."""
    lab = np.asarray(cv2.cvtColor(rectified, cv2.COLOR_BGR2LAB), np.uint8)
    height, width = lab.shape[:2]
    small = cv2.resize(lab, (width // 4, height // 4), interpolation=cv2.INTER_AREA)
    cloth = cv2.resize(cv2.medianBlur(small, 9), (width, height)).astype(np.float32)
    stands_out = _squared_distance(lab, cloth) > STANDS_OUT**2
    mask = (stands_out & (outside > 0)).astype(np.uint8) * 255
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)
    _, whole, whole_stats, _ = cv2.connectedComponentsWithStats(
        stands_out.astype(np.uint8), connectivity=8
    )
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return (
        lab,
        np.asarray(cloth, np.float32),
        (np.asarray(labels, np.int32), np.asarray(stats, np.int32)),
        (np.asarray(whole, np.int32), np.asarray(whole_stats, np.int32)),
    )


def count_fallen(
    rectified: Image, outside: Image, hsv: Image | None = None, rim_zone: Image | None = None
) -> Fallen:
    """Pieces of each colour lying in the ``outside`` mask (table minus wheel and markers).

    A piece is a blob about a piece in size standing out from the cloth around it (the
    local median, several pieces wide: any cloth); its colour the nearest piece hue when
    vivid, else white or black by whether it is lighter or darker than the cloth. Blobs of
    many pieces (a cup, a card, an arm) are left out. A piece-coloured blob running on into
    the hidden parts (a cup cut off by the edge looks like a piece there) is reported, not
    counted; so is a piece's colour in ``rim_zone`` at the ring's outline (one behind it)."""
    lab, cloth, (labels, stats), (whole, whole_stats) = _standing_out(rectified, outside)
    count = len(stats)
    free_sample = lab[::3, ::3][outside[::3, ::3] > 0]  # the free table, every 9th pixel
    if hsv is None:  # the caller's, when it has it already
        hsv = np.asarray(cv2.cvtColor(rectified, cv2.COLOR_BGR2HSV), np.uint8)
    piece = PIECE_AREA * PIXELS_PER_UNIT**2
    counts = dict.fromkeys(WHEEL_PIECE_NAMES, 0)
    partly_hidden = 0
    counted: list[int] = []  # the blobs counted as pieces
    # The free table's colour (Lab a, b; taken when a blob needs it): a blob whose local
    # "cloth" is far from it sits on something large (a cup cut off by the edge).
    table: FloatImage | None = None
    for index in range(1, count):
        area = float(stats[index, cv2.CC_STAT_AREA])
        if area < MIN_PIECE_AREA * PIXELS_PER_UNIT**2:
            if rim_zone is not None and _cut_by_ring(
                index, (labels, stats), rim_zone, hsv, lab, cloth, free_sample
            ):
                return Fallen(counts, partly_hidden, against_ring=True)
            continue
        if area > MAX_BLOB_PIECES * piece:
            continue
        x, y, w, h = (int(v) for v in stats[index, :4])
        if max(w, h) > MAX_PIECE_SIDE * PIXELS_PER_UNIT or area < MIN_FILL * w * h:
            continue  # a card's edge, a cup's shadow, a sleeve: not round or square enough
        inside = labels[y : y + h, x : x + w] == index
        name = _piece_colour(hsv[y : y + h, x : x + w][inside], lab[y : y + h, x : x + w][inside],
                             cloth[y : y + h, x : x + w][inside])  # fmt: skip
        if name is None:
            continue
        around = cloth[y : y + h, x : x + w][inside][:, 1:].mean(axis=0)
        if table is None:
            sample = cloth[::3, ::3][outside[::3, ::3] > 0]  # every 9th pixel is plenty
            table = np.asarray(np.median(sample[:, 1:], axis=0), np.float32)
        if _part_of_more(inside, whole[y : y + h, x : x + w], whole_stats, area) or (
            float(np.linalg.norm(around - table)) > NOT_CLOTH
        ):
            if rim_zone is not None and _touches(
                whole, whole[y : y + h, x : x + w][inside], rim_zone
            ):
                if _can_be_a_piece(name, lab[y : y + h, x : x + w][inside], free_sample):
                    return Fallen(counts, partly_hidden, against_ring=True)
                continue
            partly_hidden += 1
        else:
            # A blob's edge grows with blur and contrast: one piece may look 1.9 pieces big.
            counts[name] += max(1, math.floor(area / piece / 1.6 + 0.6))
            counted.append(index)
    if rim_zone is not None and _sliver_at_ring(
        lab, cloth, free_sample, rim_zone, (labels, counted)
    ):
        return Fallen(counts, partly_hidden, against_ring=True)
    return Fallen(counts, partly_hidden)


# A piece-coloured blob at the ring's outline this large (pixels, rectified) but smaller
# than a piece is a piece cut off by the ring, whatever its colour (a black one shows no
# colour for ``_sliver_at_ring``).
CUT_PIECE_PIXELS = 10
CUT_FROM_TABLE = 30.0  # Lab distance from the free table's colour a cut piece lies beyond


def _cut_by_ring(
    index: int,
    blobs: Components,
    rim_zone: Image,
    hsv: Image,
    lab: Image,
    cloth: FloatImage,
    free_sample: Image,
) -> bool:
    """Whether blob ``index``, too small for a piece, is a piece cut off by the ring's
    outline: piece-coloured, reaching into the strip just outside the ring; ``blobs`` are
    the connected components' labels and stats."""
    labels, stats = blobs
    if stats[index, cv2.CC_STAT_AREA] < CUT_PIECE_PIXELS:
        return False
    x, y, w, h = (int(v) for v in stats[index, :4])
    box = (slice(y, y + h), slice(x, x + w))
    inside = labels[box] == index
    if not (rim_zone[box][inside] > 0).any():
        return False
    name = _piece_colour(hsv[box][inside], lab[box][inside], cloth[box][inside])
    if name is None:
        return False
    # Not the cloth itself beside the ring's edge or in its shadow (which the ring darkens
    # the local median round): far from the free table's colour too.
    if name in PIECE_HUES and not _off_grey_cloth(lab[box][inside], free_sample):
        return False  # a vivid cloth (felt) in the ring's shadow: its own hue, darker
    free = np.median(free_sample, axis=0).astype(np.float32) if len(free_sample) else None
    blob = lab[box][inside].astype(np.float32).mean(axis=0)
    return free is not None and float(np.linalg.norm(blob - free)) > CUT_FROM_TABLE


def _can_be_a_piece(name: str, body: Image, free_sample: Image) -> bool:
    """Whether a blob reaching the ring's outline can be a piece: white or black, or a
    colour off the grey..table line. The table's own colour beside the ring's shadow (light
    wood, lighter than the median the shadow pulls down, read as orange on development
    seed 47000) is not one."""
    return name not in PIECE_HUES or _off_grey_cloth(body, free_sample)


def _off_grey_cloth(pixels: Image, free_sample: Image) -> bool:
    """Whether the mean colour (Lab a, b) of ``pixels`` lies off the segment from grey
    to the free table's colour by ``SLIVER_OFF_GREY``: a shadow, or the grey ring's edge
    blended with the cloth, lies on it (green felt in the ring's shadow, 30 darker, read
    as a green piece cut by the ring on development seed 41000)."""
    if len(free_sample) == 0:
        return False
    free = np.median(free_sample[:, 1:], axis=0).astype(np.float32) - 128.0
    ab = pixels[:, 1:].astype(np.float32).mean(axis=0) - 128.0
    t = float(np.clip(ab @ free / max(float(free @ free), 1e-6), 0.0, 1.0))
    return float(np.linalg.norm(ab - t * free)) > SLIVER_OFF_GREY


def _sum_squares(vectors: NDArray[np.float32]) -> NDArray[np.float32]:
    """Each row's squared length (N x 2 rows): cheaper than a norm."""
    return np.asarray(vectors[:, 0] ** 2 + vectors[:, 1] ** 2, np.float32)


def _touches(whole: NDArray[np.int32], ids: NDArray[np.int32], zone: Image) -> bool:
    """Whether the standing-out shapes ``ids`` (of ``whole``) reach into ``zone``."""
    ids = np.unique(ids)
    ids = ids[ids > 0]
    return bool(len(ids)) and bool(np.isin(whole[zone > 0], ids).any())


def _squared_distance(image: Image, other: FloatImage) -> FloatImage:
    """Each pixel's squared distance between two three-channel images (a sum of three
    planes: several times faster than a norm over the channel axis)."""
    difference = image.astype(np.float32) - other
    difference *= difference
    return np.asarray(difference[..., 0] + difference[..., 1] + difference[..., 2], np.float32)


def _part_of_more(
    blob: NDArray[np.bool_], whole: NDArray[np.int32], whole_stats: NDArray[np.int32], area: float
) -> bool:
    """Whether the blob is one part of something larger standing out from the cloth (a
    cup's rim round its coffee, a card's back in its white border, anything running on
    into the picture's edge, the ring or a marker): then its size says nothing."""
    ids = np.unique(whole[blob])
    total = float(whole_stats[ids[ids > 0], cv2.CC_STAT_AREA].sum())
    return total > PART_OF_MORE * area


COLOURLESS_CHROMA = 20.0  # Lab chroma under which a white or black piece's body lies


def _piece_colour(hsv: Image, lab: Image, cloth: FloatImage) -> str | None:
    """The piece set a blob's pixels belong to, or None when it is none of them."""
    vivid = (hsv[:, 1] >= 100) & (hsv[:, 2] >= 50)
    if vivid.mean() >= 0.4:
        angles = hsv[vivid, 0].astype(np.float64) * (2 * np.pi / 180.0)
        hue = float(np.degrees(np.arctan2(np.sin(angles).mean(), np.cos(angles).mean())) / 2.0)
        hue %= 180.0
        near = {
            name: float(hue_distance(np.array([hue], np.float32), centre)[0]) - tolerance
            for name, (centre, tolerance) in PIECE_HUES.items()
        }
        name = min(near, key=lambda n: near[n])
        return name if near[name] <= 6.0 else None
    each = lab[:, 0].astype(np.float32) - cloth[:, 0]
    lighter = float(each.mean())
    if abs(lighter) <= 25:
        return None
    # Colourless is judged on the piece's body, the pixels that far from the cloth (its
    # rim, blended with a vivid cloth such as blue or green felt, is as coloured as the
    # cloth), and by Lab chroma: a black piece's hue saturation is noise at its darkness
    # (measured 93-98 of 255 on felt, dev seed 45000), its chroma 9-10.
    body = each > 25 if lighter > 0 else each < -25
    ab = lab[body if body.any() else slice(None), 1:].astype(np.float32) - 128.0
    if float(np.sqrt(_sum_squares(ab)).mean()) > COLOURLESS_CHROMA:
        return None
    return "white" if lighter > 0 else "black"


def _refusal(frame: Image, reason: str) -> WheelReading:
    """A blocked reading; a soft picture is named as the likely cause."""
    if blurred(frame, SOFT):
        reason = f"{BLURRED} ({reason})"
    return WheelReading(blocked=True, reason=reason)


# A patch that passes the hue window is skin only when its colour, the lamp divided out,
# lies within this of the skin window (``room_light.SKIN_RED``/``SKIN_GREEN``): the grey
# wooden ring's shaded side passes the hue window but measures 0.7-1.6 outside it (a
# false "sleeve" when the ring reaches the picture's edge, dev seeds 41000, 44000).
SKIN_PATCH_SLACK = 0.3


def _skin_coloured(shares: NDArray[np.float32]) -> bool:
    """Whether a patch's median colour (chromaticity of its pixels, N x 1 x 2) is a skin's."""
    return distance_from_skin(np.median(shares.reshape(-1, 2), axis=0)) <= SKIN_PATCH_SLACK


def hand_over(rectified: Image, hsv: Image, table: NDArray[np.float32], min_pixels: float) -> str:
    """Skin that is not the tablecloth and belongs to something reaching in from the edge:
    ``HAND_OVER_TABLE``, or ``SLEEVE_OVER_TABLE`` when most of what reaches in is not skin
    (a sleeve), or "" when nothing does.

    A wooden table under a lamp is skin-coloured too, so skin is only skin where it
    stands out from the cloth sampled in this frame; and a hand comes with an arm (bare
    or in a sleeve) that crosses the edge of the picture, unlike a cup of coffee.
    """
    skin = skin_mask(hsv)
    if cv2.countNonZero(skin) < min_pixels:
        return ""  # too little skin for a hand, whatever the cloth
    foreign = (colour_distance(rectified, table) > SKIN_STANDS_OUT).astype(np.uint8) * 255
    skin = np.asarray(
        cv2.morphologyEx(skin & foreign, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)),
        np.uint8,
    )
    count, patches, stats, _ = cv2.connectedComponentsWithStats(skin, connectivity=8)
    big = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= min_pixels]
    big = [i for i in big if _skin_coloured(chromaticity(rectified[patches == i][:, None, :]))]
    if not big:
        return ""
    _count, labels = cv2.connectedComponents(foreign, connectivity=8)
    border = np.zeros(labels.shape, bool)
    border[:2, :], border[-2:, :], border[:, :2], border[:, -2:] = True, True, True, True
    reaching = set(np.unique(labels[border & (foreign > 0)]).tolist()) - {0}
    arms = [a for i in big for a in reaching & set(np.unique(labels[patches == i]).tolist())]
    if not arms:
        return ""
    arm = np.isin(labels, arms)
    covered = float(np.count_nonzero(arm))
    bare = float(np.count_nonzero(arm & (skin > 0)))
    return SLEEVE_OVER_TABLE if covered - bare > SLEEVE_SHARE * covered else HAND_OVER_TABLE


def read_wheel(
    frame: Image,
    *,
    radius: float = WHEEL_RADIUS,
    table_size: tuple[float, float] = TABLE_SIZE,
    camera_height_cm: float | None = None,
) -> WheelReading:
    """Measure the ring and count the pieces outside it in one frame.

    Hidden table markers block the view, as do a hand over the table (a reaching arm never
    counts as a fall), a blurred picture, a strip with fewer than two markers in view, a
    rim fit worse than ``MAX_FIT_ERROR`` and more fallen pieces than can fall. With the
    camera's height (calibration) the rim strip is placed where it really stands, a
    diameter above the table at the top; without it the ring is taken as flat (the
    simulator's flat renders).
    """
    layout = TABLE_MARKER_LAYOUT if table_size == TABLE_SIZE else table_marker_layout(table_size)
    found = detect_markers(frame)
    image_to_table = homography_from_markers(found, layout)
    if image_to_table is None:
        return _refusal(frame, "table markers not visible")
    if blurred(frame):
        return WheelReading(blocked=True, reason=BLURRED)
    ppu = PIXELS_PER_UNIT
    gains = paper_gains(frame, image_to_table, layout)
    rectified = warp_plane(frame, image_to_table, (0.0, 0.0, *table_size), ppu)
    rectified = balanced(np.asarray(cv2.medianBlur(rectified, 3), np.uint8), gains)
    hsv = np.asarray(cv2.cvtColor(rectified, cv2.COLOR_BGR2HSV), np.uint8)
    table = table_colour(rectified, np.full(rectified.shape[:2], 255, np.uint8))
    reaching_in = hand_over(rectified, hsv, table, MIN_HAND_UNITS * ppu * ppu)
    if reaching_in:
        return WheelReading(blocked=True, reason=reaching_in)
    corners, places, x_dirs, _ = _rim_markers(found, image_to_table)
    if len(places) < MIN_RIM_MARKERS:
        return _refusal(frame, "rim strip not readable (fewer than two markers in view)")
    if camera_height_cm is None:
        fitted = _flat_fit(rectified, corners, places, x_dirs, radius)
        if fitted is None:
            return _refusal(frame, "wheel not found")
        (fit, ring), markers = fitted, len(places)
    else:
        room = _room_fit(frame, found, layout, image_to_table, camera_height_cm, radius)
        if isinstance(room, WheelReading):
            return room
        fit, ring, markers = room
    if fit.error > MAX_FIT_ERROR:
        return _refusal(frame, f"{POOR_FIT} (misfit {fit.error:.2f} table units)")
    fallen = _fallen_pieces(rectified, hsv, ring, layout)
    if isinstance(fallen, str):
        return _refusal(frame, fallen)  # a soft picture is named as the likely cause
    return WheelReading(
        blocked=False,
        centre=fit.centre,
        heading_deg=fit.heading_deg,
        radius=radius,
        angle_deg=fit.angle_deg,
        markers=markers,
        fallen=fallen,
        fit_error=fit.error,
        angle_uncertainty_deg=fit.uncertainty_deg,
    )


def _fallen_pieces(
    rectified: Image, hsv: Image, ring: NDArray[np.float64], layout: MarkerLayout
) -> dict[str, int] | str:
    """The pieces counted outside the ring, or why they cannot be counted: a cloth that
    hides a piece colour, more than can fall, or a piece-coloured part of something larger."""
    outside, rim_zone = _table_masks(rectified.shape[:2], ring, layout)
    hidden = hidden_piece_colours(rectified, outside, layout)
    if hidden:
        return CLOTH_HIDES.format(hidden)
    fallen, partly_hidden, against_ring = count_fallen(rectified, outside, hsv, rim_zone)
    if against_ring:
        return AGAINST_RING
    if sum(fallen.values()) > MAX_FALLEN:
        return TOO_MANY_FALLEN.format(sum(fallen.values()))
    return PARTLY_HIDDEN if partly_hidden else fallen


def _room_fit(
    frame: Image,
    found: MarkerCorners,
    layout: MarkerLayout,
    image_to_table: NDArray[np.float64],
    height_cm: float,
    radius: float,
) -> tuple[RimFit, NDArray[np.float64], int] | WheelReading:
    """The rim fitted where it stands, seen by the camera at ``height_cm``: the fit, the
    ring's outline on the table and the markers it rests on, or the refusal."""
    ids = [i for i in layout if i in found]
    image_points = np.concatenate([found[i] for i in ids]).astype(np.float64)
    table_points = np.concatenate([marker_corners(layout[i]) for i in ids]).astype(np.float64)
    pose = camera_pose(image_points, table_points, (frame.shape[1], frame.shape[0]), height_cm)
    if pose is None:
        return WheelReading(blocked=True, reason=HEIGHT_MISMATCH)
    _, places, x_dirs, pixels = _rim_markers(found, image_to_table)
    fit = fit_rim(pose, pixels.reshape(-1, 2), places.reshape(-1), x_dirs, radius)
    found, strip_sharpness = _more_rim_markers(frame, found, pose, fit, radius)
    _, places, x_dirs, pixels = _rim_markers(found, image_to_table)
    fit = fit_rim(pose, pixels.reshape(-1, 2), places.reshape(-1), x_dirs, radius)
    if fit.error <= MAX_FIT_ERROR and (
        fit.uncertainty_deg > MAX_UNCERTAINTY_DEG or len(places) < MIN_RIM_MARKERS + 1
    ):
        if strip_sharpness < SOFT:
            return WheelReading(blocked=True, reason=STRIP_BLURRED)
        return _refusal(frame, UNSURE.format(len(places), fit.uncertainty_deg))
    return fit, _ring_polygon(pose, fit, radius, image_to_table), len(places)


def _more_rim_markers(
    frame: Image, found: MarkerCorners, pose: CameraPose, fit: RimFit, radius: float
) -> tuple[MarkerCorners, float]:
    """``found`` plus the rim markers read from the strip unrolled about a first fit (the
    ones bent round the ring's shoulders, which pin the angle far better than the few
    near the top), and how sharp the unrolled strip is (a rolling ring smears it)."""
    slot = 2.0 * math.pi * radius / len(RIM_MARKER_IDS)
    flat, map_x, map_y = unroll_strip(frame, pose, fit, radius, RIM_MARKER_FILL * slot)
    more = dict(found)
    for marker_id, quad in detect_markers(flat).items():
        if marker_id in RIM_MARKER_IDS:
            more[marker_id] = back_to_frame(quad, map_x, map_y).astype(np.float32)
    return more, sharpness(flat)


def _flat_fit(
    rectified: Image,
    corners: NDArray[np.float64],
    places: NDArray[np.float64],
    x_dirs: NDArray[np.float64],
    radius: float,
) -> tuple[RimFit, NDArray[np.float64]] | None:
    """The ring taken as flat on the table (the flat renders): the band's footprint from
    its darkness, the angle from the strip along it; the fit and the band's outline."""
    ppu = PIXELS_PER_UNIT
    darkness = _darkness(np.asarray(cv2.cvtColor(rectified, cv2.COLOR_BGR2GRAY), np.uint8))
    band = find_band(darkness)
    if band is None:
        return None
    (cx, cy), (long, short), heading = band
    centre = (cx / ppu, cy / ppu)
    axis = np.array([math.cos(math.radians(heading)), math.sin(math.radians(heading))])
    if float(np.sum(x_dirs @ axis)) < 0:  # the strip's ids rise along +axis
        axis, heading = -axis, heading + 180.0
    along = (corners.reshape(-1, 2) - np.array(centre)) @ axis
    angle, misfit = rim_angle(along, places.reshape(-1), radius)
    fit = RimFit(angle, centre, heading % 360.0, math.sqrt(misfit))
    grown = ((cx, cy), (long + 0.4 * ppu, short + 0.4 * ppu), heading)
    return fit, _band_polygon(grown)


def angle_difference(a_deg: float, b_deg: float) -> float:
    """Signed smallest rotation from ``b`` to ``a`` in degrees, in (-180, 180]."""
    diff = (a_deg - b_deg) % 360.0
    return diff - 360.0 if diff > 180.0 else diff


@dataclass
class WheelTracker:
    """Accumulates how far the ring has rolled and how far it has wandered.

    Angles are unwrapped frame to frame (the ring never turns half a revolution between
    two frames), so the total roll keeps growing past 360 degrees; a push changes the
    position and leaves the angle, so it adds nothing to the roll. Blocked frames are
    skipped: the next clear frame continues from the last good one.
    """

    table_centre: tuple[float, float] = (TABLE_SIZE[0] / 2.0, TABLE_SIZE[1] / 2.0)
    drift_warning: float = 3.0
    total_roll_deg: float = 0.0
    last: WheelReading | None = None

    def update(self, reading: WheelReading) -> None:
        if reading.blocked:
            return
        if self.last is not None:
            self.total_roll_deg += angle_difference(reading.angle_deg, self.last.angle_deg)
        self.last = reading

    @property
    def rolled_distance(self) -> float:
        """Distance the ring has rolled along the table, in table units (roll times radius)."""
        radius = self.last.radius if self.last else 0.0
        return math.radians(abs(self.total_roll_deg)) * radius

    @property
    def drift(self) -> tuple[float, float]:
        """Offset of the ring's footprint from the table centre, in table units."""
        if self.last is None:
            return (0.0, 0.0)
        return (
            self.last.centre[0] - self.table_centre[0],
            self.last.centre[1] - self.table_centre[1],
        )

    @property
    def drifted_far(self) -> bool:
        """True when the players should push the wheel back towards the middle."""
        return math.hypot(*self.drift) > self.drift_warning


def lowest_compartment(total_roll_deg: float, sections: int = DEFAULT_DIVISIONS) -> int:
    """Which compartment (0-based, counted from the one lowest at the start, in the
    direction of building) is at the bottom after rolling ``total_roll_deg``.

    A positive roll brings lower strip ids to the top (the fit's ``theta``), and the bottom
    follows the top round a rigid ring: earlier compartments come down."""
    return round(-total_roll_deg / (360.0 / sections)) % sections
