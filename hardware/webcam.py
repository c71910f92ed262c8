"""What a USB webcam is asked for through OpenCV, and how its picture is held steady.

Why each step, in the order it is done (``OpenCVSource`` in ``hardware.camera`` uses these):

* **V4L2 backend** on Linux (``cv2.CAP_V4L2``): with the default, OpenCV may try GStreamer
  first, which ignores the format and control requests below.
* **MJPG before the size**: a UVC camera sends uncompressed YUYV unless asked otherwise,
  and YUYV at 1280x960 fills USB 2 at about 5-10 frames a second; the format has to be set
  before the size, because the sizes a camera offers depend on the format.
* **The size read back**: a camera that has no mode of the asked size silently picks
  another one; the size it really delivers is reported and used.
* **Exposure, white balance and focus locked at calibration** (like the Pi camera,
  ``hardware.camera_lock``): the values the camera chose on automatic are read and set
  again by hand with the automatic controls off, so colours do not drift while hands move
  over the table. A control the driver refuses is reported in a sentence, never fatal:
  cheap webcams offer no focus, some no white-balance temperature.

Everything takes the capture duck-typed, so it is tested against a stand-in of
``cv2.VideoCapture`` (no webcam is needed).
"""

from __future__ import annotations

import json
import logging
import queue
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final, Generic, TypeVar

import cv2

log = logging.getLogger(__name__)

T = TypeVar("T")

#: V4L2's exposure menu (V4L2_CID_EXPOSURE_AUTO): 1 manual, 3 aperture priority (automatic).
#: OpenCV's V4L2 backend passes CAP_PROP_AUTO_EXPOSURE to the driver as it is.
EXPOSURE_MANUAL: Final = 1
EXPOSURE_AUTO: Final = 3

#: (automatic switch, value, name for people, value the switch takes for "off").
LOCKS: Final = (
    (cv2.CAP_PROP_AUTO_EXPOSURE, cv2.CAP_PROP_EXPOSURE, "exposure", EXPOSURE_MANUAL),
    (cv2.CAP_PROP_AUTO_WB, cv2.CAP_PROP_WB_TEMPERATURE, "white balance", 0),
    (cv2.CAP_PROP_AUTOFOCUS, cv2.CAP_PROP_FOCUS, "focus", 0),
)
#: The same switches' "on" values, to let the camera choose again before measuring.
AUTOMATIC: Final = {
    cv2.CAP_PROP_AUTO_EXPOSURE: EXPOSURE_AUTO,
    cv2.CAP_PROP_AUTO_WB: 1,
    cv2.CAP_PROP_AUTOFOCUS: 1,
}


def backend_for(device: int | str, platform: str = sys.platform) -> int | None:
    """``cv2.CAP_V4L2`` for a webcam on Linux (a number or /dev/videoN), else None (any)."""
    is_webcam = isinstance(device, int) or str(device).startswith("/dev/video")
    return cv2.CAP_V4L2 if is_webcam and platform.startswith("linux") else None


def fourcc_text(value: float) -> str:
    """CAP_PROP_FOURCC's number as its four letters ("MJPG", "YUYV"); "?" when unreadable."""
    code = int(value)
    if code <= 0:
        return "?"
    return "".join(chr((code >> 8 * i) & 0xFF) for i in range(4)).strip("\0 ") or "?"


@dataclass(frozen=True)
class Delivered:
    """What the webcam really gives after the requests: size and pixel format."""

    size: tuple[int, int]
    fourcc: str
    asked: tuple[int, int] | None

    def describe(self) -> str:
        width, height = self.size
        text = f"{width}x{height} {self.fourcc}"
        if self.asked is not None and self.asked != self.size:
            text += f", not the {self.asked[0]}x{self.asked[1]} asked for"
        return text


def ask_format(capture: Any, size: tuple[int, int] | None) -> Delivered:
    """MJPG first, then the size; what the camera delivers, as it reports it afterwards."""
    capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
    if size is not None:
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
    width = int(capture.get(cv2.CAP_PROP_FRAME_WIDTH))
    height = int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
    if width <= 0 or height <= 0:  # a backend that cannot tell: trust the request
        width, height = size if size is not None else (0, 0)
    return Delivered((width, height), fourcc_text(capture.get(cv2.CAP_PROP_FOURCC)), size)


@dataclass(frozen=True)
class WebcamLock:
    """The values a webcam chose on automatic and now holds, and what its driver refused."""

    values: dict[str, float] = field(default_factory=dict)  # "exposure" -> driver units
    refused: tuple[str, ...] = ()
    kept: bool = False  # saved, to be set again at every start

    def as_dict(self) -> dict[str, Any]:
        """For the calibration's log line and page message (no Pi camera fields)."""
        return {"webcam": dict(self.values), "refused": list(self.refused), "kept": self.kept}

    def describe(self) -> str:
        held = ", ".join(f"{name} {value:g}" for name, value in self.values.items())
        text = f"held: {held}" if held else "nothing could be held"
        return f"{text}; {'; '.join(self.refused)}" if self.refused else text


def lock_controls(capture: Any, name: str) -> WebcamLock:
    """Read what the camera chose on automatic, switch automatic off and set exactly that.

    A control the camera does not have (OpenCV reads -1 or nothing), whose setting the
    driver refuses (``set`` answers False), or that reads back otherwise than set (OpenCV's
    V4L2 backend answers True when the driver clamps a value) goes into ``refused`` as a
    sentence; what the camera holds is what it read back.
    """
    values: dict[str, float] = {}
    refused: list[str] = []
    for switch, control, what, off in LOCKS:
        held, problem = _lock_one(capture, name, (switch, control, what, off))
        if held is not None:
            values[what] = held
        if problem:
            refused.append(problem)
    lock = WebcamLock(values, tuple(refused))
    for sentence in refused:
        log.warning("%s", sentence)
    return lock


def _lock_one(capture: Any, name: str, lock: tuple[int, int, str, int]) -> tuple[float | None, str]:
    """One control held: the value it holds (None: none), and what went wrong ("": nothing)."""
    switch, control, what, off = lock
    chosen = float(capture.get(control))
    if chosen < 0:
        return None, f"{name} has no {what} control to hold"
    if not capture.set(switch, off) or round(float(capture.get(switch))) != off:
        return None, f"{name} refused to switch automatic {what} off"
    if not capture.set(control, chosen):
        return None, f"{name} refused to hold its {what} at {chosen:g}"
    got = float(capture.get(control))
    if abs(got - chosen) > 0.5:  # the controls are whole numbers in the driver's units
        return got, f"{name} holds its {what} at {got:g}, not the {chosen:g} it chose"
    return chosen, ""


def hold(capture: Any, lock: WebcamLock) -> list[str]:
    """Set a lock again on a newly opened capture (after a restart); what was refused."""
    refused = []
    for switch, control, what, off in LOCKS:
        if what in lock.values and not (
            capture.set(switch, off) and capture.set(control, lock.values[what])
        ):
            refused.append(what)
    return refused


#: The file in the data folder that keeps a webcam's lock from one start to the next.
LOCK_FILE: Final = "webcam-lock.json"


def save_lock(path: Path, camera: str, lock: WebcamLock) -> WebcamLock:
    """Keep ``lock`` for ``camera`` (its device, e.g. "webcam 0"); the lock, marked kept.

    A file that cannot be written is said in the log and the lock is held for this run
    only: calibration still succeeds.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"camera": camera, "values": lock.values}), encoding="utf-8")
    except OSError as error:
        log.warning("the webcam's lock could not be saved in %s (%s)", path, error)
        return lock
    return replace(lock, kept=True)


def load_lock(path: Path, camera: str) -> WebcamLock | None:
    """The lock saved for ``camera``; None when there is none, or it was another camera's."""
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
        values = {str(what): float(value) for what, value in saved["values"].items()}
        owner = saved["camera"]
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        log.warning(
            "the webcam's saved lock in %s is unreadable (%s); calibrate again", path, error
        )
        return None
    if owner != camera:
        log.info(
            "the saved webcam lock is %s's, not %s's: automatic until calibrated", owner, camera
        )
        return None
    return WebcamLock(values, kept=True)


def let_choose(capture: Any) -> None:
    """Automatic exposure, white balance and focus on again, so that they can settle."""
    for switch, on in AUTOMATIC.items():
        capture.set(switch, on)


class TimedCalls(Generic[T]):
    """Runs calls on a daemon thread of its own and waits at most ``timeout`` for each.

    Why: a webcam that hangs blocks ``VideoCapture.read`` inside the driver, and OpenCV's
    V4L2 backend only gives up after 10 s. Waiting here instead means the camera is called
    hung after ``timeout``; the stuck thread is a daemon, so it never holds up an exit.
    """

    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[
            tuple[Callable[[], T], queue.SimpleQueue[tuple[bool, Any]]] | None
        ] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            call, answer = job
            try:
                answer.put((True, call()))
            except BaseException as error:  # handed to the caller, who raises it
                answer.put((False, error))

    def call(self, function: Callable[[], T], timeout: float) -> T:
        """``function()``'s result; TimeoutError when it has not returned in ``timeout``."""
        answer: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        self._jobs.put((function, answer))
        try:
            ok, result = answer.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no answer in {timeout:g} s") from None
        if not ok:
            raise result
        return result  # type: ignore[no-any-return]

    def close(self) -> None:
        """Let the thread end after the call it is in (if any)."""
        self._jobs.put(None)
