"""The saved calibration file as a long-running reader sees it: reloaded when it changes.

The players may recalibrate from the tablet in the middle of an evening; the camera
watchers must then use the new colours and homography from the next frame on, without a
restart. Reading the file costs a JSON parse, so it is read again only when its
modification time or size changes; a bad file keeps raising its one-sentence
:class:`CalibrationError` until it is fixed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, TypeVar

from calibration.geometry import (
    HOW_TO_CALIBRATE,
    Calibration,
    CalibrationError,
    Homography,
    Image,
    load_calibration,
    locate_board,
)
from companion.vision.board import BOARD_MARKER_LAYOUT, MarkerLayout


class WatchedCalibration:
    """``get(frame_size)`` gives the current calibration, or raises CalibrationError.

    It is what the camera watchers are handed (see ``companion.watch.calibrated``), so
    they use the calibration without importing this package.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int, tuple[int, int]] | None = None
        self._loaded: Calibration | None = None

    def get(self, image_size: tuple[int, int]) -> Calibration:
        """The calibration for frames of ``image_size`` (width, height)."""
        try:
            stat = self.path.stat()
        except OSError:
            self._stamp, self._loaded = None, None
            raise CalibrationError(
                f"No calibration file at {self.path}; {HOW_TO_CALIBRATE}."
            ) from None
        stamp = (stat.st_mtime_ns, stat.st_size, image_size)
        if stamp != self._stamp or self._loaded is None:
            self._stamp, self._loaded = None, None
            self._loaded = load_calibration(self.path, image_size)
            self._stamp = stamp
        return self._loaded

    def locate(self, frame: Image, layout: MarkerLayout = BOARD_MARKER_LAYOUT) -> Homography | None:
        """The frame's image-to-board homography from its markers (None: markers hidden)."""
        return locate_board(frame, layout)


T = TypeVar("T")


def read_json(path: Path, what: str, again: str) -> Any:
    """The JSON in ``path`` (a small calibration file), or CalibrationError naming ``what``
    the file is and how to recover (``again``) when it cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CalibrationError(f"The {what} {path} is unreadable ({error}); {again}.") from error


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so a reader never sees half of it (the watchers re-read
    the file while the tablet saves a new sample): a file beside it, then renamed over."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


class WatchedFile(Generic[T]):
    """Called for every frame: what a small calibration file holds (a table's piece
    colours, its players' hands), re-read only when the file changes, so a sample taken
    from the tablet mid-evening counts from the next frame. With no file the ``fallback``;
    with a broken one too, and ``problem`` says what is wrong (``read`` raises
    CalibrationError with that sentence; it is also passed to ``warn`` once per change)."""

    def __init__(
        self,
        path: Path,
        read: Callable[[Path], T | None],
        fallback: T,
        warn: Callable[[str], None] | None = None,
    ) -> None:
        self.path = path
        self.problem = ""
        self._read = read
        self._fallback = fallback
        self._warn = warn
        self._stamp: tuple[int, int] | None = None
        self._value = fallback

    def __call__(self) -> T:
        try:
            stat = self.path.stat()
            stamp: tuple[int, int] | None = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            stamp = None
        if stamp != self._stamp:
            self._stamp = stamp
            self._value, self.problem = self._fallback, ""
            try:
                value = self._read(self.path)
            except CalibrationError as error:
                self.problem = str(error)
                if self._warn:
                    self._warn(self.problem)
            else:
                self._value = self._fallback if value is None else value
        return self._value
