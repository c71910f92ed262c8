"""Fixing the camera's dice reading on its own picture, so that every correction teaches.

The page shows the picture of the roll the camera last proposed with each die it read; a
person taps a missed die to add it (then picks its face), taps a phantom to remove it, or
taps a die to change its face, and confirms. The confirmed roll goes to the table as a
reading a person vouched for (the game's own dice rule takes it, as it would a sure camera
roll), and the watcher keeps every die's close-up and box, and each removed phantom as
"not a die", whatever count the reader had (``DiceWatcher.correct``), for
``companion dice teach``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import cv2
from flask import Blueprint, Response, jsonify, request
from flask.typing import ResponseReturnValue

from companion.engine.readings import DICE, DiceSeen, Reading
from companion.watch.dice import FixedDie, Proposal
from web.api import _require_control
from web.context import companion
from web.errors import ApiError

bp = Blueprint("dice_fix", __name__)

# How long the page waits for the table to take the fixed roll.
WAIT_SECONDS = 10.0
# The picture is sent no larger than this on its longest side: a 12 MP photo whole is ~3 MB
# over the table's Wi-Fi to a phone, and a finger's tap is no finer than a few of these
# pixels. Dice are placed in the frame's own pixels (``/api/dice/proposal``), so the page
# is unaffected by the shrink.
PICTURE_SIDE = 1600
NO_PROPOSAL = "There is no camera roll to fix: roll the dice under the camera first."


@runtime_checkable
class DiceFixer(Protocol):
    """What fixing needs of the dice camera (``companion.watch.dice.DiceWatcher``)."""

    def proposal(self) -> Proposal | None: ...

    def correct(
        self, fixed: Sequence[FixedDie], removed: Sequence[tuple[float, float]]
    ) -> bool: ...


def _fixer() -> DiceFixer:
    camera = companion().camera
    if not isinstance(camera, DiceFixer):
        raise ApiError(404, "This table has no dice camera: type the roll instead.")
    return camera


def _proposal() -> Proposal:
    found = _fixer().proposal()
    if found is None:
        raise ApiError(404, NO_PROPOSAL)
    return found


@bp.get("/api/dice/proposal")
def proposal() -> ResponseReturnValue:
    """The last proposed roll: its picture's size and each die read (frame pixels)."""
    shown = _proposal()
    height, width = shown.frame.shape[:2]
    dice = [
        {
            "x": round(die.centre[0], 1),
            "y": round(die.centre[1], 1),
            "size": round(die.size, 1),
            "value": die.value,
            "confidence": die.confidence,
        }
        for die in shown.dice
    ]
    return jsonify(width=width, height=height, dice=dice)


@bp.get("/dice/proposal.jpg")
def proposal_picture() -> ResponseReturnValue:
    """The last proposed roll's picture, unmarked (the page draws the dice over it), at
    most PICTURE_SIDE pixels on its longest side."""
    frame: Any = _proposal().frame
    scale = PICTURE_SIDE / max(frame.shape[:2])
    if scale < 1.0:
        frame = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise ApiError(500, "The camera's picture could not be encoded; try again.")
    return Response(bytes(encoded), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.post("/api/dice/correct")
def correct() -> ResponseReturnValue:
    """Take the roll as a person fixed it on the picture, and keep it to teach from."""
    _require_control()
    body = request.get_json(silent=True)
    fixed, removed = _parse(body)
    fixer = _fixer()
    if fixer.proposal() is None:
        raise ApiError(409, NO_PROPOSAL)
    values = tuple(die.value for die in fixed)
    kept = fixer.correct(fixed, removed)
    seen = DiceSeen(values=values, confidences=(1.0,) * len(values), auto_accept=1.0)
    taken = companion().table.observe(Reading(DICE, seen, source="tablet"))
    return jsonify(values=list(values), kept=kept, taken=bool(taken.result(WAIT_SECONDS)))


def _parse(body: Any) -> tuple[list[FixedDie], list[tuple[float, float]]]:
    """The fixed dice and removed finds from the request, or a 400 saying what is wrong."""
    try:
        fixed = [
            FixedDie(float(d["x"]), float(d["y"]), int(d["value"]), _size(d.get("size")))
            for d in body["dice"]
        ]
        removed = [(float(r["x"]), float(r["y"])) for r in body.get("removed", [])]
    except (KeyError, TypeError, ValueError):
        raise ApiError(
            400,
            'Send {"dice": [{"x": ..., "y": ..., "value": 1-6}], "removed": [{"x": ..., '
            '"y": ...}]} in the picture\'s pixels.',
        ) from None
    if not fixed or any(not 1 <= die.value <= 6 for die in fixed):
        raise ApiError(400, "Every die needs a face from 1 to 6, and a roll at least one die.")
    return fixed, removed


def _size(value: Any) -> float | None:
    return None if value is None else float(value)
