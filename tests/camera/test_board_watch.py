"""Camera → belt → comparison with the game: differences are shown, never applied.

What players would notice: a hamster shown as misplaced when it is not, a real difference
not mentioned, a reaching hand reported as hamsters vanishing, the companion moving a
piece in the game by itself, or a stale picture judged instead of the table as it is now.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from calibration.geometry import Calibration
from calibration.watched import WatchedCalibration
from companion.engine.readings import BeltSeen
from companion.engine.session import GameHeader
from companion.games.run_hamster_run.camera import compare_board
from companion.table import Table
from companion.watch.belt import BeltWatcher
from hardware.camera import CameraSupervisor, SimulatedSource
from tests.camera.camera_scenes import (
    PLACES,
    belt_frame,
    hand_frame,
    make_calibration,
    place_everyone,
    rhr_table,
    save,
)

STABLE = 3
WAIT = 10.0


@pytest.fixture(scope="module")
def calibration() -> Calibration:
    return make_calibration()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with rhr_table(tmp_path) as table:
        place_everyone(table)
        yield table


@pytest.fixture
def watcher(table: Table, calibration: Calibration, tmp_path: Path) -> BeltWatcher:
    return BeltWatcher(table, WatchedCalibration(save(calibration, tmp_path)), stable_frames=STABLE)


def settle(watcher: BeltWatcher, frame: Any) -> dict[str, Any]:
    """Show the same frame until it is steady; returns the board check the table publishes."""
    results = [watcher.process(frame) for _ in range(STABLE)]
    assert results[:-1] == [None] * (STABLE - 1)  # not before it has held STABLE frames
    published = results[-1]
    assert published is not None, watcher.status
    assert published.result(WAIT) is True
    check: dict[str, Any] = watcher.table.public_state()["camera"].get("belt")
    return check


def game_record(table: Table) -> tuple[Any, ...]:
    """Everything the game is: its state, its log, and what SQLite holds."""
    snapshot = table.snapshot
    assert snapshot.state is not None and snapshot.game_id is not None
    stored = table.store.events(snapshot.game_id)
    return snapshot.state, snapshot.log, [e.to_json() for e in stored]


def test_matching_positions_give_no_differences(watcher: BeltWatcher) -> None:
    check = settle(watcher, belt_frame(PLACES))
    assert check["status"] == "agree"
    assert check["lines"] == ["Camera agrees with the board."]
    assert watcher.process(belt_frame(PLACES)) is None  # nothing new: nothing re-sent


def test_a_moved_hamster_is_one_difference_and_the_game_is_unchanged(
    watcher: BeltWatcher, table: Table
) -> None:
    before = game_record(table)
    moved = {**PLACES, "blue": (4, 3)}  # Bob's piece, one row nearer the Pit
    check = settle(watcher, belt_frame(moved))
    assert check["status"] == "differ"
    assert check["lines"] == [
        "Camera sees Bob (blue) on row 4, lane 3; the game has Bob on row 5, lane 3."
    ]
    assert game_record(table) == before
    assert table.public_state()["pending"] is None  # not even proposed as a move


def test_a_hand_over_the_board_is_view_blocked_with_no_differences(
    watcher: BeltWatcher, table: Table, calibration: Calibration
) -> None:
    before = game_record(table)
    moved = {**PLACES, "blue": (4, 3)}
    check = settle(watcher, hand_frame(moved, calibration))
    assert check["status"] == "blocked"
    assert check["lines"] == ["View blocked by a hand: positions not checked."]
    assert game_record(table) == before


def test_a_check_against_an_older_state_is_hidden_then_redone(
    watcher: BeltWatcher, table: Table
) -> None:
    frame = belt_frame({**PLACES, "blue": (4, 3)})
    settle(watcher, frame)
    table.submit("undo").result(WAIT)  # Dave's placement is taken back
    assert table.public_state()["camera"].get("belt") is None  # made for the state before the undo
    published = watcher.process(frame)
    assert published is not None and published.result(WAIT) is True
    check = table.public_state()["camera"].get("belt")
    assert check["lines"] == [
        "Camera sees Bob (blue) on row 4, lane 3; the game has Bob on row 5, lane 3.",
        "Camera sees Dave (green) on row 4, lane 1; the game has not placed Dave yet.",
    ]


def test_only_the_newest_frame_is_read(
    table: Table, calibration: Calibration, tmp_path: Path
) -> None:
    watcher = BeltWatcher(table, WatchedCalibration(save(calibration, tmp_path)), stable_frames=1)
    for row in (7, 8, 9, 10):  # stale pictures of Bob's piece wandering off
        watcher.offer(belt_frame({**PLACES, "blue": (row, 3)}))
    watcher.offer(belt_frame(PLACES))  # the table as it is now
    watcher.start()
    try:
        assert watcher.worker.wait_handled(1, WAIT)
        deadline = threading.Event()
        for _ in range(100):
            if table.public_state()["camera"].get("belt") is not None:
                break
            deadline.wait(0.05)
        stats = watcher.worker.stats
        assert (stats.offered, stats.handled, stats.dropped) == (5, 1, 4)
        assert table.public_state()["camera"].get("belt")["status"] == "agree"
    finally:
        watcher.stop()


def test_frames_from_a_camera_reach_the_tablet(watcher: BeltWatcher, table: Table) -> None:
    frame = belt_frame({**PLACES, "yellow": "pit"})
    supervisor = CameraSupervisor(SimulatedSource(lambda: frame, fps=30), watcher.offer)
    watcher.start()
    supervisor.start()
    try:
        deadline = threading.Event()
        for _ in range(200):
            if table.public_state()["camera"].get("belt") is not None:
                break
            deadline.wait(0.05)
        check = table.public_state()["camera"].get("belt")
        assert check is not None, watcher.status
        assert check["lines"] == [
            "Camera sees Cathleen (yellow) in the Pit; the game has Cathleen on row 3, lane 4."
        ]
    finally:
        supervisor.stop()
        watcher.stop()


def test_no_check_without_a_calibration_or_in_a_game_without_a_belt(
    table: Table, tmp_path: Path
) -> None:
    frame = np.zeros((480, 640, 3), np.uint8)
    uncalibrated = BeltWatcher(
        table, WatchedCalibration(tmp_path / "nowhere.json"), stable_frames=1
    )
    assert uncalibrated.process(frame) is None
    assert "No calibration file" in uncalibrated.status
    table.new_game(GameHeader("hamsterdam", "classic", ("Ann", "Bo", "Cy"), 3))
    assert uncalibrated.process(frame) is None
    assert uncalibrated.status == "board check: waiting for a game played on a belt"
    assert table.public_state()["camera"].get("belt") is None


VIEW: dict[str, Any] = {
    "asterisk_row": 5,
    "hamsters": [
        {"name": "Ann", "colour": "red", "row": 3, "lane": 1, "in_pit": False, "eaten": False},
        {"name": "Bo", "colour": "blue", "row": 0, "lane": None, "in_pit": True, "eaten": False},
        {"name": "Cy", "colour": "green", "row": 0, "lane": None, "in_pit": False, "eaten": True},
        {"name": "Di", "colour": "orange", "row": 2, "lane": 2, "in_pit": False, "eaten": False},
    ],
}
COLOURS = ("red", "blue", "green", "yellow", "purple")


def test_each_kind_of_difference_is_one_sentence() -> None:
    reading = BeltSeen(pieces={"blue": (6, 2), "green": (1, 5)}, marker_row=6)
    check = compare_board(reading, VIEW, COLOURS)
    assert check.lines == (
        "Camera cannot see Ann (red); the game has Ann on row 3, lane 1.",
        "Camera sees Bo (blue) on row 6, lane 2; the game has Bo in the Pit.",
        "Camera sees Cy (green) on row 1, lane 5; the game has Cy off the table (eaten).",
        "Camera cannot check Di (orange): that colour is not calibrated; recalibrate.",
        "Camera sees the asterisk strip on row 6; the game has it on row 5.",
    )


def test_an_unseen_asterisk_strip_and_an_absent_eaten_hamster_agree() -> None:
    view = {**VIEW, "hamsters": VIEW["hamsters"][:3]}
    reading = BeltSeen(pieces={"red": (3, 1)}, in_pit=frozenset({"blue"}), marker_row=None)
    assert compare_board(reading, view, COLOURS).status == "agree"
    hidden = BeltSeen(blocked="board markers not visible")
    check = compare_board(hidden, view, COLOURS)
    assert check.lines == ("View blocked (board markers not visible): positions not checked.",)


def test_a_hamster_in_the_pit_is_not_asked_for_after_a_calibration_made_mid_game() -> None:
    """Calibrating mid-game samples only the hamsters still racing: Bo, in the Pit for good,
    and Cy, eaten, have no colour profile then. The check says nothing about them (it
    asked to recalibrate, which could never sample them) and still checks the others."""
    reading = BeltSeen(pieces={"red": (3, 1)}, marker_row=5)
    check = compare_board(reading, VIEW, ("red", "orange"))
    assert check.lines == ("Camera cannot see Di (orange); the game has Di on row 2, lane 2.",)
