"""Frame sources and the camera supervisor, without a camera.

picamera2 is replaced by a stand-in module in sys.modules that records every call; the
OpenCV sources read real files written into tmp_path; the supervisor is driven by scripted
sources, an injected sleep and events, so no test asserts on elapsed time.
"""

from __future__ import annotations

import sys
import threading
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from hardware.camera import (
    CameraBusy,
    CameraOfflineError,
    CameraSettings,
    CameraStalledError,
    CameraSupervisor,
    FolderSource,
    Frame,
    FrameSource,
    FreezeCheck,
    OpenCVSource,
    Picamera2Source,
    SimulatedSource,
)

GENEROUS = 10.0  # seconds; a ceiling for waits, never an assertion about speed


def solid(value: int, size: tuple[int, int] = (48, 64)) -> Frame:
    return np.full((*size, 3), value, dtype=np.uint8)


class FakeClock:
    """Time that passes only through its own sleep(), which it records."""

    def __init__(self) -> None:
        self.now = 50.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


# --------------------------------------------------------------------------- picamera2


class FakePicamera2:
    """Records what Picamera2Source asks of picamera2 and returns BGR-shaped arrays.

    Mirrors picamera2/picamera2.py (raspberrypi/picamera2): ``capture_array(name, wait=...)``
    goes through ``dispatch_functions``, where a number for ``wait`` is a timeout that
    ``Job.get_result`` (picamera2/job.py, a concurrent.futures.Future) turns into
    TimeoutError; ``cancel_all_and_flush`` is its tidy-up after such a timeout.
    """

    calls: list[Any]
    camera_controls: dict[str, Any]
    fail_open = False

    def __init__(self, camera_num: int = 0) -> None:
        if FakePicamera2.fail_open:
            raise IndexError("list index out of range")
        self.camera_num = camera_num
        self.size = (640, 480)
        self.fail_capture = False
        self.hang = False
        FakePicamera2.instances.append(self)

    instances: list[FakePicamera2]

    def create_video_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        self.calls.append(("create_video_configuration", main))
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        self.size = config["main"]["size"]
        self.calls.append(("configure", config))

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.calls.append(("set_controls", dict(controls)))

    def start(self) -> None:
        self.calls.append("start")

    def capture_array(self, stream: str = "main", wait: float | bool | None = None) -> Frame:
        self.calls.append(("capture_array", stream))
        self.waits.append(wait)
        if self.fail_capture:
            raise RuntimeError("Camera frontend has timed out!")
        if self.hang:
            if wait is None or wait is True:
                raise AssertionError("would block for ever: capture_array without a timeout")
            raise TimeoutError  # concurrent.futures.TimeoutError is TimeoutError (3.11)
        width, height = self.size
        return np.zeros((height, width, 3), dtype=np.uint8)

    def cancel_all_and_flush(self) -> None:
        self.calls.append("cancel_all_and_flush")

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")

    waits: list[float | bool | None]


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    FakePicamera2.calls = []
    FakePicamera2.waits = []
    FakePicamera2.instances = []
    FakePicamera2.fail_open = False
    FakePicamera2.camera_controls = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return FakePicamera2


CALIBRATED = CameraSettings(
    size=(800, 600),
    exposure_time_us=8000,
    analogue_gain=2.0,
    colour_gains=(1.9, 1.5),
    lens_position=2.5,
)


def test_picamera2_configures_rgb888_fixed_exposure_and_stops_cleanly(
    fake_picamera2: type[FakePicamera2],
) -> None:
    with Picamera2Source(CALIBRATED) as source:
        frame = source.read()
    assert frame.shape == (600, 800, 3) and frame.dtype == np.uint8
    calls = fake_picamera2.calls
    assert calls[0] == ("create_video_configuration", {"size": (800, 600), "format": "RGB888"})
    assert calls[1][0] == "configure"
    assert calls[2] == (
        "set_controls",
        {
            "AeEnable": False,
            "ExposureTime": 8000,
            "AnalogueGain": 2.0,
            "AwbEnable": False,
            "ColourGains": (1.9, 1.5),
            "AfMode": 0,
            "LensPosition": 2.5,
        },
    )
    assert calls[3:] == ["start", ("capture_array", "main"), "stop", "close"]


def test_picamera2_without_autofocus_skips_focus_and_auto_settings_set_nothing(
    fake_picamera2: type[FakePicamera2],
) -> None:
    fake_picamera2.camera_controls = {"ExposureTime": (1, 1000000, 10000)}
    with Picamera2Source(CALIBRATED):
        pass
    (controls,) = [call[1] for call in fake_picamera2.calls if call[0] == "set_controls"]
    assert "AfMode" not in controls and "LensPosition" not in controls
    assert controls["AeEnable"] is False
    fake_picamera2.calls.clear()
    with Picamera2Source():
        pass
    assert not [call for call in fake_picamera2.calls if call[0] == "set_controls"]


def test_one_pi_camera_per_process(fake_picamera2: type[FakePicamera2]) -> None:
    first, second = Picamera2Source(), Picamera2Source()
    first.start()
    try:
        with pytest.raises(CameraBusy, match="already open"):
            second.start()
        assert len(fake_picamera2.instances) == 1  # refused before touching the camera
    finally:
        first.stop()
    with second:
        assert second.read().shape == (960, 1280, 3)


def test_missing_pi_camera_is_offline_with_a_reason_and_frees_the_slot(
    fake_picamera2: type[FakePicamera2], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_picamera2.fail_open = True
    with pytest.raises(CameraOfflineError, match="no Pi camera found; check the ribbon cable"):
        Picamera2Source().start()
    with monkeypatch.context() as patch:
        patch.setattr(fake_picamera2, "global_camera_info", staticmethod(list), raising=False)
        with pytest.raises(CameraOfflineError, match="no Pi camera found"):
            Picamera2Source().start()
    assert fake_picamera2.instances == []  # asked the camera list, opened nothing
    fake_picamera2.fail_open = False
    with Picamera2Source() as source:
        source.read()


def test_busy_pi_camera_says_so(
    fake_picamera2: type[FakePicamera2], monkeypatch: pytest.MonkeyPatch
) -> None:
    def busy(self: FakePicamera2, camera_num: int = 0) -> None:
        raise RuntimeError("Camera __init__ sequence did not complete.")

    monkeypatch.setattr(fake_picamera2, "__init__", busy)
    with pytest.raises(CameraOfflineError, match="is another program"):
        Picamera2Source().start()


def test_pi_camera_dying_mid_run_raises_offline(fake_picamera2: type[FakePicamera2]) -> None:
    with Picamera2Source() as source:
        fake_picamera2.instances[0].fail_capture = True
        with pytest.raises(CameraOfflineError, match="stopped delivering frames: Camera frontend"):
            source.read()


def test_a_hung_pi_camera_times_out_instead_of_blocking(
    fake_picamera2: type[FakePicamera2],
) -> None:
    with Picamera2Source(capture_timeout=2.0) as source:
        source.read()
        fake_picamera2.instances[0].hang = True
        with pytest.raises(CameraStalledError, match=r"gave no picture for 2 s \(hung\)"):
            source.read()
    assert fake_picamera2.waits == [2.0, 2.0]  # every capture carries the timeout
    assert fake_picamera2.calls[-3:] == ["cancel_all_and_flush", "stop", "close"]


def test_picamera2_is_imported_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes `import picamera2` fail
    source = Picamera2Source()  # constructing needs no picamera2
    with pytest.raises(CameraOfflineError, match="picamera2 is not installed"):
        source.start()


# --------------------------------------------------------------------------- files


@pytest.fixture
def image_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "frames"
    folder.mkdir()
    for index, value in enumerate((10, 120, 240)):
        assert cv2.imwrite(str(folder / f"frame{index}.png"), solid(value))
    (folder / "notes.txt").write_text("not an image")
    return folder


@pytest.fixture
def video_file(tmp_path: Path) -> Path:
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (64, 48))
    assert writer.isOpened()
    for value in (20, 80, 140, 200):
        writer.write(solid(value))
    writer.release()
    return path


def test_folder_source_loops_over_images_in_order(image_folder: Path) -> None:
    with FolderSource(image_folder) as source:
        values = [int(source.read()[0, 0, 0]) for _ in range(4)]
    assert values == [10, 120, 240, 10]


def test_folder_source_loops_a_video(video_file: Path) -> None:
    with FolderSource(video_file) as source:
        frames = [source.read() for _ in range(5)]
    assert all(frame.shape == (48, 64, 3) for frame in frames)
    means = [float(frame.mean()) for frame in frames]
    assert means[0] < means[1] < means[2] < means[3]
    assert abs(means[4] - means[0]) < 10  # back to the start


def test_folder_source_paces_to_fps(image_folder: Path, clock: FakeClock) -> None:
    with FolderSource(image_folder, fps=10, clock=clock, sleep=clock.sleep) as source:
        for _ in range(3):
            source.read()
    assert clock.sleeps == pytest.approx([0.1, 0.1])


def test_folder_source_explains_what_is_missing(tmp_path: Path) -> None:
    with pytest.raises(CameraOfflineError, match="no images"):
        FolderSource(tmp_path).start()
    with pytest.raises(CameraOfflineError, match="does not exist"):
        FolderSource(tmp_path / "nowhere").start()


def test_opencv_source_reads_a_video_path(video_file: Path) -> None:
    with OpenCVSource(str(video_file)) as source:
        assert source.read().shape == (48, 64, 3)
        for _ in range(3):
            source.read()
        with pytest.raises(CameraOfflineError, match="returned no frame"):
            source.read()  # a webcam that stops giving frames looks like this


def test_opencv_source_that_cannot_open_is_offline(tmp_path: Path) -> None:
    with pytest.raises(CameraOfflineError, match="could not open"):
        OpenCVSource(str(tmp_path / "missing.avi")).start()


def test_a_webcam_number_with_no_camera_is_one_sentence_without_opencvs_own_lines(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """``camera.device = "7"`` with no /dev/video7: OpenCV printed two lines of its
    internals (cap_v4l.cpp ... can't open camera by index) at every retry, around the
    supervisor's sentence; now the sentence is all."""
    with pytest.raises(CameraOfflineError, match="could not open webcam 97; is it plugged in"):
        OpenCVSource(97).start()
    printed = capfd.readouterr()
    assert printed.err == "" and printed.out == ""


# --------------------------------------------------------------------------- simulated


def test_simulated_source_renders_checks_and_paces(clock: FakeClock) -> None:
    frames = iter([solid(1), solid(2), np.zeros((4, 4), np.uint8)])
    source = SimulatedSource(lambda: next(frames), fps=20, clock=clock, sleep=clock.sleep)
    with pytest.raises(CameraOfflineError, match="not started"):
        source.read()
    with source:
        assert int(source.read()[0, 0, 0]) == 1
        assert int(source.read()[0, 0, 0]) == 2
        with pytest.raises(CameraOfflineError, match=r"\(4, 4\) uint8"):
            source.read()
        with pytest.raises(CameraOfflineError, match="StopIteration"):
            source.read()
    assert clock.sleeps == pytest.approx([0.05, 0.05, 0.05])


def test_every_source_is_a_frame_source(tmp_path: Path) -> None:
    sources: list[object] = [
        Picamera2Source(),
        OpenCVSource(0),
        FolderSource(tmp_path),
        SimulatedSource(lambda: solid(0)),
    ]
    assert all(isinstance(source, FrameSource) for source in sources)


# --------------------------------------------------------------------------- supervisor


class ScriptedSource:
    """Plays a script of start/read outcomes, then blocks in read until released."""

    name = "scripted"

    def __init__(self, starts: list[Exception | None], reads: list[Frame | Exception]) -> None:
        self._starts = starts
        self._reads = reads
        self.calls: list[str] = []
        self.exhausted = threading.Event()
        self.released = threading.Event()

    def start(self) -> None:
        self.calls.append("start")
        outcome = self._starts.pop(0) if self._starts else None
        if outcome is not None:
            raise outcome

    def read(self) -> Frame:
        if not self._reads:
            self.exhausted.set()
            self.released.wait(GENEROUS)
            raise CameraOfflineError("script finished")
        outcome = self._reads.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def stop(self) -> None:
        self.calls.append("stop")

    def __enter__(self) -> ScriptedSource:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Statuses:
    def __init__(self) -> None:
        self.seen: list[str] = []
        self._changed = threading.Condition()

    def __call__(self, status: str) -> None:
        with self._changed:
            self.seen.append(status)
            self._changed.notify_all()

    def wait_for(self, predicate: Callable[[list[str]], bool]) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: predicate(self.seen), timeout=GENEROUS)


@pytest.fixture
def run_supervisor() -> Iterator[Callable[..., CameraSupervisor]]:
    running: list[tuple[CameraSupervisor, ScriptedSource]] = []

    def run(
        source: ScriptedSource, consumer: Callable[[Frame], None], **kw: Any
    ) -> CameraSupervisor:
        supervisor = CameraSupervisor(source, consumer, **kw)
        running.append((supervisor, source))
        supervisor.start()
        return supervisor

    yield run
    for supervisor, source in running:
        source.released.set()
        supervisor.stop()


def test_supervisor_survives_a_camera_dying_and_recovers_with_backoff(
    run_supervisor: Callable[..., CameraSupervisor], clock: FakeClock
) -> None:
    delays: list[float] = []
    got: list[int] = []
    statuses = Statuses()
    source = ScriptedSource(
        starts=[None, CameraOfflineError("no camera found"), CameraOfflineError("no camera found")],
        reads=[solid(1), CameraOfflineError("cable pulled"), solid(2)],
    )
    supervisor = run_supervisor(
        source,
        lambda frame: got.append(int(frame[0, 0, 0])),
        initial_backoff=0.5,
        sleep=delays.append,
        clock=clock,
        on_status=statuses,
    )
    assert source.exhausted.wait(GENEROUS)
    assert statuses.wait_for(lambda seen: seen.count("camera live: scripted") == 2)
    assert statuses.seen == [
        "camera live: scripted",
        "camera offline: cable pulled",
        "camera offline: no camera found",
        "camera live: scripted",
    ]
    assert delays == [0.5, 1.0, 2.0]  # doubling back-off, reset by the next good frame
    assert source.calls == ["start", "stop", "start", "start", "start"]
    assert supervisor.online and supervisor.retry_delay is None
    assert supervisor.stats.failures == 3
    source.released.set()
    supervisor.stop()
    assert source.calls[-1] == "stop"  # the source is stopped, once, when the run ends
    assert supervisor.status == "camera stopped"


def test_supervisor_without_camera_keeps_running_and_caps_backoff(
    run_supervisor: Callable[..., CameraSupervisor], clock: FakeClock
) -> None:
    delays: list[float] = []
    enough = threading.Event()
    stop_waiting = threading.Event()

    def sleep(seconds: float) -> None:
        delays.append(seconds)
        if len(delays) >= 6:
            enough.set()
            stop_waiting.wait(GENEROUS)

    source = ScriptedSource(starts=[CameraOfflineError("no camera found")] * 50, reads=[])
    supervisor = run_supervisor(
        source, lambda frame: None, initial_backoff=1.0, max_backoff=8.0, sleep=sleep, clock=clock
    )
    assert enough.wait(GENEROUS)
    assert supervisor.status == "camera offline: no camera found"
    assert not supervisor.online
    assert supervisor.offline_since == clock.now
    assert delays == [1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    assert "stop" not in source.calls  # never started, so never stopped
    stop_waiting.set()


def test_supervisor_hands_over_only_the_latest_frame(
    run_supervisor: Callable[..., CameraSupervisor],
) -> None:
    consumer_busy = threading.Event()
    gate = threading.Event()
    got: list[int] = []
    got_two = threading.Event()

    class HeldSource(ScriptedSource):
        def read(self) -> Frame:
            if len(self._reads) == 4:  # frame 1 only once the consumer is busy with frame 0
                consumer_busy.wait(GENEROUS)
            return super().read()

    def slow_consumer(frame: Frame) -> None:
        got.append(int(frame[0, 0, 0]))
        if len(got) == 1:
            consumer_busy.set()
            gate.wait(GENEROUS)
        if len(got) == 2:
            got_two.set()

    source = HeldSource(starts=[], reads=[solid(value) for value in range(5)])
    supervisor = run_supervisor(source, slow_consumer)
    assert source.exhausted.wait(GENEROUS)
    gate.set()
    assert got_two.wait(GENEROUS)
    assert got == [0, 4]
    assert supervisor.stats.frames_read == 5
    assert supervisor.stats.frames_dropped == 3


def test_supervisor_survives_a_failing_consumer(
    run_supervisor: Callable[..., CameraSupervisor], caplog: pytest.LogCaptureFixture
) -> None:
    first_failed = threading.Event()
    second_delivered = threading.Event()
    got: list[int] = []

    def consumer(frame: Frame) -> None:
        got.append(int(frame[0, 0, 0]))
        if len(got) == 1:
            first_failed.set()
            raise ValueError("vision bug")
        second_delivered.set()

    class AfterFailure(ScriptedSource):
        def read(self) -> Frame:
            if len(self._reads) == 1:  # frame 8 only after the consumer failed on frame 7
                first_failed.wait(GENEROUS)
            return super().read()

    source = AfterFailure(starts=[], reads=[solid(7), solid(8)])
    supervisor = run_supervisor(source, consumer)
    assert second_delivered.wait(GENEROUS)
    assert got == [7, 8]
    assert supervisor.stats.consumer_errors == 1
    assert "frame consumer failed" in caplog.text


def test_supervisor_stops_a_pi_camera_cleanly(fake_picamera2: type[FakePicamera2]) -> None:
    first = threading.Event()
    supervisor = CameraSupervisor(Picamera2Source(CALIBRATED), lambda frame: first.set())
    with supervisor:
        assert first.wait(GENEROUS)
        assert supervisor.status == "camera live: Pi camera 0"
    assert fake_picamera2.calls[-2:] == ["stop", "close"]
    with Picamera2Source() as again:  # the one-camera slot was released
        again.read()


def test_supervisor_rejects_nonsense_backoff() -> None:
    with pytest.raises(ValueError, match="initial_backoff"):
        CameraSupervisor(SimulatedSource(lambda: solid(0)), print, initial_backoff=0)


def noisy(seed: int) -> Frame:
    return np.random.default_rng(seed).integers(0, 255, (48, 64, 3), dtype=np.uint8)


def test_freeze_check_catches_a_repeated_picture_but_not_a_covered_lens(clock: FakeClock) -> None:
    check = FreezeCheck(10.0, clock)
    frozen = noisy(1)
    for _ in range(5):  # 0 to 8 s: not yet
        check.check(frozen, "cam")
        clock.now += 2.0
    with pytest.raises(CameraStalledError, match=r"very same picture for 10 s \(frozen\)"):
        check.check(frozen, "cam")
    for seed in range(20):  # a live camera: the picture changes every frame
        check.check(noisy(seed), "cam")
        clock.now += 2.0
    for _ in range(20):  # covered: black, legitimately the same
        check.check(solid(0), "cam")
        clock.now += 2.0


def test_supervisor_restarts_a_hung_camera_and_says_so(
    run_supervisor: Callable[..., CameraSupervisor], clock: FakeClock
) -> None:
    statuses = Statuses()
    source = ScriptedSource(
        starts=[],
        reads=[solid(1), CameraStalledError("cam gave no picture for 3 s (hung)"), solid(2)],
    )
    supervisor = run_supervisor(
        source, lambda frame: None, sleep=lambda s: None, clock=clock, on_status=statuses
    )
    assert source.exhausted.wait(GENEROUS)
    assert statuses.wait_for(lambda seen: len(seen) == 3)
    assert statuses.seen == [
        "camera live: scripted",
        "camera offline: cam gave no picture for 3 s (hung); restarting it",
        "camera live: scripted (restarted after: cam gave no picture for 3 s (hung))",
    ]
    assert source.calls == ["start", "stop", "start"]
    assert supervisor.stats.restarts_after_hang == 1


def test_supervisor_restarts_a_frozen_camera(
    run_supervisor: Callable[..., CameraSupervisor], clock: FakeClock
) -> None:
    statuses = Statuses()
    frozen = noisy(7)

    class Frozen(ScriptedSource):
        def read(self) -> Frame:
            clock.now += 1.0
            return super().read()

    reads: list[Frame | Exception] = [frozen] * 13
    source = Frozen(starts=[], reads=[*reads, noisy(8)])
    run_supervisor(
        source,
        lambda frame: None,
        sleep=lambda s: None,
        clock=clock,
        on_status=statuses,
        frozen_after=10.0,
    )
    assert source.exhausted.wait(GENEROUS)
    assert statuses.wait_for(lambda seen: len(seen) == 3)
    assert statuses.seen[1] == (
        "camera offline: scripted has shown the very same picture for 10 s (frozen); restarting it"
    )
    assert statuses.seen[2].startswith("camera live: scripted (restarted after: ")
    assert source.calls == ["start", "stop", "start"]


def test_a_reader_stuck_in_the_driver_turns_the_status_offline(
    run_supervisor: Callable[..., CameraSupervisor], clock: FakeClock
) -> None:
    """No timeout can fire inside a driver call that never returns; the status still tells."""
    source = ScriptedSource(starts=[], reads=[solid(1)])
    supervisor = run_supervisor(source, lambda frame: None, clock=clock, stale_after=15.0)
    assert source.exhausted.wait(GENEROUS)  # now blocked in read, as a hung driver would be
    assert supervisor.status == "camera live: scripted" and supervisor.online
    clock.now += 16.0
    assert supervisor.status == (
        "camera offline: no new picture from scripted for 16 s (the camera hung)"
    )
    assert not supervisor.online
