"""The belt camera's twin: on a laptop the belt check runs end to end and agrees.

What a person trying ``make run`` would notice: no "Camera agrees with the board." ever, a
false difference after the game moves a piece, a demo belt drawn for a game with no belt,
demo pictures judged in a real game on a Pi, or their own calibration file overwritten.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from calibration.geometry import calibrate_board, locate_board, save_calibration
from calibration.watched import WatchedCalibration
from companion.config import CALIBRATION_FILE, load_config
from companion.engine.camera import watched
from companion.engine.readings import BELT
from companion.engine.session import GameHeader
from companion.games import find_game
from companion.simulate import bot_turn
from companion.startup.camera import start_camera
from companion.table import Table
from companion.vision.board import read_board
from companion.watch.belt import BeltWatcher
from hardware.camera_choice import CameraChoice
from hardware.demo_board import CALIBRATION_CELLS, DemoBelt, demo_calibration_path, scene_for
from tests.camera.camera_scenes import PLACES, config_file, place_everyone, rhr_table

STABLE = 2
WAIT = 20.0


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with rhr_table(tmp_path) as table:
        yield table


def wait_for(condition: Callable[[], bool]) -> bool:
    """Poll a condition the demo's threads make true; generous, never a timing assertion."""
    pause = threading.Event()
    for _ in range(int(WAIT / 0.05)):
        if condition():
            return True
        pause.wait(0.05)
    return condition()


class Twin:
    """The belt twin as ``companion run`` wires it: its pictures go to a belt watcher that
    reads them with the twin's own calibration (made as a player makes one)."""

    def __init__(self, table: Table, data_dir: Path, fps: float = 2.0) -> None:
        self.table = table
        path = demo_calibration_path(data_dir)
        self.watcher = BeltWatcher(table, WatchedCalibration(path), stable_frames=STABLE)
        self.demo = DemoBelt(self.view, table.current_stamp, self.watcher.offer, fps=fps)
        self.calibration = calibrate_board(self.demo.camera.calibration_frame, CALIBRATION_CELLS)
        save_calibration(self.calibration, path)

    def view(self) -> dict[str, Any] | None:
        if BELT not in watched(self.table.snapshot.spec):
            return None
        view: dict[str, Any] = self.table.public_state(with_log=False)["view"]
        return view


def settle(twin: Twin) -> dict[str, Any]:
    """Show the twin's pictures until the reading holds; the board check the tablet shows."""
    results = []
    for _ in range(STABLE):
        frame = twin.demo.frame()
        assert frame is not None
        results.append(twin.watcher.process(frame))
    published = results[-1]
    assert published is not None, twin.watcher.status
    assert published.result(WAIT) is True
    check: dict[str, Any] = twin.table.public_state()["camera"].get("belt")
    return check


def positions(table: Table) -> Any:
    return scene_for(table.public_state(with_log=False)["view"])


def play_until_the_belt_changes(table: Table, rng: random.Random, limit: int = 200) -> None:
    """Let the game's bot play until a piece (or the asterisk strip) is somewhere new."""
    before = positions(table)
    bot = find_game("run-hamster-run").bot
    assert bot is not None
    for _ in range(limit):
        state = table.snapshot.state
        assert state is not None
        bot_turn(bot, state, rng, lambda event: table.submit(event).result(WAIT))
        if positions(table) != before:
            return
    raise AssertionError("the bot moved nothing on the belt")


def test_the_demo_belt_shows_the_pieces_where_the_game_has_them(
    table: Table, tmp_path: Path
) -> None:
    twin = Twin(table, tmp_path)
    demo = twin.demo
    profiles = twin.calibration.colour_profiles
    frame = demo.frame()
    assert frame is not None and frame.shape == (480, 640, 3)
    empty = read_board(frame, locate_board(frame), profiles)
    assert empty.hamsters == {} and empty.in_pit == frozenset()  # nobody placed yet
    place_everyone(table)
    frame = demo.frame()
    assert frame is not None
    reading = read_board(frame, locate_board(frame), profiles)
    assert reading.hamsters == PLACES and reading.asterisk_row == 5


def test_the_board_watcher_agrees_and_keeps_agreeing_as_the_game_moves(
    table: Table, tmp_path: Path
) -> None:
    place_everyone(table)
    twin = Twin(table, tmp_path)
    check = settle(twin)
    assert check["status"] == "agree" and check["lines"] == ["Camera agrees with the board."]
    rng = random.Random(0)
    for _ in range(20):  # hamsters run and are pushed, then the belt itself moves
        play_until_the_belt_changes(table, rng)
        check = settle(twin)
        assert check["status"] == "agree", check["lines"]
        if positions(table).asterisk_row != 5:
            break
    else:
        raise AssertionError("the belt never moved")
    assert not (tmp_path / CALIBRATION_FILE).exists()  # the real calibration: untouched


def test_the_feed_offers_frames_on_its_own_thread_and_stops(table: Table, tmp_path: Path) -> None:
    place_everyone(table)
    twin = Twin(table, tmp_path, fps=20)
    demo = twin.demo
    threads_before = set(threading.enumerate())

    def agreed() -> bool:
        check = table.public_state()["camera"].get("belt")
        return check is not None and check["status"] == "agree"

    twin.watcher.start()
    demo.start()
    try:
        assert wait_for(agreed), twin.watcher.status
        assert twin.watcher.status == "board check: the camera agrees with the board"
        play_until_the_belt_changes(table, random.Random(5))
        moved = table.public_state()["seq"]
        assert wait_for(lambda: agreed() and table.current_stamp()[1] == moved)
    finally:
        demo.stop()
        twin.watcher.stop()
    assert demo.frames_offered > 0
    assert set(threading.enumerate()) <= threads_before  # the feed and the watcher ended


def test_no_belt_is_drawn_for_a_game_without_one(table: Table, tmp_path: Path) -> None:
    table.new_game(GameHeader("hamsterdam", "classic", ("Ann", "Bo", "Cy"), 3))
    twin = Twin(table, tmp_path)
    assert twin.demo.frame() is None
    assert twin.demo.feed_once() is False
    assert twin.demo.frames_offered == 0 and twin.watcher.worker.stats.offered == 0
    assert table.public_state()["camera"].get("belt") is None


def test_make_run_on_a_laptop_checks_the_simulated_belt_and_keeps_the_real_calibration(
    table: Table, tmp_path: Path
) -> None:
    place_everyone(table)
    real = tmp_path / CALIBRATION_FILE
    real.write_text("the players' own calibration\n")
    before = real.stat().st_mtime_ns
    config = load_config(config_file(tmp_path, "stable_frames = 2"), data_dir=tmp_path)
    camera, status = start_camera(config, table, simulate=True)
    assert camera is not None
    assert camera is not None and "dice and wheel twins" in status
    try:
        # The dice frames show no belt: the belt watcher reads the belt twin's pictures.
        assert isinstance(camera.devices[BELT], DemoBelt)
        assert wait_for(
            lambda: (
                (table.public_state()["camera"].get("belt") or {}).get("lines")
                == ["Camera agrees with the board."]
            )
        ), camera.lines()
    finally:
        camera.stop()
    assert real.read_text() == "the players' own calibration\n"
    assert real.stat().st_mtime_ns == before
    assert demo_calibration_path(tmp_path).exists()


def test_a_pi_or_a_real_camera_never_gets_the_demo_belt(table: Table, tmp_path: Path) -> None:
    threads_before = set(threading.enumerate())
    config = load_config(config_file(tmp_path, 'source = "auto"'), data_dir=tmp_path)
    nothing = CameraChoice("none", why="nothing attached")
    assert start_camera(config, table, False, on_pi=True, choose=lambda: nothing)[0] is None
    (tmp_path / "pictures").mkdir()
    config = load_config(
        config_file(tmp_path, f'source = "folder"\ndevice = "{tmp_path / "pictures"}"'),
        data_dir=tmp_path,
    )
    camera, _status = start_camera(config, table, simulate=False, on_pi=False)
    assert camera is not None
    watcher = camera.watchers[BELT]
    try:
        assert type(watcher) is BeltWatcher and BELT not in camera.devices
        assert isinstance(watcher.calibration, WatchedCalibration)
        assert watcher.calibration.path == tmp_path / CALIBRATION_FILE
    finally:
        assert camera is not None
        camera.stop()
    assert not demo_calibration_path(tmp_path).parent.exists()
    assert not any(t.name == "demo-belt" for t in set(threading.enumerate()) - threads_before)


@pytest.mark.parametrize(
    ("file", "said"),
    [
        ("wheel-colours.json", ("wheel colour file", "companion calibrate wheel-colours")),
        ("hand-colours.json", ("hand colour file", "companion calibrate hand")),
    ],
)
def test_a_broken_wheel_colour_or_hand_file_is_said_on_the_camera_status(
    table: Table, tmp_path: Path, file: str, said: tuple[str, str]
) -> None:
    """A damaged ``wheel-colours.json`` or ``hand-colours.json`` does not stop the camera:
    the wheel names pieces by a typical set's colours, or finds hands by typical skin, and
    the status line says what is wrong and how to mend it."""
    (tmp_path / file).write_text("{half a file", encoding="utf-8")
    config = load_config(config_file(tmp_path, "stable_frames = 2"), data_dir=tmp_path)
    camera, status = start_camera(config, table, simulate=True)
    assert camera is not None
    try:
        assert all(words in status for words in said), status
    finally:
        camera.stop()
