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
homography from the table's corner markers 10-13. The pieces outside the measured ring
are counted by ``companion.vision.wheel_pieces``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.tabletop import (
    CM_PER_UNIT,
    RIM_MARKER_FILL,
    RIM_MARKER_IDS,
    TABLE_MARKER_LAYOUT,
    TABLE_SIZE,
    WHEEL_DEPTH,
    WHEEL_RADIUS,
    MarkerLayout,
)
from companion.tabletop import (  # the layout, shared with the simulator
    DEFAULT_DIVISIONS as DEFAULT_DIVISIONS,
)
from companion.tabletop import (
    RIM_MARKER_ID as RIM_MARKER_ID,
)
from companion.tabletop import (
    table_marker_layout as table_marker_layout,
)
from companion.vision import wheel_pieces
from companion.vision.board import skin_mask, warp_plane
from companion.vision.leaning import picture_middle
from companion.vision.markers import (
    MarkerCorners,
    detect_markers,
    homography_from_markers,
    marker_corners,
)
from companion.vision.room_light import (
    BLURRED,
    SKIN_NEAR,
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
from companion.vision.sampled_hands import (
    Hand,
    Hands,
    close_to_cloth,
    hand_colour,
    near_a_sampled_hand,
    near_sampled_hands,
    picture_edge,
)
from companion.vision.wheel_pieces import (  # importable from here, as before
    AGAINST_RING as AGAINST_RING,
)
from companion.vision.wheel_pieces import (
    CLOTH_HIDES as CLOTH_HIDES,
)
from companion.vision.wheel_pieces import (
    PARTLY_HIDDEN as PARTLY_HIDDEN,
)
from companion.vision.wheel_pieces import (
    PIECE_HUES as PIECE_HUES,
)
from companion.vision.wheel_pieces import (
    PIXELS_PER_UNIT,
    FloatImage,
    HueWindows,
    Image,
)
from companion.vision.wheel_pieces import (
    TOO_MANY_FALLEN as TOO_MANY_FALLEN,
)
from companion.vision.wheel_pieces import (
    WHEEL_PIECE_NAMES as WHEEL_PIECE_NAMES,
)
from companion.vision.wheel_pose import (
    CameraPose,
    RimFit,
    back_to_frame,
    camera_pose,
    fit_rim,
    unroll_strip,
)

MIN_HAND_UNITS = 0.35
MIN_RIM_MARKERS = 2  # the fit needs two markers to tell the angle from a shift
# The rim corners may lie this far (RMS, table units: 0.15 is 7 mm) from the fitted ring;
# further, the angle is not trusted.
MAX_FIT_ERROR = 0.15
# Markers all near the top trade the angle for a shift along the band; a reading whose
# angle could be this far off (two standard errors, degrees) is not given.
MAX_UNCERTAINTY_DEG = 4.0
SKIN_STANDS_OUT = 3.0  # chromaticity distance from the cloth that makes skin a hand
RIM_STEP = 360.0 / len(RIM_MARKER_IDS)


@dataclass(frozen=True)
class WheelReading:
    """One frame's view of the wheel; ``blocked`` frames carry no measurement.

    ``angle_deg`` is the rim's angle (0..360, from the strip), ``heading_deg`` the
    direction of the band's long side in the table plane (the way it rolls), ``centre``
    the middle of its footprint; ``markers`` how many rim markers the angle rests on.
    ``pieces_reason`` is empty when ``fallen`` is this frame's count, else why the fallen
    pieces could not be counted while the ring itself was measured (a cloth that hides a
    piece colour, a piece against the ring; ``fallen`` is then empty, which is not "none
    fell"): the angle is worth having without the count.
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
    # The cloth is so close to skin colour that some hands over it go unseen
    # (``CLOTH_CLOSE_TO_SKIN``): said to the players, the reading is still given.
    cloth_close_to_skin: bool = False
    # A hand sampled at this table is that close to this cloth (``SAMPLED_HAND_LIKE_CLOTH``)
    hand_close_to_cloth: bool = False
    # Where each counted piece lies, and the whole hoop as the camera sees it drawn on the
    # table (table units): what ``companion.vision.fallen_memory`` follows from frame to
    # frame, so a piece the rolling ring comes to hide is still counted.
    fallen_at: tuple[wheel_pieces.FallenPiece, ...] = ()
    ring_outline: tuple[tuple[float, float], ...] = ()
    # Of ``fallen``, how many are held from earlier frames (hidden behind the ring now).
    held_behind_ring: int = 0

    @property
    def fallen_total(self) -> int:
        return sum(self.fallen.values())


# The reason a frame is not read while a hand reaches over the table (watchers test it).
HAND_OVER_TABLE = "a hand is over the table"
CLOTH_CLOSE_TO_SKIN = (
    "The table cloth is close to skin colour, so a hand over the wheel's table may go "
    "unseen: lay a mat or a cloth of another colour (grey, green, blue or white) under the "
    "wheel."
)
SAMPLED_HAND_LIKE_CLOTH = (
    "A hand sampled at this table is close to the table cloth's colour, so it may go unseen "
    "over the wheel's table: lay a mat of a clearly different colour under the wheel."
)
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


def _skin_coloured(shares: NDArray[np.float32], hands: Hands = ()) -> bool:
    """Whether a patch's median colour (chromaticity of its pixels, N x 1 x 2) is a skin's:
    in the skin window, or one of the hands sampled at this table."""
    median = np.median(shares.reshape(-1, 2), axis=0)
    return distance_from_skin(median) <= SKIN_PATCH_SLACK or near_a_sampled_hand(median, hands)


def hand_over(
    rectified: Image,
    skin: Image,
    table: NDArray[np.float32],
    min_pixels: float,
    hands: Hands = (),
) -> str:
    """Skin that is not the tablecloth and belongs to something reaching in from the edge:
    ``HAND_OVER_TABLE``, or ``SLEEVE_OVER_TABLE`` when most of what reaches in is not skin
    (a sleeve), or "" when nothing does.

    A wooden table under a lamp is skin-coloured too, so skin is only skin where it
    stands out from the cloth sampled in this frame; and a hand comes with an arm (bare
    or in a sleeve) that crosses the edge of the picture, unlike a cup of coffee. ``skin``
    is the mask of what may be skin: the skin window's (``board.skin_mask``) of
    ``rectified``, with the sampled ``hands``' colours added when there are any.
    """
    if cv2.countNonZero(skin) < min_pixels:
        return ""  # too little skin for a hand, whatever the cloth
    foreign = (colour_distance(rectified, table) > SKIN_STANDS_OUT).astype(np.uint8) * 255
    skin = np.asarray(
        cv2.morphologyEx(skin & foreign, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)),
        np.uint8,
    )
    count, patches, stats, _ = cv2.connectedComponentsWithStats(skin, connectivity=8)
    big = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= min_pixels]
    big = [
        i for i in big if _skin_coloured(chromaticity(rectified[patches == i][:, None, :]), hands)
    ]
    if not big:
        return ""
    _count, labels = cv2.connectedComponents(foreign, connectivity=8)
    border = picture_edge(labels.shape)
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
    piece_hues: HueWindows = PIECE_HUES,
    hands: Hands = (),
) -> WheelReading:
    """Measure the ring and count the pieces outside it in one frame.

    Hidden table markers block the view, as do a hand over the table (a reaching arm never
    counts as a fall), a blurred picture, a strip with fewer than two markers in view and a
    rim fit worse than ``MAX_FIT_ERROR``: then nothing is measured. When the ring is
    measured but the fallen pieces cannot be counted (a cloth that hides a piece colour, a
    piece against the ring, a piece-coloured part of something larger, more than can fall:
    ``wheel_pieces``), the reading keeps the ring, with ``fallen`` empty and the reason in
    ``pieces_reason``: the angle does not depend on the pieces, and the roll is what a game
    needs most. On a soft picture such a frame is refused whole, the blur named first: the
    count failing there is the blur's doing, and so are rings read several degrees off.
    With the camera's height (calibration) the rim strip is placed where it really stands,
    a diameter above the table at the top; without it the ring is taken as flat (the
    simulator's flat renders). ``piece_hues`` name the coloured pieces: this table's own,
    when they were sampled (``calibration.wheel_colours``), else a typical set's. ``hands``
    are the players' skin colours sampled there (``calibration.hand_colours``): skin as
    well as the fixed window's, looked for once the ring is found and set aside
    (:func:`_sampled_hand_over`).
    """
    layout = TABLE_MARKER_LAYOUT if table_size == TABLE_SIZE else table_marker_layout(table_size)
    found = detect_markers(frame)
    image_to_table = homography_from_markers(found, layout)
    if image_to_table is None:
        return _refusal(frame, "table markers not visible")
    if blurred(frame):
        return WheelReading(blocked=True, reason=BLURRED)
    seen = _balanced_table(frame, image_to_table, layout, table_size)
    rectified, hsv = seen.rectified, seen.hsv
    if seen.reaching_in:
        return WheelReading(blocked=True, reason=seen.reaching_in)
    fitted = _fitted_ring(frame, found, layout, image_to_table, rectified, camera_height_cm, radius)
    ring = None if isinstance(fitted, WheelReading) else fitted[1]
    if hands and (late := _sampled_hand_over(seen, ring, hands)):
        return WheelReading(blocked=True, reason=late)
    if isinstance(fitted, WheelReading):
        return fitted
    fit, ring, markers = fitted
    camera = (
        None if camera_height_cm is None else _overhead(frame, image_to_table, camera_height_cm)
    )
    reading = _with_pieces(
        frame, rectified, hsv, ring, layout, (fit, markers, radius), piece_hues, camera
    )
    if reading.blocked:
        return reading
    near = any(close_to_cloth(hand, seen.table) for hand in hands)
    return replace(reading, cloth_close_to_skin=seen.cloth_close_to_skin, hand_close_to_cloth=near)


def _fitted_ring(
    frame: Image,
    found: MarkerCorners,
    layout: MarkerLayout,
    image_to_table: NDArray[np.float64],
    rectified: Image,
    camera_height_cm: float | None,
    radius: float,
) -> tuple[RimFit, NDArray[np.float64], int] | WheelReading:
    """The ring fitted to the rim markers (its fit, its outline in the table and how many
    markers it rests on), or the refusal saying why it cannot be."""
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
    return fit, ring, markers


# Round the ring, this far (table units) is its shadow and shaded side, never a hand.
RING_SHADOW = 0.6


def _ring_and_shadow(shape: tuple[int, ...], ring: NDArray[np.float64]) -> Image:
    """A mask (0/255) of the rectified table where the ring, its shaded side or its shadow
    may lie: the ring's outline grown by ``RING_SHADOW``."""
    hull = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(ring.astype(np.float32)).astype(np.int32), (255,))
    grow = round(RING_SHADOW * PIXELS_PER_UNIT) * 2 + 1
    return np.asarray(cv2.dilate(hull, np.ones((grow, grow), np.uint8)), np.uint8)


def _sampled_hand_over(seen: BalancedTable, ring: NDArray[np.float64] | None, hands: Hands) -> str:
    """A hand of one of the sampled colours over the table (``hand_over``), the ring and
    its shadow set aside: the ring's shaded side and the shadow it casts are as dark as a
    deep hand in a dim room and near some skins' colour, so looked for with the sampled
    colours over the whole table they read as a hand in 9-18 of 30 hand-free frames
    (``bench/wheel_hands.py --sampled``, development seeds); with the ring set aside, 0-1.
    What is found is a player's own skin reaching in, so it is named a hand: the edge of a
    dark hand on a dark cloth is not its colour, and the sleeve test (``SLEEVE_SHARE``)
    took bare dark arms on green felt for sleeves. With no ring found (``ring`` None: the
    hand may hide its rim strip) the whole table is looked at: a false hand then only
    changes why a frame that is refused anyway is refused."""
    skin = seen.skin | near_sampled_hands(seen.rectified, seen.hsv, hands)
    if ring is not None:
        skin[_ring_and_shadow(skin.shape, ring) > 0] = 0
    min_pixels = MIN_HAND_UNITS * PIXELS_PER_UNIT**2
    return HAND_OVER_TABLE if hand_over(seen.rectified, skin, seen.table, min_pixels, hands) else ""


class BalancedTable(NamedTuple):
    """The table seen from straight above with the lamp's colour divided out (BGR and
    HSV), why a hand or sleeve over it makes it unreadable ("" when none is), and whether
    its cloth is so close to skin colour that some hands over it go unseen."""

    rectified: Image
    hsv: Image
    reaching_in: str
    cloth_close_to_skin: bool
    table: NDArray[np.float32]  # the cloth's colour (chromaticity)
    skin: Image  # the skin window's mask


def _balanced_table(
    frame: Image,
    image_to_table: NDArray[np.float64],
    layout: MarkerLayout,
    table_size: tuple[float, float],
) -> BalancedTable:
    """The rectified table, what reaches over it and whether its cloth hides hands (the
    skin window's mask serves both)."""
    ppu = PIXELS_PER_UNIT
    gains = paper_gains(frame, image_to_table, layout)
    rectified = warp_plane(frame, image_to_table, (0.0, 0.0, *table_size), ppu)
    rectified = balanced(np.asarray(cv2.medianBlur(rectified, 3), np.uint8), gains)
    hsv = np.asarray(cv2.cvtColor(rectified, cv2.COLOR_BGR2HSV), np.uint8)
    table = table_colour(rectified, np.full(rectified.shape[:2], 255, np.uint8))
    skin = skin_mask(hsv)
    reaching_in = hand_over(rectified, skin, table, MIN_HAND_UNITS * ppu * ppu)
    # A cloth whose colour is skin's hides some hands however dark it looks: the belt's
    # test also asks that most of it pass the skin window's brightness, but dark wood under
    # a dim lamp (which fails that) hid very dark and deep hands, sampled or not
    # (``bench/wheel_hands.py --sampled``).
    skin_like = distance_from_skin(table) < SKIN_NEAR
    return BalancedTable(rectified, hsv, reaching_in, skin_like, table, skin)


def pieces_laid_out(
    frame: Image, table_size: tuple[float, float] = TABLE_SIZE
) -> list[wheel_pieces.LaidOut] | str:
    """The coloured pieces lying on the wheel's table, as the fallen-piece count sees them
    (for sampling this set's colours at calibration), or why the picture cannot say: its
    table markers hidden, blurred, a hand over it. The ring may be in the picture: it is
    too large for a piece, and a piece touching it is left out."""
    layout = TABLE_MARKER_LAYOUT if table_size == TABLE_SIZE else table_marker_layout(table_size)
    # All four: the colours are sampled once and then trusted, so the table must be whole.
    image_to_table = homography_from_markers(detect_markers(frame), layout, len(layout))
    if image_to_table is None:
        return "the wheel's four table markers are not all in the picture"
    if blurred(frame):
        return BLURRED
    seen = _balanced_table(frame, image_to_table, layout, table_size)
    if seen.reaching_in:
        return seen.reaching_in
    outside = wheel_pieces.free_table(seen.rectified.shape[:2], layout)
    return wheel_pieces.vivid_pieces(seen.rectified, outside, seen.hsv)


TABLE_MARKERS_HIDDEN = (
    "the wheel's table markers are not in the picture: uncover all four and sample again"
)
RING_HIDDEN = (
    "the wheel's ring is not found in the picture: hold the hand beside the ring, not over "
    "it, so its rim strip shows, and sample again"
)


class HandSeen(NamedTuple):
    """A hand's colour as sampled, and the cloth's it was held over (chromaticity)."""

    colour: Hand
    cloth: Hand


def hand_sampled(
    frame: Image,
    table_size: tuple[float, float] = TABLE_SIZE,
    camera_height_cm: float | None = None,
) -> HandSeen | str:
    """The colour of the one hand held over the wheel's table (for sampling a player's
    skin at calibration, ``calibration.hand_colours``), measured as the hand check sees
    skin (the table from above, the lamp divided out); or why the picture cannot say.
    The ring must be found, and is set aside with its shadow: a hand over it would
    otherwise be one patch with it, and the far side of the ring taken for the hand."""
    layout = TABLE_MARKER_LAYOUT if table_size == TABLE_SIZE else table_marker_layout(table_size)
    found = detect_markers(frame)
    image_to_table = homography_from_markers(found, layout)
    if image_to_table is None:
        return TABLE_MARKERS_HIDDEN
    if blurred(frame):
        return BLURRED
    seen = _balanced_table(frame, image_to_table, layout, table_size)
    fitted = _fitted_ring(
        frame, found, layout, image_to_table, seen.rectified, camera_height_cm, WHEEL_RADIUS
    )
    if isinstance(fitted, WheelReading):
        return RING_HIDDEN
    aside = _ring_and_shadow(seen.skin.shape, fitted[1])
    min_pixels = MIN_HAND_UNITS * PIXELS_PER_UNIT**2
    # On a cloth of skin's colour a hand not seen is likelier the cloth's colour than
    # absent (very dark skin over dark wood under a lamp).
    colour = hand_colour(
        seen.rectified,
        seen.hsv,
        seen.table,
        SKIN_STANDS_OUT,
        min_pixels,
        aside,
        seen.cloth_close_to_skin,
    )
    if isinstance(colour, str):
        return colour
    return HandSeen(colour, (float(seen.table[0]), float(seen.table[1])))


def _overhead(
    frame: Image, image_to_table: NDArray[np.float64], height_cm: float
) -> wheel_pieces.Overhead:
    """Roughly where the camera is, for the piece count: over the table point at the
    picture's middle (it looks nearly straight down), at its calibrated height; in the
    rectified table's pixels."""
    x, y = picture_middle(frame, image_to_table)
    height = height_cm / CM_PER_UNIT * PIXELS_PER_UNIT
    return wheel_pieces.Overhead(x * PIXELS_PER_UNIT, y * PIXELS_PER_UNIT, height)


def _with_pieces(
    frame: Image,
    rectified: Image,
    hsv: Image,
    ring: NDArray[np.float64],
    layout: MarkerLayout,
    measured: tuple[RimFit, int, float],
    piece_hues: HueWindows,
    camera: wheel_pieces.Overhead | None = None,
) -> WheelReading:
    """The measured ring's reading (its fit, the markers it rests on, its radius) with the
    fallen pieces counted, or with why they cannot be (``pieces_reason``); a soft picture
    whose pieces cannot be counted is refused whole."""
    fit, markers, radius = measured
    fallen = wheel_pieces.fallen_pieces(rectified, hsv, ring, layout, piece_hues, camera)
    if isinstance(fallen, str) and blurred(frame, SOFT):
        # On a soft picture the count fails for the blur (the markers' paper looks darker,
        # a grey cloth passes for a white one) and the angle is not to be trusted either:
        # such frames' rings were 6-10 degrees off on 6 of 32 (blur 2 px, development
        # seeds 41000-48000). The blur is named first, the whole frame refused.
        return _refusal(frame, fallen)
    return WheelReading(
        blocked=False,
        centre=fit.centre,
        heading_deg=fit.heading_deg,
        radius=radius,
        angle_deg=fit.angle_deg,
        markers=markers,
        fallen={} if isinstance(fallen, str) else fallen.counts,
        fit_error=fit.error,
        angle_uncertainty_deg=fit.uncertainty_deg,
        pieces_reason=fallen if isinstance(fallen, str) else "",
        fallen_at=() if isinstance(fallen, str) else fallen.places,
        ring_outline=tuple((float(x), float(y)) for x, y in ring / PIXELS_PER_UNIT),
    )


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
    first: WheelReading | None = None  # the reading the roll is counted from

    def update(self, reading: WheelReading) -> None:
        if reading.blocked:
            return
        if self.last is not None:
            self.total_roll_deg += angle_difference(reading.angle_deg, self.last.angle_deg)
        else:
            self.first = reading
        self.last = reading

    @property
    def roll_uncertainty_deg(self) -> float:
        """How far off the total roll could be (about two standard errors, degrees). The
        frame-to-frame steps add up to the last angle less the first (plus whole turns),
        so only those two readings' errors remain, however long the game."""
        if self.first is None or self.last is None:
            return 0.0
        return math.hypot(self.first.angle_uncertainty_deg, self.last.angle_uncertainty_deg)

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
