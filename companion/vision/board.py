"""Read the Run, Hamster, Run! belt from one overhead frame.

Everything here is a pure function of a frame, an image-to-board homography and the colour
profiles sampled at calibration, so the camera thread, the tests and the bench share it.

Board coordinates are in *cells*: x runs across the belt (lane ``L`` covers ``L-1 <= x < L``),
y runs along it (row ``r`` covers ``r <= y < r+1``; row 0 is the Alligator Pit strip, row 10
the far end). Every belt strip has a half-cell tab at each end where the asterisk strip
carries its asterisks. The printed markers' positions live in :mod:`companion.tabletop`,
because the vision, the marker sheets and the simulator must agree on them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.tabletop import (  # the layout, shared with the simulator
    ASTERISK_MARKER_IDS as ASTERISK_MARKER_IDS,
)
from companion.tabletop import (
    BELT_X0 as BELT_X0,
)
from companion.tabletop import (
    BELT_X1 as BELT_X1,
)
from companion.tabletop import (
    BELT_Y0 as BELT_Y0,
)
from companion.tabletop import (
    BELT_Y1 as BELT_Y1,
)
from companion.tabletop import (
    BOARD_MARKER_LAYOUT as BOARD_MARKER_LAYOUT,
)
from companion.tabletop import (
    LANES as LANES,
)
from companion.tabletop import (
    MARKER_GAP as MARKER_GAP,
)
from companion.tabletop import (
    MARKER_SIDE as MARKER_SIDE,
)
from companion.tabletop import (
    PIT_ROW as PIT_ROW,
)
from companion.tabletop import (
    ROWS as ROWS,
)
from companion.tabletop import (
    TAB_WIDTH as TAB_WIDTH,
)
from companion.tabletop import (
    MarkerLayout as MarkerLayout,
)
from companion.vision.leaning import picture_middle, spread
from companion.vision.markers import marker_corners as marker_corners
from companion.vision.room_light import (
    BLURRED,
    SOFT,
    balanced,
    blurred,
    colour_distance,
    paper_gains,
    table_colour,
)
from companion.vision.sampled_hands import Hands, near_sampled_hands

# Resolution of the rectified belt: enough for a piece (~0.6 cell) to cover ~150 pixels,
# small enough that reading a frame costs a few milliseconds on a Pi.
PIXELS_PER_CELL = 24
# A piece covers ~30% of its cell; 10% already means "a piece of this colour is here".
MIN_PIECE_FRACTION = 0.10
# Skin over the belt larger than this (in cells) means a hand is in the way.
MIN_HAND_CELLS = 0.35
# A hamster whose colour fills a neighbouring square at least this share of what it fills
# in its own lies on the line between them, or the picture is too soft to tell which
# (a shaken or unfocused camera misplaces the grid by a fraction of a square): the
# square is asked for, never guessed. Chosen on the rooms bench's development family
# (36000, 30 frames a room): no hamster on a frame read came above 0.07; the one belt
# frame read wrong on a new family (97000, blur 3 px) had 0.95.
ON_A_LINE = 0.5

Cell = tuple[int, int]
FloatImage = NDArray[np.float32]
Image = NDArray[np.uint8]


@dataclass(frozen=True)
class ColourProfile:
    """How one piece colour looks to this camera, sampled from a calibration frame.

    Hue is what survives uneven light and shadows, so a profile is a hue window plus floors
    on saturation and brightness that keep grey belt and dark gaps out of it.
    """

    hue: float  # OpenCV hue, 0..180
    hue_tolerance: float
    min_saturation: float
    min_value: float


@dataclass(frozen=True)
class BoardReading:
    """What the camera saw on the belt; ``blocked`` frames must never be applied as moves."""

    blocked: bool
    reason: str = ""
    hamsters: dict[str, Cell] = field(default_factory=dict)
    in_pit: frozenset[str] = frozenset()
    missing: frozenset[str] = frozenset()
    asterisk_row: int | None = None


def board_to_pixels(x0: float, y0: float, pixels_per_cell: float) -> NDArray[np.float64]:
    """Scale-and-shift that puts board point (x0, y0) at pixel (0, 0)."""
    scale = pixels_per_cell
    return np.array([[scale, 0, -x0 * scale], [0, scale, -y0 * scale], [0, 0, 1]], np.float64)


def warp_plane(
    frame: Image,
    image_to_board: NDArray[np.float64],
    bounds: tuple[float, float, float, float],
    pixels_per_cell: float,
) -> Image:
    """Rectify the part of ``frame`` covering board rectangle ``bounds`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = bounds
    size = (round((x1 - x0) * pixels_per_cell), round((y1 - y0) * pixels_per_cell))
    warp = board_to_pixels(x0, y0, pixels_per_cell) @ image_to_board
    rectified = cv2.warpPerspective(
        frame, warp, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return np.asarray(rectified, np.uint8)


def hue_distance(hue: NDArray[np.float32], centre: float) -> NDArray[np.float32]:
    """Circular distance on OpenCV's 0..180 hue wheel (red sits at both ends)."""
    diff = np.abs(hue - np.float32(centre))
    result: NDArray[np.float32] = np.minimum(diff, 180.0 - diff)
    return result


def hue_gap(hue: float, other: float) -> float:
    """:func:`hue_distance` between two single hues."""
    diff = abs(hue - other) % 180.0
    return min(diff, 180.0 - diff)


def profile_from_pixels(bgr_pixels: Image) -> ColourProfile:
    """Sample a colour profile from pixels known to show one piece (any shape of array)."""
    hsv = cv2.cvtColor(bgr_pixels.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3)
    vivid = hsv[hsv[:, 1] > 60]
    if len(vivid) < 10:
        raise ValueError("The calibration piece is too grey to sample; check the lighting.")
    angles = vivid[:, 0].astype(np.float64) * (2 * np.pi / 180.0)
    mean_angle = np.arctan2(np.sin(angles).mean(), np.cos(angles).mean())
    hue = float(np.degrees(mean_angle) / 2.0) % 180.0
    spread = float(np.percentile(hue_distance(vivid[:, 0].astype(np.float32), hue), 90))
    saturation = float(np.median(vivid[:, 1]))
    value = float(np.median(vivid[:, 2]))
    return ColourProfile(
        hue=hue,
        hue_tolerance=float(np.clip(spread * 1.8, 7.0, 14.0)),
        min_saturation=max(90.0, 0.5 * saturation),
        min_value=max(35.0, 0.2 * value),
    )


def colour_labels(hsv: Image, profiles: Mapping[str, ColourProfile]) -> NDArray[np.int32]:
    """Label each pixel with the index of the nearest matching profile, or -1 for none."""
    hue = hsv[..., 0].astype(np.float32)
    labels = np.full(hue.shape, -1, dtype=np.int32)
    best = np.full(hue.shape, np.inf, dtype=np.float32)
    for index, profile in enumerate(profiles.values()):
        distance = hue_distance(hue, profile.hue)
        match = (
            (distance <= profile.hue_tolerance)
            & (hsv[..., 1] >= profile.min_saturation)
            & (hsv[..., 2] >= profile.min_value)
            & (distance < best)
        )
        labels[match] = index
        best[match] = distance[match]
    return labels


def skin_mask(hsv: Image) -> Image:
    """Pixels that look like a hand: warm hue, moderate saturation (pieces are far more vivid).

    A morphological opening removes the thin half-saturated rims around red and yellow
    pieces, which would otherwise look like skin.
    """
    hue, sat, val = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    warm = (hue <= 25) | (hue >= 172)
    mask = (warm & (sat >= 35) & (sat <= 165) & (val >= 55)).astype(np.uint8) * 255
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    return np.asarray(opened, np.uint8)


def _cell_fractions(mask: Image, pixels_per_cell: int) -> FloatImage:
    """Fraction of each cell covered by ``mask`` (rows x columns of cells)."""
    rows = mask.shape[0] // pixels_per_cell
    cols = mask.shape[1] // pixels_per_cell
    fractions = cv2.resize(
        (mask > 0).astype(np.float32), (cols, rows), interpolation=cv2.INTER_AREA
    )
    return np.asarray(fractions, np.float32)


def find_asterisk_row(gray: Image, pixels_per_cell: int) -> int | None:
    """Row whose end tabs carry the dark asterisks, or None when no row clearly does.

    Each tab is compared with the brightest nearby belt (a closing), so gradients and soft
    shadows do not look like ink; grid lines are left out by sampling only each tab's core.
    """
    background = cv2.morphologyEx(
        gray, cv2.MORPH_CLOSE, np.ones((pixels_per_cell // 2 + 1,) * 2, np.uint8)
    )
    ink = (gray.astype(np.float32) < 0.6 * background.astype(np.float32)).astype(np.uint8)
    tab = round(TAB_WIDTH * pixels_per_cell)
    inset = max(2, pixels_per_cell // 6)
    scores: list[float] = []
    for row in range(1, ROWS + 1):
        top, bottom = row * pixels_per_cell + inset, (row + 1) * pixels_per_cell - inset
        left = ink[top:bottom, 1 : tab - 1].mean()
        right = ink[top:bottom, -tab + 1 : -1].mean()
        scores.append(float(left + right))
    order = np.argsort(scores)[::-1]
    best, runner_up = scores[order[0]], scores[order[1]]
    if best < 0.08 or best < 2.0 * runner_up:
        return None
    return int(order[0]) + 1


HAND_OVER_BOARD = "a hand is over the board"
SLEEVE_OVER_BOARD = "a sleeve is over the board"
# Of the arm reaching in (as the wheel reader measures it), more than this share not skin
# is a sleeve: bare arms with their shadow measured <= 0.2, coloured sleeves 0.46-0.68.
SLEEVE_SHARE = 0.35
# A belt cell counts as covered when more of it than this differs from the belt's own
# colour (a piece covers about 30 %, the grid lines another 10 %).
COVERED_FRACTION = 0.6
# A pawn 4 cm tall near the belt's end, under a camera 50 cm up, spills about half a
# square past its base: its colour then fills up to 0.67 of a square and spans up to 1.12
# squares (bench/standing_pieces.py, family 36000). One blob of a hamster's colour
# within both bounds is that hamster, however much of its square it fills; a card or a
# sleeve is larger.
PIECE_SPAN = 1.5  # squares, the blob's longer side
PIECE_AREA = 0.9  # squares
# And it is drawn out away from the point under the camera: of the blobs over 0.45 of a
# square on 36000 (2.5 and 4 cm, five rooms), the longer axis at least 1.26 times the
# shorter and at most 24 degrees off the line from that point. A square card is not; nor is
# one lying across that line.
LEANS = 1.2
LEAN_ANGLE_DEG = 30.0
PIECE_RIM = 2  # pixels of shaded side and edge round a hamster's colour
DIFFERS = 22.0  # colour (a, b) distance from the belt's own that makes a pixel something else
LIGHTER_OR_DARKER = 90.0  # the same in lightness (0..255), wide for shadows and lamps
STANDS_OUT = 3.0  # chromaticity distance from the cloth that makes skin a hand


def read_board(
    frame: Image,
    image_to_board: NDArray[np.float64] | None,
    profiles: Mapping[str, ColourProfile],
    cloth: tuple[float, float] | None = None,
    hands: Hands = (),
) -> BoardReading:
    """Where each coloured hamster is, which are in the Pit, and where the asterisk strip is.

    ``image_to_board`` is None when the corner markers could not be found (a hand over them,
    or the board moved): the view is then blocked rather than guessed. So is a blurred
    picture, a hand, and a belt partly out of the picture or covered (a sleeve, a card):
    each refusal says which. ``cloth`` is the table cloth's colour sampled at calibration
    (nothing on the table then); without it the cloth round the belt in this frame is used.
    ``hands`` are the players' skin colours sampled at calibration
    (``calibration.hand_colours``): skin near one of them is skin too, however pale or
    dark, besides the fixed skin window's.
    """
    if image_to_board is None:
        reason = "board markers not visible"
        return BoardReading(
            blocked=True, reason=f"{BLURRED} ({reason})" if blurred(frame, SOFT) else reason
        )
    if blurred(frame):
        return BoardReading(blocked=True, reason=BLURRED)
    view = belt_from_above(frame, image_to_board)
    rectified, hsv, belt, gains, bounds = view
    if _hand_over_belt(rectified, hsv, belt, cloth, hands):
        sleeve = _in_a_sleeve(frame, image_to_board, gains, bounds, hands)
        reason = _reaching_in(_covered_rows(rectified[belt], profiles), sleeve)
        return BoardReading(blocked=True, reason=reason)
    unseen = _rows_out_of_view(frame, image_to_board, bounds, belt)
    if unseen:
        return BoardReading(
            blocked=True,
            reason=f"{unseen} of the belt out of the picture: aim the camera at the whole belt",
        )
    covered = _covered_squares(frame, image_to_board, view, profiles)
    if covered:
        return BoardReading(
            blocked=True,
            reason=f"something covers {covered} of the belt (a sleeve, an arm or a card): "
            "clear the belt",
        )
    labels = colour_labels(hsv[belt], profiles)  # the belt only: a third less to label
    hamsters, in_pit, missing, on_a_line = _places(labels, profiles)
    if on_a_line:
        # On a soft picture the blur may have smeared the hamster over the line, or it
        # lies there: both are said, so a player who focuses still learns which to push.
        between = _between(on_a_line)
        reason = f"{BLURRED} (or {between})" if blurred(frame, SOFT) else between
        return BoardReading(blocked=True, reason=reason)
    pad = round(BELT_MARGIN * PIXELS_PER_CELL)
    gray = np.asarray(cv2.cvtColor(rectified[pad:-pad, pad:-pad], cv2.COLOR_BGR2GRAY), np.uint8)
    asterisk_row = find_asterisk_row(gray, PIXELS_PER_CELL)
    if (missing or asterisk_row is None) and blurred(frame, SOFT):
        return BoardReading(blocked=True, reason=BLURRED)  # a soft picture loses pieces
    return BoardReading(
        blocked=False,
        hamsters=hamsters,
        in_pit=frozenset(in_pit),
        missing=frozenset(missing),
        asterisk_row=asterisk_row,
    )


# Squares of table round the belt looked at with it: where the cloth is sampled, and where
# a hand or a sleeve reaching over the belt shows first.
BELT_MARGIN = 0.5


class BeltView(NamedTuple):
    """The belt and ``BELT_MARGIN`` round it from above, as the belt reader sees it:
    rectified (``PIXELS_PER_CELL``), smoothed and balanced by the markers' paper, the same
    in HSV, where the belt's squares lie in it, the paper gains and the board area
    (board units) it covers."""

    rectified: Image
    hsv: Image
    belt: tuple[slice, slice]
    gains: NDArray[np.float32] | None
    bounds: tuple[float, float, float, float]


def belt_from_above(frame: Image, image_to_board: NDArray[np.float64]) -> BeltView:
    """The belt as the reader sees it (see :class:`BeltView`); the hand sampler
    (``belt_hands``) looks at the same picture, so a colour sampled is the colour read."""
    ppc, margin = PIXELS_PER_CELL, BELT_MARGIN
    bounds = (BELT_X0 - margin, BELT_Y0 - margin, BELT_X1 + margin, BELT_Y1 + margin)
    gains = paper_gains(frame, image_to_board, BOARD_MARKER_LAYOUT)
    rectified = warp_plane(frame, image_to_board, bounds, ppc)
    rectified = balanced(np.asarray(cv2.medianBlur(rectified, 3), np.uint8), gains)
    hsv = np.asarray(cv2.cvtColor(rectified, cv2.COLOR_BGR2HSV), np.uint8)
    pad, tab = round(margin * ppc), round(TAB_WIDTH * ppc)
    belt = slice(pad, pad + (ROWS + 1) * ppc), slice(pad + tab, pad + tab + LANES * ppc)
    return BeltView(rectified, hsv, belt, gains, bounds)


def cloth_round_belt(rectified: Image, belt: tuple[slice, slice]) -> NDArray[np.float32]:
    """The cloth's colour (chromaticity) in the margin round the belt, in this picture."""
    around = np.full(rectified.shape[:2], 255, np.uint8)
    around[belt] = 0
    return table_colour(rectified, around)


def _reaching_in(covered: str, sleeve: bool) -> str:
    """Why a frame with a hand over the belt is not read, with the rows it covers."""
    if sleeve:
        where = f"; it covers {covered}" if covered else ""
        return f"{SLEEVE_OVER_BOARD} (an arm reaching in{where})"
    return HAND_OVER_BOARD + (f" (it or its sleeve covers {covered})" if covered else "")


class Places(NamedTuple):
    """Where each colour is: its square (row, lane), the Pit, missing, or on a line
    between two squares (both given)."""

    hamsters: dict[str, Cell]
    in_pit: set[str]
    missing: set[str]
    on_a_line: dict[str, tuple[Cell, Cell]]


def _places(labels: NDArray[np.int32], profiles: Mapping[str, ColourProfile]) -> Places:
    """Each colour's square (row, lane), or the Pit, or missing, or on a line."""
    places = Places({}, set(), set(), {})
    for index, colour in enumerate(profiles):
        whole = _cell_fractions((labels == index).astype(np.uint8), PIXELS_PER_CELL)
        pit_fraction = float(whole[PIT_ROW].sum())
        fractions = whole.copy()
        fractions[PIT_ROW] = 0.0  # the Pit is one strip, not squares: a hamster is in it or not
        row, lane = (int(i) for i in np.unravel_index(int(np.argmax(fractions)), fractions.shape))
        if fractions[row, lane] >= MIN_PIECE_FRACTION:
            places.hamsters[colour] = (row, lane + 1)
            beside = _fullest_neighbour(whole, row, lane)  # row 1's include the Pit beside it
            if whole[beside] >= ON_A_LINE * whole[row, lane]:
                first, second = sorted(((row, lane + 1), (beside[0], beside[1] + 1)))
                places.on_a_line[colour] = (first, second)
        elif pit_fraction >= MIN_PIECE_FRACTION:
            places.in_pit.add(colour)
        else:
            places.missing.add(colour)
    return places


def _fullest_neighbour(fractions: FloatImage, row: int, lane: int) -> tuple[int, int]:
    """Of the squares sharing a side with (row, lane), the one this colour fills most."""
    rows, lanes = fractions.shape
    beside = [
        (r, c)
        for r, c in ((row - 1, lane), (row + 1, lane), (row, lane - 1), (row, lane + 1))
        if 0 <= r < rows and 0 <= c < lanes
    ]
    return max(beside, key=lambda cell: float(fractions[cell]))


def _between(on_a_line: Mapping[str, tuple[Cell, Cell]]) -> str:
    """The refusal for hamsters on a line, as a player finds them: "the yellow hamster
    is on the line between row 10 lane 3 and row 10 lane 4: push it onto one square"."""
    named = [
        f"the {colour} hamster is on the line between {_square(a)} and {_square(b)}"
        for colour, (a, b) in on_a_line.items()
    ]
    return "; ".join(named) + (
        ": push it onto one square" if len(named) == 1 else ": push each onto one square"
    )


def _square(cell: Cell) -> str:
    """A square as a player says it ("row 3 lane 2"), or "the Pit" for row 0."""
    return "the Pit" if cell[0] == PIT_ROW else f"row {cell[0]} lane {cell[1]}"


def _rows(rows: list[int]) -> str:
    """Rows as a player says them: "rows 2-3", "row 4"."""
    if len(rows) > 1 and rows[-1] != rows[0]:
        return f"rows {rows[0]}-{rows[-1]}"
    return f"row {rows[0]}"


def _skin(rectified: Image, hsv: Image, hands: Hands) -> Image:
    """Skin by the fixed window, or near a hand sampled at this table."""
    skin = skin_mask(hsv)
    return skin if not hands else np.asarray(skin | near_sampled_hands(rectified, hsv, hands))


def _hand_over_belt(
    rectified: Image,
    hsv: Image,
    belt: tuple[slice, slice],
    cloth: tuple[float, float] | None,
    hands: Hands = (),
) -> bool:
    """Skin over the belt, told from the cloth (sampled at calibration, else round the belt
    in this frame): on a wooden table under a lamp the cloth itself is skin-coloured, so
    only skin that differs from the cloth counts. ``hands``: see :func:`read_board`."""
    ppc = PIXELS_PER_CELL
    skin = _skin(rectified, hsv, hands)
    if cv2.countNonZero(skin) < MIN_HAND_CELLS * ppc * ppc:
        return False
    table = cloth_round_belt(rectified, belt) if cloth is None else np.array(cloth, np.float32)
    foreign = (colour_distance(rectified, table) > STANDS_OUT).astype(np.uint8) * 255
    skin = np.asarray(
        cv2.morphologyEx(skin & foreign, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)), np.uint8
    )
    count, _, stats, _ = cv2.connectedComponentsWithStats(skin, connectivity=8)
    areas = stats[1:count, cv2.CC_STAT_AREA]
    return bool(len(areas) and areas.max() >= MIN_HAND_CELLS * ppc * ppc)


def _in_a_sleeve(
    frame: Image,
    image_to_board: NDArray[np.float64],
    gains: NDArray[np.float32] | None,
    bounds: tuple[float, float, float, float],
    hands: Hands = (),
) -> bool:
    """Whether the hand over the belt comes in a sleeve: most of the arm it belongs to,
    from the picture's edge to the hand, is neither skin nor tablecloth.

    The arm is mostly off the belt, so this looks at the whole picture (at half size; it
    only runs when a hand is already seen): skin and what stands out from the cloth,
    leaving out the belt and the markers' paper, which stand out from any cloth.
    """
    small = cv2.resize(
        frame, (frame.shape[1] // 2, frame.shape[0] // 2), interpolation=cv2.INTER_AREA
    )
    small = balanced(np.asarray(small, np.uint8), gains)
    hsv = np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2HSV), np.uint8)
    to_image = np.diag([0.5, 0.5, 1.0]) @ np.linalg.inv(image_to_board)
    board = _board_area(small.shape[:2], to_image, bounds)
    table = table_colour(small, 255 - board)
    foreign = (colour_distance(small, table) > STANDS_OUT).astype(np.uint8) * 255
    skin = np.asarray(
        cv2.morphologyEx(
            _skin(small, hsv, hands) & foreign, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)
        ),
        np.uint8,
    )
    count, patches, stats, _ = cv2.connectedComponentsWithStats(skin, connectivity=8)
    if count < 2:
        return False
    areas_found = stats[1:count, cv2.CC_STAT_AREA]
    patches_found = [i + 1 for i, area in enumerate(areas_found) if area >= 0.4 * areas_found.max()]
    # A black or white sleeve has the cloth's colour but not its lightness (shadows
    # darken the cloth less than this).
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    cloth_gray = float(np.median(gray[board == 0]))
    unlike = (gray < 0.45 * cloth_gray) | (gray > 1.35 * cloth_gray)
    foreign |= unlike.astype(np.uint8) * 255
    reaching_in = np.asarray((foreign & (255 - board)) | skin, np.uint8)
    _, labels = cv2.connectedComponents(reaching_in, connectivity=8)
    edge = np.zeros(labels.shape, bool)
    edge[:2, :], edge[-2:, :], edge[:, :2], edge[:, -2:] = True, True, True, True
    from_edge = set(np.unique(labels[edge & (reaching_in > 0)]).tolist()) - {0}
    # The sleeve's end over the belt is left out with the belt: an arm ending a square or so
    # short of the hand is still its arm.
    ends = cv2.perspectiveTransform(np.array([[[0.0, 0.0], [LANES, ROWS]]]), to_image)[0]
    square = float(np.linalg.norm(ends[1] - ends[0])) / math.hypot(LANES, ROWS)
    near = np.ones((2 * round(1.5 * square) + 1,) * 2, np.uint8)
    arms = [
        a
        for i in patches_found
        for a in from_edge
        & set(np.unique(labels[cv2.dilate((patches == i).astype(np.uint8), near) > 0]))
    ]
    if not arms:
        return False
    arm = np.isin(labels, arms) | np.isin(patches, patches_found)
    covered = float(np.count_nonzero(arm))
    bare = float(np.count_nonzero(arm & (skin > 0)))
    return covered - bare > SLEEVE_SHARE * covered


def _board_area(
    shape: tuple[int, ...], to_image: NDArray[np.float64], bounds: tuple[float, float, float, float]
) -> Image:
    """A mask of the belt (``bounds``) and the markers with their white border, in a
    picture of ``shape`` that ``to_image`` maps the board into."""
    board = np.zeros(shape[:2], np.uint8)
    x0, y0, x1, y1 = bounds
    areas = [(x0, y0, x1, y1)]
    areas += [
        (x - 0.3, y - 0.3, x + side + 0.3, y + side + 0.3)
        for x, y, side in BOARD_MARKER_LAYOUT.values()
    ]
    for ax0, ay0, ax1, ay1 in areas:
        quad = np.array([[[ax0, ay0], [ax1, ay0], [ax1, ay1], [ax0, ay1]]], np.float64)
        corners = cv2.perspectiveTransform(quad, to_image)[0]
        cv2.fillConvexPoly(board, np.round(corners).astype(np.int32), (255,))
    return board


def _rows_out_of_view(
    frame: Image,
    image_to_board: NDArray[np.float64],
    bounds: tuple[float, float, float, float],
    belt: tuple[slice, slice],
) -> str:
    """The belt rows ("rows a-b") that fall outside the picture, or "" when all are in it."""
    ppc = PIXELS_PER_CELL
    seen = np.full(frame.shape[:2], 255, np.uint8)
    x0, y0, x1, y1 = bounds
    size = (round((x1 - x0) * ppc), round((y1 - y0) * ppc))
    warp = board_to_pixels(x0, y0, ppc) @ image_to_board
    inside = cv2.warpPerspective(seen, warp, size, flags=cv2.INTER_NEAREST, borderValue=(0,))
    fractions = _cell_fractions(np.asarray(inside, np.uint8)[belt], ppc)
    rows = [row for row in range(ROWS + 1) if float(fractions[row].min()) < 0.5]
    return _rows(rows) if rows else ""


def _covered_rows(
    belt: Image, profiles: Mapping[str, ColourProfile], leaning: Callable[[], Image] | None = None
) -> str:
    """The rows ("rows a-b") where something lies over whole squares, or "" for none.

    A flat hamster covers a third of its square at most; a sleeve, an arm or a card covers
    squares whole, in whatever colour (a blue sleeve is not the blue hamster). A standing
    hamster seen from off to one side can fill most of a square, so when a square looks
    covered, the hamsters ``leaning`` finds (:func:`_leaning_hamsters`, cut to the belt)
    are left out and the squares looked at again.
    """
    ppc = PIXELS_PER_CELL
    lab = cv2.cvtColor(belt, cv2.COLOR_BGR2LAB).astype(np.float32)
    other = np.zeros(belt.shape[:2], np.uint8)
    for part in (slice(0, ppc), slice(ppc, None)):  # the Pit, then the strips
        own = np.median(lab[part][::3, ::3].reshape(-1, 3), axis=0)  # every 9th pixel
        # Light falls unevenly and shadows darken, so lightness gets a wide margin;
        # colour (a, b) hardly changes with light and gets a narrow one.
        chroma = cv2.magnitude(lab[part][..., 1] - own[1], lab[part][..., 2] - own[2])
        lightness = np.abs(lab[part][..., 0] - own[0])
        differs = (chroma > DIFFERS) | (lightness > LIGHTER_OR_DARKER)
        other[part] = differs.astype(np.uint8) * 255
    fractions = _cell_fractions(other, ppc)
    if leaning is not None and float(fractions.max()) > COVERED_FRACTION:  # rare: look closer
        other[leaning() > 0] = 0
        fractions = _cell_fractions(other, ppc)
    rows = [row for row in range(ROWS + 1) if float(fractions[row].max()) > COVERED_FRACTION]
    return _rows(rows) if rows else ""


def _covered_squares(
    frame: Image,
    image_to_board: NDArray[np.float64],
    view: BeltView,
    profiles: Mapping[str, ColourProfile],
) -> str:
    """The rows something lies over (:func:`_covered_rows`), leaning hamsters left out."""

    def leaning() -> Image:  # only when a square looks covered
        below = below_camera(frame, image_to_board, view.bounds)
        return _leaning_hamsters(view.hsv, profiles, below)[view.belt]

    return _covered_rows(view.rectified[view.belt], profiles, leaning)


def below_camera(
    frame: Image, image_to_board: NDArray[np.float64], bounds: tuple[float, ...]
) -> tuple[float, float]:
    """Roughly where the camera is over the table, in the rectified view's pixels."""
    x, y = picture_middle(frame, image_to_board)
    return ((x - bounds[0]) * PIXELS_PER_CELL, (y - bounds[1]) * PIXELS_PER_CELL)


def _leaning_hamsters(
    hsv: Image, profiles: Mapping[str, ColourProfile], below: tuple[float, float]
) -> Image:
    """Where hamsters stand that lean over the next square, in the whole rectified view:
    for each colour its one blob of a piece's size (none when it shows two), whole in the
    view, within ``PIECE_SPAN`` and ``PIECE_AREA``, drawn out (``LEANS``) along the line
    from the point under the camera (``below``) to it, as a standing piece's top is;
    grown by a rim (shaded sides and edges just outside the colour's window). A card of a
    hamster's colour, square or lying across that line, still covers its squares."""
    labels = colour_labels(hsv, profiles)
    found = np.zeros(labels.shape, np.uint8)
    cell = PIXELS_PER_CELL * PIXELS_PER_CELL
    rows, cols = labels.shape
    for index in range(len(profiles)):
        _, parts, stats, _ = cv2.connectedComponentsWithStats(
            (labels == index).astype(np.uint8), connectivity=8
        )
        areas = stats[1:, cv2.CC_STAT_AREA]
        if len(areas) == 0 or int(np.sum(areas >= MIN_PIECE_FRACTION * cell)) > 1:
            continue
        largest = 1 + int(np.argmax(areas))
        x, y, wide, tall = (int(v) for v in stats[largest, :4])
        whole = x > 0 and y > 0 and x + wide < cols and y + tall < rows
        small = int(areas[largest - 1]) <= PIECE_AREA * cell
        if not (whole and small and max(wide, tall) <= PIECE_SPAN * PIXELS_PER_CELL):
            continue
        blob = parts == largest
        if _leans_from(blob, below):
            found[blob] = 255
    rim = np.ones((PIECE_RIM * 2 + 1,) * 2, np.uint8)
    return np.asarray(cv2.dilate(found, rim), np.uint8)


def _leans_from(blob: NDArray[np.bool_], below: tuple[float, float]) -> bool:
    """Whether ``blob`` is drawn out along the line from ``below`` through its middle, as
    a standing piece seen from a camera there is (``LEANS``: the longer axis at least
    that many times the shorter, within ``LEAN_ANGLE_DEG`` of that line)."""
    shape = spread(blob)
    if shape is None or shape.elongation() < LEANS:
        return False
    return shape.axis_off(below) <= LEAN_ANGLE_DEG
