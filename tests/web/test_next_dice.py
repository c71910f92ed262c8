"""Classic Run, Hamster, Run!: the Rest and Fatigue dice are the players' own. NEXT waits for
them (one picker per die beside it, labelled with whose die), refuses with one sentence when
they are missing, and takes them when set; the companion rolls only for a table that asked."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from playwright.sync_api import Browser, expect

from companion.config import GameDefaults
from companion.engine.events import NEXT, Event
from companion.engine.session import GameHeader
from companion.games import find_game
from companion.simulate import bot_of
from companion.store import Store
from companion.table import Table
from tests.web.conftest import PIN, unlock
from tests.web.serving import page_client, serve_table
from web.auth import TOKEN_HEADER

PLAYERS = ("Ann", "Bo", "Cy")


def _to_fatigue_dice(table: Table) -> None:
    """Let the bot play (dice included) until NEXT would enter Fatigue with dice due."""
    spec, rng = find_game("run-hamster-run"), random.Random(2)
    for _ in range(3000):
        state = table.public_state(with_log=False)
        if state["phase"] == "alligators" and state["next_dice"]:
            return
        snapshot = table.snapshot
        assert snapshot.state is not None and not state["over"]
        for event in bot_of(spec)(snapshot.state, rng):
            try:
                table.submit(event).result(5)
                break
            except Exception:
                continue
    raise AssertionError("never reached the fatigue dice")


@pytest.fixture
def classic(tmp_path: Path) -> Iterator[Table]:
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=PLAYERS))
    table.new_game(GameHeader("run-hamster-run", "classic", PLAYERS, 5))
    yield table
    table.close()
    store.close()


def test_next_waits_for_the_fatigue_dice_and_takes_them(classic: Table) -> None:
    _to_fatigue_dice(classic)
    client: FlaskClient = page_client(classic)
    token = client.post("/api/login", json={"pin": PIN}).get_json()["token"]
    due = classic.public_state(with_log=False)["next_dice"]
    assert all(label.endswith("'s fatigue die") for label in due)
    refused = client.post("/api/intent", json={"intent": "next"}, headers={TOKEN_HEADER: token})
    assert refused.status_code == 409
    assert "fatigue die: roll the dice" in refused.get_json()["error"]
    dice = [2] * len(due)  # even: each tires
    taken = client.post(
        "/api/intent", json={"intent": "next", "given": dice}, headers={TOKEN_HEADER: token}
    )
    assert taken.status_code == 200, taken.get_json()
    state = classic.public_state(with_log=False)
    assert state["phase"] == "fatigue"
    assert sum("tires" in n for n in state["view"]["notes"]) == len(due)


def test_a_table_that_asked_gets_them_rolled_and_logged(tmp_path: Path) -> None:
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=PLAYERS))
    table.new_game(GameHeader("run-hamster-run", "classic", PLAYERS, 5, {"roll_for_us": True}))
    try:
        spec, rng = find_game("run-hamster-run"), random.Random(2)
        for _ in range(3000):
            state = table.public_state(with_log=False)
            if state["phase"] == "fatigue" or state["over"]:
                break
            assert state["next_dice"] == []  # nothing to ask for: the companion rolls
            snapshot = table.snapshot
            assert snapshot.state is not None
            for event in bot_of(spec)(snapshot.state, rng):
                try:
                    table.submit(Event(NEXT) if event.kind == NEXT else event).result(5)
                    break
                except Exception:
                    continue
        log = table.public_state()["log"]
        rolled = [o for e in log for o in e.get("outcome", []) if "fatigue die" in o.get("why", "")]
        assert rolled and all(1 <= o["value"] <= 6 for o in rolled)
    finally:
        table.close()
        store.close()


@pytest.mark.browser
def test_the_page_shows_a_picker_per_die_beside_next(browser: Browser, classic: Table) -> None:
    _to_fatigue_dice(classic)
    due = classic.public_state(with_log=False)["next_dice"]
    with serve_table(classic) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        unlock(page)
        pickers = page.locator("#next-dice select")
        expect(pickers).to_have_count(len(due))
        page.click("#btn-next")  # left at "?": refused, naming the dice still unset
        expect(page.locator("#toast")).to_contain_text("fatigue die")
        expect(page.locator("#toast")).to_contain_text('still "?"')
        for index in range(len(due)):
            pickers.nth(index).select_option("3")  # odd: nobody tires
        page.click("#btn-next")
        expect(page.locator("#phases li.now")).to_have_text("7 Fatigue")
        expect(page.locator("#next-dice")).to_be_hidden()
