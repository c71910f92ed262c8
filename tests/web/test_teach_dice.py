"""The calibration panel's Teach button: the same teaching as ``companion dice teach``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.table import Table
from companion.vision.dice import DiceReader, shared_reader
from companion.vision.teach import HEAD_FILE, NO_EXAMPLES
from tests.vision.odd_dice import blank_head, confirm_rolls
from tests.web.conftest import PIN, unlock
from tests.web.serving import page_client, serve_table


def test_teaching_needs_the_pin_and_shows_held_out_figures(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shared_reader(), "head", None)  # restored after the test
    client = page_client(table, data_dir=tmp_path)
    assert client.post("/api/dice/teach", json={}).status_code == 401
    token = client.post("/api/login", json={"pin": PIN}).get_json()["token"]
    headers = {"X-Table-Token": token}
    empty = client.post("/api/dice/teach", json={}, headers=headers)
    assert empty.status_code == 409 and NO_EXAMPLES in empty.get_json()["error"]
    confirm_rolls(DiceReader(), tmp_path, rolls=12, seed=4)
    taught = client.post("/api/dice/teach", json={}, headers=headers)
    assert taught.status_code == 200
    body = taught.get_json()
    assert "held out" in body["message"] and 0.0 <= body["after"] <= 1.0
    assert (tmp_path / HEAD_FILE).exists() and shared_reader().head is not None


def test_the_calibration_panel_has_the_teach_button(table: Table) -> None:
    client = page_client(table)
    page = client.get("/").get_data(as_text=True)
    assert 'id="btn-teach-dice"' in page and "Roll your dice a few times and confirm" in page


def test_the_teach_button_shows_what_to_do_first(
    table: Table, tmp_path: Path, browser: Browser
) -> None:
    """In Chromium: unlock, open the calibration panel, Teach with no confirmed rolls."""
    with calibration_panel(table, tmp_path, browser) as page:
        page.click("#btn-teach-dice")
        expect(page.locator("#teach-figures")).to_have_text(NO_EXAMPLES)


def test_the_panel_tells_a_table_whose_taught_dice_an_update_set_aside(
    table: Table, tmp_path: Path, browser: Browser
) -> None:
    """In Chromium: a head taught on an older close-up classifier; opening the calibration
    panel says so and how to teach again, before anyone presses a button."""
    from companion.vision.teach import STALE_HEAD

    blank_head(model="old").save(tmp_path / HEAD_FILE)
    with calibration_panel(table, tmp_path, browser) as page:
        expect(page.locator("#teach-figures")).to_have_text(STALE_HEAD)


@contextmanager
def calibration_panel(table: Table, tmp_path: Path, browser: Browser) -> Iterator[Page]:
    """The served page in Chromium, unlocked, with the calibration panel open."""
    with serve_table(table, data_dir=tmp_path) as port:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        unlock(page)
        page.click("#calibration-box summary")
        yield page
        page.close()
