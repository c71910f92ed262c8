"""The tablet shows where the camera disagrees with the belt, and the wheel it follows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from flask.testing import FlaskClient
from playwright.sync_api import Browser, expect

from calibration.watched import WatchedCalibration
from companion.table import Table
from companion.watch.belt import BeltWatcher
from companion.watch.wheel import WheelWatcher
from hardware.simulator import Conditions, WheelScene, render_wheel
from tests.camera.camera_scenes import (
    PLACES,
    belt_frame,
    make_calibration,
    place_everyone,
    save,
)
from tests.web.conftest import unlock
from tests.web.serving import serve_table

MOVED = "Camera sees Bob (blue) on row 4, lane 3; the game has Bob on row 5, lane 3."


@pytest.fixture
def disagreeing(table: Table, tmp_path: Path) -> Iterator[Table]:
    """The belt with Bob's piece one row off, as the board watcher reports it."""
    place_everyone(table)
    watcher = BeltWatcher(
        table, WatchedCalibration(save(make_calibration(), tmp_path)), stable_frames=1
    )
    published = watcher.process(belt_frame({**PLACES, "blue": (4, 3)}))
    assert published is not None and published.result(10)
    yield table


def test_state_and_vision_carry_the_differences(disagreeing: Table, client: FlaskClient) -> None:
    state = client.get("/api/state").get_json()
    assert state["camera"]["belt"]["status"] == "differ"
    assert state["camera"]["belt"]["lines"] == [MOVED]
    vision = client.get("/api/vision").get_json()
    assert vision == {"camera": {"belt": state["camera"]["belt"]}}
    page = client.get("/").get_data(as_text=True)
    assert 'id="board-check"' in page and 'id="wheel-box"' in page


def test_vision_carries_the_wheel(table: Table, client: FlaskClient) -> None:
    frame = render_wheel(WheelScene(angle_deg=45.0), np.random.default_rng(1), Conditions()).frame
    published = WheelWatcher(table, stable_frames=1).process(frame)
    assert published is not None
    published.result(10)
    wheel = client.get("/api/vision").get_json()["camera"]["wheel"]
    assert wheel["seen"] and abs(wheel["angle_deg"] - 45.0) < 2.0
    assert wheel["fallen_total"] == 0 and wheel["hint"] == ""


@pytest.mark.browser
def test_the_page_lists_the_differences(disagreeing: Table, browser: Browser) -> None:
    with serve_table(disagreeing) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        expect(page.locator("#board-check")).to_contain_text("Camera disagrees")
        expect(page.locator("#board-check")).to_contain_text(MOVED)
        page.close()


@pytest.mark.browser
def test_one_tap_settles_a_disagreement(disagreeing: Table, browser: Browser) -> None:
    """The camera is right: Bob's piece goes where the camera saw it, as one undoable move;
    the board is right: the tablet forgets the difference until the next change."""
    with serve_table(disagreeing) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        unlock(page)
        box = page.locator("#board-check")
        expect(box).to_contain_text(MOVED)
        box.get_by_role("button", name="The board is right").click()
        expect(box).to_be_hidden()
        page.reload()  # still unlocked (the token is kept for the tab); the note is back
        box.get_by_role("button", name="The camera is right").click()
        expect(page.locator("#log li").first).to_contain_text("correct")
        page.close()
    bob = next(h for h in disagreeing.public_state()["view"]["hamsters"] if h["name"] == "Bob")
    assert (bob["row"], bob["lane"]) == (4, 3)


@pytest.mark.browser
def test_the_wheel_panel_says_when_the_cloth_hides_some_hands(
    table: Table, browser: Browser
) -> None:
    """Issue 34: on a wooden table some hands are the cloth's colour and go unseen; the
    Wheel panel says so (and what to do) while it goes on reading the ring."""
    from companion.vision.wheel import CLOTH_CLOSE_TO_SKIN
    from hardware.simulator.room import Room
    from hardware.simulator.room_render import render_wheel_room

    room = Room(table="light wood", light="warm")
    frame = render_wheel_room(WheelScene(angle_deg=45.0), np.random.default_rng(1), room).frame
    watcher = WheelWatcher(table, stable_frames=1, camera_height_cm=room.height_cm)
    published = watcher.process(frame)
    assert published is not None and published.result(10)
    assert table.public_state()["camera"]["wheel"]["cloth_warning"] == CLOTH_CLOSE_TO_SKIN
    with serve_table(table) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        expect(page.locator("#wheel")).to_contain_text("close to skin colour")
        expect(page.locator("#wheel")).to_contain_text("Rolled")
        page.close()
