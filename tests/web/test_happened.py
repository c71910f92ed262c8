"""What just happened is in view: the outcome appears at the top of the page, and stays in a
short list under the prompt (it used to be only at the very bottom, far below the fold)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from companion.config import GameDefaults
from companion.engine.events import MOVE, Event
from companion.engine.session import GameHeader
from companion.games import find_game
from companion.simulate import bot_turn
from companion.store import Store
from companion.table import Table
from tests.web.conftest import PIN
from tests.web.serving import serving
from web import create_app

pytestmark = pytest.mark.browser


def test_a_roll_shows_at_the_top_and_stays_in_the_recent_list(
    browser: Browser, tmp_path: Path
) -> None:
    players = ("Ann", "Bo", "Cy")
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=players))
    table.new_game(GameHeader("hamsterdam", "classic", players, 3))
    spec, rng = find_game("hamsterdam"), random.Random(3)
    while True:  # the bot plays up to the first roll
        state = table.snapshot.state
        assert state is not None and spec.bot is not None
        if state.ctx.phase == "roll" and getattr(state.G, "dice", None) is None:
            break
        bot_turn(spec.bot, state, rng, lambda e: table.submit(e).result(timeout=10))
    with serving(create_app(table, PIN, heartbeat_seconds=1.0), table) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        expect(page.locator("#prompt")).to_contain_text("roll")
        roller = table.public_state()["current"]
        table.submit(Event(MOVE, name="roll", seat=roller, given=(3, 5))).result(timeout=10)
        banner = page.locator("#happened")
        expect(banner).to_contain_text("rolled 3+5 = 8")
        box = banner.bounding_box()
        assert box is not None and box["y"] < 300  # at the top, in view without scrolling
        expect(page.locator("#recent li").first).to_contain_text("rolled 3+5 = 8")
        page.close()
    store.close()
