"""From camera pixels to board cells, and the calibration file that remembers how.

The printed corner markers are found with OpenCV's ArUco detector; their known positions
on the board give the image-to-board homography, recomputed on every frame when the
markers are visible (a nudged camera then costs nothing). The calibration file keeps what
cannot be re-measured per frame: the colour of each hamster under this light, the table
cloth's colour (sampled round the belt with nothing on it; a cloth close to skin colour is
said so, :data:`~companion.vision.room_light.CLOSE_TO_SKIN`), the camera's fixed exposure,
white balance and focus, and the homography to fall back on.
"""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.markers import CORNER_NAMES
from companion.errors import CompanionError
from companion.tabletop import BELT_X0, BELT_X1, BELT_Y0, BELT_Y1
from companion.vision.board import (
    ASTERISK_MARKER_IDS,
    BOARD_MARKER_LAYOUT,
    PIXELS_PER_CELL,
    ROWS,
    ColourProfile,
    MarkerLayout,
    hue_distance,
    profile_from_pixels,
    skin_mask,
    warp_plane,
)
from companion.vision.markers import (
    ARUCO_DICTIONARY as ARUCO_DICTIONARY,
)
from companion.vision.markers import (
    MIN_MARKERS as MIN_MARKERS,
)
from companion.vision.markers import (
    MarkerCorners as MarkerCorners,
)
from companion.vision.markers import (
    detect_markers as detect_markers,
)
from companion.vision.markers import (
    homography_from_markers as homography_from_markers,
)
from companion.vision.markers import (
    make_detector as make_detector,
)
from companion.vision.markers import (
    marker_corners,
)
from companion.vision.room_light import (
    CLOSE_TO_SKIN,
    balanced,
    close_to_skin,
    paper_gains,
    table_colour,
)
from companion.vision.wheel import DEFAULT_DIVISIONS, PIECE_HUES

CALIBRATION_VERSION = 1
#: Where each hamster stands for the calibration picture unless told otherwise (row, lane):
#: the first row, one lane each, as the tablet's panel and ``companion calibrate board`` ask.
DEFAULT_CELLS = {"red": (1, 1), "blue": (1, 2), "yellow": (1, 3), "green": (1, 4), "purple": (1, 5)}

Image = NDArray[np.uint8]
Homography = NDArray[np.float64]


class CalibrationError(CompanionError, ValueError):
    """The calibration file is missing, stale or incomplete; the message says how."""


def locate_board(frame: Image, layout: MarkerLayout = BOARD_MARKER_LAYOUT) -> Homography | None:
    """The frame's image-to-board homography, or None when its markers are hidden, or when
    the markers seen all lie at one end of the belt while the other end's are in the picture
    but not found.

    Two markers at one end give eight corners, enough for a homography, but the belt's
    other end is then reached by extrapolation: in a soft picture the corners are a pixel
    or two off, and the rows at the far end came out a whole row wrong (development seeds
    41000-41009, blur 2-3 px: every belt frame read wrong had only markers 2 and 3). When
    the other end lies outside the picture, the homography is kept: it is good enough to
    say which rows are out of view.
    """
    found = detect_markers(frame)
    homography = homography_from_markers(found, layout)
    if homography is None:
        return None
    if len({layout[i][1] for i in layout if i in found}) < 2 and _lost_in_view(
        frame, homography, [layout[i] for i in layout if i not in found]
    ):
        return None
    return homography


def _lost_in_view(
    frame: Image, image_to_board: Homography, missing: list[tuple[float, float, float]]
) -> bool:
    """Whether any of the ``missing`` markers would stand inside the picture."""
    if not missing:
        return False
    centres = np.array([[[x0 + side / 2, y0 + side / 2] for x0, y0, side in missing]])
    seen_at = cv2.perspectiveTransform(centres, np.linalg.inv(image_to_board))[0]
    height, width = frame.shape[:2]
    inside = (seen_at[:, 0] >= 0) & (seen_at[:, 0] < width)
    inside &= (seen_at[:, 1] >= 0) & (seen_at[:, 1] < height)
    return bool(inside.any())


def asterisk_row_from_markers(
    found: Mapping[int, NDArray[np.float32]], image_to_board: Homography
) -> int | None:
    """Row of the asterisk strip from its end stickers (ids 4 and 5), if any is seen.

    An alternative to spotting the printed asterisks, for belts whose asterisks are faint;
    the stickers are small, so they are found more reliably at 1280x960 than at 640x480.
    """
    rows = set()
    for marker_id in ASTERISK_MARKER_IDS:
        if marker_id in found:
            centre = found[marker_id].mean(axis=0).reshape(1, 1, 2).astype(np.float64)
            y = float(cv2.perspectiveTransform(centre, image_to_board)[0, 0, 1])
            rows.add(math.floor(y))
    if len(rows) != 1:
        return None  # none seen, or the two ends disagree
    row = rows.pop()
    return row if 1 <= row <= ROWS else None


def warp_to_board(
    frame: Image,
    image_to_board: Homography,
    bounds: tuple[float, float, float, float],
    pixels_per_cell: float = PIXELS_PER_CELL,
) -> Image:
    """A top-down view of the board rectangle ``bounds`` (x0, y0, x1, y1, in cells)."""
    return warp_plane(frame, image_to_board, bounds, pixels_per_cell)


@dataclass(frozen=True)
class CameraSettings:
    """Fixed camera controls, so colours look the same tonight as at calibration.

    The values are the ones the camera itself chose on automatic at calibration
    (``hardware.camera_lock``), and ``measured`` says so; ``None`` (or ``measured`` false)
    leaves the camera on automatic. Files written before the camera was asked held
    placeholders (20000 µs, gains 1.8/1.5) without ``measured``: they load as not measured,
    so a placeholder is never locked. Field names match ``hardware.camera.CameraSettings``
    so the runtime can copy them over.
    """

    exposure_time_us: int | None = None
    analogue_gain: float | None = None
    colour_gains: tuple[float, float] | None = None  # red, blue (Picamera2 ColourGains)
    lens_position: float | None = None  # dioptres; None for a fixed-focus lens
    measured: bool = False

    @classmethod
    def from_camera(cls, values: Mapping[str, Any]) -> CameraSettings:
        """Settings from what the camera reported (the four field names), as measured."""
        red, blue = (float(v) for v in values["colour_gains"])
        lens = values.get("lens_position")
        return cls(
            exposure_time_us=int(values["exposure_time_us"]),
            analogue_gain=float(values["analogue_gain"]),
            colour_gains=(red, blue),
            lens_position=None if lens is None else float(lens),
            measured=True,
        )


@dataclass(frozen=True)
class ClothColour:
    """The table cloth round the belt at calibration, with the lamp divided out: its
    chromaticity (r, g shares of R + G + B, times 100) and the share of it that passes the
    readers' skin test."""

    chroma: tuple[float, float]
    skin_share: float

    @property
    def warning(self) -> str:
        """One sentence when a hand on this cloth could go unseen, else ""."""
        return CLOSE_TO_SKIN if close_to_skin(self.chroma, self.skin_share) else ""


@dataclass(frozen=True)
class Calibration:
    """Everything the board and wheel readers need to know about this table and camera."""

    image_size: tuple[int, int]  # width, height
    homography: tuple[tuple[float, ...], ...]  # image -> board, 3 x 3
    marker_ids: tuple[int, ...]
    colour_profiles: dict[str, ColourProfile]
    camera: CameraSettings = field(default_factory=CameraSettings)
    wheel_divisions: int = DEFAULT_DIVISIONS  # the seed does not say; players count theirs
    cloth: ClothColour | None = None  # None in files from before the cloth was sampled
    created: str = ""
    version: int = CALIBRATION_VERSION

    @property
    def image_to_board(self) -> Homography:
        return np.array(self.homography, np.float64)


def sample_colour_profiles(
    frame: Image, image_to_board: Homography, cells: Mapping[str, tuple[int, int]]
) -> dict[str, ColourProfile]:
    """Profile each hamster colour from the frame where it stands on a known (row, lane)."""
    ppc = PIXELS_PER_CELL
    profiles = {}
    core = np.zeros((ppc, ppc), np.uint8)
    cv2.circle(core, (ppc // 2, ppc // 2), round(ppc * 0.22), (255,), -1)
    for colour, (row, lane) in cells.items():
        patch = warp_plane(frame, image_to_board, (lane - 1.0, float(row), lane, row + 1.0), ppc)
        try:
            profiles[colour] = profile_from_pixels(patch[core > 0])
        except ValueError as error:
            raise CalibrationError(
                f"No hamster colour is seen on row {row}, lane {lane}, where the {colour} "
                "hamster should stand; stand it there in good light and calibrate again."
            ) from error
    return profiles


# The cloth is sampled this far (belt squares) round the belt, leaving out the first
# quarter square (the belt's shadow and edge) and the markers with their white border.
CLOTH_REACH = 1.5
CLOTH_GAP = 0.25


def sample_cloth(frame: Image, image_to_board: Homography) -> ClothColour:
    """The cloth's colour round the belt (``frame`` with the lamp already divided out)."""
    ppc = PIXELS_PER_CELL
    reach = CLOTH_REACH
    bounds = (BELT_X0 - reach, BELT_Y0 - reach, BELT_X1 + reach, BELT_Y1 + reach)
    rectified = warp_plane(frame, image_to_board, bounds, ppc)
    where = np.full(rectified.shape[:2], 255, np.uint8)
    inner = round((reach - CLOTH_GAP) * ppc)
    where[inner:-inner, inner:-inner] = 0
    for x0, y0, side in BOARD_MARKER_LAYOUT.values():
        quiet = side / 6.0 + CLOTH_GAP
        left, top = round((x0 - quiet - bounds[0]) * ppc), round((y0 - quiet - bounds[1]) * ppc)
        size = round((side + 2 * quiet) * ppc)
        where[max(top, 0) : top + size, max(left, 0) : left + size] = 0
    chroma = table_colour(rectified, where)
    hsv = np.asarray(cv2.cvtColor(rectified, cv2.COLOR_BGR2HSV), np.uint8)
    skin_share = float(np.count_nonzero(skin_mask(hsv)[where > 0])) / max(
        1, int(np.count_nonzero(where))
    )
    return ClothColour(
        (round(float(chroma[0]), 2), round(float(chroma[1]), 2)), round(skin_share, 3)
    )


def _swapped_hamsters(
    profiles: Mapping[str, ColourProfile], cells: Mapping[str, tuple[int, int]]
) -> str:
    """One sentence when a standard-coloured hamster's sample looks like another of the
    hamsters being sampled (two stood on each other's squares), else ""."""
    nominal = {colour: PIECE_HUES[colour][0] for colour in profiles if colour in PIECE_HUES}
    for colour in nominal:
        sampled = np.array([profiles[colour].hue], np.float32)
        looks = min(nominal, key=lambda name: float(hue_distance(sampled, nominal[name])[0]))
        if looks != colour:
            row, lane = cells[colour]
            return (
                f"The hamster on row {row}, lane {lane} looks {looks}, not {colour}; stand "
                "each hamster on its own square as listed and calibrate again."
            )
    return ""


# How far (in belt squares) a marker corner may sit from where the fitted homography puts
# it: markers laid by hand are off by a few millimetres (well under 0.1), a marker in the
# wrong corner or turned is off by about a whole square.
MARKER_FIT_TOLERANCE = 0.3


def _misfit(found: Mapping[int, NDArray[np.float32]], layout: MarkerLayout) -> float:
    """The largest distance, in squares, between a marker corner and where the homography
    fitted to all of ``found``'s layout markers puts it (inf when none fits)."""
    homography = homography_from_markers(found, layout, min_markers=len(layout))
    if homography is None:
        return math.inf
    ids = sorted(layout)
    image = np.concatenate([found[i] for i in ids]).astype(np.float64).reshape(1, -1, 2)
    board = np.concatenate([marker_corners(layout[i]) for i in ids]).astype(np.float64)
    return float(np.abs(cv2.perspectiveTransform(image, homography)[0] - board).max())


def _misplaced_markers(found: Mapping[int, NDArray[np.float32]], layout: MarkerLayout) -> str:
    """One sentence when the markers are not where the sheet puts them, else ""."""
    if _misfit(found, layout) <= MARKER_FIT_TOLERANCE:
        return ""

    # One marker turned or astray: the others agree once it is left out.
    odd = [
        i
        for i in layout
        if len(layout) > 3
        and _misfit(found, {k: v for k, v in layout.items() if k != i}) <= MARKER_FIT_TOLERANCE
    ]
    if len(odd) == 1:
        return (
            f"Board marker {odd[0]} is not where the sheet puts it; lay it upright in its "
            f"corner ({CORNER_NAMES.get(odd[0], 'as its caption says')}), caption towards the "
            "far end, and calibrate again."
        )
    captions = [f"{i}: {CORNER_NAMES.get(i, 'its corner')}" for i in sorted(layout)]
    return (
        "The board markers are not where the sheet puts them; lay each upright in its own "
        f"corner as its caption says ({'; '.join(captions)}), caption towards "
        "the far end, and calibrate again."
    )


def calibrate_board(
    frame: Image,
    cells: Mapping[str, tuple[int, int]],
    camera: CameraSettings | None = None,
    layout: MarkerLayout = BOARD_MARKER_LAYOUT,
    wheel_divisions: int = DEFAULT_DIVISIONS,
) -> Calibration:
    """Build a calibration from one frame with every hamster on its named square."""
    found = detect_markers(frame)
    missing = sorted(set(layout) - set(found))
    homography = homography_from_markers(found, layout, min_markers=len(layout))
    if homography is None:
        raise CalibrationError(
            f"Board markers {missing} are not visible; uncover them and calibrate again."
        )
    misplaced = _misplaced_markers(found, layout)
    if misplaced:
        raise CalibrationError(misplaced)
    height, width = frame.shape[:2]
    # Profiles are sampled as the reader sees: with the lamp's colour divided out.
    frame = balanced(frame, paper_gains(frame, homography, layout))
    profiles = sample_colour_profiles(frame, homography, cells)
    swapped = _swapped_hamsters(profiles, cells)
    if swapped:
        raise CalibrationError(swapped)
    return Calibration(
        cloth=sample_cloth(frame, homography),
        image_size=(width, height),
        homography=tuple(tuple(float(v) for v in row) for row in homography),
        marker_ids=tuple(sorted(layout)),
        colour_profiles=profiles,
        camera=camera or CameraSettings(),
        wheel_divisions=wheel_divisions,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
    )


def save_calibration(calibration: Calibration, path: Path) -> None:
    """Write the calibration as readable JSON (a person may want to look at it)."""
    data = asdict(calibration)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


PREVIOUS_SUFFIX = ".previous"  # the calibration a new one replaced, kept beside it


def keep_previous(path: Path) -> Path | None:
    """Copy the calibration at ``path`` beside it (``calibration.json.previous``) before a new
    one is saved over it: a calibration taken in bad light reads every hamster wrong, and
    the one that worked must not be lost with it. Only a file that still loads is worth
    keeping (a damaged one would push out a good copy); None when nothing was kept.
    """
    try:
        load_calibration(path)
    except CalibrationError:
        return None
    previous = path.with_name(path.name + PREVIOUS_SUFFIX)
    shutil.copy2(path, previous)
    return previous


_REQUIRED = (
    "version",
    "created",
    "image_size",
    "homography",
    "marker_ids",
    "colour_profiles",
    "camera",
    "wheel_divisions",
)
_CAMERA_FIELDS = ("exposure_time_us", "analogue_gain", "colour_gains", "lens_position")
_PROFILE_FIELDS = ("hue", "hue_tolerance", "min_saturation", "min_value")


# The end of every sentence about a missing or broken calibration file: the two ways to make
# one (``companion calibrate`` alone only lists its subcommands).
HOW_TO_CALIBRATE = (
    "calibrate from the page (Unlock, then Camera calibration) or with "
    "`companion calibrate board PHOTO`"
)


def load_calibration(path: Path, expected_image_size: tuple[int, int] | None = None) -> Calibration:
    """Read a calibration file, refusing one that is missing, stale or incomplete.

    ``expected_image_size`` is the camera's current (width, height): a calibration made at
    another resolution would put every piece on the wrong square.
    """
    if not path.exists():
        raise CalibrationError(f"No calibration file at {path}; {HOW_TO_CALIBRATE}.")
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CalibrationError(
            f"The calibration file {path} is unreadable ({error}); {HOW_TO_CALIBRATE}."
        ) from error
    if not isinstance(data, dict):
        raise CalibrationError(
            f"The calibration file {path} is not a JSON object; {HOW_TO_CALIBRATE}."
        )
    missing = [name for name in _REQUIRED if name not in data]
    if missing:
        raise CalibrationError(
            f"The calibration file {path} lacks {', '.join(missing)}; {HOW_TO_CALIBRATE}."
        )
    if data["version"] != CALIBRATION_VERSION:
        raise CalibrationError(
            f"The calibration file {path} is version {data['version']}, this companion reads "
            f"version {CALIBRATION_VERSION}; {HOW_TO_CALIBRATE}."
        )
    try:
        return _from_json(data, path, expected_image_size)
    except (TypeError, ValueError, KeyError, AttributeError) as error:
        if isinstance(error, CalibrationError):
            raise
        raise CalibrationError(
            f"The calibration file {path} has a malformed field ({error}); {HOW_TO_CALIBRATE}."
        ) from error


def _from_json(
    data: dict[str, Any], path: Path, expected_image_size: tuple[int, int] | None
) -> Calibration:
    width, height = (int(v) for v in data["image_size"])
    if expected_image_size is not None and (width, height) != tuple(expected_image_size):
        raise CalibrationError(
            f"The calibration in {path} was made at {width}x{height} but the camera now gives "
            f"{expected_image_size[0]}x{expected_image_size[1]}; calibrate again at this size."
        )
    homography = tuple(tuple(float(v) for v in row) for row in data["homography"])
    flat = [v for row in homography for v in row]
    if len(homography) != 3 or len(flat) != 9 or not all(math.isfinite(v) for v in flat):
        raise CalibrationError(
            f"The homography in {path} is not a finite 3x3 matrix; {HOW_TO_CALIBRATE}."
        )
    camera = data["camera"]
    missing_camera = [name for name in _CAMERA_FIELDS if name not in camera]
    if missing_camera:
        raise CalibrationError(
            f"The calibration file {path} lacks camera.{', camera.'.join(missing_camera)}; "
            f"{HOW_TO_CALIBRATE}."
        )
    profiles = {}
    for colour, profile in data["colour_profiles"].items():
        absent = [name for name in _PROFILE_FIELDS if name not in profile]
        if absent:
            raise CalibrationError(
                f"The {colour} colour profile in {path} lacks {', '.join(absent)}; "
                f"{HOW_TO_CALIBRATE}."
            )
        profiles[colour] = ColourProfile(**{name: float(profile[name]) for name in _PROFILE_FIELDS})
    if not profiles:
        raise CalibrationError(
            f"The calibration file {path} has no colour profiles; {HOW_TO_CALIBRATE}."
        )
    settings = CameraSettings.from_camera(camera) if camera.get("measured") is True else None
    return Calibration(
        cloth=_cloth(data.get("cloth")),
        image_size=(width, height),
        homography=homography,
        marker_ids=tuple(int(v) for v in data["marker_ids"]),
        colour_profiles=profiles,
        camera=settings or CameraSettings(),
        wheel_divisions=_divisions(data["wheel_divisions"], path),
        created=str(data["created"]),
        version=int(data["version"]),
    )


def _cloth(value: Any) -> ClothColour | None:
    """The cloth sampled at calibration; None in a file from before it was sampled."""
    if value is None:
        return None
    red, green = (float(v) for v in value["chroma"])
    return ClothColour((red, green), float(value["skin_share"]))


def _divisions(value: Any, path: Path) -> int:
    divisions = int(value)
    if not 3 <= divisions <= 60:
        raise CalibrationError(
            f"The wheel in {path} has {divisions} divisions, expected 3 to 60; {HOW_TO_CALIBRATE}."
        )
    return divisions
