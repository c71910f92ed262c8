"""Exposure, white balance and focus settle, are read back, locked and kept; full field of view.

The stand-in camera mirrors picamera2/picamera2.py (raspberrypi/picamera2):
``capture_metadata(wait=...)`` returns one frame's metadata dict with libcamera's control
names (``ExposureTime`` µs, ``AnalogueGain``, ``ColourGains`` (red, blue), ``LensPosition``
dioptres, only on a camera with ``AfMode`` in ``camera_controls``), ``autofocus_cycle(wait=...)``
returns whether it focused, and ``sensor_modes`` lists dicts with ``size``, ``bit_depth`` and
``crop_limits`` (x, y, width, height on the pixel array). The mode lists are the ones
picamera2 prints for a Camera Module 3 (imx708: raspberrypi/rpicam-apps issue 515) and a
Camera Module 2 (imx219: raspberrypi/picamera2 issue 683).
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np
import pytest

from hardware.camera import Picamera2Source
from hardware.camera_lock import full_view_mode, full_view_size, measure_and_lock

IMX708_MODES = [
    {"size": (1536, 864), "bit_depth": 10, "crop_limits": (768, 432, 3072, 1728)},
    {"size": (2304, 1296), "bit_depth": 10, "crop_limits": (0, 0, 4608, 2592)},
    {"size": (4608, 2592), "bit_depth": 10, "crop_limits": (0, 0, 4608, 2592)},
]
IMX219_MODES = [
    {"size": (640, 480), "bit_depth": 10, "crop_limits": (1000, 752, 1280, 960)},
    {"size": (1640, 1232), "bit_depth": 10, "crop_limits": (0, 0, 3280, 2464)},
    {"size": (1920, 1080), "bit_depth": 10, "crop_limits": (680, 692, 1920, 1080)},
    {"size": (3280, 2464), "bit_depth": 10, "crop_limits": (0, 0, 3280, 2464)},
]


def test_the_full_field_at_a_modest_size_and_its_own_shape() -> None:
    mode = full_view_mode(IMX708_MODES, 1280)
    assert mode is not None and mode["size"] == (2304, 1296)  # not the cropped 1536x864
    assert full_view_size(mode, (1280, 960)) == (1280, 720)  # 16:9, so nothing is cropped
    mode = full_view_mode(IMX219_MODES, 1280)
    assert mode is not None and mode["size"] == (1640, 1232)
    assert full_view_size(mode, (1280, 960)) == (1280, 960)  # 4:3 already
    assert full_view_size(mode, (1280, 720)) == (1280, 962)
    wide = full_view_mode(IMX708_MODES, 4000)
    assert wide is not None and wide["size"] == (4608, 2592)
    assert full_view_mode([{"format": "MJPEG"}], 1280) is None  # a USB camera's formats


class SettlingCamera:
    """Auto exposure and white balance that converge over a few frames, then hold."""

    def __init__(self, *, autofocus: bool, frames: list[dict[str, Any]]) -> None:
        self.camera_controls: dict[str, Any] = {"ExposureTime": (1, 1000000, 10000)}
        if autofocus:
            self.camera_controls["AfMode"] = (0, 2, 0)
        self.frames = frames
        self.calls: list[Any] = []
        self.waits: list[Any] = []

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.calls.append(("set_controls", dict(controls)))

    def autofocus_cycle(self, wait: Any = None) -> bool:
        self.calls.append("autofocus_cycle")
        self.waits.append(wait)
        return True

    def capture_metadata(self, wait: Any = None) -> dict[str, Any]:
        self.waits.append(wait)
        frame = self.frames.pop(0) if len(self.frames) > 1 else self.frames[0]
        return dict(frame)


def converging(*exposures: int, lens: float = 3.25) -> list[dict[str, Any]]:
    return [
        {
            "ExposureTime": exposure,
            "AnalogueGain": 1.0 + exposure / 10000,
            "ColourGains": (1.6 + exposure / 100000, 2.1),
            "LensPosition": lens,
        }
        for exposure in exposures
    ]


def test_measure_waits_for_auto_exposure_to_settle_then_locks_exactly_that() -> None:
    camera = SettlingCamera(autofocus=True, frames=converging(40000, 20000, 12000, 10000))
    measured = measure_and_lock(camera, timeout=2.0, steady_frames=3)
    assert measured.settled
    assert measured.exposure_time_us == 10000
    assert measured.analogue_gain == 2.0 and measured.colour_gains == (1.7, 2.1)
    assert measured.lens_position == 3.25
    assert camera.calls[0] == ("set_controls", {"AeEnable": True, "AwbEnable": True})
    assert camera.calls[1] == "autofocus_cycle"  # once, before reading the values
    assert camera.calls[-1] == (
        "set_controls",
        {
            "AeEnable": False,
            "ExposureTime": 10000,
            "AnalogueGain": 2.0,
            "AwbEnable": False,
            "ColourGains": (1.7, 2.1),
            "AfMode": 0,
            "LensPosition": 3.25,
        },
    )
    assert all(wait is not None for wait in camera.waits)  # no wait without a timeout


def test_a_fixed_focus_camera_and_a_scene_that_never_settles() -> None:
    camera = SettlingCamera(autofocus=False, frames=converging(*range(1000, 40000, 1000)))
    measured = measure_and_lock(camera, max_frames=10, steady_frames=3)
    assert not measured.settled and measured.lens_position is None
    assert "autofocus_cycle" not in camera.calls
    locked = camera.calls[-1][1]
    assert "AfMode" not in locked and locked["AeEnable"] is False


# --------------------------------------------------------------------------- Picamera2Source


class LockablePicamera2(SettlingCamera):
    """Picamera2 with sensor modes, configuration and capture, for Picamera2Source."""

    instances: ClassVar[list[LockablePicamera2]] = []

    def __init__(self, camera_num: int = 0) -> None:
        super().__init__(autofocus=True, frames=converging(9000, 8000, 8000, 8000, 8000))
        self.modes_read = 0
        self.size = (0, 0)
        LockablePicamera2.instances.append(self)

    @property
    def sensor_modes(self) -> list[dict[str, Any]]:
        self.modes_read += 1  # picamera2 reconfigures the camera for each mode here
        return IMX708_MODES

    def create_video_configuration(self, **config: Any) -> dict[str, Any]:
        self.calls.append(("create_video_configuration", config))
        return config

    def configure(self, config: dict[str, Any]) -> None:
        self.size = config["main"]["size"]

    def start(self) -> None:
        self.calls.append("start")

    def capture_array(self, name: str = "main", wait: Any = None) -> Any:
        width, height = self.size
        return np.zeros((height, width, 3), np.uint8)

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")


@pytest.fixture
def lockable(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[LockablePicamera2]]:
    LockablePicamera2.instances = []
    monkeypatch.setitem(
        sys.modules, "picamera2", types.SimpleNamespace(Picamera2=LockablePicamera2)
    )
    yield LockablePicamera2


def test_pi_camera_keeps_the_full_field_and_a_restart_keeps_the_lock(
    lockable: type[LockablePicamera2],
) -> None:
    source = Picamera2Source()  # asks for 1280x960, as the config does by default
    with source:
        assert source.read().shape == (720, 1280, 3)
        assert source.frame_size == (1280, 720)
        first = lockable.instances[0]
        configuration = first.calls[0][1]
        assert configuration["sensor"] == {"output_size": (2304, 1296), "bit_depth": 10}
        measured = source.measure_and_lock()
    assert measured.exposure_time_us == 8000 and measured.lens_position == 3.25
    assert source.settings.exposure_time_us == 8000 and source.settings.size == (1280, 960)
    with source:  # started again (after a hang, say): locked from the first frame
        again = lockable.instances[1]
        assert again.modes_read == 0  # the sensor modes were read once, by the first start
        (before_start,) = [c for c in again.calls if c[0] == "set_controls"]
        assert before_start[1]["AeEnable"] is False and before_start[1]["LensPosition"] == 3.25
        assert again.calls.index(before_start) < again.calls.index("start")


def test_an_old_picamera2_without_sensor_configuration_picks_the_mode_by_raw_size(
    lockable: type[LockablePicamera2], monkeypatch: pytest.MonkeyPatch
) -> None:
    def old_style(self: LockablePicamera2, main: Any, raw: Any = None) -> dict[str, Any]:
        self.calls.append(("create_video_configuration", {"main": main, "raw": raw}))
        return {"main": main, "raw": raw}

    monkeypatch.setattr(LockablePicamera2, "create_video_configuration", old_style)
    with Picamera2Source() as source:
        assert source.read().shape == (720, 1280, 3)
    configuration = lockable.instances[0].calls[0][1]
    assert configuration["raw"] == {"size": (2304, 1296)}
