"""``companion run`` hands the camera's frames to the dice reader and to the watchers."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.config import load_config
from companion.engine.readings import BELT, DICE, WHEEL
from companion.engine.session import GameHeader
from companion.startup.camera import LateCamera, start_camera
from companion.store import Store
from companion.table import Table
from companion.watch.wheel import WheelWatcher
from hardware.camera import OpenCVSource, Picamera2Source
from hardware.camera_choice import CameraChoice
from hardware.demo_board import DemoBelt
from hardware.webcam import LOCK_FILE
from tests.camera.camera_scenes import config_file

WAIT = 10.0


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store)
    table.new_game()
    yield table
    table.close()
    store.close()


def wait_for(condition: Callable[[], bool]) -> bool:
    """Poll a condition the rig's threads make true; generous, never a timing assertion."""
    pause = threading.Event()
    for _ in range(int(WAIT / 0.05)):
        if condition():
            return True
        pause.wait(0.05)
    return condition()


def test_the_rig_runs_exactly_the_watchers_the_game_in_play_declares(
    table: Table, tmp_path: Path
) -> None:
    """A wheel game started from the tablet is followed by the wheel watcher, with no
    config edit and no restart; switching to Hamsterdam stops it and starts the dice."""
    config = load_config(config_file(tmp_path, "stable_frames = 2"), data_dir=tmp_path)
    camera, status = start_camera(config, table, simulate=True)
    assert camera is not None and "dice and wheel twins" in status
    try:
        assert set(camera.watchers) == {DICE, BELT, WHEEL}
        assert camera.running == {DICE, BELT}  # Run, Hamster, Run!: its belt and its dice
        assert isinstance(camera.devices[BELT], DemoBelt)  # the belt has its own twin
        table.new_game(GameHeader("hamster-wheel", "standard", ("Ann", "Bo"), 3))
        assert wait_for(lambda: camera.running == {WHEEL}), camera.running
        wheel = camera.watchers[WHEEL]
        assert isinstance(wheel, WheelWatcher)
        assert wheel.worker.wait_handled(1, WAIT), wheel.status
        assert camera.lines()["board"] == "board: not read in the game in play"
        table.new_game(GameHeader("hamsterdam", "classic", ("Ann", "Bo", "Cy"), 3))
        assert wait_for(lambda: camera.running == {DICE}), camera.running
        assert camera.lines()["wheel"] == "wheel: not read in the game in play"
    finally:
        camera.stop()
    assert camera.running == frozenset()


def test_an_old_watch_wheel_false_is_an_off_switch_that_says_so(
    table: Table, tmp_path: Path
) -> None:
    config = load_config(config_file(tmp_path, "watch_wheel = false"), data_dir=tmp_path)
    camera, _status = start_camera(config, table, simulate=True)
    assert camera is not None
    try:
        table.new_game(GameHeader("hamster-wheel", "standard", ("Ann", "Bo"), 3))
        assert camera.follow_game() is True and camera.running == frozenset()
        assert "remove that line" in camera.lines()["wheel"]
    finally:
        camera.stop()


def test_auto_without_a_camera_uses_the_demo_twin_off_a_pi_only(
    table: Table, tmp_path: Path
) -> None:
    """A laptop trying `make run` sees the demo dice; a Pi never feeds demo rolls to a game."""
    config = load_config(config_file(tmp_path, 'source = "auto"'), data_dir=tmp_path)
    nothing = CameraChoice("none", why="no Raspberry Pi camera and no USB camera")
    camera, status = start_camera(config, table, False, on_pi=False, choose=lambda: nothing)
    assert (
        camera is not None
        and "simulated camera (dice and wheel twins)" in status
        and camera.dice is not None
        and camera.dice.demo
    )
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
        source = getattr(camera.camera, "source", None)
        assert isinstance(source, OpenCVSource) and source.device == 3
        assert source.lock_file == tmp_path / LOCK_FILE  # calibration's lock, kept for it
        assert status.startswith("webcam 3:")
    finally:
        camera.stop()
    pi = CameraChoice("picamera2", 1, why="Raspberry Pi camera imx708")
    camera, status = start_camera(config, table, False, on_pi=True, choose=lambda: pi)
    assert camera is not None
    try:
        source = getattr(camera.camera, "source", None)
        assert isinstance(source, Picamera2Source) and source.camera_num == 1
        assert status.startswith("Pi camera 1:")
    finally:
        camera.stop()


def test_the_config_only_switches_watchers_off(table: Table, tmp_path: Path) -> None:
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
        assert BELT not in camera.watchers and camera.running == {DICE}
        assert camera.lines()["board"] == "board check: off (camera.watch_board = false)"
    finally:
        camera.stop()


class StubRig:
    """Stands in for the camera rig: only whether it was stopped matters here."""

    stopped = False

    def stop(self) -> None:
        self.stopped = True


def test_stopping_while_the_camera_still_starts_waits_for_it_and_stops_it() -> None:
    """SIGTERM while the camera was still starting (OpenCV loading) let the process exit with
    that thread inside native code: glibc aborted the exit (status -6) now and then, and the
    camera it was opening was never stopped. Stopping now waits for the start, which then
    stops the rig itself."""
    rig = StubRig()
    late: LateCamera

    def begin() -> tuple[Any, str]:
        assert wait_for(lambda: late._stopped)  # still starting when the stop comes
        return rig, "camera live: a stub"

    late = LateCamera(begin)
    late.start()
    late.stop()
    assert rig.stopped, "stop() returned before the camera it was starting was stopped"
