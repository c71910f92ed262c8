"""Frame sources for the overhead camera, and a supervisor that survives a missing camera.

Every source speaks one small protocol, :class:`FrameSource`: ``start()``, ``read()`` (a
numpy BGR frame, the order OpenCV expects, or :class:`CameraOfflineError` with a reason a person
can act on), ``stop()``, ``name``, and use as a context manager. The rest of the program
never learns which camera it has:

* :class:`Picamera2Source` — the Pi camera; picamera2 is imported only in ``start()`` so
  this module loads on any machine.
* :class:`OpenCVSource` — a USB webcam (index) or a stream / file path via VideoCapture.
* :class:`FolderSource` — a folder of images or a video file, looping (demos, tests).
* :class:`SimulatedSource` — frames rendered by any callable (hardware/simulator/).

:class:`CameraSupervisor` owns the source on one thread, hands only the latest frame to
the consumer on another, and when the camera is absent or dies it reports
``"camera offline: <why>"`` and retries with exponential back-off instead of stopping the
game: everything works without a camera (DESIGN.md). A camera that hangs (no frame within a
timeout) or freezes (the same picture over and over) is restarted the same way, and the
status line says so.
"""

from __future__ import annotations

import hashlib
import logging
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Protocol, Self, runtime_checkable

import cv2
import numpy as np
import numpy.typing as npt

from companion.errors import CompanionError
from companion.mailbox import CAMERA_LIVE, LatestFrameWorker
from hardware import webcam
from hardware.camera_lock import Measured, full_view_mode, full_view_size, measure_and_lock

log = logging.getLogger(__name__)

Frame = npt.NDArray[np.uint8]
Clock = Callable[[], float]
Sleep = Callable[[float], object]


class CameraOfflineError(CompanionError, RuntimeError):
    """The camera cannot give a frame now; ``reason`` says why in words for the status line."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class CameraBusy(CameraOfflineError):
    """Another Picamera2Source already holds the Pi camera in this process."""


class CameraStalledError(CameraOfflineError):
    """The camera is there but hung (no frame in time) or froze (the same picture again).

    The supervisor restarts it and says so on the status line once it is back.
    """


@runtime_checkable
class FrameSource(Protocol):
    """What the supervisor (and anything else) needs from a camera."""

    @property
    def name(self) -> str: ...

    def start(self) -> None: ...

    def read(self) -> Frame: ...

    def stop(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class _SourceBase:
    """Context-manager plumbing shared by the concrete sources: ``with`` = start ... stop."""

    name: str

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class _Pacer:
    """Holds synthetic sources (files, simulator) to a frame rate, as a real camera would be."""

    def __init__(self, fps: float | None, clock: Clock, sleep: Sleep) -> None:
        if fps is not None and fps <= 0:
            raise ValueError(f"fps must be a positive number of frames per second, not {fps!r}.")
        self._interval = 1.0 / fps if fps else 0.0
        self._clock = clock
        self._sleep = sleep
        self._due = float("-inf")

    def wait(self) -> None:
        if not self._interval:
            return
        now = self._clock()
        if now < self._due:
            self._sleep(self._due - now)
            now = self._due
        self._due = now + self._interval


def _check_bgr(frame: object, source: str) -> Frame:
    """Reject anything but an HxWx3 uint8 array, so a bad frame fails here and not in vision."""
    if (
        not isinstance(frame, np.ndarray)
        or frame.dtype != np.uint8
        or frame.ndim != 3
        or frame.shape[2] != 3
    ):
        got = (
            f"a {frame.shape} {frame.dtype} array"
            if isinstance(frame, np.ndarray)
            else type(frame).__name__
        )
        raise CameraOfflineError(f"{source} produced {got}, not an HxWx3 uint8 BGR frame")
    return frame


# --------------------------------------------------------------------------- Pi camera


@dataclass(frozen=True)
class CameraSettings:
    """Capture size and the fixed exposure, white balance and focus found by calibration.

    Fixed settings matter for vision: auto exposure and auto white balance drift as hands
    and dice move under the camera, which shifts the colours the pieces are matched by.
    ``None`` leaves that control automatic (before calibration has run).
    """

    size: tuple[int, int] = (1280, 960)
    exposure_time_us: int | None = None
    analogue_gain: float = 1.0
    colour_gains: tuple[float, float] | None = None
    lens_position: float | None = None  # dioptres: 1 / distance in metres; Camera Module 3

    def controls(self, supported: Mapping[str, object] | None = None) -> dict[str, object]:
        """libcamera controls for these settings; focus only if the camera has autofocus."""
        controls: dict[str, object] = {}
        if self.exposure_time_us is not None:
            controls.update(
                AeEnable=False,
                ExposureTime=int(self.exposure_time_us),
                AnalogueGain=float(self.analogue_gain),
            )
        if self.colour_gains is not None:
            red, blue = self.colour_gains
            controls.update(AwbEnable=False, ColourGains=(float(red), float(blue)))
        if self.lens_position is not None:
            if supported is None or "AfMode" in supported:
                # AfMode 0 is libcamera's AfModeEnum.Manual; spelled as a number so that
                # this module needs no libcamera import.
                controls.update(AfMode=0, LensPosition=float(self.lens_position))
            else:
                log.info("this camera has no focus control; lens_position ignored")
        return controls


_picamera_lock = threading.Lock()
_picamera_owner: Picamera2Source | None = None


class Picamera2Source(_SourceBase):
    """The Raspberry Pi camera through picamera2 (apt's python3-picamera2 on Bookworm).

    Only one may be open per process: libcamera gives the camera to one owner, and a second
    Picamera2() in the same process fails in confusing ways, so this is checked up front.
    """

    def __init__(
        self,
        settings: CameraSettings | None = None,
        *,
        camera_num: int = 0,
        capture_timeout: float = 3.0,
    ) -> None:
        self.settings = settings or CameraSettings()
        self.camera_num = camera_num
        #: Seconds ``read`` waits for a frame before calling the camera hung: picamera2's
        #: ``capture_array`` blocks for ever by default when requests stop coming back.
        self.capture_timeout = capture_timeout
        self.name = f"Pi camera {camera_num}"
        self._camera: Any = None
        #: The picture size really configured: the requested width at the sensor's shape.
        self.frame_size: tuple[int, int] | None = None
        self._modes: list[Mapping[str, Any]] | None = None
        # The reader thread captures while a web request may measure: one at a time.
        self._use = threading.Lock()

    def start(self) -> None:
        global _picamera_owner
        if self._camera is not None:
            return
        with _picamera_lock:
            if _picamera_owner is not None and _picamera_owner is not self:
                raise CameraBusy(
                    f"{_picamera_owner.name} is already open in this process; stop it first"
                )
            _picamera_owner = self
        try:
            self._camera = self._open()
        except BaseException:
            with _picamera_lock:
                _picamera_owner = None
            raise

    def _open(self) -> Any:
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise CameraOfflineError(
                "picamera2 is not installed (sudo apt install python3-picamera2, and create "
                "the venv with --system-site-packages)"
            ) from None
        list_cameras = getattr(Picamera2, "global_camera_info", None)
        no_camera = CameraOfflineError(
            "no Pi camera found; check the ribbon cable and run rpicam-hello --list-cameras"
        )
        if callable(list_cameras) and not list_cameras():
            raise no_camera
        try:
            camera = Picamera2(self.camera_num)
        except IndexError:  # picamera2's way of saying "no camera with that number"
            raise no_camera from None
        except Exception as exc:
            raise CameraOfflineError(
                f"the Pi camera could not be opened ({exc}); is another program "
                "(rpicam-*, motion) using it?"
            ) from exc
        try:
            width, height = self.settings.size
            if self._modes is None:
                # Reading sensor_modes reconfigures the camera once per mode (slow): once
                # per source, not again at every restart after a hang.
                try:
                    self._modes = list(getattr(camera, "sensor_modes", None) or [])
                except Exception:  # no mode list: picamera2 picks the mode, as before
                    log.warning("%s did not list its sensor modes", self.name, exc_info=True)
                    self._modes = []
            mode = full_view_mode(self._modes, width)
            if mode is not None:
                # The whole field of view, and a picture of the same shape (no crop).
                width, height = full_view_size(mode, (width, height))
            # RGB888 is libcamera's name for B,G,R byte order: OpenCV's BGR, no conversion.
            main = {"size": (width, height), "format": "RGB888"}
            if mode is None:
                config = camera.create_video_configuration(main=main)
            else:
                try:
                    config = camera.create_video_configuration(
                        main=main,
                        sensor={"output_size": mode["size"], "bit_depth": mode["bit_depth"]},
                    )
                except TypeError:  # picamera2 before 0.3.13: the raw stream picks the mode
                    config = camera.create_video_configuration(
                        main=main, raw={"size": mode["size"]}
                    )
            camera.configure(config)
            self.frame_size = (width, height)
            controls = self.settings.controls(getattr(camera, "camera_controls", None))
            if controls:
                # Set before start so the very first frame is already at fixed exposure.
                camera.set_controls(controls)
            camera.start()
        except Exception as exc:
            camera.close()
            raise CameraOfflineError(f"the Pi camera failed to start: {exc}") from exc
        return camera

    def read(self) -> Frame:
        if self._camera is None:
            raise CameraOfflineError(f"{self.name} is not started")
        try:
            # A number for ``wait`` makes picamera2 give up with TimeoutError
            # (Picamera2.dispatch_functions -> Job.get_result(timeout=...)).
            with self._use:
                frame = self._camera.capture_array("main", wait=self.capture_timeout)
        except TimeoutError:
            # picamera2's own advice after a timed-out job, so that the camera can be closed.
            flush = getattr(self._camera, "cancel_all_and_flush", None)
            if callable(flush):
                flush()
            raise CameraStalledError(
                f"{self.name} gave no picture for {self.capture_timeout:g} s (hung); restarting it"
            ) from None
        except Exception as exc:
            raise CameraOfflineError(f"{self.name} stopped delivering frames: {exc}") from exc
        # picamera2 may hand back a strided view; OpenCV wants contiguous memory.
        return np.ascontiguousarray(_check_bgr(frame, self.name))

    def measure_and_lock(self) -> Measured:
        """Let exposure, white balance and focus settle, then hold them (calibration).

        The values become this source's settings, so a restart after a hang keeps them.
        """
        camera = self._camera
        if camera is None:
            raise CameraOfflineError(f"{self.name} is not started")
        try:
            with self._use:
                measured = measure_and_lock(camera, timeout=self.capture_timeout)
        except TimeoutError:
            raise CameraStalledError(f"{self.name} gave no picture while settling") from None
        except Exception as exc:
            raise CameraOfflineError(
                f"{self.name} could not measure exposure: {type(exc).__name__}: {exc}"
            ) from exc
        self.settings = replace(self.settings, **measured.as_dict())
        return measured

    def stop(self) -> None:
        global _picamera_owner
        camera, self._camera = self._camera, None
        if camera is None:
            return
        try:
            camera.stop()
        except Exception:
            log.warning("%s did not stop cleanly", self.name, exc_info=True)
        finally:
            try:
                camera.close()
            finally:
                with _picamera_lock:
                    if _picamera_owner is self:
                        _picamera_owner = None


# --------------------------------------------------------------------------- OpenCV sources

#: OpenCV's own log level that prints nothing (cv2.utils.logging.LOG_LEVEL_SILENT).
OPENCV_SILENT: Final = 0


@contextmanager
def _opencv_quiet() -> Iterator[None]:
    """Keep OpenCV's own log lines off the console while a capture is opened.

    Why: a webcam number with no camera makes OpenCV print two lines of its internals
    ("[ WARN:0@0.4] global cap_v4l.cpp:913 open VIDEOIO(V4L2:/dev/video7): can't open
    camera by index", "[ERROR...] Camera index out of range") at every retry, around the
    one sentence the supervisor says about it. ``isOpened`` still tells what happened.
    """
    before = cv2.getLogLevel()
    cv2.setLogLevel(OPENCV_SILENT)
    try:
        yield
    finally:
        cv2.setLogLevel(before)


class OpenCVSource(_SourceBase):
    """A USB webcam by index (0 = /dev/video0) or anything VideoCapture opens by path/URL.

    A webcam is opened through V4L2 on Linux, asked for MJPG and then the size, and the
    size it really delivers is read back (``frame_size``) and shown in its name
    (``hardware.webcam`` says why). ``read`` gives up after ``capture_timeout`` seconds
    instead of OpenCV's own 10 s; ``measure_and_lock`` holds exposure, white balance and
    focus at calibration, and a restart sets them again (a restart of the companion too,
    from ``lock_file``). ``open_capture`` stands in for ``cv2.VideoCapture(device[,
    backend])`` in tests.
    """

    def __init__(
        self,
        device: int | str = 0,
        *,
        size: tuple[int, int] | None = None,
        capture_timeout: float = 3.0,
        settle: float = 1.5,
        open_capture: Callable[..., Any] | None = None,
        platform: str = sys.platform,
        sleep: Sleep = time.sleep,
        lock_file: Path | None = None,
    ) -> None:
        self.device = device
        #: Where calibration's lock is kept, to be set again at every start (None: not kept).
        self.lock_file = lock_file
        self.size = size
        self.capture_timeout = capture_timeout
        self.settle = settle  # seconds automatic exposure gets before it is read and held
        self._open_capture = open_capture or cv2.VideoCapture
        self._backend = webcam.backend_for(device, platform)
        self._sleep = sleep
        self._label = f"webcam {device}" if isinstance(device, int) else f"video {device}"
        self.name = self._label
        #: What the camera really delivers (read back after the requests); None before.
        self.delivered: webcam.Delivered | None = None
        self.locked: webcam.WebcamLock | None = None
        if lock_file is not None:
            self.locked = webcam.load_lock(lock_file, self._label)
        self._capture: Any = None
        self._calls: webcam.TimedCalls[tuple[bool, Any]] | None = None
        # The reader reads while calibration sets controls: one at a time.
        self._use = threading.Lock()

    @property
    def frame_size(self) -> tuple[int, int] | None:
        """The size the camera really delivers, as it reported it after the requests."""
        return None if self.delivered is None else self.delivered.size

    def start(self) -> None:
        if self._capture is not None:
            return
        with _opencv_quiet():
            if self._backend is None:
                capture = self._open_capture(self.device)
            else:
                capture = self._open_capture(self.device, self._backend)
        if not capture.isOpened():
            capture.release()
            raise CameraOfflineError(
                f"could not open {self._label}; is it plugged in (v4l2-ctl --list-devices)?"
            )
        if self._backend is not None:  # a webcam; a video file keeps its own format
            self.delivered = webcam.ask_format(capture, self.size)
            self.name = f"{self._label} ({self.delivered.describe()})"
            log.info("%s opened", self.name)
            if self.locked is not None:
                for what in webcam.hold(capture, self.locked):
                    log.warning("%s refused to hold its %s again", self.name, what)
        self._capture = capture
        self._use = threading.Lock()  # this capture's own: a hung old one keeps the old
        self._calls = webcam.TimedCalls(f"{self._label} reads")

    def read(self) -> Frame:
        capture, calls, use = self._capture, self._calls, self._use
        if capture is None or calls is None:
            raise CameraOfflineError(f"{self.name} is not started")

        def read_one() -> tuple[bool, Any]:
            with use:
                result: tuple[bool, Any] = capture.read()
                return result

        try:
            ok, frame = calls.call(read_one, self.capture_timeout)
        except TimeoutError:
            raise CameraStalledError(
                f"{self.name} gave no picture for {self.capture_timeout:g} s (hung)"
            ) from None
        if not ok or frame is None:
            raise CameraOfflineError(f"{self.name} returned no frame; was it unplugged?")
        return _check_bgr(frame, self.name)

    def measure_and_lock(self) -> webcam.WebcamLock:
        """Let exposure, white balance and focus choose for ``settle`` seconds, then hold
        what they chose (calibration); a control the driver refuses is said, not fatal."""
        capture = self._capture
        if capture is None:
            raise CameraOfflineError(f"{self.name} is not started")
        with self._timed_use():
            webcam.let_choose(capture)
        self._sleep(self.settle)  # the reader keeps reading meanwhile: automatic settles
        with self._timed_use():
            lock = webcam.lock_controls(capture, self._label)
        if self.lock_file is not None:
            lock = webcam.save_lock(self.lock_file, self._label, lock)
        self.locked = lock
        log.info("%s %s", self.name, lock.describe())
        return lock

    @contextmanager
    def _timed_use(self) -> Iterator[None]:
        """The capture to oneself, or CameraStalledError when a read holds it too long."""
        if not self._use.acquire(timeout=self.capture_timeout):
            raise CameraStalledError(
                f"{self.name} gave no picture for {self.capture_timeout:g} s (hung)"
            )
        try:
            yield
        finally:
            self._use.release()

    def stop(self) -> None:
        capture, self._capture = self._capture, None
        calls, self._calls = self._calls, None
        if calls is not None:
            calls.close()
        if capture is None:
            return
        use = self._use
        if use.acquire(timeout=0.5):
            try:
                capture.release()
            finally:
                use.release()
            return

        # A hung read still holds the driver: the capture is released once it returns
        # (OpenCV's own 10 s), on a thread of its own, so the restart need not wait.
        def release_later() -> None:
            with use:
                capture.release()

        threading.Thread(target=release_later, name="webcam release", daemon=True).start()


IMAGE_SUFFIXES: Final = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})


class FolderSource(_SourceBase):
    """Images of a folder in name order, or the frames of a video file, looping forever.

    ``fps`` paces the frames like a camera would; without it frames come as fast as they
    decode (benchmarks, tests).
    """

    def __init__(
        self,
        path: Path | str,
        *,
        fps: float | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
    ) -> None:
        self.path = Path(path)
        self.name = f"folder {self.path}" if self.path.is_dir() else f"video {self.path}"
        self._pacer = _Pacer(fps, clock, sleep)
        self._images: list[Path] | None = None
        self._capture: Any = None
        self._index = 0

    def start(self) -> None:
        if self._images is not None or self._capture is not None:
            return
        if self.path.is_dir():
            images = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not images:
                raise CameraOfflineError(
                    f"no images ({', '.join(sorted(IMAGE_SUFFIXES))}) in {self.path}"
                )
            self._images, self._index = images, 0
        elif self.path.is_file():
            with _opencv_quiet():
                capture = cv2.VideoCapture(str(self.path))
            if not capture.isOpened():
                capture.release()
                raise CameraOfflineError(f"OpenCV cannot open the video {self.path}")
            self._capture = capture
        else:
            raise CameraOfflineError(
                f"{self.path} does not exist; give a folder of images or a video"
            )

    def read(self) -> Frame:
        self._pacer.wait()
        if self._images is not None:
            image_path = self._images[self._index % len(self._images)]
            self._index += 1
            frame = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
            if frame is None:
                raise CameraOfflineError(f"cannot decode the image {image_path}")
            return _check_bgr(frame, self.name)
        if self._capture is None:
            raise CameraOfflineError(f"{self.name} is not started")
        ok, frame = self._capture.read()
        if not ok:
            # End of the video: rewind and loop.
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._capture.read()
            if not ok:
                raise CameraOfflineError(f"the video {self.path} has no readable frames")
        return _check_bgr(frame, self.name)

    def stop(self) -> None:
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()
        self._images = None


class SimulatedSource(_SourceBase):
    """Frames from a renderer callable: the camera's twin on a machine without one.

    The renderer may raise CameraOfflineError to act out a failing camera; any other error is
    reported as offline too (with its type), so a renderer bug shows on the status line.
    """

    def __init__(
        self,
        render: Callable[[], npt.NDArray[Any]],
        *,
        name: str = "simulated camera",
        fps: float | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
    ) -> None:
        self._render = render
        self.name = name
        self._pacer = _Pacer(fps, clock, sleep)
        self._started = False

    def start(self) -> None:
        self._started = True

    def read(self) -> Frame:
        if not self._started:
            raise CameraOfflineError(f"{self.name} is not started")
        self._pacer.wait()
        try:
            frame = self._render()
        except CameraOfflineError:
            raise
        except Exception as exc:
            raise CameraOfflineError(f"{self.name} failed: {type(exc).__name__}: {exc}") from exc
        return _check_bgr(frame, self.name)

    def stop(self) -> None:
        self._started = False


# --------------------------------------------------------------------------- hangs


class FreezeCheck:
    """Notices a camera that keeps handing back the very same picture.

    A live sensor never gives two identical frames of a lit scene (noise moves the low bits),
    so a fingerprint unchanged for ``after`` seconds means the pipeline froze and repeats an
    old buffer, while the status would still say "live". A flat frame (a covered lens, all
    black) may truly repeat, so it never counts as frozen.
    """

    FLAT = 8  # grey levels between the darkest and brightest sample: nothing to see

    def __init__(self, after: float, clock: Clock) -> None:
        if after <= 0:
            raise ValueError(f"frozen_after must be a positive number of seconds, not {after!r}.")
        self.after = after
        self._clock = clock
        self._fingerprint: bytes | None = None
        self._since = 0.0

    def check(self, frame: Frame, name: str) -> None:
        """Raise CameraStalledError once the same picture has come for ``after`` seconds."""
        sample = frame[::8, ::8]
        if int(sample.max()) - int(sample.min()) < self.FLAT:
            self._fingerprint = None
            return
        fingerprint = hashlib.blake2b(sample.tobytes(), digest_size=16).digest()
        now = self._clock()
        if fingerprint != self._fingerprint:
            self._fingerprint, self._since = fingerprint, now
            return
        if now - self._since >= self.after:
            self._fingerprint = None
            raise CameraStalledError(
                f"{name} has shown the very same picture for {now - self._since:.0f} s (frozen)"
            )


# --------------------------------------------------------------------------- supervisor


@dataclass
class SupervisorStats:
    """Counters for the status page and benchmarks."""

    frames_read: int = 0
    frames_delivered: int = 0
    frames_dropped: int = 0
    failures: int = 0
    consumer_errors: int = 0
    restarts_after_hang: int = 0  # hung or frozen, then restarted (CameraStalledError)


class CameraSupervisor:
    """Keeps a frame source running and feeds the newest frame to ``consumer``.

    Two threads: the reader owns the source (start/read/stop all happen on it, which is
    what picamera2 and VideoCapture expect), the deliverer calls ``consumer``. A slow
    consumer never sees a backlog: frames read while it is busy replace each other and only
    the latest is handed over, because stale board images are worse than skipped ones.

    When the source fails (missing at start, or dying mid-run) the status becomes
    ``"camera offline: <why>"``, the source is stopped, and it is started again after
    ``initial_backoff`` seconds, doubling up to ``max_backoff``; the first good frame resets
    the delay. ``sleep`` and ``clock`` are injectable so tests need no real waiting.

    A camera can also hang without failing. A source that gives no frame in time, or (with
    ``frozen_after``) the very same picture for that long, raises CameraStalledError and is
    restarted like a failed one; once back, the status says it was restarted and why. If the
    reader is stuck inside a driver call that never returns, ``stale_after`` seconds without
    a new frame turn the status to offline anyway, so the page never shows a frozen picture
    as live.
    """

    def __init__(
        self,
        source: FrameSource,
        consumer: Callable[[Frame], None],
        *,
        initial_backoff: float = 0.5,
        max_backoff: float = 30.0,
        sleep: Sleep | None = None,
        clock: Clock = time.monotonic,
        on_status: Callable[[str], None] | None = None,
        frozen_after: float | None = None,
        stale_after: float | None = None,
    ) -> None:
        if not 0 < initial_backoff <= max_backoff:
            raise ValueError(
                "initial_backoff must be above 0 and at most max_backoff, "
                f"not {initial_backoff!r} and {max_backoff!r}."
            )
        self.source = source
        # The deliverer: a one-frame mailbox, so a slow consumer never sees a backlog.
        self._delivery = LatestFrameWorker(consumer, "frame consumer")
        self._initial_backoff = initial_backoff
        self._max_backoff = max_backoff
        self._stopping = threading.Event()
        self._sleep: Sleep = sleep if sleep is not None else self._stopping.wait
        self._clock = clock
        self._on_status = on_status
        self._lock = threading.Condition()
        self._status = f"camera starting: {source.name}"
        self._online = False
        self._reader_stats = SupervisorStats()  # frames_read and failures; the rest is delivery's
        self.retry_delay: float | None = None
        self.offline_since: float | None = None
        self._freeze = FreezeCheck(frozen_after, clock) if frozen_after is not None else None
        self._stale_after = stale_after
        self._last_frame_at: float | None = None
        self._hung_because: str | None = None  # the last hang, until a frame shows it is over
        self._threads: list[threading.Thread] = []

    # ---- status

    @property
    def stats(self) -> SupervisorStats:
        """The reader's counters with the deliverer's (delivered, dropped, consumer errors)."""
        delivery = self._delivery.stats
        with self._lock:
            return replace(
                self._reader_stats,
                frames_delivered=delivery.handled,
                frames_dropped=delivery.dropped,
                consumer_errors=delivery.errors,
            )

    @property
    def status(self) -> str:
        """One line for people: "camera live: ...", "camera offline: <why>", ..."""
        with self._lock:
            quiet = self._quiet_for()
            if quiet is not None:
                return (
                    f"camera offline: no new picture from {self.source.name} for "
                    f"{quiet:.0f} s (the camera hung)"
                )
            return self._status

    @property
    def online(self) -> bool:
        with self._lock:
            return self._online and self._quiet_for() is None

    def _quiet_for(self) -> float | None:
        """Seconds since the last frame, if a live camera has been quiet too long (locked)."""
        if not self._online or self._stale_after is None or self._last_frame_at is None:
            return None
        quiet = self._clock() - self._last_frame_at
        return quiet if quiet >= self._stale_after else None

    def _set_status(self, status: str, *, online: bool) -> None:
        with self._lock:
            changed = status != self._status
            self._status, self._online = status, online
        if changed:
            offline = status.startswith("camera offline")
            (log.warning if offline else log.info)("%s", status)
            if self._on_status is not None:
                try:
                    self._on_status(status)
                except Exception:
                    log.exception("status listener failed")

    # ---- lifecycle

    def start(self) -> None:
        if self._threads:
            return
        self._stopping.clear()
        self._threads = [
            threading.Thread(target=self._read_loop, name="camera-reader", daemon=True),
        ]
        self._delivery.start()
        for thread in self._threads:
            thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop both threads and the source; a reader stuck in a driver call is abandoned."""
        self._stopping.set()
        self._delivery.stop(timeout)
        for thread in self._threads:
            thread.join(timeout)
            if thread.is_alive():
                log.warning("%s did not stop within %.1f s", thread.name, timeout)
        self._threads = []
        self._set_status("camera stopped", online=False)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # ---- threads

    def _read_loop(self) -> None:
        started = False
        attempt = 0
        try:
            while not self._stopping.is_set():
                try:
                    if not started:
                        self.source.start()
                        started = True
                    frame = self.source.read()
                    if self._freeze is not None:
                        self._freeze.check(frame, self.source.name)
                except Exception as exc:
                    if isinstance(exc, CameraOfflineError):
                        reason = exc.reason
                    else:
                        log.exception("unexpected error from %s", self.source.name)
                        reason = f"{type(exc).__name__}: {exc}"
                    if isinstance(exc, CameraStalledError):
                        with self._lock:
                            self._hung_because = reason
                            self._reader_stats.restarts_after_hang += 1
                        reason = f"{reason}; restarting it"
                    if started:
                        self._stop_source()
                        started = False
                    delay = min(self._initial_backoff * 2**attempt, self._max_backoff)
                    attempt += 1
                    with self._lock:
                        self._reader_stats.failures += 1
                        self.retry_delay = delay
                        if self.offline_since is None:
                            self.offline_since = self._clock()
                    self._set_status(f"camera offline: {reason}", online=False)
                    if not self._stopping.is_set():
                        self._sleep(delay)
                    continue
                attempt = 0
                self._delivery.offer(frame)
                with self._lock:
                    self._reader_stats.frames_read += 1
                    self.retry_delay = self.offline_since = None
                    self._last_frame_at = self._clock()
                    hung_because, self._hung_because = self._hung_because, None
                if not self._online:
                    live = f"{CAMERA_LIVE}: {self.source.name}"
                    if hung_because is not None:
                        live += f" (restarted after: {hung_because})"
                    self._set_status(live, online=True)
                # Yield the GIL: a source that never blocks (files, simulator without fps)
                # would otherwise starve the deliverer to a frame per switch interval (5 ms).
                time.sleep(0)
        finally:
            if started:
                self._stop_source()

    def _stop_source(self) -> None:
        try:
            self.source.stop()
        except Exception:
            log.warning("%s did not stop cleanly", self.source.name, exc_info=True)
