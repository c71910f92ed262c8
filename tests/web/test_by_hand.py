"""The page says what a person can correct by hand, for every game (README promises
manual entry for everything; the list makes that promise checkable at the table)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.games import GAMES
from companion.store import Store
from companion.table import Table
from tests.web.conftest import PIN, unlock
from tests.web.serving import serving
from web import create_app

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("name", sorted(GAMES))
def test_fix_it_by_hand_lists_the_games_own_corrections(
    name: str, browser: Browser, tmp_path: Path
) -> None:
    spec = GAMES[name]
    players = ("Ann", "Bo", "Cy", "Di")[: max(spec.min_players, 3)]
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=players))
    table.new_game(GameHeader(name, spec.rules_default, players, 7))
    with serving(create_app(table, PIN, heartbeat_seconds=1.0), table) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        unlock(page)
        page.click("#by-hand-box summary")
        items = page.locator("#by-hand li")
        expect(items).to_have_count(2 + len(spec.by_hand))
        expect(items.first).to_contain_text("Undo")
        expect(page.locator("#by-hand li.game").first).to_have_text(spec.by_hand[0])
        page.close()
    store.close()
