"""A player's phone in Run, Hamster, Run!, in a real headless Chromium: where its hamster is."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.games.run_hamster_run import bot
from companion.simulate import bot_turn
from companion.store import Store
from companion.table import Table
from tests.web.conftest import PIN, browser  # noqa: F401 (the module's browser fixture)
from tests.web.serving import serving
from web import create_app
from web.auth import TOKEN_HEADER

pytestmark = pytest.mark.browser
NAMES = ("Ann", "Bo", "Cy")


def test_the_phone_of_a_hamster_in_the_pit_says_so(
    browser: Browser,  # noqa: F811
    tmp_path: Path,
) -> None:
    # It said "Ann: row 0", the Pit's row number, which no player reads as the Pit.
    store = Store(tmp_path / "phone.sqlite3")
    table = Table(store, GameDefaults(players=NAMES))
    table.new_game(GameHeader("run-hamster-run", "v2.1", NAMES, 11, options={"roll_for_us": True}))
    app = create_app(table, PIN, heartbeat_seconds=1.0)
    client = app.test_client()
    token = client.post("/api/login", json={"pin": PIN}).get_json()["token"]
    seats = client.get("/api/seats", headers={TOKEN_HEADER: token}).get_json()["seats"]
    rng = random.Random(4)
    try:
        with serving(app, table) as port:
            for _ in range(3000):
                state = table.snapshot.state
                assert state is not None and not state.ctx.over
                pit = [s for s in state.G.in_pit() if not state.G.hamsters[s].eaten]
                if state.ctx.phase == "belt" and pit:
                    break
                bot_turn(bot.candidates, state, rng, lambda e: table.submit(e).result(5))
            else:
                pytest.fail("the seeded game never put a hamster in the Pit")
            seat = pit[0]
            page = browser.new_page(viewport={"width": 400, "height": 800})
            page.goto(f"http://127.0.0.1:{port}/seat/{seats[seat]['code']}")
            status = page.locator("#mine p").first
            expect(status).to_have_text(f"{NAMES[seat]}: in the Pit")
            page.close()
    finally:
        table.close()
        store.close()
