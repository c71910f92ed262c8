"""Camera → wheel → the tablet: roll, drift and fallen pieces from simulated wheel video.

What players would notice: the roll on the tablet not matching the wheel, a fallen piece
missing from the count (or a tumbling one counted twice), no warning when the wheel has
rolled off towards the table's edge, or the game changing because the wheel moved.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.table import Table
from companion.vision.wheel import WHEEL_PIECE_NAMES, angle_difference
from companion.watch.wheel import WheelWatcher
from hardware.simulator import Conditions, WheelPiece, WheelScene, render_wheel, wheel_video
from tests.camera.camera_scenes import rhr_table

WAIT = 10.0
STABLE = 2


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with rhr_table(tmp_path) as table:
        yield table


def show(watcher: WheelWatcher, frame: Any) -> dict[str, Any]:
    published = watcher.process(frame)
    if published is not None:
        published.result(WAIT)
    wheel: dict[str, Any] = watcher.table.public_state()["camera"]["wheel"]
    return wheel


def test_roll_angle_and_fallen_pieces_from_wheel_video(table: Table) -> None:
    rng = np.random.default_rng(4)
    video = wheel_video(rng, 40, Conditions(perspective=0.3, noise=2.0, uneven_light=0.3))
    watcher = WheelWatcher(table, stable_frames=STABLE, publish_every=0.0)
    seq = table.public_state()["seq"]
    for _scene, rendered in video:
        show(watcher, rendered.frame)
    last_scene, last = video[-1]
    for _ in range(STABLE):  # let the last fall settle
        wheel = show(watcher, last.frame)
    rolled = sum(
        angle_difference(after.angle_deg, before.angle_deg)
        for (before, _), (after, _) in pairwise(video)
    )
    expected = dict.fromkeys(WHEEL_PIECE_NAMES, 0)
    for piece in last_scene.outside:
        expected[piece.colour] += 1
    assert wheel["seen"] and not wheel["blocked"]
    assert abs(angle_difference(wheel["angle_deg"], last_scene.angle_deg)) < 2.0
    assert abs(rolled) > 20.0 and abs(wheel["roll_turns"] - rolled / 360.0) < 0.02
    assert wheel["fallen"] == expected and wheel["fallen_total"] == len(last_scene.outside) > 0
    assert table.public_state()["seq"] == seq  # the wheel never makes a move


def test_a_wheel_far_from_the_centre_says_push_it_back(table: Table) -> None:
    scene = WheelScene(
        centre=(4.2, 4.0), outside=(WheelPiece("orange", (9.5, 8.0)), WheelPiece("white", (11, 9)))
    )
    frame = render_wheel(scene, np.random.default_rng(2), Conditions(noise=2.0)).frame
    watcher = WheelWatcher(table, stable_frames=1, publish_every=0.0)
    wheel = show(watcher, frame)
    assert wheel["drifted_far"] and wheel["hint"] == "Wheel drifted: push it back to the centre."
    assert wheel["drift_distance"] == pytest.approx(np.hypot(8.0 - 4.2, 6.0 - 4.0), abs=0.1)
    assert (wheel["fallen"]["orange"], wheel["fallen"]["white"], wheel["fallen_total"]) == (1, 1, 2)


def test_a_hand_keeps_the_last_reading_and_says_why(table: Table) -> None:
    rng = np.random.default_rng(5)
    clear = render_wheel(WheelScene(angle_deg=30.0), rng, Conditions(noise=2.0)).frame
    watcher = WheelWatcher(table, stable_frames=1, publish_every=0.0)
    first = show(watcher, clear)
    for seed in range(50):
        frame = render_wheel(
            WheelScene(angle_deg=200.0), np.random.default_rng(seed), Conditions(hand=True)
        ).frame
        wheel = show(watcher, frame)
        if wheel["blocked"]:
            break
    assert wheel["blocked"] and "hand" in wheel["reason"]
    assert wheel["angle_deg"] == first["angle_deg"] and wheel["roll_turns"] == 0.0
