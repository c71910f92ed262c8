"""The page says what a person can correct by hand, for every game (README promises
manual entry for everything; the list makes that promise checkable at the table)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from companion.games import GAMES
from tests.web.conftest import unlock
from tests.web.serving import serve_table
from tests.web.tables import new_table

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("name", sorted(GAMES))
def test_fix_it_by_hand_lists_the_games_own_corrections(
    name: str, browser: Browser, tmp_path: Path
) -> None:
    spec = GAMES[name]
    table = new_table(tmp_path, name)
    with serve_table(table) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        unlock(page)
        page.click("#by-hand-box summary")
        items = page.locator("#by-hand li")
        expect(items).to_have_count(2 + len(spec.presentation.by_hand))
        expect(items.first).to_contain_text("Undo")
        expect(page.locator("#by-hand li.game").first).to_have_text(spec.presentation.by_hand[0])
        page.close()
    table.store.close()
