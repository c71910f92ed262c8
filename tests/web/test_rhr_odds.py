"""Run, Hamster, Run!'s odds on the page: a Mettle test while resolving, the alligators next.

A seeded bot plays until the situation arises (a hamster resolving next to another; the
belt just moved with a hamster in the Pit), then the page is opened at tablet size.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.games.run_hamster_run import bot
from companion.simulate import bot_turn
from companion.store import Store
from companion.table import Table
from tests.web.conftest import shots
from tests.web.serving import serve_table

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Bo", "Cy")
MOVES = 3000  # far more than the situations need; a game that never gets there fails


def _play_until(table: Table, wanted: Callable[[Any], bool]) -> None:
    rng = random.Random(4)
    for _ in range(MOVES):
        snapshot = table.snapshot
        assert snapshot.state is not None and not snapshot.state.ctx.over
        if wanted(snapshot.state):
            return
        bot_turn(bot.candidates, snapshot.state, rng, lambda e: table.submit(e).result(5))
    pytest.fail("the seeded game never reached the situation")


def _adjacent_at_resolve(state: Any) -> bool:
    me = state.ctx.current
    if state.ctx.phase != "resolve" or me is None or not state.G.hamsters[me].on_belt:
        return False
    mine = state.G.hamsters[me]
    return mine.traits[1] > 0 and any(
        h.on_belt and abs(h.row - mine.row) + abs(h.lane - mine.lane) == 1
        for seat, h in enumerate(state.G.hamsters)
        if seat != me
    )


def _pit_after_the_belt(state: Any) -> bool:
    return bool(state.ctx.phase == "belt" and state.G.in_pit())


@pytest.mark.parametrize("rules", ["classic", "v2.1"])
def test_the_page_shows_mettle_and_chomp_odds_where_the_table_decides(
    browser: Browser, tmp_path: Path, rules: str
) -> None:
    store = Store(tmp_path / "odds.sqlite3")
    table = Table(store, GameDefaults(players=NAMES))
    table.new_game(GameHeader("run-hamster-run", rules, NAMES, 11, options={"roll_for_us": True}))
    try:
        with serve_table(table) as port:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(f"http://127.0.0.1:{port}")
            _play_until(table, _adjacent_at_resolve)
            mettle = page.locator(".mettle-odds").first
            expect(mettle).to_contain_text("Mettle test vs")
            expect(mettle).to_contain_text("%")
            _play_until(table, _pit_after_the_belt)
            chomp = page.locator(".chomp-odds")
            expect(chomp).to_contain_text("Chomp!")
            expect(chomp).to_contain_text("eaten")
            page.locator("#pit").scroll_into_view_if_needed()
            page.screenshot(path=str(shots(tmp_path) / f"odds-rhr-{rules}.png"))
            page.click("#odds")  # a table that finds odds spoilers switches them off
            expect(chomp).to_be_hidden()
            page.close()
    finally:
        table.close()
        store.close()
