"""Camera → dice → table: a settled roll becomes the game's roll; an unsure one waits.

The watcher only posts what it read; the table's worker asks the game what it means.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.games.hamsterdam import bot
from companion.simulate import bot_turn
from companion.store import Store
from companion.table import Table
from companion.vision.dice import Die
from companion.watch.dice import DiceWatcher
from hardware.camera import CameraSupervisor, SimulatedSource
from hardware.demo_dice import DemoDice
from hardware.simulator import Conditions, DiceScene, render_dice
from hardware.simulator import Die as SimDie


@pytest.fixture
def table_at_roll(tmp_path: Path) -> Iterator[Table]:
    yield from _at_roll(tmp_path, {})


@pytest.fixture
def demo_table_at_roll(tmp_path: Path) -> Iterator[Table]:
    yield from _at_roll(tmp_path, {"demo": True})


def _at_roll(tmp_path: Path, options: dict[str, object]) -> Iterator[Table]:
    """A 3-player Hamsterdam game played by the bot up to the first roll."""
    store = Store(tmp_path / "c.sqlite3")
    table = Table(store, GameDefaults(players=("Ann", "Bo", "Cy")))
    table.new_game(GameHeader("hamsterdam", "classic", ("Ann", "Bo", "Cy"), 3, options))
    rng = random.Random(3)
    while True:
        state = table.snapshot.state
        assert state is not None
        if state.ctx.phase == "roll" and getattr(state.G, "dice", None) is None:
            break
        bot_turn(bot.candidates, state, rng, lambda e: table.submit(e).result(timeout=10))
    yield table
    table.close()
    store.close()


def settled_frame(values: tuple[int, int]) -> np.ndarray:
    dice = tuple(
        SimDie(value=v, centre=(4.0 + 3 * i, 4.5), angle_deg=10.0 * i) for i, v in enumerate(values)
    )
    return render_dice(DiceScene(dice), np.random.default_rng(1), Conditions(noise=1.0)).frame


def test_a_confident_stable_roll_is_applied(table_at_roll: Table) -> None:
    watcher = DiceWatcher(table_at_roll, stable_frames=3)
    seq = table_at_roll.public_state()["seq"]
    applied = watcher.propose([Die(3, (10, 10), 40, 0.99), Die(5, (60, 10), 40, 0.99)])
    assert applied is not None
    applied.result(timeout=10)
    table_at_roll.submit("undo").result(timeout=10)  # the roll went in as an event: undo works
    log = table_at_roll.public_state()["log"]
    roll = next(e for e in log if e["seq"] == seq + 1)
    assert roll["name"] == "roll" and roll["given"] == [3, 5] and roll["source"] == "camera"


def test_an_unsure_roll_waits_for_read(table_at_roll: Table) -> None:
    watcher = DiceWatcher(table_at_roll, stable_frames=3)
    seq = table_at_roll.public_state()["seq"]
    waiting = watcher.propose([Die(3, (10, 10), 40, 0.99), Die(5, (60, 10), 40, 0.1)])
    assert waiting is not None
    waiting.result(timeout=10)
    state = table_at_roll.public_state()
    assert state["seq"] == seq and "3 and 5" in (state["pending"] or "")
    table_at_roll.submit("read").result(timeout=10)
    assert table_at_roll.public_state()["seq"] == seq + 1


def test_a_third_die_in_view_is_never_taken_as_part_of_the_roll(table_at_roll: Table) -> None:
    """Hamsterdam rolls two dice: a stray die (or a key read as one) must not slip in."""
    watcher = DiceWatcher(table_at_roll, stable_frames=3)
    seq = table_at_roll.public_state()["seq"]
    sure = [Die(v, (10.0 + 50 * i, 10), 40, 0.99) for i, v in enumerate((3, 5, 1))]
    assert watcher.propose(sure).result(timeout=10) is True
    note = table_at_roll.public_state()["camera"]["dice"]
    assert "takes 2 dice but the camera sees 3" in note["lines"][0]
    assert table_at_roll.public_state()["seq"] == seq
    assert table_at_roll.snapshot.pending is None


def test_an_unreadable_die_is_never_guessed(table_at_roll: Table) -> None:
    watcher = DiceWatcher(table_at_roll, stable_frames=3)
    seq = table_at_roll.public_state()["seq"]
    watcher.propose([Die(3, (10, 10), 40, 0.99), Die(None, (60, 10), 40, 0.0)]).result(10)
    assert table_at_roll.public_state()["seq"] == seq
    note = table_at_roll.public_state()["camera"]["dice"]["lines"][0]
    assert "?" in note and "Check the die" in note


def test_frames_from_the_camera_reach_the_table_once_settled(table_at_roll: Table) -> None:
    frame = settled_frame((2, 6))
    delivered = threading.Event()
    watcher = DiceWatcher(table_at_roll, stable_frames=3)
    supervisor = CameraSupervisor(SimulatedSource(lambda: frame, fps=50), watcher.offer)
    watcher.start()
    supervisor.start()
    try:
        deadline = threading.Event()
        for _ in range(200):
            state = table_at_roll.public_state()
            if state["pending"] or any(e.get("source") == "camera" for e in state["log"]):
                delivered.set()
                break
            deadline.wait(0.05)
        assert delivered.is_set(), watcher.status
        assert watcher.jpeg() is not None
    finally:
        supervisor.stop()
        watcher.stop()


def test_demo_dice_never_land_in_a_real_game(table_at_roll: Table) -> None:
    """The simulated camera's rolls are shown as a demo, never applied nor proposed for
    READ, however sure the reader is."""
    watcher = DiceWatcher(table_at_roll, stable_frames=3, demo=True)
    seq = table_at_roll.public_state()["seq"]
    sure = [Die(3, (10, 10), 40, 0.999), Die(5, (60, 10), 40, 0.999)]
    assert watcher.propose(sure).result(timeout=10) is True
    state = table_at_roll.public_state()
    assert state["seq"] == seq and not state["pending"]
    lines = " ".join(state["camera"]["dice"]["lines"])
    assert "Demo camera" in lines and "start a demo game" in lines


def test_demo_dice_play_in_a_game_started_as_a_demo(demo_table_at_roll: Table) -> None:
    watcher = DiceWatcher(demo_table_at_roll, stable_frames=3, demo=True)
    sure = [Die(3, (10, 10), 40, 0.999), Die(5, (60, 10), 40, 0.999)]
    assert watcher.propose(sure).result(timeout=10) is True
    log = demo_table_at_roll.public_state()["log"]
    assert log[-1]["source"] == "camera" and log[-1]["given"] == [3, 5]


def test_the_demo_camera_tumbles_then_settles() -> None:
    demo = DemoDice(seed=2, tumble=2, rest=3)
    frames = [demo() for _ in range(5)]
    assert not np.array_equal(frames[0], frames[1])  # tumbling
    assert np.abs(frames[3].astype(int) - frames[4].astype(int)).mean() < 3  # settled


def test_a_reader_failing_on_every_picture_says_so_and_recovers(table_at_roll: Table) -> None:
    """A camera set to grey pictures: the dice reader refuses every one. The device line
    said nothing (it looked frozen on the page); it now names the failure, and the first
    picture read again clears it."""
    watcher = DiceWatcher(table_at_roll, stable_frames=3)
    watcher.start()
    try:
        grey = np.zeros((480, 640), np.uint8)
        for count in range(1, 5):
            watcher.offer(grey)
            assert watcher.worker.wait_handled(count, timeout=10)
        assert watcher.status == (
            "dice: fails on every picture (ValueError: The dice reader needs a colour (BGR) "
            "frame.); the companion's log has the details"
        )
        watcher.offer(settled_frame((3, 5)))
        assert watcher.worker.wait_handled(5, timeout=10)
        assert "fails" not in watcher.status
    finally:
        watcher.stop()
