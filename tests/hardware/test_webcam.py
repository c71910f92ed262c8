"""A USB webcam through OpenCV, against a stand-in of ``cv2.VideoCapture`` (no webcam here).

The stand-in keeps the properties a V4L2 driver would, records every call, can refuse a
control as a driver does (``set`` answers False, ``get`` -1 for a control it lacks), can
offer only some sizes, and can hang in ``read`` until released. Hangs are found with a
short timeout; no test asserts on elapsed time beyond a generous ceiling.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from hardware.camera import CameraOfflineError, CameraStalledError, CameraSupervisor, OpenCVSource
from hardware.webcam import EXPOSURE_MANUAL, LOCK_FILE, TimedCalls, WebcamLock, fourcc_text

GENEROUS = 10.0  # seconds; a ceiling for waits, never an assertion about speed
MJPG = cv2.VideoWriter.fourcc(*"MJPG")
YUYV = cv2.VideoWriter.fourcc(*"YUYV")


class FakeCapture:
    """cv2.VideoCapture's API as the camera code uses it, with a V4L2 driver's manners."""

    def __init__(
        self,
        *,
        sizes: tuple[tuple[int, int], ...] = ((640, 480), (1280, 720)),
        formats: tuple[int, ...] = (YUYV, MJPG),
        missing: frozenset[int] = frozenset(),
        refuses: frozenset[int] = frozenset(),
        clamps: dict[int, float] | None = None,
    ) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.sizes, self.formats = sizes, formats
        self.missing, self.refuses = missing, refuses
        self.clamps = clamps or {}  # a driver that says yes and keeps its own value
        self.props: dict[int, float] = {
            cv2.CAP_PROP_FRAME_WIDTH: 640,
            cv2.CAP_PROP_FRAME_HEIGHT: 480,
            cv2.CAP_PROP_FOURCC: YUYV,
            cv2.CAP_PROP_AUTO_EXPOSURE: 3,
            cv2.CAP_PROP_EXPOSURE: 156,
            cv2.CAP_PROP_AUTO_WB: 1,
            cv2.CAP_PROP_WB_TEMPERATURE: 4600,
            cv2.CAP_PROP_AUTOFOCUS: 1,
            cv2.CAP_PROP_FOCUS: 30,
        }
        self.hang = threading.Event()  # set: read blocks until `unhang` is set
        self.unhang = threading.Event()
        self.released = threading.Event()

    def isOpened(self) -> bool:
        return True

    def set(self, prop: int, value: float) -> bool:
        self.calls.append(("set", (prop, value)))
        if prop in self.missing or prop in self.refuses:
            return False
        if prop == cv2.CAP_PROP_FOURCC and int(value) not in self.formats:
            return False
        if prop in (cv2.CAP_PROP_FRAME_WIDTH, cv2.CAP_PROP_FRAME_HEIGHT):
            # A driver picks its nearest mode: here, the largest not above the request.
            wanted = dict(self.props)
            wanted[prop] = value
            fits = [s for s in self.sizes if s[0] <= wanted[cv2.CAP_PROP_FRAME_WIDTH]]
            width, height = max(fits or [min(self.sizes)])
            self.props[cv2.CAP_PROP_FRAME_WIDTH], self.props[cv2.CAP_PROP_FRAME_HEIGHT] = (
                width,
                height,
            )
            return True
        self.props[prop] = self.clamps.get(prop, value)
        return True

    def get(self, prop: int) -> float:
        self.calls.append(("get", prop))
        return -1.0 if prop in self.missing else float(self.props.get(prop, 0))

    def read(self) -> tuple[bool, Any]:
        if self.hang.is_set():
            self.unhang.wait(GENEROUS)
        width = int(self.props[cv2.CAP_PROP_FRAME_WIDTH])
        height = int(self.props[cv2.CAP_PROP_FRAME_HEIGHT])
        frame = np.random.default_rng().integers(0, 255, (height, width, 3), np.uint8)
        return True, frame

    def release(self) -> None:
        self.released.set()


class Opener:
    """Stands in for cv2.VideoCapture(device, backend): records the arguments."""

    def __init__(self, capture: FakeCapture) -> None:
        self.capture = capture
        self.args: list[tuple[Any, ...]] = []

    def __call__(self, *args: Any) -> FakeCapture:
        self.args.append(args)
        return self.capture


def webcam(capture: FakeCapture, **options: Any) -> tuple[OpenCVSource, Opener]:
    opener = Opener(capture)
    options.setdefault("platform", "linux")
    return OpenCVSource(0, open_capture=opener, **options), opener


def test_a_webcam_opens_through_v4l2_and_asks_for_mjpg_before_the_size() -> None:
    capture = FakeCapture()
    source, opener = webcam(capture, size=(1280, 720))
    with source:
        frame = source.read()
    assert opener.args == [(0, cv2.CAP_V4L2)]
    sets = [prop for kind, (prop, _value) in _sets(capture)]
    assert sets[:3] == [cv2.CAP_PROP_FOURCC, cv2.CAP_PROP_FRAME_WIDTH, cv2.CAP_PROP_FRAME_HEIGHT]
    assert ("set", (cv2.CAP_PROP_FOURCC, MJPG)) in capture.calls
    assert frame.shape == (720, 1280, 3)
    assert source.frame_size == (1280, 720)
    assert source.name == "webcam 0 (1280x720 MJPG)"


def test_the_size_the_camera_really_gives_is_reported_and_used() -> None:
    """1280x960 asked of a camera that has no such mode: it says what it gives instead."""
    source, _ = webcam(FakeCapture(sizes=((640, 480), (1280, 720))), size=(1280, 960))
    with source:
        assert source.read().shape[:2] == (720, 1280)
    assert source.frame_size == (1280, 720)
    assert "1280x720 MJPG, not the 1280x960 asked for" in source.name


def test_a_camera_without_mjpg_says_which_format_it_gives() -> None:
    source, _ = webcam(FakeCapture(formats=(YUYV,)), size=(640, 480))
    with source:
        assert source.name == "webcam 0 (640x480 YUYV)"


def test_off_linux_and_for_files_opencv_chooses_the_backend() -> None:
    source, opener = webcam(FakeCapture(), platform="darwin")
    with source:
        pass
    assert opener.args == [(0,)]
    opener = Opener(FakeCapture())
    with OpenCVSource("clip.mp4", open_capture=opener, platform="linux"):
        pass
    assert opener.args == [("clip.mp4",)]
    assert fourcc_text(0) == "?" and fourcc_text(MJPG) == "MJPG"


def test_calibration_holds_what_the_camera_chose_and_a_restart_keeps_it() -> None:
    capture = FakeCapture()
    settled: list[float] = []
    source, _ = webcam(capture, settle=1.5, sleep=settled.append)
    with source:
        # Locked before (an earlier calibration): automatic goes on again to choose anew.
        capture.props[cv2.CAP_PROP_AUTO_EXPOSURE] = EXPOSURE_MANUAL
        lock = source.measure_and_lock()
    assert settled == [1.5]
    assert lock == WebcamLock({"exposure": 156, "white balance": 4600, "focus": 30})
    assert capture.props[cv2.CAP_PROP_AUTO_EXPOSURE] == EXPOSURE_MANUAL
    assert capture.props[cv2.CAP_PROP_AUTO_WB] == 0
    assert capture.props[cv2.CAP_PROP_AUTOFOCUS] == 0
    # Automatic is switched off before the value it chose is set again.
    sets = [call for call in _sets(capture)]
    off = sets.index(("set", (cv2.CAP_PROP_AUTO_EXPOSURE, EXPOSURE_MANUAL)))
    assert sets.index(("set", (cv2.CAP_PROP_EXPOSURE, 156.0))) > off
    assert lock.as_dict() == {
        "webcam": {"exposure": 156, "white balance": 4600, "focus": 30},
        "refused": [],
        "kept": False,  # no lock_file: held while the companion runs
    }
    fresh = FakeCapture()  # the camera reopened after a hang comes up on automatic
    source._open_capture = Opener(fresh)
    with source:
        pass
    assert fresh.props[cv2.CAP_PROP_AUTO_EXPOSURE] == EXPOSURE_MANUAL
    assert fresh.props[cv2.CAP_PROP_WB_TEMPERATURE] == 4600
    assert fresh.props[cv2.CAP_PROP_AUTOFOCUS] == 0


def test_the_lock_is_kept_and_set_again_when_the_companion_starts_again(tmp_path: Path) -> None:
    kept = tmp_path / LOCK_FILE
    source, _ = webcam(FakeCapture(), sleep=lambda _: None, lock_file=kept)
    with source:
        lock = source.measure_and_lock()
    assert lock.kept and lock.as_dict()["kept"] is True
    # The next start of the companion: a new source, a camera back on automatic.
    fresh = FakeCapture()
    with webcam(fresh, lock_file=kept)[0]:
        pass
    assert fresh.props[cv2.CAP_PROP_AUTO_EXPOSURE] == EXPOSURE_MANUAL
    assert fresh.props[cv2.CAP_PROP_EXPOSURE] == 156
    assert fresh.props[cv2.CAP_PROP_AUTO_WB] == 0
    # Another webcam (another device number) is not given this one's values.
    other = FakeCapture()
    opener = Opener(other)
    with OpenCVSource(2, open_capture=opener, platform="linux", lock_file=kept):
        pass
    assert other.props[cv2.CAP_PROP_AUTO_EXPOSURE] == 3


def test_an_unreadable_kept_lock_leaves_the_webcam_on_automatic(tmp_path: Path) -> None:
    kept = tmp_path / LOCK_FILE
    kept.write_text("{not json", encoding="utf-8")
    capture = FakeCapture()
    with webcam(capture, lock_file=kept)[0] as source:
        assert source.locked is None
    assert capture.props[cv2.CAP_PROP_AUTO_EXPOSURE] == 3


def test_a_control_the_driver_refuses_is_reported_not_fatal(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A fixed-focus webcam that also will not give up automatic white balance."""
    capture = FakeCapture(
        missing=frozenset({cv2.CAP_PROP_FOCUS}), refuses=frozenset({cv2.CAP_PROP_AUTO_WB})
    )
    source, _ = webcam(capture, sleep=lambda _: None)
    with source:
        lock = source.measure_and_lock()
        assert source.read().shape == (480, 640, 3)  # still delivering
    assert lock.values == {"exposure": 156}
    assert lock.refused == (
        "webcam 0 refused to switch automatic white balance off",
        "webcam 0 has no focus control to hold",
    )
    assert "webcam 0 has no focus control to hold" in caplog.text
    assert lock.describe().startswith("held: exposure 156; webcam 0 refused")


def test_a_value_the_driver_changes_while_saying_yes_is_reported_and_held_as_read() -> None:
    """OpenCV's V4L2 backend answers True when the driver clamps a value: read back."""
    capture = FakeCapture(clamps={cv2.CAP_PROP_WB_TEMPERATURE: 6500})
    source, _ = webcam(capture, sleep=lambda _: None)
    with source:
        lock = source.measure_and_lock()
    assert lock.values["white balance"] == 6500
    assert lock.refused == ("webcam 0 holds its white balance at 6500, not the 4600 it chose",)


def test_a_read_that_hangs_is_called_hung_after_the_capture_timeout() -> None:
    capture = FakeCapture()
    source, _ = webcam(capture, capture_timeout=0.2)
    source.start()
    capture.hang.set()
    with pytest.raises(CameraStalledError, match=r"webcam 0 \(640x480 MJPG\) gave no picture"):
        source.read()
    source.stop()  # does not wait for the stuck read ...
    assert not capture.released.is_set()
    capture.unhang.set()  # ... and releases the capture once the driver lets go
    assert capture.released.wait(GENEROUS)


def test_a_hung_webcam_is_offline_in_one_sentence_then_restarted() -> None:
    capture = FakeCapture()
    source, _ = webcam(capture, capture_timeout=0.2)
    statuses: list[str] = []
    offline = threading.Event()

    def seen(status: str) -> None:
        statuses.append(status)
        if "gave no picture" in status:
            capture.hang.clear()
            capture.unhang.set()
            offline.set()

    frames = threading.Event()
    supervisor = CameraSupervisor(
        source, lambda _: frames.set(), initial_backoff=0.05, on_status=seen
    )
    capture.hang.set()
    with supervisor:
        assert offline.wait(GENEROUS)
        assert frames.wait(GENEROUS)
    hung = next(status for status in statuses if "gave no picture" in status)
    assert hung == (
        "camera offline: webcam 0 (640x480 MJPG) gave no picture for 0.2 s (hung); restarting it"
    )


def test_a_webcam_that_is_not_there_still_says_so() -> None:
    class Closed(FakeCapture):
        def isOpened(self) -> bool:
            return False

    source, _ = webcam(Closed())
    with pytest.raises(CameraOfflineError, match="could not open webcam 0; is it plugged in"):
        source.start()


def test_timed_calls_hand_back_results_and_errors() -> None:
    calls: TimedCalls[int] = TimedCalls("test")
    assert calls.call(lambda: 7, GENEROUS) == 7
    with pytest.raises(ZeroDivisionError):
        calls.call(lambda: 1 // 0, GENEROUS)
    calls.close()


def _sets(capture: FakeCapture) -> list[tuple[str, Any]]:
    return [call for call in capture.calls if call[0] == "set"]
