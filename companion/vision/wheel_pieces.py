"""Count the pieces that fell out of the Hamster Wheel, once the ring is measured, or
say why they cannot be counted.

The ring reader (``companion.vision.wheel``) rectifies the table and fits the ring; this
module gets the rectified picture and the ring's outline as the camera sees it and looks
at the table left outside it. A piece is a blob about a piece in size standing out from
the cloth round it; its colour names the set. What makes a count untrustworthy is said
in a sentence, never guessed over: a cloth as light as a white piece (or as dark as a
black one), a piece against the ring (mostly hidden behind it), something piece-coloured
that is part of something larger, or more pieces than can fall. The ring's angle does not
depend on any of these, so the reader keeps it and passes the sentence on.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.tabletop import CM_PER_UNIT, MarkerLayout
from companion.vision.board import hue_gap
from companion.vision.leaning import spread

# The rectified table's scale (pixels a table unit), shared with the ring reader.
PIXELS_PER_UNIT = 24
# Fallen pieces are ~0.5 units across; anything much smaller is noise or a piece's rim.
PIECE_AREA = 0.2
MIN_PIECE_AREA = 0.07
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

Image = NDArray[np.uint8]
FloatImage = NDArray[np.float32]

# Each coloured piece set's OpenCV hue window (centre, half-width), by set name.
HueWindows = Mapping[str, tuple[float, float]]
# The windows of a typical set, used until the table's own pieces are sampled
# (``calibration.wheel_colours``); white and black are found by brightness against the
# table instead, because they have no hue.
PIECE_HUES: HueWindows = {
    "red": (179.0, 6.0),
    "orange": (13.0, 5.0),
    "yellow": (27.0, 6.0),
    "green": (62.0, 16.0),
    "blue": (108.0, 12.0),
    "purple": (145.0, 12.0),
}
WHEEL_PIECE_NAMES = (*PIECE_HUES, "white", "black")

PARTLY_HIDDEN = (
    "something piece-coloured beside the wheel is part of something larger (a cup or a card, "
    "or cut off by the picture's edge, the ring or a marker), so a fallen piece cannot be "
    "told from it: move cups and cards away from the wheel"
)
AGAINST_RING = (
    "a fallen piece lies against the ring, touching it or partly behind it as the camera "
    "sees it (the ring stands taller than the table), so fallen pieces cannot be counted: "
    "they are counted again when the ring rolls on, or move the piece away from the ring"
)
IN_SHADOW = (
    "a fallen piece lies in a shadow (the ring's or a cup's), where the camera cannot tell "
    "its edge from the shadow's, so fallen pieces cannot be counted: they are counted again "
    "when the ring rolls on, or move the piece out of the shadow"
)
TOO_MANY_FALLEN = (
    "{} fallen pieces is more than can fall: the cloth's colours read as pieces; "
    "recalibrate the colours"
)


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


def free_table(shape: tuple[int, int], layout: MarkerLayout) -> Image:
    """The rectified table (``shape``) less its edge and its markers with a margin: where
    a piece can be seen whole."""
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
    return np.asarray(cv2.erode(free, np.ones((grow, grow), np.uint8)), np.uint8)


def _table_masks(
    shape: tuple[int, int], ring: NDArray[np.float64], layout: MarkerLayout
) -> tuple[Image, Image]:
    """The table where a fallen piece can be (not the ring as the camera sees it, a polygon
    in rectified pixels; not a marker; not the edge) and the strip just outside the ring's
    outline (``RIM_ZONE`` wide) where a piece behind the ring would show."""
    ppu = PIXELS_PER_UNIT
    free = free_table(shape, layout)
    hull = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(ring.astype(np.float32)).astype(np.int32), (255,))
    grow = round(RING_MARGIN * ppu) * 2 + 1
    outside = free.copy()
    outside[cv2.dilate(hull, np.ones((grow, grow), np.uint8)) > 0] = 0
    grow = round(RIM_ZONE * ppu) * 2 + 1
    zone = np.asarray(cv2.dilate(hull, np.ones((grow, grow), np.uint8)), np.uint8)
    return outside, np.asarray(zone & ~hull & free, np.uint8)


class FallenPiece(NamedTuple):
    """A counted piece: its set and where it lies (table units; two touching pieces
    counted from one blob share its middle)."""

    colour: str
    x: float
    y: float


class Counted(NamedTuple):
    """The fallen pieces counted, each with its place (what a memory of the table follows:
    ``companion.vision.fallen_memory``)."""

    places: tuple[FallenPiece, ...]

    @property
    def counts(self) -> dict[str, int]:
        """How many pieces of each set (every set named, 0 included)."""
        counts = dict.fromkeys(WHEEL_PIECE_NAMES, 0)
        for place in self.places:
            counts[place.colour] += 1
        return counts


class Fallen(NamedTuple):
    """The pieces counted outside the ring, how many piece-coloured blobs run on into
    the hidden parts of the picture (the edge, the ring, a marker), so cannot be sized,
    whether a piece's colour shows against the ring's outline (a piece behind it), and
    how many lie in a shadow of the table (not sized either)."""

    counted: Counted
    partly_hidden: int
    against_ring: bool = False
    in_shadow: int = 0

    @property
    def counts(self) -> dict[str, int]:
        return self.counted.counts


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


def _piece_shaped(blob: NDArray[np.int32], piece: float) -> bool:
    """Whether a blob's stats (x, y, w, h, area) fit one piece or a few touching: not a
    cup or an arm (too many pieces' area), not a card's edge, a cup's shadow or a sleeve
    (too long, or not round or square enough)."""
    w, h, area = int(blob[2]), int(blob[3]), float(blob[4])
    if area > MAX_BLOB_PIECES * piece:
        return False
    return max(w, h) <= MAX_PIECE_SIDE * PIXELS_PER_UNIT and area >= MIN_FILL * w * h


def _free_table(cloth: FloatImage, outside: Image) -> FloatImage:
    """The free table's colour (Lab), from every 9th pixel of it (plenty)."""
    sample = cloth[::3, ::3][outside[::3, ::3] > 0]
    return np.asarray(np.median(sample, axis=0), np.float32)


# The cloth in a shadow (the ring's, a cup's) is this much darker than the free table at
# least (Lab lightness), its colour on the line from the table's towards grey.
SHADOW_DARKER = 5.0


def _surroundings(around: FloatImage, table: FloatImage) -> str:
    """What the cloth round a blob (its local median, Lab) is: "" the table's own (its
    colour within ``NOT_CLOTH`` of the free table's), "shadow" the table in a shadow
    (darker, and greyer along the line to grey), else "other" (a cup or a card filling
    the median window: a white one is lighter, a coloured one off that line). A white
    piece in the standing ring's shadow on green felt, its local cloth 11.8 from the free
    felt's colour and 0.6 off that line, was said to be "part of something larger"
    (development seed 36000). Counting such pieces was tried: a black piece in the same
    shadow then went uncounted, and the count came out wrong, so the reason is said."""
    if float(np.linalg.norm(around[1:] - table[1:])) <= NOT_CLOTH:
        return ""
    if float(around[0]) > float(table[0]) - SHADOW_DARKER:
        return "other"
    return "shadow" if _off_the_shadow_line(around[1:], table[1:]) <= SLIVER_OFF_GREY else "other"


def count_fallen(
    rectified: Image,
    outside: Image,
    hsv: Image | None = None,
    rim_zone: Image | None = None,
    hues: HueWindows = PIECE_HUES,
    camera: Overhead | None = None,
) -> Fallen:
    """Pieces of each colour lying in the ``outside`` mask (table minus wheel and markers).

    A piece is a blob about a piece in size standing out from the cloth around it (the
    local median, several pieces wide: any cloth); its colour the nearest piece hue when
    vivid, else white or black by whether it is lighter or darker than the cloth. Blobs of
    many pieces (a cup, a card, an arm) are left out. A piece-coloured blob running on into
    the hidden parts (a cup cut off by the edge looks like a piece there) is reported, not
    counted; so is a piece's colour in ``rim_zone`` at the ring's outline (one behind it).
    ``hues``: the sets' hue windows (this table's, if sampled); ``camera``: :func:`_pieces_in`."""
    lab, cloth, (labels, stats), (whole, whole_stats) = _standing_out(rectified, outside)
    free_sample = lab[::3, ::3][outside[::3, ::3] > 0]  # the free table, every 9th pixel
    if hsv is None:  # the caller's, when it has it already
        hsv = np.asarray(cv2.cvtColor(rectified, cv2.COLOR_BGR2HSV), np.uint8)
    piece = PIECE_AREA * PIXELS_PER_UNIT**2
    partly_hidden = in_shadow = 0
    counted: list[int] = []  # the blobs counted as pieces
    places: list[FallenPiece] = []
    # The free table's colour (Lab; taken when a blob needs it): a blob whose local
    # "cloth" is far from it sits on something large (a cup) or in a shadow.
    table: FloatImage | None = None
    for index in range(1, len(stats)):
        area = float(stats[index, cv2.CC_STAT_AREA])
        if area < MIN_PIECE_AREA * PIXELS_PER_UNIT**2:
            if rim_zone is not None and _cut_by_ring(
                index, (labels, stats), rim_zone, hsv, lab, cloth, free_sample, hues
            ):
                return Fallen(Counted(()), partly_hidden, against_ring=True)
            continue
        if not _piece_shaped(stats[index], piece):
            continue
        x, y, w, h = (int(v) for v in stats[index, :4])
        inside = labels[y : y + h, x : x + w] == index
        name = _piece_colour(hsv[y : y + h, x : x + w][inside], lab[y : y + h, x : x + w][inside],
                             cloth[y : y + h, x : x + w][inside], hues)  # fmt: skip
        if name is None:
            continue
        table = _free_table(cloth, outside) if table is None else table
        larger = _part_of_more(inside, whole[y : y + h, x : x + w], whole_stats, area)
        around = "" if larger else _surroundings(cloth[y : y + h, x : x + w][inside].mean(0), table)
        if larger or around:
            if rim_zone is not None and _touches(
                whole, whole[y : y + h, x : x + w][inside], rim_zone
            ):
                if _can_be_a_piece(name, lab[y : y + h, x : x + w][inside], free_sample):
                    return Fallen(Counted(()), partly_hidden, against_ring=True)
                continue
            in_shadow += around == "shadow"
            partly_hidden += around != "shadow"
        else:
            counted.append(index)
            middle = ((x + w / 2.0) / PIXELS_PER_UNIT, (y + h / 2.0) / PIXELS_PER_UNIT)
            places += [FallenPiece(name, *middle)] * _pieces_in(area, inside, (x, y), camera)
    if rim_zone is not None and _sliver_at_ring(
        lab, cloth, free_sample, rim_zone, (labels, counted)
    ):
        return Fallen(Counted(()), partly_hidden, against_ring=True)
    return Fallen(Counted(tuple(places)), partly_hidden, in_shadow=in_shadow)


class Overhead(NamedTuple):
    """Where the camera is: the table point under it and its height, in rectified pixels."""

    x: float
    y: float
    height: float


# The tallest a fallen piece stands (cm): the set's wooden blocks lie on a face 1-2.5 cm
# high; a little more, since a blob's edge grows with blur.
TALLEST_PIECE_CM = 3.0


def leaning_area(blob: NDArray[np.bool_], corner: tuple[int, int], camera: Overhead) -> float:
    """How much of a blob's area (pixels) may be a standing piece's sides and top leaning
    away from the camera rather than more pieces: the blob's length along the line from
    the point under the camera beyond its width across it, up to the lean a piece of
    ``TALLEST_PIECE_CM`` has there, times that width. A flat piece is as long as it is
    wide and gives nothing; a piece 2.5 cm tall in a far corner under a camera 50 cm up
    looked two pieces big without it (``bench/standing_pieces.py --reader wheel``)."""
    shape = spread(blob, corner)
    tallest = TALLEST_PIECE_CM / CM_PER_UNIT * PIXELS_PER_UNIT
    if shape is None or camera.height <= tallest:
        return 0.0
    distance, length, width = shape.along_and_across((camera.x, camera.y))
    lean = distance * tallest / (camera.height - tallest)
    return min(max(length - width, 0.0), lean) * width


def _pieces_in(
    area: float,
    blob: NDArray[np.bool_] | None = None,
    corner: tuple[int, int] = (0, 0),
    camera: Overhead | None = None,
) -> int:
    """How many pieces a blob of ``area`` pixels (rectified) makes. A blob's edge grows
    with blur and contrast: one piece may look 1.9 pieces big. With the ``blob`` (cut out
    at ``corner``) and the ``camera``'s place, a standing piece's lean is not counted as
    more pieces (:func:`leaning_area`)."""
    if blob is not None and camera is not None:
        area -= leaning_area(blob, corner, camera)
    return max(1, math.floor(area / (PIECE_AREA * PIXELS_PER_UNIT**2) / 1.6 + 0.6))


class LaidOut(NamedTuple):
    """A vivid piece-sized blob seen on the table at calibration: its body's hue (OpenCV,
    0..180), where it lies (rectified pixels) and how many pieces its area makes."""

    hue: float
    centre: tuple[float, float]
    pieces: int


def vivid_pieces(rectified: Image, outside: Image, hsv: Image | None = None) -> list[LaidOut]:
    """The coloured pieces lying on the free table, measured the way :func:`count_fallen`
    measures a fallen piece (so a hue sampled here is the hue the count will see); white
    and black pieces, cups, cards and anything running into the hidden parts are left
    out."""
    lab, cloth, (labels, stats), (whole, whole_stats) = _standing_out(rectified, outside)
    if hsv is None:
        hsv = np.asarray(cv2.cvtColor(rectified, cv2.COLOR_BGR2HSV), np.uint8)
    piece = PIECE_AREA * PIXELS_PER_UNIT**2
    found = []
    for index in range(1, len(stats)):
        area = float(stats[index, cv2.CC_STAT_AREA])
        if area < MIN_PIECE_AREA * PIXELS_PER_UNIT**2 or not _piece_shaped(stats[index], piece):
            continue
        x, y, w, h = (int(v) for v in stats[index, :4])
        inside = labels[y : y + h, x : x + w] == index
        if _part_of_more(inside, whole[y : y + h, x : x + w], whole_stats, area):
            continue
        box = (slice(y, y + h), slice(x, x + w))
        hue = _body_hue(hsv[box][inside], lab[box][inside], cloth[box][inside])
        if hue is not None:
            found.append(LaidOut(hue, (x + w / 2.0, y + h / 2.0), _pieces_in(area)))
    return found


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
    hues: HueWindows,
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
    name = _piece_colour(hsv[box][inside], lab[box][inside], cloth[box][inside], hues)
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
    free = np.median(free_sample[:, 1:], axis=0).astype(np.float32)
    ab = pixels[:, 1:].astype(np.float32).mean(axis=0)
    return _off_the_shadow_line(ab, free) > SLIVER_OFF_GREY


def _off_the_shadow_line(colour: FloatImage, table: FloatImage) -> float:
    """How far a colour (Lab a, b, as stored: 128 is grey) lies from the segment between
    grey and the table's colour, where the table's shadows and its blend with the grey
    ring lie."""
    ab, free = colour - 128.0, table - 128.0
    t = float(np.clip(ab @ free / max(float(free @ free), 1e-6), 0.0, 1.0))
    return float(np.linalg.norm(ab - t * free))


def _squared_distance_rows(pixels: Image, other: FloatImage) -> NDArray[np.float32]:
    """Each row's squared Lab distance between ``pixels`` and ``other`` (N x 3 rows)."""
    difference = pixels.astype(np.float32) - other
    difference *= difference
    return np.asarray(difference.sum(axis=1), np.float32)


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


def _piece_colour(
    hsv: Image, lab: Image, cloth: FloatImage, hues: HueWindows = PIECE_HUES
) -> str | None:
    """The piece set a blob's pixels belong to, or None when it is none of them."""
    hue = _body_hue(hsv, lab, cloth)
    if hue is not None:
        return name_for_hue(hue, hues)
    return _colourless(lab, cloth)


# How far past its window's half-width a hue may lie and still name that set.
HUE_SLACK = 6.0


def name_for_hue(hue: float, hues: HueWindows = PIECE_HUES) -> str | None:
    """The set whose window ``hue`` lies nearest (by distance past the half-width), or
    None when it lies more than ``HUE_SLACK`` past every window."""
    near = {name: hue_gap(hue, centre) - tolerance for name, (centre, tolerance) in hues.items()}
    name = min(near, key=lambda n: near[n])
    return name if near[name] <= HUE_SLACK else None


def _body_hue(hsv: Image, lab: Image, cloth: FloatImage) -> float | None:
    """The hue (OpenCV, 0..180) of a vivid blob's body, or None when the blob is not vivid
    (a white or black piece, or the cloth)."""
    vivid = (hsv[:, 1] >= 100) & (hsv[:, 2] >= 50)
    # Whether a piece is vivid is judged on its body too, the half of its pixels furthest
    # from the cloth (Lab): a black piece's rim, blended with light wood, is as vivid as
    # the wood (47 % of a black triangle's pixels, 11 % of its body: read as orange,
    # development seed 44000).
    apart = _squared_distance_rows(lab, cloth)
    if vivid[apart >= np.median(apart)].mean() < 0.4:
        return None
    # The hue is the body's, the half of the vivid pixels furthest from the cloth round
    # them (Lab a, b): the rim, blended with a vivid cloth, takes a hue between the two
    # (a red piece on green felt averaged 7.6, orange, development seed 46500).
    far = _sum_squares(lab[:, 1:].astype(np.float32) - cloth[:, 1:])
    body = vivid & (far >= np.median(far[vivid]))
    angles = hsv[body, 0].astype(np.float64) * (2 * np.pi / 180.0)
    hue = float(np.degrees(np.arctan2(np.sin(angles).mean(), np.cos(angles).mean())) / 2.0)
    return hue % 180.0


def _colourless(lab: Image, cloth: FloatImage) -> str | None:
    """ "white" or "black" for a blob clearly lighter or darker than the cloth with a body
    of little colour, else None."""
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


def fallen_pieces(
    rectified: Image,
    hsv: Image,
    ring: NDArray[np.float64],
    layout: MarkerLayout,
    hues: HueWindows = PIECE_HUES,
    camera: Overhead | None = None,
) -> Counted | str:
    """The pieces counted outside the ring (by set, and where each lies), or why they
    cannot be counted: a cloth that hides a piece colour, more than can fall, or a
    piece-coloured part of something larger. ``hues`` are the sets' hue windows (this
    table's, when its pieces were sampled)."""
    outside, rim_zone = _table_masks(rectified.shape[:2], ring, layout)
    hidden = hidden_piece_colours(rectified, outside, layout)
    if hidden:
        return CLOTH_HIDES.format(hidden)
    counted, partly_hidden, against_ring, in_shadow = count_fallen(
        rectified, outside, hsv, rim_zone, hues, camera
    )
    if against_ring:
        return AGAINST_RING
    if len(counted.places) > MAX_FALLEN:
        return TOO_MANY_FALLEN.format(len(counted.places))
    if partly_hidden or in_shadow:
        return PARTLY_HIDDEN if partly_hidden else IN_SHADOW
    return counted
