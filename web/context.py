"""What the web layer needs from the running companion, kept on the Flask app."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import current_app

from companion.table import Table
from web.auth import TablePin


@dataclass
class Companion:
    table: Table
    pin: TablePin
    heartbeat_seconds: float = 10.0
    device_status: Callable[[], dict[str, str]] = field(default=lambda: {})
    camera: Any | None = None  # the dice watcher: its jpeg() shows what the camera reads
    data_dir: Path = field(default_factory=Path.cwd)  # where the calibration is kept

    def devices(self) -> dict[str, str]:
        return self.device_status()


def companion() -> Companion:
    found: Companion = current_app.extensions["companion"]
    return found
