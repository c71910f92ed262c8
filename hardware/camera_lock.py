"""Fixed exposure, white balance and focus for the Pi camera, measured once at calibration.

Colours are how the belt reader tells hamsters apart, and auto exposure / auto white balance
drift as hands and dice move under the camera. So at calibration the camera is left on
automatic until its choices settle, the values it chose are read back from the frame
metadata (``ExposureTime``, ``AnalogueGain``, ``ColourGains``, ``LensPosition``: libcamera's
control names, as picamera2's ``capture_metadata()`` returns them), and those exact values
are locked with ``AeEnable``/``AwbEnable`` off. They are stored in the calibration and set
again at every start. A Camera Module 3 (imx708, the one with ``AfMode`` among its controls)
runs one autofocus cycle (``Picamera2.autofocus_cycle``) and its lens is then held there.

The sensor mode matters too: picamera2 picks the mode closest to the requested size, and a
4:3 picture from a 16:9 sensor (Camera Module 3) crops about a quarter of the width. The
mode chosen here covers the sensor's whole field (the largest ``crop_limits`` in
``Picamera2.sensor_modes``) at the smallest size that still gives the requested width, and
the picture keeps that field's shape.

Everything takes the picamera2 object duck-typed, so it is tested against a stand-in.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

# libcamera's AfModeEnum.Manual, spelled as a number so that no libcamera import is needed.
AF_MODE_MANUAL = 0


@dataclass(frozen=True)
class Measured:
    """What the camera chose on automatic, ready to be locked and stored."""

    exposure_time_us: int
    analogue_gain: float
    colour_gains: tuple[float, float]
    lens_position: float | None  # None: no focus control (fixed-focus lens)
    settled: bool  # False: the values still moved when the frame budget ran out

    def controls(self) -> dict[str, object]:
        """The libcamera controls that hold these values (auto exposure and AWB off)."""
        controls: dict[str, object] = {
            "AeEnable": False,
            "ExposureTime": self.exposure_time_us,
            "AnalogueGain": self.analogue_gain,
            "AwbEnable": False,
            "ColourGains": self.colour_gains,
        }
        if self.lens_position is not None:
            controls.update(AfMode=AF_MODE_MANUAL, LensPosition=self.lens_position)
        return controls

    def as_dict(self) -> dict[str, Any]:
        """The four stored fields (the names ``calibration.geometry.CameraSettings`` uses)."""
        return {
            "exposure_time_us": self.exposure_time_us,
            "analogue_gain": self.analogue_gain,
            "colour_gains": self.colour_gains,
            "lens_position": self.lens_position,
        }


def full_view_mode(
    modes: Sequence[Mapping[str, Any]], wanted_width: int
) -> Mapping[str, Any] | None:
    """The sensor mode that sees the whole field, at the smallest size giving ``wanted_width``.

    Modes without ``crop_limits`` (x, y, width, height on the pixel array) are not raw sensor
    modes (a USB camera's formats) and are ignored; with none left, None lets picamera2
    choose. Smaller modes bin pixels, which keeps the frame rate up and the noise down.
    """
    raw = [mode for mode in modes if "crop_limits" in mode and "size" in mode]
    if not raw:
        return None

    def field(mode: Mapping[str, Any]) -> int:
        _x, _y, width, height = mode["crop_limits"]
        return int(width) * int(height)

    widest = max(field(mode) for mode in raw)
    full = sorted((m for m in raw if field(m) == widest), key=lambda m: m["size"][0])
    big_enough = [mode for mode in full if mode["size"][0] >= wanted_width]
    return big_enough[0] if big_enough else full[-1]


def full_view_size(mode: Mapping[str, Any], wanted: tuple[int, int]) -> tuple[int, int]:
    """The wanted width with the shape of the mode's field (even numbers).

    A wanted size already within 1 % of that shape is kept as it is (1280x960 on a 3280x2464
    sensor), so a calibration made at the configured size still fits.
    """
    width, wanted_height = wanted
    _x, _y, field_width, field_height = mode["crop_limits"]
    height = round(width * int(field_height) / int(field_width) / 2) * 2
    if abs(height - wanted_height) <= 0.01 * height:
        return width, wanted_height
    return width - width % 2, height


def _reading(metadata: Mapping[str, Any]) -> tuple[float, float, float, float]:
    red, blue = metadata["ColourGains"]
    return (
        float(metadata["ExposureTime"]),
        float(metadata["AnalogueGain"]),
        float(red),
        float(blue),
    )


def _close(a: Sequence[float], b: Sequence[float], tolerance: float) -> bool:
    pairs = zip(a, b, strict=True)
    return all(abs(x - y) <= tolerance * max(abs(x), abs(y), 1e-9) for x, y in pairs)


def measure_and_lock(
    camera: Any,
    *,
    timeout: float = 3.0,
    max_frames: int = 90,
    steady_frames: int = 5,
    tolerance: float = 0.02,
) -> Measured:
    """Let AE, AWB (and autofocus) settle, read what they chose, and lock exactly that.

    Settled means ``steady_frames`` frames in a row within ``tolerance`` of each other; a
    scene that keeps changing (a hand in the picture) stops after ``max_frames`` and says
    so in ``settled``. ``timeout`` bounds every wait on the camera (picamera2 jobs).
    """
    has_focus = "AfMode" in (getattr(camera, "camera_controls", None) or {})
    camera.set_controls({"AeEnable": True, "AwbEnable": True})
    if has_focus:
        # One autofocus cycle on the table, then the lens stays where it ended up.
        focused = camera.autofocus_cycle(wait=timeout * 2)
        if not focused:
            log.warning("autofocus did not report focus; the lens stays where it stopped")
    metadata = camera.capture_metadata(wait=timeout)
    previous = _reading(metadata)
    steady = 0
    for _ in range(max_frames):
        metadata = camera.capture_metadata(wait=timeout)
        reading = _reading(metadata)
        steady = steady + 1 if _close(reading, previous, tolerance) else 0
        previous = reading
        if steady >= steady_frames:
            break
    exposure, gain, red, blue = previous
    lens = metadata.get("LensPosition") if has_focus else None
    measured = Measured(
        exposure_time_us=round(exposure),
        analogue_gain=round(gain, 3),
        colour_gains=(round(red, 3), round(blue, 3)),
        lens_position=None if lens is None else round(float(lens), 3),
        settled=steady >= steady_frames,
    )
    camera.set_controls(measured.controls())
    return measured
