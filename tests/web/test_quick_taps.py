"""Taps are never lost: faces tapped quickly, 100 ms apart, all reach the companion in the
order they were tapped, on the tablet and on a player's phone. Rats' face taps 300 ms apart
used to be lost (one die never registered and the following values slid one die along)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask, request
from playwright.sync_api import Browser, Locator, Page, expect

from companion.config import GameDefaults
from companion.engine.events import MOVE, NEXT, Event
from companion.engine.session import GameHeader
from companion.store import Store
from companion.table import Table
from tests.web.conftest import PIN, unlock
from tests.web.serving import serving
from web import create_app

pytestmark = pytest.mark.browser
RATS = ("Ann", "Bob", "Cat", "Dan")
GAP_MS = 100
REPLY_SECONDS = 0.4


@pytest.fixture
def challenge(tmp_path: Path) -> Iterator[Table]:
    """Four rats in a tunnel challenge, every die still to be rolled."""
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=RATS))
    table.new_game(GameHeader("rats", "standard", RATS, 5))
    for seat, name in enumerate(RATS):
        table.submit(Event(MOVE, name="create", seat=seat, args={"name": name, "bonus": [8, 10]}))
    table.submit(Event(NEXT)).result(5)
    current = table.public_state(with_log=False)["current"]
    table.submit(Event(MOVE, name="play", seat=current, args={"card": "5c"})).result(5)
    yield table
    table.close()
    store.close()


def _slow_app(table: Table) -> Flask:
    """The app as a busy Pi over Wi-Fi answers a move: 400 ms later (taps come faster)."""
    # Own set-up: a before_request hook on the app slows every move like a busy Pi.
    app = create_app(table, PIN, heartbeat_seconds=1.0)

    @app.before_request
    def _busy() -> None:
        if request.path == "/api/move":
            time.sleep(REPLY_SECONDS)

    return app


def _rolled(table: Table) -> list[list[tuple[int, int | None]]]:
    """Each rat's dice in the challenge as (size, face), in their slots."""
    rolls = table.public_state(with_log=False)["view"]["challenge"]["rolls"]
    return [[(d["size"], d["face"]) for d in roll["dice"]] if roll else [] for roll in rolls]


def _tap_quickly(page: Page, rows: Locator, seat_of: str, taps: int) -> list[tuple[int, int, int]]:
    """Tap ``taps`` faces GAP_MS apart, each on the first die not yet entered; returns
    (seat, size, face) in tap order."""
    tapped = []
    for index in range(taps):
        row = rows.first
        seat = int(row.evaluate(seat_of))
        size = int(str(row.get_attribute("aria-label")).removeprefix("d"))
        face = index % 4 + 1  # every die (a d4 the least) has it
        row.locator("button.face", has_text=str(face)).first.click()
        tapped.append((seat, size, face))
        page.wait_for_timeout(GAP_MS)
    return tapped


def _entered_in_order(table: Table, tapped: list[tuple[int, int, int]]) -> None:
    """Every tap reached the companion: each rat's dice of a size show the faces tapped for
    them, in the order tapped (a lost tap leaves a die empty and slides the rest along)."""
    for _ in range(300):  # wait for the queue to drain (not a timing assert)
        if sum(f is not None for dice in _rolled(table) for _, f in dice) >= len(tapped):
            break
        time.sleep(0.1)
    rolled = _rolled(table)
    for seat, dice in enumerate(rolled):
        for size in {s for s, _ in dice}:
            entered = [f for s, f in dice if s == size and f is not None]
            assert entered == [f for t, z, f in tapped if t == seat and z == size], (seat, size)
    assert sum(f is not None for dice in rolled for _, f in dice) == len(tapped)


def test_ten_faces_tapped_100_ms_apart_on_the_tablet_all_arrive(
    browser: Browser, challenge: Table
) -> None:
    with serving(_slow_app(challenge), challenge) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        unlock(page)
        rows = page.locator("#allocate .rat-entry:not(.entered)")
        expect(rows.first).to_be_visible()
        names = list(RATS)  # each rat is named after its player: the panel's heading
        seat_of = (
            f"(row) => {names}.indexOf(row.closest('details').querySelector('summary').textContent)"
        )
        tapped = _tap_quickly(page, rows, seat_of, 10)
        _entered_in_order(challenge, tapped)
        page.close()


def test_a_phone_tapping_every_die_100_ms_apart_gets_them_all(
    browser: Browser, challenge: Table
) -> None:
    with serving(_slow_app(challenge), challenge) as port:
        base = f"http://127.0.0.1:{port}"
        tablet = browser.new_page(viewport={"width": 1280, "height": 800})
        tablet.goto(base)
        unlock(tablet)
        token = tablet.evaluate("sessionStorage.getItem('tableToken')")
        seats = tablet.request.get(f"{base}/api/seats", headers={"X-Table-Token": token}).json()
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.goto(seats["seats"][1]["url"].replace("localhost", "127.0.0.1"))
        rows = phone.locator("#mine .rat-entry:not(.entered)")
        expect(rows.first).to_be_visible()
        dice = rows.count()
        tapped = _tap_quickly(phone, rows, "() => 1", dice)  # seat 1: Bob
        _entered_in_order(challenge, tapped)
        phone.close()
        tablet.close()
