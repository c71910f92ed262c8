"""What the web layer needs from the running companion, kept on the Flask app."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from flask import current_app, request

from companion.table import Table
from web.auth import TOKEN_HEADER, Grant, TablePin
from web.errors import ApiError

PICTURES_NEED_ACCESS = (
    "The camera's pictures show the players' table: unlock this tablet with the table PIN, "
    "or open your seat's link, to see them."
)


class CameraView(Protocol):
    """What the page needs of the camera: its newest picture, plain and annotated, and
    why there is none while the camera sends no pictures."""

    def latest_frame(self) -> Any | None: ...

    def jpeg(self, width: int = 640) -> bytes | None: ...

    def offline(self) -> str | None: ...


@dataclass
class Companion:
    table: Table
    pin: TablePin
    heartbeat_seconds: float = 10.0
    device_status: Callable[[], dict[str, str]] = field(default=lambda: {})
    camera: CameraView | None = None  # the dice camera's view, for the panel and calibration
    data_dir: Path = field(default_factory=Path.cwd)  # where the calibration is kept
    # Settle and hold the camera's exposure, white balance and focus before calibrating;
    # returns what it chose (CameraSettings field names), None for a camera with no such
    # controls (a webcam, the simulator). Raises CompanionError when the camera is offline.
    lock_camera: Callable[[], dict[str, Any] | None] | None = None
    # The camera's height above the table (calibration; None: unknown), for finding the
    # wheel's ring where it stands when a player's hand is sampled.
    camera_height_cm: float | None = None
    # Every table at the event, from the broker (``companion.mqtt.board.board_json``); None
    # when this Pi is on no event's broker ([mqtt] without a host).
    event_board: Callable[[], dict[str, Any]] | None = None
    # The event's results for a download (``companion.mqtt.export.event_export``).
    event_export: Callable[[], dict[str, Any]] | None = None

    def camera_offline(self) -> str | None:
        """One sentence when the camera is not sending pictures (its own status line says
        why), else None: the page must then show no picture rather than an old one."""
        why = self.camera.offline() if self.camera is not None else None
        if why is None:
            return None
        return (
            f"The camera is not sending pictures ({why}); check it is connected, "
            "the companion keeps trying it."
        )

    def devices(self) -> dict[str, str]:
        return self.device_status()

    def grant(self, token: str | None) -> Grant | None:
        """What ``token`` unlocks in the game being played now: a seat's token joined one
        game, and means nothing once another game has started."""
        found = self.pin.grant(token)
        if found is None or found.seat is None:
            return found
        if found.game_id is not None and found.game_id != self.table.game_id:
            return None
        return found


def companion() -> Companion:
    found: Companion = current_app.extensions["companion"]
    return found


def require_picture_access() -> None:
    """Raise 401 unless the request holds a live token (the table's, or a seat's), in the
    ``X-Table-Token`` header or as ``?token=``: the camera looks down on the players' table
    and room, and a watcher on the Wi-Fi has no business seeing it."""
    token = request.headers.get(TOKEN_HEADER) or request.args.get("token")
    if companion().grant(token) is None:
        raise ApiError(401, PICTURES_NEED_ACCESS)
