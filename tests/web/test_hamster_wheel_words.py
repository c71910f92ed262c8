"""Hamster Wheel across the table: no "0 turns" on the wheel beside the Turns counter, no
"Round 1" pill in a game without rounds, and nobody outlined as the one to play once the
game is over (the loser used to stay outlined)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.games import find_game
from companion.simulate import bot_turn
from companion.store import Store
from companion.table import Table
from tests.web.serving import serve_table

pytestmark = pytest.mark.browser


def test_the_wheel_says_nothing_made_up_from_start_to_end(browser: Browser, tmp_path: Path) -> None:
    names = ("Ann", "Bo")
    table = Table(Store(tmp_path / "companion.sqlite3"), GameDefaults(players=names))
    table.new_game(GameHeader("hamster-wheel", "standard", names, 15))
    spec, rng = find_game("hamster-wheel"), random.Random(15)
    with serve_table(table) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        expect(page.locator(".hw-wheel")).to_be_visible()
        expect(page.locator(".hw-wheel")).not_to_contain_text("0 turns")
        expect(page.locator("#round")).to_be_hidden()
        while not table.public_state(with_log=False)["over"]:
            state = table.snapshot.state
            assert state is not None and spec.bot is not None
            bot_turn(spec.bot, state, rng, lambda e: table.submit(e).result(timeout=10))
        seq = table.public_state(with_log=False)["seq"]
        expect(page.locator("body")).to_have_attribute("data-seq", str(seq))
        expect(page.locator(".hw-hand.current")).to_have_count(0)
        page.close()
