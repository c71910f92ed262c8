"""Which frame source the configured camera is: a Pi camera, a webcam, a folder, a twin.

Only the device choice lives here (``camera.source`` and ``camera.device``, and for
``"auto"`` what is attached: ``hardware.camera_choice``); what reads the frames is the
camera rig's business (``companion.watch.rig``), wired by the composition root.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy.typing as npt

from companion.config import CameraConfig
from hardware.camera import (
    CameraSettings,
    FolderSource,
    FrameSource,
    OpenCVSource,
    Picamera2Source,
    SimulatedSource,
)
from hardware.camera_choice import CameraChoice, choose_camera
from hardware.pins import is_raspberry_pi
from hardware.webcam import LOCK_FILE

Render = Callable[[], npt.NDArray[Any]]


def open_source(
    camera: CameraConfig,
    *,
    simulate: bool,
    twin: Render,
    twin_name: str,
    settings: Callable[[], CameraSettings],
    on_pi: bool | None = None,
    choose: Callable[[], CameraChoice] | None = None,
    data_dir: Path | None = None,
) -> tuple[FrameSource | None, str]:
    """The source to read, or None and the one line saying why there is none.

    ``source = "auto"`` goes by what is attached: a Raspberry Pi camera in libcamera's list,
    else a USB webcam through OpenCV (``choose`` stands in for that look in tests). With
    no camera, a machine that is not a Pi (a laptop trying ``make run``) gets the simulated
    twin (``twin`` draws each frame), whose rolls are demo readings a person must accept; a
    Pi does not, because demo rolls have no place beside a real game: there, dice are typed
    on the page instead. A webcam keeps the exposure, white balance and focus it was locked
    at by calibration in ``data_dir`` (``hardware.webcam.LOCK_FILE``), set at every start.
    """
    lock_file = None if data_dir is None else data_dir / LOCK_FILE
    choice = "simulated" if simulate else camera.source
    size = (camera.width, camera.height)
    if choice == "none":
        return None, "camera off (camera.source = none): enter dice on the page"
    if choice == "simulated":
        return SimulatedSource(twin, name=twin_name, fps=4), ""
    if choice == "folder":
        return FolderSource(Path(camera.device).expanduser(), fps=2), ""
    if choice == "picamera2":
        return Picamera2Source(settings()), ""
    if choice == "usb":
        device = camera.device
        number = int(device) if device.isdigit() else device
        return OpenCVSource(number, size=size, lock_file=lock_file), ""
    attached = choose() if choose is not None else choose_camera()
    if attached.kind == "picamera2":
        return Picamera2Source(settings(), camera_num=attached.index), ""
    if attached.kind == "usb":
        return OpenCVSource(attached.index, size=size, lock_file=lock_file), ""
    if not (is_raspberry_pi() if on_pi is None else on_pi):
        name = f"no camera and no Raspberry Pi here, so the {twin_name} stands in"
        return SimulatedSource(twin, name=name, fps=4), ""
    return None, f"no camera found ({attached.why}): enter dice on the page"
