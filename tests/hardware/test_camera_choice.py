"""``source = "auto"`` picks the camera by what is attached, without any camera here.

The stand-in for ``Picamera2.global_camera_info()`` mirrors picamera2/picamera2.py
(raspberrypi/picamera2, ``global_camera_info``): one dict per libcamera camera with
``Model``, ``Location``, ``Rotation``, ``Id`` and ``Num``, sorted with USB cameras last by
``"/usb" in Id``. The ids are libcamera's: a CSI sensor's is its device-tree node, a UVC
webcam's is its USB controller's firmware node path, ``-``, ports, ``-``, vendor:product
(libcamera src/libcamera/pipeline/uvcvideo/uvcvideo.cpp, ``UVCCameraData::generateId``).
The sysfs tree mirrors /sys/class/video4linux on a Pi 4: ``videoN/device`` links to the
parent device, ``index`` 0 marks a UVC camera's capture node (1 is its metadata node).
"""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import pytest

from companion.commands.doctor import check_cameras
from hardware.camera_choice import (
    SeenCamera,
    choose_camera,
    is_usb_id,
    libcamera_cameras,
    usb_video_nodes,
)

IMX708: dict[str, Any] = {
    "Model": "imx708",
    "Location": 2,
    "Rotation": 180,
    "Id": "/base/soc/i2c0mux/i2c@1/imx708@1a",
}
IMX708_PI5: dict[str, Any] = {
    "Model": "imx708_wide",
    "Location": 2,
    "Rotation": 180,
    "Id": "/base/axi/pcie@120000/rp1/i2c@88000/imx708@1a",
}
WEBCAM: dict[str, Any] = {
    "Model": "HD Webcam C525",
    "Location": 2,
    "Id": "/base/scb/pcie@7d500000/pci@0,0/usb@0,0-1.2:1.0-046d:0826",
}


def stand_in_picamera2(*cameras: dict[str, Any]) -> Any:
    """A picamera2 module whose global_camera_info() behaves as picamera2's own does."""

    class Picamera2:
        @staticmethod
        def global_camera_info() -> list[dict[str, Any]]:
            listed = [{**camera, "Num": num} for num, camera in enumerate(cameras)]
            return sorted(listed, key=lambda c: ("/usb" not in c["Id"], c["Id"]), reverse=True)

    return types.SimpleNamespace(Picamera2=Picamera2)


def sysfs_node(root: Path, number: int, device: str, *, index: int = 0, name: str = "") -> None:
    target = root / "devices" / device
    target.mkdir(parents=True, exist_ok=True)
    node = root / "class" / "video4linux" / f"video{number}"
    node.mkdir(parents=True)
    (node / "device").symlink_to(target)
    (node / "index").write_text(f"{index}\n")
    (node / "name").write_text(f"{name or device.rsplit('/', 1)[-1]}\n")


USB_DEVICE = "platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0/usb1/1-1/1-1.2:1.0"


@pytest.fixture
def pi4_sysfs(tmp_path: Path) -> Path:
    """A Pi 4 with its unicam CSI node, codec nodes and a UVC webcam at video1/video2."""
    sysfs_node(tmp_path, 0, "platform/soc/fe801000.csi", name="unicam-image")
    sysfs_node(tmp_path, 1, USB_DEVICE, name="HD Webcam C525")
    sysfs_node(tmp_path, 2, USB_DEVICE, index=1, name="HD Webcam C525")
    sysfs_node(tmp_path, 10, "platform/soc/fe00b840.mailbox/bcm2835-codec", name="codec")
    return tmp_path / "class" / "video4linux"


def test_usb_ids_are_told_from_csi_ids() -> None:
    assert is_usb_id(WEBCAM["Id"])
    assert not is_usb_id(IMX708["Id"]) and not is_usb_id(IMX708_PI5["Id"])


def test_libcamera_list_keeps_picamera2_numbering_with_usb_last() -> None:
    seen, note = libcamera_cameras(lambda: stand_in_picamera2(WEBCAM, IMX708))
    assert note == ""
    assert [(c.kind, c.model, c.index) for c in seen] == [
        ("pi", "imx708", 0),
        ("usb", WEBCAM["Model"], -1),
    ]


def test_only_usb_capture_nodes_count(pi4_sysfs: Path) -> None:
    nodes = usb_video_nodes(pi4_sysfs)
    assert [(n.index, n.model) for n in nodes] == [(1, "HD Webcam C525")]
    assert usb_video_nodes(pi4_sysfs.parent / "missing") == []


def test_a_pi_camera_wins_when_attached(pi4_sysfs: Path) -> None:
    choice = choose_camera(
        list_libcamera=lambda: libcamera_cameras(lambda: stand_in_picamera2(WEBCAM, IMX708_PI5)),
        list_usb=lambda: usb_video_nodes(pi4_sysfs),
    )
    assert (choice.kind, choice.index) == ("picamera2", 0)
    assert "imx708_wide" in choice.why
    assert len(choice.seen) == 3  # both from libcamera, and the webcam's V4L2 node


def test_a_usb_webcam_alone_goes_through_opencv_at_its_own_node(pi4_sysfs: Path) -> None:
    """The failure in issue 16: picamera2 imports and lists only the webcam."""
    choice = choose_camera(
        list_libcamera=lambda: libcamera_cameras(lambda: stand_in_picamera2(WEBCAM)),
        list_usb=lambda: usb_video_nodes(pi4_sysfs),
    )
    assert (choice.kind, choice.index) == ("usb", 1)
    assert "/dev/video1" in choice.why and "OpenCV" in choice.why


def test_without_picamera2_a_webcam_still_works_and_nothing_is_none(pi4_sysfs: Path) -> None:
    def missing() -> Any:
        raise ImportError("No module named 'picamera2'")

    choice = choose_camera(
        list_libcamera=lambda: libcamera_cameras(missing),
        list_usb=lambda: usb_video_nodes(pi4_sysfs),
    )
    assert choice.kind == "usb" and "not importable" in choice.notes[0]
    nothing = choose_camera(
        list_libcamera=lambda: libcamera_cameras(lambda: stand_in_picamera2()),
        list_usb=list,
    )
    assert nothing.kind == "none" and nothing.seen == ()


def test_a_webcam_libcamera_sees_without_a_sysfs_node_falls_back_to_video0() -> None:
    choice = choose_camera(
        list_libcamera=lambda: ([SeenCamera("usb", "cam", WEBCAM["Id"], -1)], ""),
        list_usb=list,
    )
    assert (choice.kind, choice.index) == ("usb", 0)


def test_libcamera_failing_is_a_note_not_a_crash() -> None:
    def broken() -> Any:
        class Picamera2:
            @staticmethod
            def global_camera_info() -> list[dict[str, Any]]:
                raise RuntimeError("Failed to start camera manager")

        return types.SimpleNamespace(Picamera2=Picamera2)

    seen, note = libcamera_cameras(broken)
    assert seen == [] and "Failed to start camera manager" in note


def test_doctor_lists_the_cameras_and_the_choice(
    monkeypatch: pytest.MonkeyPatch, pi4_sysfs: Path
) -> None:
    monkeypatch.setattr(
        "hardware.camera_choice.libcamera_cameras",
        lambda: libcamera_cameras(lambda: stand_in_picamera2(WEBCAM, IMX708)),
    )
    monkeypatch.setattr(
        "hardware.camera_choice.usb_video_nodes", lambda: usb_video_nodes(pi4_sysfs)
    )
    lines = [finding.what for finding in check_cameras("auto")]
    assert any(line.startswith("camera seen: Raspberry Pi camera imx708") for line in lines)
    assert any("camera seen: USB camera HD Webcam C525 (/dev/video1" in line for line in lines)
    assert lines[-1].startswith("source = auto uses: Raspberry Pi camera imx708")
