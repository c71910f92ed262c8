"""The History page in headless Chromium, over games the bots played to their end in a real
SQLite file: the list, the stats, exports that download and parse, delete with the PIN and
Undo, "same players again", accessibility at tablet and phone sizes, and its screenshot."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from playwright.sync_api import Browser, Page, expect

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.games import GAMES
from companion.history_export import BGSTATS_LINK
from companion.saved import start_game
from companion.simulate import play_session
from companion.store import Store
from companion.table import Table
from tests.web.conftest import PIN, shots, unlock
from tests.web.serving import make_app, page_client, serve_table, serving

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("AXE_JS", ROOT / ".cache/axe/node_modules/axe-core/axe.min.js"))
NAMES = ("Ann", "Bob", "Cy", "Dee")
COLOURS = ["red", "blue", "yellow", "green"]


MINUTES = (35, 52, 68, 41)  # how long each game took, as a real table would take


def played(path: Path) -> Store:
    """One finished game of every game, a day apart and as long as real ones (the bots
    play in milliseconds), the last one with chosen colours."""
    store = Store(path)
    for seed, game in enumerate(sorted(GAMES), start=1):
        options: dict[str, Any] = {"colours": COLOURS} if game == "run-hamster-run" else {}
        header = GameHeader(game, GAMES[game].rules_default, NAMES, seed, options)
        _, session = start_game(store, header)
        play_session(session, random.Random(seed), 20_000)
        assert session.state.ctx.over
    store.close()
    db = sqlite3.connect(path)
    for game_id, minutes in enumerate(MINUTES, start=1):
        start = time.time() - (len(MINUTES) - game_id) * 86_400 - 3 * 3600
        last = db.execute("SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,)).fetchone()
        db.execute("UPDATE games SET created = ? WHERE id = ?", (start, game_id))
        db.execute(
            "UPDATE events SET at = ? + ? * seq / ? WHERE game_id = ?",
            (start, minutes * 60, last[0], game_id),
        )
    db.commit()
    db.close()
    return Store(path)


@pytest.fixture
def history_table(tmp_path: Path) -> Iterator[Table]:
    store = played(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=NAMES))
    yield table
    table.close()
    store.close()


@pytest.fixture
def site(history_table: Table) -> Iterator[str]:
    with serve_table(history_table) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture
def history_client(history_table: Table) -> FlaskClient:
    return page_client(history_table)


def rows(page: Page) -> Any:
    return page.locator("#plays-body tr")


def test_the_page_lists_every_finished_game_and_each_players_record(
    browser: Browser, site: str, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{site}/history")
    expect(rows(page)).to_have_count(len(GAMES))
    expect(page.locator("#history-status")).to_have_text(f"{len(GAMES)} finished games.")
    belt = page.locator("#plays-body tr", has_text="Run, Hamster, Run!")
    expect(belt).to_contain_text("speed at end")
    expect(belt).to_contain_text("alligators at end")
    expect(belt).to_contain_text(f"{MINUTES[sorted(GAMES).index('run-hamster-run')]} min")
    expect(page.locator("#plays-body tr", has_text="Hamsterdam")).to_contain_text("breaches")
    expect(page.locator("#stats-body tr")).to_have_count(len(NAMES))
    expect(page.locator("#stats-body")).to_contain_text("seat 1:")
    page.screenshot(path=str(shots(tmp_path) / "history.png"), full_page=True)
    page.close()


def test_deleting_needs_the_pin_and_undo_brings_the_game_back(browser: Browser, site: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{site}/history")
    expect(rows(page)).to_have_count(len(GAMES))
    first = rows(page).first
    game = first.get_attribute("data-game")
    first.get_by_role("button", name=f"Delete game {game}").click()
    page.fill("#delete-pin", "999999")
    page.click("#delete-form button.primary")
    expect(page.locator("#delete-error")).to_have_text(
        "That PIN is not right; nothing was deleted."
    )
    expect(rows(page)).to_have_count(len(GAMES))
    page.fill("#delete-pin", PIN)
    page.click("#delete-form button.primary")
    expect(rows(page)).to_have_count(len(GAMES) - 1)
    expect(page.locator(f'#plays-body tr[data-game="{game}"]')).to_have_count(0)
    expect(page.locator("#undo-toast")).to_contain_text(f"Game {game} deleted.")
    page.click("#undo-button")
    expect(rows(page)).to_have_count(len(GAMES))
    expect(page.locator("#toast")).to_have_text(f"Game {game} is back in the history.")
    page.reload()  # kept on the Pi, not only on this page
    expect(rows(page)).to_have_count(len(GAMES))
    page.close()


def test_exports_download_and_parse(browser: Browser, site: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    page.goto(f"{site}/history")
    expect(rows(page)).to_have_count(len(GAMES))
    with page.expect_download() as got:
        page.click("#export-csv")
    table = list(csv.DictReader(io.StringIO(Path(got.value.path()).read_text(encoding="utf-8"))))
    assert got.value.suggested_filename == "hamster-history.csv"
    assert sorted(r["game"] for r in table) == sorted(s.title for s in GAMES.values())
    assert all(r["players"] == "Ann; Bob; Cy; Dee" for r in table)
    with page.expect_download() as got:
        page.click("#export-bgstats")
    plays = json.loads(Path(got.value.path()).read_text(encoding="utf-8"))["plays"]
    assert len(plays) == len(GAMES)
    assert {p["data"]["game"]["name"] for p in plays} == {s.title for s in GAMES.values()}
    assert all(p["link"].startswith(BGSTATS_LINK) for p in plays)
    page.close()


def test_same_players_again_fills_the_new_game_form(browser: Browser, site: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(site)
    expect(page.locator("#history-link")).to_have_text("History and stats")
    page.click("#history-link")
    expect(page).to_have_url(f"{site}/history")
    page.click("text=Back to the game")
    page.wait_for_url(f"{site}/")
    unlock(page)
    page.locator(".new-game-box summary").click()
    page.fill("#ng-players", "Zed")
    same = page.locator("#ng-same")
    expect(same).to_have_text("Same players again: Ann, Bob, Cy, Dee")
    same.click()
    expect(page.locator("#ng-players")).to_have_value("Ann, Bob, Cy, Dee")
    page.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_no_accessibility_violations(browser: Browser, site: str, size: tuple[int, int]) -> None:
    assert AXE.exists(), f"axe-core is missing at {AXE}: run `make test` (it installs it)"
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{site}/history")
    expect(rows(page)).to_have_count(len(GAMES))
    for dialog_open in (False, True):
        if dialog_open:
            rows(page).first.get_by_role("button").click()
        page.add_script_tag(path=str(AXE))
        found = page.evaluate(
            "async () => (await axe.run()).violations.map("
            "(v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target).join(', ')}`)"
        )
        assert found == [], (size, dialog_open, found)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size[0]  # nothing wider than the screen: no sideways scrolling
    context.close()


def test_the_api_refuses_a_deletion_without_the_right_pin(history_client: FlaskClient) -> None:
    response = history_client.post("/api/history/1/delete", json={})
    assert response.status_code == 400 and "PIN" in response.get_json()["error"]
    response = history_client.post("/api/history/1/delete", json={"pin": "000000"})
    assert response.status_code == 403
    assert len(history_client.get("/api/history").get_json()["plays"]) == len(GAMES)
    response = history_client.post("/api/history/1/delete", json={"pin": PIN})
    assert response.status_code == 200
    response = history_client.post("/api/history/1/undelete", json={"undo": "guessed"})
    assert response.status_code == 401
    response = history_client.post("/api/history/99/delete", json={"pin": PIN})
    assert response.status_code == 409 and "no game 99" in response.get_json()["error"]
    response = history_client.post(f"/api/history/{10**20}/delete", json={"pin": PIN})
    assert response.status_code == 409


def test_a_table_guarded_by_a_long_passphrase_can_still_delete_and_unlock(
    browser: Browser, history_table: Table
) -> None:
    """web.pin may be a passphrase of twelve characters or more, but the PIN fields took
    at most twelve: a longer one was cut as it was typed, so the History could never
    delete a game and the tablet could never be unlocked."""
    passphrase = "hamsters-at-the-cafe"
    with serving(make_app(history_table, passphrase), history_table) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}/history")
        expect(rows(page)).to_have_count(len(GAMES))
        game = rows(page).first.get_attribute("data-game")
        rows(page).first.get_by_role("button", name=f"Delete game {game}").click()
        page.fill("#delete-pin", passphrase)
        page.click("#delete-form button.primary")
        expect(rows(page)).to_have_count(len(GAMES) - 1)
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_load_state("domcontentloaded")
        page.click("#lock")
        page.fill("#pin", passphrase)
        page.click("#pin-form button.primary")
        expect(page.locator("#controls")).to_be_visible()
        page.close()
