"""Camera → wheel → the tablet: roll, drift and fallen pieces from simulated wheel video.

What players would notice: the roll on the tablet not matching the wheel, a fallen piece
missing from the count (or a tumbling one counted twice), no warning when the wheel has
rolled off towards the table's edge, or the game changing because the wheel moved.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.table import Table
from companion.vision.wheel import (
    HAND_OVER_TABLE,
    PIECE_HUES,
    WHEEL_PIECE_NAMES,
    WheelReading,
    angle_difference,
    read_wheel,
)
from companion.watch.wheel import WheelWatcher
from hardware.simulator import Conditions, WheelPiece, WheelScene, render_wheel, wheel_video
from tests.camera.camera_scenes import rhr_table

WAIT = 10.0
STABLE = 2


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with rhr_table(tmp_path) as table:
        yield table


def shown(watcher: WheelWatcher, published: Future[bool] | None) -> dict[str, Any]:
    """The Wheel panel's data once what the watcher sent (if anything) has been taken."""
    if published is not None:
        published.result(WAIT)
    wheel: dict[str, Any] = watcher.table.public_state()["camera"]["wheel"]
    return wheel


def show(watcher: WheelWatcher, frame: Any) -> dict[str, Any]:
    return shown(watcher, watcher.process(frame))


def scene_frame(scene: WheelScene, seed: int = 0) -> Any:
    return render_wheel(scene, np.random.default_rng(seed), Conditions(noise=2.0)).frame


# What the reader says when the cloth hides a piece colour (issue 34): the ring is measured,
# the fallen pieces are not counted.
WHITE_CLOTH = "the white cloth hides white pieces: lay a darker cloth under the wheel"


def uncounted(frame: Any) -> WheelReading:
    """The ring as read from ``frame``, its fallen pieces not counted, as the reader reports
    a white piece on a white cloth: the measurement stands, the count is empty."""
    reading = read_wheel(frame)
    assert not reading.blocked
    return replace(reading, fallen={}, pieces_reason=WHITE_CLOTH)


def take(watcher: WheelWatcher, reading: WheelReading) -> dict[str, Any]:
    return shown(watcher, watcher.take(reading))


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


def test_uncounted_pieces_keep_the_last_count_while_the_roll_goes_on(table: Table) -> None:
    """A white piece falls on a white cloth: the camera can no longer count the pieces, but
    the wheel's roll still adds up; the tablet keeps the last count that held and says why
    it is not fresh, and counts again once it can."""
    orange = WheelPiece("orange", (9.5, 8.0))
    white = WheelPiece("white", (11.0, 9.0))
    watcher = WheelWatcher(table, stable_frames=STABLE, publish_every=0.0)
    for _ in range(STABLE):
        wheel = show(watcher, scene_frame(WheelScene(outside=(orange,))))
    assert wheel["fallen"]["orange"] == 1 and wheel["fallen_total"] == 1
    for k, angle in enumerate(range(-6, -61, -6)):
        scene = WheelScene(angle_deg=angle % 360.0, outside=(orange, white))
        wheel = take(watcher, uncounted(scene_frame(scene, k)))
    assert not wheel["blocked"] and wheel["pieces_reason"] == WHITE_CLOTH
    assert wheel["roll_turns"] == pytest.approx(-60 / 360, abs=0.01)
    assert wheel["fallen"]["orange"] == 1 and wheel["fallen_total"] == 1  # the last count
    assert wheel["lines"] == [f"Fallen pieces not counted just now: {WHITE_CLOTH}."]
    assert "fallen pieces not counted" in watcher.status
    counted = scene_frame(WheelScene(angle_deg=300.0, outside=(orange, white)))
    for _ in range(STABLE):
        wheel = show(watcher, counted)
    assert wheel["pieces_reason"] == "" and wheel["lines"] == []
    assert (wheel["fallen"]["orange"], wheel["fallen"]["white"]) == (1, 1)
    assert watcher.status.endswith("2 fallen")


def test_pieces_no_longer_counted_is_said_at_once(table: Table) -> None:
    """The angle is republished only now and then; that the count stopped (or started
    again) is news the tablet gets with the very next frame, like a blocked view."""
    frame = scene_frame(WheelScene(angle_deg=30.0))
    watcher = WheelWatcher(table, stable_frames=1, publish_every=60.0, clock=lambda: 0.0)
    assert watcher.process(frame) is not None
    assert watcher.process(frame) is None  # nothing new: not republished
    assert take(watcher, uncounted(frame))["pieces_reason"] == WHITE_CLOTH
    assert watcher.take(uncounted(frame)) is None
    assert show(watcher, frame)["pieces_reason"] == ""


def test_the_watcher_names_pieces_by_the_colours_sampled_for_this_table(table: Table) -> None:
    """Issue 34: the colours sampled at calibration reach the running watcher (asked for
    each frame, so a set re-sampled from the tablet counts right from the next frame)."""
    from calibration.wheel_colours import sample_wheel_colours
    from hardware.simulator.room import Room
    from tests.vision.test_wheel_colours import AMBER, fallen_frame, laid_out

    frame = fallen_frame(Room(), AMBER)
    sampled = sample_wheel_colours(laid_out(Room(), AMBER)).windows
    hues: dict[str, Any] = {"now": None}
    watcher = WheelWatcher(
        table, stable_frames=1, publish_every=0.0, camera_height_cm=70.0,
        piece_hues=lambda: hues["now"] or PIECE_HUES,
    )  # fmt: skip
    typical = show(watcher, frame)["fallen"]
    assert (typical["orange"], typical["yellow"]) == (0, 2)
    hues["now"] = sampled
    fallen = show(watcher, frame)["fallen"]
    assert (fallen["orange"], fallen["yellow"], fallen["blue"]) == (1, 1, 1)


def test_the_watcher_sees_a_hand_sampled_for_this_table(table: Table) -> None:
    """Issue 34: the players' hands sampled at calibration reach the running watcher (asked
    for each frame): a pale hand the skin window misses holds the reading once sampled,
    so the pieces it moves are no fall."""
    from tests.vision.test_sampled_hands import COOL_FELT, HEIGHT, PALE, frames, sampled

    hand_frame = frames(COOL_FELT, 1, 77, PALE)[0]
    hands: dict[str, Any] = {"now": ()}
    watcher = WheelWatcher(
        table, stable_frames=1, publish_every=0.0, camera_height_cm=HEIGHT,
        hands=lambda: hands["now"],
    )  # fmt: skip
    unseen = show(watcher, hand_frame)
    assert not unseen["blocked"]
    hands["now"] = (sampled(COOL_FELT, PALE),)
    held = show(watcher, hand_frame)
    assert held["blocked"] and held["reason"] == HAND_OVER_TABLE


def test_a_piece_the_ring_is_pushed_in_front_of_stays_counted(table: Table) -> None:
    """Rendered room, camera 70 cm up: a red piece lies in view; the ring is pushed
    towards it until its top, a diameter above the table, hides the piece from the
    camera (the simulator's truth: 100 % behind the ring). One frame alone would count
    nothing fell; the tablet keeps the red piece (issue 34)."""
    from hardware.simulator.pinhole import camera_over_table
    from hardware.simulator.room import Room
    from hardware.simulator.room_render import behind_ring, render_wheel_room

    camera = camera_over_table(np.random.default_rng(0), (640, 480), 70.0)
    red = WheelPiece("red", (8.0, 9.0))
    away = WheelScene(centre=(8.0, 5.0), heading_deg=0.0, angle_deg=40.0, outside=(red,))
    over = replace(away, centre=(8.0, 7.3))
    assert behind_ring(camera, away, red) == 0.0 and behind_ring(camera, over, red) == 1.0
    watcher = WheelWatcher(table, stable_frames=STABLE, publish_every=0.0, camera_height_cm=70.0)
    rng = np.random.default_rng(5)
    alone = []
    for scene in (away, away, away, over, over, over):
        frame = render_wheel_room(scene, rng, Room(), camera).frame
        alone.append(read_wheel(frame, camera_height_cm=70.0).fallen.get("red", 0))
        wheel = show(watcher, frame)
        assert not wheel["pieces_reason"], wheel["pieces_reason"]
    assert alone == [1, 1, 1, 0, 0, 0]
    assert wheel["fallen"]["red"] == 1 and wheel["behind_ring"] == 1
    assert wheel["behind_ring_line"] == "1 of them is hidden behind the ring."
