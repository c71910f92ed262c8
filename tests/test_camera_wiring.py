"""``companion run`` hands the camera's frames to the dice reader and to the watchers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.config import load_config
from companion.serve import start_camera
from companion.store import Store
from companion.table import Table
from hardware.camera import OpenCVSource, Picamera2Source
from hardware.camera_choice import CameraChoice
from hardware.demo_board import DemoBelt
from tests.camera_scenes import config_file

WAIT = 10.0


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store)
    table.new_game()
    yield table
    table.close()
    store.close()


def test_the_demo_dice_feed_the_wheel_watcher_and_the_belt_has_its_own_twin(
    table: Table, tmp_path: Path
) -> None:
    config = load_config(config_file(tmp_path, "watch_wheel = true"), data_dir=tmp_path)
    camera, status = start_camera(config, table, simulate=True)
    assert camera is not None and "demo dice" in status
    watchers = camera.watchers
    try:
        assert set(watchers) == {"board", "wheel"}
        # The demo dice show no belt: the belt check watches the belt's own twin
        # (tests/test_demo_board.py), and only the wheel watcher reads the dice frames.
        assert isinstance(watchers["board"], DemoBelt)
        assert camera.listeners == (watchers["wheel"],)
        assert watchers["wheel"].worker.wait_handled(1, WAIT), watchers["wheel"].status
        assert watchers["wheel"].status.startswith("wheel: not seen yet")  # no wheel in sight
    finally:
        camera.stop()


def test_auto_without_a_camera_uses_the_demo_twin_off_a_pi_only(
    table: Table, tmp_path: Path
) -> None:
    """A laptop trying `make run` sees the demo dice; a Pi never feeds demo rolls to a game."""
    config = load_config(config_file(tmp_path, 'source = "auto"'), data_dir=tmp_path)
    nothing = CameraChoice("none", why="no Raspberry Pi camera and no USB camera")
    camera, status = start_camera(config, table, False, on_pi=False, choose=lambda: nothing)
    assert camera is not None and "simulated (demo dice)" in status and camera.dice.demo
    camera.stop()
    assert start_camera(config, table, False, on_pi=True, choose=lambda: nothing) == (
        None,
        "no camera found (no Raspberry Pi camera and no USB camera): enter dice on the page",
    )


def test_auto_takes_the_attached_camera(table: Table, tmp_path: Path) -> None:
    """libcamera lists only a webcam: OpenCV reads it at its node; a Pi camera: picamera2."""
    config = load_config(config_file(tmp_path, 'source = "auto"'), data_dir=tmp_path)
    webcam = CameraChoice("usb", 3, why="USB camera C525 (/dev/video3) through OpenCV")
    camera, status = start_camera(config, table, False, on_pi=True, choose=lambda: webcam)
    assert camera is not None
    try:
        source = camera.supervisor.source
        assert isinstance(source, OpenCVSource) and source.device == 3
        assert status.startswith("webcam 3:")
    finally:
        camera.stop()
    pi = CameraChoice("picamera2", 1, why="Raspberry Pi camera imx708")
    camera, status = start_camera(config, table, False, on_pi=True, choose=lambda: pi)
    assert camera is not None
    try:
        source = camera.supervisor.source
        assert isinstance(source, Picamera2Source) and source.camera_num == 1
        assert status.startswith("Pi camera 1:")
    finally:
        camera.stop()


def test_watchers_follow_the_config_flags(table: Table, tmp_path: Path) -> None:
    config = load_config(
        config_file(tmp_path, 'source = "none"\nwatch_board = false'), data_dir=tmp_path
    )
    assert start_camera(config, table, simulate=False) == (
        None,
        "camera off (camera.source = none): enter dice on the page",
    )
    config = load_config(config_file(tmp_path, "watch_board = false"), data_dir=tmp_path)
    camera, _status = start_camera(config, table, simulate=True)
    assert camera is not None
    try:
        assert camera.watchers == {} and camera.listeners == ()
    finally:
        camera.stop()
