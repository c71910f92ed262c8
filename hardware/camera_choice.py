"""Which camera ``source = "auto"`` uses: decided by what is attached, not by what imports.

picamera2 is installed on every Pi by the installer, so "picamera2 imports" says nothing
about the camera. libcamera's own camera list does: ``Picamera2.global_camera_info()``
returns one dict per camera with ``Model``, ``Location``, ``Rotation``, ``Id`` and ``Num``
(picamera2/picamera2.py, ``GlobalCameraInfo``). A USB webcam appears there too (libcamera's
uvcvideo pipeline), with an ``Id`` built from the USB controller's firmware node path, e.g.
``/base/scb/pcie@7d500000/pci@0,0/usb@0,0-1.2:1.0-046d:0825`` (libcamera
src/libcamera/pipeline/uvcvideo/uvcvideo.cpp, ``UVCCameraData::generateId``); picamera2 itself
tells them apart by ``"/usb" in Id`` and sorts USB cameras last, so ``Picamera2(n)`` is the
n-th entry of that sorted list. A USB webcam cannot give picamera2's RGB888 stream, so it is
read through OpenCV's ``VideoCapture`` instead, found by its V4L2 node in sysfs.

Nothing here opens a camera: listing is safe while the service holds it.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SYSFS_VIDEO = Path("/sys/class/video4linux")


@dataclass(frozen=True)
class SeenCamera:
    """One camera this machine has, as libcamera or the V4L2 nodes describe it."""

    kind: str  # "pi" (read through picamera2) or "usb" (read through OpenCV)
    model: str
    id: str
    index: int  # Picamera2(index) for "pi"; the N of /dev/videoN for "usb" (-1: unknown)

    def describe(self) -> str:
        where = f"Picamera2({self.index})" if self.kind == "pi" else f"/dev/video{self.index}"
        what = "Raspberry Pi camera" if self.kind == "pi" else "USB camera"
        return f"{what} {self.model} ({where}; {self.id})"


@dataclass(frozen=True)
class CameraChoice:
    """What ``auto`` picked (``"picamera2"``, ``"usb"`` or ``"none"``), from what it saw, why."""

    kind: str
    index: int = 0
    seen: tuple[SeenCamera, ...] = ()
    why: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)


def is_usb_id(camera_id: str) -> bool:
    """libcamera's id of a USB camera names its USB controller; a CSI sensor's never does."""
    return "usb" in camera_id.lower()


def libcamera_cameras(
    load: Callable[[], Any] | None = None,
) -> tuple[list[SeenCamera], str]:
    """The cameras libcamera lists (via picamera2), and a note when it could not be asked."""
    try:
        picamera2 = load() if load is not None else importlib.import_module("picamera2")
        entries: Sequence[Mapping[str, Any]] = picamera2.Picamera2.global_camera_info()
    except ImportError as error:
        return [], f"picamera2 is not importable ({error}), so libcamera was not asked"
    except Exception as error:  # libcamera itself failing is a finding, not a crash
        return [], f"libcamera's camera list failed ({type(error).__name__}: {error})"
    seen = []
    for position, entry in enumerate(entries):
        camera_id = str(entry.get("Id", ""))
        seen.append(
            SeenCamera(
                kind="usb" if is_usb_id(camera_id) else "pi",
                model=str(entry.get("Model", "unknown")),
                id=camera_id,
                # picamera2 indexes its own sorted list, so the position is what to pass.
                index=position if not is_usb_id(camera_id) else -1,
            )
        )
    return seen, ""


def usb_video_nodes(sysfs: Path = SYSFS_VIDEO) -> list[SeenCamera]:
    """USB capture nodes: ``/sys/class/video4linux/videoN`` whose device sits on a USB bus.

    A USB device's sysfs path passes through its bus (``.../usb1/1-1/1-1.2:1.0``). A UVC
    camera makes two nodes, capture and metadata; the capture one has ``index`` 0. The Pi's
    own nodes (ISP, codecs, CSI receiver) are platform devices, not USB, so they are skipped:
    /dev/video0 existing proves nothing on a Pi.
    """
    nodes = []
    for node in sorted(sysfs.glob("video*"), key=_node_number):
        try:
            device = (node / "device").resolve()
            index = (node / "index").read_text().strip() if (node / "index").exists() else "0"
            name = (node / "name").read_text().strip() if (node / "name").exists() else node.name
        except OSError:
            continue
        on_usb = any(re.fullmatch(r"usb\d+", part) for part in device.parts)  # the bus: usb1
        if not on_usb or index != "0":
            continue
        nodes.append(SeenCamera("usb", name, str(device), _node_number(node)))
    return nodes


def _node_number(node: Path) -> int:
    match = re.fullmatch(r"video(\d+)", node.name)
    return int(match.group(1)) if match else -1


def choose_camera(
    *,
    list_libcamera: Callable[[], tuple[list[SeenCamera], str]] | None = None,
    list_usb: Callable[[], list[SeenCamera]] | None = None,
) -> CameraChoice:
    """A Raspberry Pi camera if libcamera lists one, else a USB webcam, else none."""
    from_libcamera, note = (list_libcamera or libcamera_cameras)()
    usb_nodes = (list_usb or usb_video_nodes)()
    seen = tuple(from_libcamera) + tuple(usb_nodes)
    notes = (note,) if note else ()
    pi_cameras = [camera for camera in from_libcamera if camera.kind == "pi"]
    if pi_cameras:
        first = pi_cameras[0]
        return CameraChoice("picamera2", first.index, seen, f"{first.describe()}", notes)
    if usb_nodes:
        first = usb_nodes[0]
        return CameraChoice("usb", first.index, seen, f"{first.describe()} through OpenCV", notes)
    if any(camera.kind == "usb" for camera in from_libcamera):
        # libcamera sees a webcam but sysfs could not name its node: the usual first one.
        return CameraChoice("usb", 0, seen, "a USB camera through OpenCV at /dev/video0", notes)
    return CameraChoice("none", 0, seen, "no Raspberry Pi camera and no USB camera", notes)
