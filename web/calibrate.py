"""Calibration from the browser: see the camera's view with the belt grid drawn over it,
then calibrate from the current frame with one tap.

The same steps as ``companion calibrate``, driven by the page: the hamsters stand where the
game says they are (or on row 1 in colour order before the game places them), the corner
markers must be uncovered, and the result is saved in the data folder. Before the picture is
taken, the camera's exposure, white balance and focus settle and are locked, and the values
it chose are saved with the calibration, to be set again at every start.

The same panel teaches the reader this table's own dice (``companion dice teach``) from the
rolls people confirmed, and shows the figures it measured on rolls it held out; and it
samples a Hamster Wheel set's own piece colours (``companion calibrate wheel-colours``)
and each player's hand (``companion calibrate hand``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, jsonify, request
from flask.typing import ResponseReturnValue

from companion.config import CALIBRATION_FILE
from companion.engine.camera import belt_pieces
from companion.errors import CompanionError
from companion.tabletop import LANES, ROWS
from web.api import _require_control
from web.checks import parse_body
from web.context import companion, require_picture_access
from web.errors import ApiError

if TYPE_CHECKING:
    from calibration.geometry import CameraSettings

# OpenCV, numpy, the calibration maths and the dice reader are imported by the routes that
# use them: the page's first answer must not wait for them at start-up.

bp = Blueprint("calibration", __name__)


def _latest_frame() -> Any:
    """The camera's newest picture; a 409 in one sentence when it has none to trust."""
    offline = companion().camera_offline()
    if offline is not None:
        raise ApiError(409, offline)
    camera = companion().camera
    frame = camera.latest_frame() if camera is not None else None
    if frame is None:
        raise ApiError(409, "The camera has no picture yet: check it is connected and uncovered.")
    return frame


def _frame_size() -> tuple[int, int] | None:
    """The camera's picture size (width, height); None while it sends no picture."""
    try:
        height, width = _latest_frame().shape[:2]
    except ApiError:
        return None
    return int(width), int(height)


def _belt_pieces() -> dict[str, tuple[int, int] | None]:
    """The game's pieces on the belt, by colour: where it has each (None: not placed yet);
    empty for a game without a belt."""
    snap = companion().table.snapshot
    return {} if snap.state is None else belt_pieces(snap.spec, snap.state.G)


def _cells_from_game() -> dict[str, tuple[int, int]]:
    """Where the game has each piece, by colour; row 1 in colour order before placement."""
    from calibration.geometry import DEFAULT_CELLS

    pieces = _belt_pieces()
    cells = {colour: at for colour, at in pieces.items() if at is not None}
    if pieces and len(cells) == len(pieces):
        return cells
    if set(pieces) <= set(DEFAULT_CELLS):
        return dict(DEFAULT_CELLS)
    # Colours of the players' own choosing: each on row 1, in seat order.
    return {colour: (1, lane) for lane, colour in enumerate(pieces, start=1)}


def _checked_cells(raw: object) -> dict[str, tuple[int, int]]:
    """``{"red": [1, 1], ...}`` as cells on the belt, each a refusal in one sentence.

    A calibration replaces the one in use, so one that would sample too few colours, a
    square off the belt, or two hamsters on one square is refused before the camera is
    touched.
    """
    example = 'for example {"red": [1, 1], "blue": [1, 2]}'
    if not isinstance(raw, dict) or not raw:
        raise ApiError(400, f"'cells' maps each hamster's colour to its [row, lane], {example}.")
    # A calibration samples every piece in the race (one left out would never be seen),
    # else, when no game has pieces on a belt, the standard set.
    from calibration.geometry import DEFAULT_CELLS

    pieces = list(_belt_pieces())
    required = pieces or list(DEFAULT_CELLS)
    known = list(dict.fromkeys([*DEFAULT_CELLS, *pieces]))
    cells: dict[str, tuple[int, int]] = {}
    taken: dict[tuple[int, int], str] = {}
    for colour, where in raw.items():
        if colour not in known:
            raise ApiError(400, f"{colour!r} is not a hamster colour here; use {', '.join(known)}.")
        if (
            not isinstance(where, list)
            or len(where) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in where)
        ):
            raise ApiError(
                400,
                f"Give the {colour} hamster's square as [row, lane] in whole numbers, {example}.",
            )
        row, lane = where
        if not (1 <= row <= ROWS and 1 <= lane <= LANES):
            raise ApiError(
                400,
                f"The {colour} hamster's square is off the belt: rows run 1 to {ROWS} and "
                f"lanes 1 to {LANES}.",
            )
        if (row, lane) in taken:
            raise ApiError(
                400,
                f"The {taken[(row, lane)]} and {colour} hamsters are both on row {row}, "
                f"lane {lane}; give each hamster its own square.",
            )
        taken[(row, lane)] = colour
        cells[colour] = (row, lane)
    missing = [colour for colour in required if colour not in cells]
    if missing:
        raise ApiError(
            400,
            f"The calibration needs every hamster in the game: add {', '.join(missing)} to "
            "'cells' with the square each stands on.",
        )
    return cells


@bp.get("/api/calibration")
def status() -> ResponseReturnValue:
    from calibration.geometry import CalibrationError, load_calibration

    path = companion().data_dir / CALIBRATION_FILE
    try:
        # Checked against the camera's pictures as the belt check does: one made at another
        # size is no calibration for this camera.
        calibration = load_calibration(path, _frame_size())
    except CalibrationError as error:
        return jsonify(
            calibrated=False,
            message=str(error),
            cells=_cells_from_game(),
            dice=_dice_teaching(),
            wheel=_wheel_sampled(),
        )
    warning = calibration.cloth.warning if calibration.cloth else ""
    colours = len(calibration.colour_profiles)
    return jsonify(
        calibrated=True,
        message=f"Calibrated {calibration.created} for {colours} colours. {warning}".strip(),
        warning=warning,
        created=calibration.created,
        colours=sorted(calibration.colour_profiles),
        cells=_cells_from_game(),
        dice=_dice_teaching(),
        wheel=_wheel_sampled(),
    )


def _wheel_sampled() -> str:
    """What the panel says of the wheel's sampled piece colours and players' hands, or
    that a file of them cannot be read (the reader then uses the typical ones; the log
    and ``companion calibrate show`` say what is wrong with it), with the tap that mends
    it; and what the camera's height means for counting fallen pieces."""
    from calibration.geometry import CalibrationError
    from calibration.hand_colours import HAND_COLOURS_FILE, load_hand_colours
    from calibration.wheel_colours import WHEEL_COLOURS_FILE, load_wheel_colours
    from companion.vision.behind_the_ring import camera_height_said

    said = []
    try:
        colours = load_wheel_colours(companion().data_dir / WHEEL_COLOURS_FILE)
        said.append(
            "Wheel pieces: a typical set's colours until you sample yours."
            if colours is None
            else f"Wheel pieces: your set's own colours, sampled {colours.created}."
        )
    except CalibrationError:
        said.append(
            "Wheel pieces: the saved colours cannot be read, so a typical set's are used: "
            "sample the wheel's colours again to replace them."
        )
    try:
        hands = load_hand_colours(companion().data_dir / HAND_COLOURS_FILE)
        said.append(
            "Hands: typical skin colours only; sample each player's hand."
            if hands is None or not hands.hands
            else f"Hands: {hands.described}."
        )
    except CalibrationError:
        said.append(
            "Hands: the saved hands cannot be read, so typical skin colours are used: "
            "sample each player's hand again to replace them."
        )
    said.append(camera_height_said(companion().camera_height_cm))
    return " ".join(said)


def _dice_teaching() -> str:
    """What the panel says about teaching before anyone presses Teach: why this table's
    taught dice were set aside (an update retrained the reader), else nothing."""
    from companion.vision.dice import shared_reader
    from companion.vision.teach import HEAD_FILE, head_for

    _, why = head_for(companion().data_dir / HEAD_FILE, shared_reader().fingerprint)
    return why or ""


def _optional_body() -> dict[str, Any]:
    """The request's JSON object; an empty body is an empty object (a tap with no options)."""
    raw = request.get_data(cache=True)
    return parse_body(raw) if raw.strip() else {}


@bp.post("/api/calibration")
def calibrate() -> ResponseReturnValue:
    from calibration.geometry import (
        CalibrationError,
        calibrate_board,
        keep_previous,
        save_calibration,
    )

    _require_control()
    given = _optional_body().get("cells")
    cells = _cells_from_game() if given is None else _checked_cells(given)
    _latest_frame()  # a camera that sends no pictures is said so, not asked to settle
    settings, held = _lock_camera()
    try:
        calibration = calibrate_board(_latest_frame(), cells, camera=settings)
    except CalibrationError as error:
        raise ApiError(409, str(error)) from None
    path = companion().data_dir / CALIBRATION_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    previous = keep_previous(path)
    save_calibration(calibration, path)
    kept = "" if previous is None else f"; the one it replaces is kept as {previous.name}"
    warning = calibration.cloth.warning if calibration.cloth else ""
    return jsonify(
        calibrated=True,
        message=f"Saved: {len(cells)} hamster colours sampled; {held}{kept}. {warning}".strip(),
        warning=warning,
    )


@bp.post("/api/calibration/wheel-colours")
def sample_wheel_colours() -> ResponseReturnValue:
    """Sample the Hamster Wheel set's colours from the camera's picture of one piece of
    each coloured set on the wheel's table; the wheel reader uses them from its next frame."""
    from calibration.geometry import CalibrationError
    from calibration.wheel_colours import WHEEL_COLOURS_FILE, save_wheel_colours
    from calibration.wheel_colours import sample_wheel_colours as sample

    _require_control()
    try:
        colours = sample(_latest_frame())
    except CalibrationError as error:
        raise ApiError(409, str(error)) from None
    save_wheel_colours(colours, companion().data_dir / WHEEL_COLOURS_FILE)
    return jsonify(
        message=f"Saved: the wheel's pieces are named by your set's own colours "
        f"(hues {colours.described}).",
        hues=dict(colours.hues),
    )


@bp.post("/api/calibration/hands")
def sample_hands() -> ResponseReturnValue:
    """Sample one player's skin from the camera's picture of their hand held over the
    wheel's table (``{"forget": true}``: forget every hand sampled); the wheel reader uses
    them from its next frame."""
    from calibration.geometry import CalibrationError
    from calibration.hand_colours import (
        HAND_COLOURS_FILE,
        HandColours,
        add_hand,
        save_hand_colours,
    )

    _require_control()
    forget = _optional_body().get("forget", False)
    if not isinstance(forget, bool):
        sent = json.dumps(forget)
        raise ApiError(400, f'forget must be true or false, not {sent}: send {{"forget": true}}.')
    path = companion().data_dir / HAND_COLOURS_FILE
    if forget:
        save_hand_colours(HandColours(), path)
        said = "Saved: no hands sampled; the camera finds hands by typical skin colours only."
        return jsonify(message=said, hands=0)
    try:
        added = add_hand(path, _latest_frame(), companion().camera_height_cm)
    except CalibrationError as error:
        raise ApiError(409, str(error)) from None
    kept = added.kept.described
    if added.warning:
        message = f"Saved: {kept}. Note: {added.warning}."
    else:
        message = f"Saved: {kept}; the camera sees this hand from now on."
    return jsonify(message=message, hands=len(added.kept.hands), warning=added.warning)


@bp.post("/api/dice/teach")
def teach_dice() -> ResponseReturnValue:
    """Teach the reader the confirmed rolls' dice; the figures are on held-out rolls."""
    from companion.vision.dice import shared_reader
    from companion.vision.teach import TeachError
    from companion.vision.teaching import teach

    _require_control()
    try:
        report = teach(shared_reader(), companion().data_dir)
    except TeachError as error:
        raise ApiError(409, str(error)) from None
    return jsonify(message=" ".join(report.lines()), **report.to_json())


def _lock_camera() -> tuple[CameraSettings, str]:
    """Settle and hold exposure, white balance and focus; what the camera chose, and the
    words that say so. A webcam's values are held by the webcam itself (driver units, not
    libcamera's), so the calibration keeps none of a Pi camera's fields for it."""
    from calibration.geometry import CameraSettings

    lock = companion().lock_camera
    try:
        chosen = lock() if lock is not None else None
    except CompanionError as error:
        raise ApiError(409, f"The camera could not settle its exposure: {error}") from None
    if chosen is not None and "webcam" in chosen:
        return CameraSettings(), _describe_webcam(chosen)
    settings = CameraSettings.from_camera(chosen) if chosen is not None else CameraSettings()
    return settings, _describe(settings)


def _describe_webcam(chosen: dict[str, Any]) -> str:
    held = ", ".join(f"{name} {value:g}" for name, value in chosen["webcam"].items())
    until = "set again at every start" if chosen.get("kept") else "held while the companion runs"
    said = f"webcam {held} {until}" if held else "the webcam held nothing"
    refused = "; ".join(chosen.get("refused", []))
    return f"{said} ({refused})" if refused else said


def _describe(settings: CameraSettings) -> str:
    if not settings.measured or settings.exposure_time_us is None:
        return "this camera keeps its automatic exposure"
    focus = "" if settings.lens_position is None else ", focus"
    return (
        f"exposure {settings.exposure_time_us / 1000:.1f} ms, gain {settings.analogue_gain}, "
        f"white balance{focus} locked"
    )


@bp.get("/calibration.jpg")
def overlay() -> ResponseReturnValue:
    """The camera frame with the belt grid where the markers put it, and the pieces found
    (a token or a seat's link only: it is a picture of the players' table)."""
    import cv2
    import numpy as np

    from calibration.geometry import CalibrationError, load_calibration, locate_board
    from companion.vision.board import BELT_X0, BELT_X1, read_board

    require_picture_access()
    frame = _latest_frame().copy()
    image_to_board = locate_board(frame)
    if image_to_board is not None:
        board_to_image = np.linalg.inv(image_to_board)

        def to_image(points: list[tuple[float, float]]) -> Any:
            array = np.array([points], np.float64)
            return cv2.perspectiveTransform(array, board_to_image)[0].astype(np.int32)

        for row in range(ROWS + 2):
            cv2.polylines(
                frame, [to_image([(BELT_X0, row), (BELT_X1, row)])], False, (80, 220, 80), 2
            )
        for lane in range(LANES + 1):
            cv2.polylines(
                frame, [to_image([(lane, 0.0), (lane, ROWS + 1.0)])], False, (80, 220, 80), 2
            )
        try:
            profiles = load_calibration(companion().data_dir / CALIBRATION_FILE).colour_profiles
        except CalibrationError:
            profiles = {}
        reading = read_board(frame, image_to_board, profiles)
        for colour, (row, lane) in reading.hamsters.items():
            centre = to_image([(lane - 0.5, row + 0.5)])[0]
            cv2.circle(frame, (int(centre[0]), int(centre[1])), 18, (255, 255, 255), 3)
            cv2.putText(
                frame,
                colour,
                (int(centre[0]) + 20, int(centre[1])),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.7,
                (255, 255, 255),
                2,
            )
    else:
        cv2.putText(
            frame,
            "corner markers not visible",
            (20, 40),
            cv2.FONT_HERSHEY_SIMPLEX,
            1.0,
            (40, 40, 230),
            2,
        )
    ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        raise ApiError(500, "The picture could not be encoded.")
    return Response(bytes(encoded), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
