"""The tablet page: a Flask application over the table runtime.

``create_app(table, pin)`` builds it (tests use Flask's client; ``companion run`` serves it
with hypercorn through ``web.asgi``, so a live page is a coroutine, not a thread). The page
only reads state and sends intents; every rule stays in the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask

from companion.store import AccessStore
from companion.table import Table
from web import api, calibrate, care, dice_fix, errors, history, pages
from web.auth import TablePin
from web.context import CameraView, Companion

MAX_REQUEST_BYTES = 64 * 1024


def create_app(
    table: Table,
    pin: str,
    *,
    heartbeat_seconds: float = 10.0,
    device_status: Callable[[], dict[str, str]] | None = None,
    camera: CameraView | None = None,
    data_dir: Path | None = None,
    lock_camera: Callable[[], dict[str, Any] | None] | None = None,
    camera_height_cm: float | None = None,
    token_hours: float = 24.0,
    event_board: Callable[[], dict[str, Any]] | None = None,
    event_export: Callable[[], dict[str, Any]] | None = None,
    access: AccessStore | None = None,
    care_setup: care.CareSetup | None = None,
    test_config: dict[str, Any] | None = None,
) -> Flask:
    """The page over ``table``; ``access`` keeps the tokens and seat codes across a restart
    (the games file's access tables: ``companion.store.access``), None keeps them in memory."""
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_REQUEST_BYTES, JSON_SORT_KEYS=False)
    if test_config:
        app.config.update(test_config)
    app.extensions["companion"] = Companion(
        table=table,
        pin=TablePin(pin, token_seconds=token_hours * 3600, store=access),
        heartbeat_seconds=heartbeat_seconds,
        device_status=device_status or (lambda: {}),
        camera=camera,
        data_dir=data_dir or Path.cwd(),
        lock_camera=lock_camera,
        camera_height_cm=camera_height_cm,
        event_board=event_board,
        event_export=event_export,
    )
    app.extensions["care"] = care_setup or care.CareSetup()
    errors.install(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(calibrate.bp)
    app.register_blueprint(dice_fix.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(care.bp)
    return app
