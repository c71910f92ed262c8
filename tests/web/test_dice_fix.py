"""Fixing the camera's dice reading on its picture: the fixed roll is played and kept to
teach from, whatever count the reader had (issue 33, item 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from companion.table import Table
from companion.vision.teach import EXAMPLES_DIR, INDEX_FILE, NOT_A_DIE, ExampleStore, align
from companion.watch.dice import DiceWatcher
from tests.vision.test_teach import _watch_a_roll, table_at_roll
from tests.web.conftest import PIN, shots, unlock
from tests.web.serving import page_client, serve_table

__all__ = ["table_at_roll"]  # the fixture, shared with the teaching tests


def test_a_roll_fixed_on_the_picture_is_played_and_kept_whatever_the_count(
    table_at_roll: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The camera read a 3 and a phantom 5 and missed a die: typed as 4 and 2, the roll
    could not be kept (which typed value is which die?); tapped on the picture, it is."""
    store = ExampleStore(tmp_path / EXAMPLES_DIR)
    watcher = DiceWatcher(table_at_roll, stable_frames=1, examples=store)
    _watch_a_roll(watcher, (3, 5), monkeypatch)
    assert align((3, 5), (4, 2)) is None, "typing alone cannot say which die was which"
    client = page_client(table_at_roll, camera=watcher, data_dir=tmp_path)
    shown = client.get("/api/dice/proposal").get_json()
    assert [(d["x"], d["value"]) for d in shown["dice"]] == [(100.0, 3), (200.0, 5)]
    assert client.get("/dice/proposal.jpg").status_code == 200
    fix = {
        "dice": [{"x": 100, "y": 100, "value": 4, "size": 50}, {"x": 250, "y": 180, "value": 2}],
        "removed": [{"x": 200, "y": 100}],
    }
    assert client.post("/api/dice/correct", json=fix).status_code == 401, "needs the PIN"
    token = client.post("/api/login", json={"pin": PIN}).get_json()["token"]
    done = client.post("/api/dice/correct", json=fix, headers={"X-Table-Token": token})
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["values"] == [4, 2] and done.get_json()["taken"]
    state = table_at_roll.snapshot.state
    assert state is not None and tuple(state.G.dice) == (4, 2)
    assert watcher.saver is not None
    watcher.saver.flush()
    assert sorted(e.value for e in store.load()) == [2, 4]
    rows = json.loads((tmp_path / EXAMPLES_DIR / INDEX_FILE).read_text())["dice"]
    assert [row["value"] for row in rows] == [4, 2, NOT_A_DIE]
    assert rows[1]["box"] == [225.0, 155.0, 50.0, 50.0], "an added die takes the roll's size"
    assert (tmp_path / EXAMPLES_DIR / rows[0]["frame"]).exists()
    again = client.post("/api/dice/correct", json=fix, headers={"X-Table-Token": token})
    assert again.status_code == 409, "each proposal is fixed once"


def test_a_fix_without_faces_is_refused_in_one_sentence(
    table_at_roll: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    watcher = DiceWatcher(table_at_roll, stable_frames=1, examples=ExampleStore(tmp_path))
    _watch_a_roll(watcher, (3, 5), monkeypatch)
    client = page_client(table_at_roll, camera=watcher, data_dir=tmp_path)
    token = client.post("/api/login", json={"pin": PIN}).get_json()["token"]
    bad = client.post(
        "/api/dice/correct",
        json={"dice": [{"x": 1, "y": 2, "value": 9}]},
        headers={"X-Table-Token": token},
    )
    assert bad.status_code == 400 and "face from 1 to 6" in bad.get_json()["error"]


@pytest.mark.browser
def test_players_fix_a_roll_by_tapping_its_picture(
    table_at_roll: Table,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    browser: Browser,
) -> None:
    """Tap the 3 and make it a 4, tap the phantom 5 away, tap the missed die and make it a
    2, confirm: the game has 4 and 2, and all three taps are kept to teach from."""
    store = ExampleStore(tmp_path / EXAMPLES_DIR)
    watcher = DiceWatcher(table_at_roll, stable_frames=1, examples=store)
    _watch_a_roll(watcher, (3, 5), monkeypatch)
    pictures = shots(tmp_path)
    with serve_table(table_at_roll, camera=watcher, data_dir=tmp_path) as port:
        for width, height in ((1280, 800), (800, 1280), (390, 844)):
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(f"http://127.0.0.1:{port}")
            unlock(page)
            page.click("#btn-fix-dice")
            expect(page.locator(".fix-die")).to_have_count(2)
            page.screenshot(path=str(pictures / f"dice-fix-{width}x{height}.png"))
            if width != 390:
                page.click("#fix-cancel")
                page.close()
                continue
            page.click(".fix-die:has-text('3')")
            page.click("#fix-faces button[data-face='4']")
            page.click(".fix-die:has-text('5')")
            page.click("#fix-faces button[data-face='0']")
            layer = page.locator("#fix-layer").bounding_box()
            assert layer is not None
            page.mouse.click(
                layer["x"] + layer["width"] * 250 / 320, layer["y"] + layer["height"] * 180 / 240
            )
            page.click("#fix-faces button[data-face='2']")
            expect(page.locator("#fix-summary")).to_have_text("Roll: 4, 2 · 1 removed")
            page.screenshot(path=str(pictures / "dice-fix-fixed.png"))
            page.click("#fix-confirm")
            expect(page.locator("#toast")).to_contain_text("Roll 4, 2 taken")
            page.close()
        state = table_at_roll.snapshot.state
        assert state is not None and tuple(state.G.dice) == (4, 2)
    assert watcher.saver is not None
    watcher.saver.flush()
    rows = json.loads((tmp_path / EXAMPLES_DIR / INDEX_FILE).read_text())["dice"]
    assert [row["value"] for row in rows] == [4, 2, NOT_A_DIE]
    added = rows[1]["box"]
    assert abs(added[0] + added[2] / 2 - 250) < 15 and abs(added[1] + added[3] / 2 - 180) < 15
