"""A hand in the dice camera's picture holds the reading: no roll until it has gone."""

from __future__ import annotations

import random
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
from companion.watch.dice import DiceWatcher
from hardware.simulator.dice_oblique import CubeDie, HandPose, ObliqueScene, render_oblique


@pytest.fixture
def table_at_roll(tmp_path: Path) -> Iterator[Table]:
    """A 3-player Hamsterdam game played by the bot up to the first roll."""
    store = Store(tmp_path / "c.sqlite3")
    table = Table(store, GameDefaults(players=("Ann", "Bo", "Cy")))
    table.new_game(GameHeader("hamsterdam", "classic", ("Ann", "Bo", "Cy"), 3, {}))
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


def two_dice(hand: HandPose, seed: int) -> np.ndarray:
    """A 3 and a 5 under a webcam tipped 20 degrees; ``hand`` reaches in or holds a die."""
    dice = (CubeDie(3, (-1.2, 0.0), 20.0), CubeDie(5, (1.3, 0.4), 55.0))
    scene = ObliqueScene(dice, tilt_deg=20.0, lean_deg=90.0, distance=12.0, hand=hand)
    return render_oblique(scene, np.random.default_rng(seed)).frame


def test_no_roll_is_proposed_while_a_hand_is_in_the_picture(table_at_roll: Table) -> None:
    watcher = DiceWatcher(table_at_roll, stable_frames=3)
    for seed in range(6):
        hand: HandPose = "holding" if seed % 2 else "reaching"
        assert watcher.process(two_dice(hand, seed)) is None
    assert "hand" in watcher.status
    state = table_at_roll.public_state()
    assert not state["pending"] and not any(e.get("source") == "camera" for e in state["log"])

    # The hand has gone: the dice lying there are proposed once they have held still.
    proposed = [watcher.process(two_dice("none", 10 + k)) for k in range(3)]
    assert proposed[:2] == [None, None] and proposed[2] is not None
    proposed[2].result(timeout=10)
    assert "3 and 5" in watcher.last_roll
