"""The wheel camera on a Saturday table: a Pi restarted mid-game, a try whose pieces fell
before it was logged, a new game started while a reading was on its way."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.store import Store
from companion.table import Table
from companion.watch.wheel import WheelWatcher
from hardware.simulator import Conditions, WheelPiece, WheelScene, render_wheel

WAIT = 10.0
PLAYERS = ("Ann", "Bo", "Cy")
BLACK_ON_TABLE = (WheelPiece("black", (3.0, 9.0)),)


def open_table(path: Path, *, new: bool = False) -> Table:
    table = Table(Store(path / "games.sqlite3"), GameDefaults(players=PLAYERS))
    if new:
        table.new_game(GameHeader("hamster-wheel", "standard", PLAYERS, 1))
    return table


def frame(angle: float, seed: int, outside: tuple[WheelPiece, ...] = (), hand: bool = False) -> Any:
    scene = WheelScene(angle_deg=angle % 360.0, outside=outside)
    conditions = Conditions(noise=1.0, hand=hand)
    return render_wheel(scene, np.random.default_rng(seed), conditions).frame


def show(watcher: WheelWatcher, image: Any) -> None:
    published = watcher.process(image)
    if published is not None:
        published.result(WAIT)


def roll(watcher: WheelWatcher, angles: range, outside: tuple[WheelPiece, ...] = ()) -> None:
    for k, angle in enumerate(angles):
        show(watcher, frame(angle, k, outside))


def hand_over_the_wheel(watcher: WheelWatcher, angle: float) -> None:
    """A hand reaches in (the simulator's hand does not always cover the table)."""
    for seed in range(50):
        show(watcher, frame(angle, 100 + seed, hand=True))
        if watcher.table.public_state()["camera"]["wheel"]["blocked"]:
            return
    raise AssertionError("no simulated hand covered the table")


def lowest_and_log(table: Table) -> tuple[int, list[str]]:
    state = table.public_state()
    return state["view"]["wheel"]["lowest"], [e["name"] for e in state["log"]]


def test_after_a_restart_the_wheel_continues_from_the_logged_roll(tmp_path: Path) -> None:
    """The wheel rolled to compartment 4, then the Pi restarted: the first reading after it
    must not log compartment 1 as lowest again, and rolling on continues from 4."""
    table = open_table(tmp_path, new=True)
    try:
        roll(WheelWatcher(table, stable_frames=1, publish_every=0.0), range(0, -91, -6))
        assert lowest_and_log(table) == (4, ["turn_wheel"] * 3)
    finally:
        table.close()
    table = open_table(tmp_path)  # the companion starts again and resumes the game
    try:
        watcher = WheelWatcher(table, stable_frames=1, publish_every=0.0)
        roll(watcher, range(-90, -91, -1))
        assert lowest_and_log(table) == (4, ["turn_wheel"] * 3)  # nothing new logged
        roll(watcher, range(-90, -121, -6))
        assert lowest_and_log(table) == (5, ["turn_wheel"] * 4)
    finally:
        table.close()


def test_read_after_a_try_whose_pieces_fell_reports_the_failed_try(tmp_path: Path) -> None:
    """Ann reaches in (nothing logged yet), the pyramid falls out, she presses READ: her
    try failed and she takes it; it is not set aside for Higher Powers."""
    table = open_table(tmp_path, new=True)
    try:
        watcher = WheelWatcher(table, stable_frames=1, publish_every=0.0)
        roll(watcher, range(0, 1))
        hand_over_the_wheel(watcher, 0.0)
        roll(watcher, range(0, 1), BLACK_ON_TABLE)
        assert table.public_state()["pending"] is None
        logged = table.submit_intent("read").result(WAIT)
        assert (logged.name, logged.args["fell"]) == ("fail", ["black"])
        state = table.public_state()
        assert state["view"]["players"][0]["hand"]["black"] == 1 and state["current"] == 1
    finally:
        table.close()


def test_a_higher_powers_proposal_made_before_the_try_does_not_take_its_read(
    tmp_path: Path,
) -> None:
    """The pyramid fell by itself and was proposed as Higher Powers; nobody pressed READ,
    Ann made her try and it failed: READ now reports her failed try."""
    table = open_table(tmp_path, new=True)
    try:
        watcher = WheelWatcher(table, stable_frames=1, publish_every=0.0)
        roll(watcher, range(0, 1), BLACK_ON_TABLE)
        assert "nobody at the wheel" in table.public_state()["pending"]
        hand_over_the_wheel(watcher, 0.0)
        roll(watcher, range(0, 1), BLACK_ON_TABLE)
        logged = table.submit_intent("read").result(WAIT)
        assert (logged.name, logged.args["fell"]) == ("fail", ["black"])
    finally:
        table.close()


def test_pieces_that_fall_with_nobody_at_the_wheel_are_still_higher_powers(
    tmp_path: Path,
) -> None:
    table = open_table(tmp_path, new=True)
    try:
        watcher = WheelWatcher(table, stable_frames=1, publish_every=0.0)
        roll(watcher, range(0, 1))
        roll(watcher, range(0, 1), BLACK_ON_TABLE)
        logged = table.submit_intent("read").result(WAIT)
        assert (logged.name, logged.args["fell"]) == ("higher_powers", ["black"])
    finally:
        table.close()


def test_a_reading_of_the_old_game_is_not_applied_to_a_new_one(tmp_path: Path) -> None:
    """The wheel had rolled to compartment 4 when NEW GAME was pressed; a reading taken just
    before must not log the old game's roll as the new game's first event."""
    table = open_table(tmp_path, new=True)
    try:
        watcher = WheelWatcher(table, stable_frames=1, publish_every=0.0)
        roll(watcher, range(0, -85, -6))
        gate = threading.Event()
        hold = table._enqueue(gate.wait)  # the worker is busy with something else
        while not hold.running():
            gate.wait(0.01)
        starting = threading.Thread(
            target=table.new_game, args=(GameHeader("hamster-wheel", "standard", PLAYERS, 2),)
        )
        starting.start()
        while table._worker.waiting() < 1:  # NEW GAME is queued behind it
            gate.wait(0.01)
        late = watcher.process(frame(-90.0, 99))  # taken while the old game is still shown
        gate.set()
        starting.join(WAIT)
        if late is not None:
            late.result(WAIT)
        assert table.public_state()["log"] == []
    finally:
        table.close()
