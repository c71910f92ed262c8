"""axe-core finds no accessibility violations of any impact on the page, for every game, at
tablet and phone sizes, watching and unlocked.

axe-core comes from the npm registry (``make test`` installs it into ``.cache/axe``); the
page's Content-Security-Policy forbids injected scripts, so the check runs in a browser
context that bypasses the CSP for the test only.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ViewportSize

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.games import GAMES
from companion.store import Store
from companion.table import Table
from tests.web.conftest import unlock
from tests.web.serving import serve_table
from tests.web.tables import new_table

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("AXE_JS", ROOT / ".cache/axe/node_modules/axe-core/axe.min.js"))
SIZES: tuple[ViewportSize, ...] = (
    {"width": 1280, "height": 800},
    {"width": 390, "height": 844},
)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_violations_of_any_impact(name: str, browser: Browser, tmp_path: Path) -> None:
    assert AXE.exists(), f"axe-core is missing at {AXE}: run `make test` (it installs it)"
    table = new_table(tmp_path, name)
    with serve_table(table) as port:
        for size in SIZES:
            context = browser.new_context(viewport=size, bypass_csp=True)
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{port}")
            page.wait_for_function("document.querySelectorAll('#phases li').length > 0")
            for unlocked in (False, True):
                if unlocked:
                    unlock(page)
                page.add_script_tag(path=str(AXE))
                found = page.evaluate(
                    "async () => (await axe.run()).violations.map("
                    "(v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target).join(', ')}`)"
                )
                assert found == [], (size, unlocked, found)
            context.close()
    table.store.close()


def test_text_and_targets_are_big_enough_across_the_table(browser: Browser, tmp_path: Path) -> None:
    """Secondary text at least 18 px on a tablet; every control at least 44 px tall;
    a Flip button turns the board for the players opposite."""
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=("Ann", "Bo", "Cy")))
    table.new_game(GameHeader("run-hamster-run", "v2.1", ("Ann", "Bo", "Cy"), 7))
    with serve_table(table) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        unlock(page)
        sizes = page.evaluate(
            """() => [...document.querySelectorAll('.phases li, .ham .meta, .counter .label')]
                 .map((e) => parseFloat(getComputedStyle(e).fontSize))"""
        )
        assert sizes and min(sizes) >= 18
        heights = page.evaluate(
            """() => [...document.querySelectorAll('button, select, summary')]
                 .filter((e) => e.offsetParent !== null)
                 .map((e) => e.getBoundingClientRect().height)"""
        )
        assert heights and min(heights) >= 44
        page.click("#flip")
        assert "flipped" in (page.get_attribute("body", "class") or "")
        page.close()
    table.store.close()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_players_phone_page_has_no_violations(
    name: str, browser: Browser, tmp_path: Path
) -> None:
    """The seat page a phone opens from its code, for every game (Rats draws its own panel;
    the others list the seat's moves)."""
    table = new_table(tmp_path, name)
    with serve_table(table) as port:
        tablet = browser.new_page()
        tablet.goto(f"http://127.0.0.1:{port}")
        unlock(tablet)
        tablet.click("#seats-box summary")
        address = tablet.locator(".seat-code a").first.get_attribute("href")
        assert address is not None
        context = browser.new_context(viewport=SIZES[1], bypass_csp=True)
        phone = context.new_page()
        phone.goto(address.replace("localhost", "127.0.0.1"))
        phone.wait_for_function("document.body.dataset.seq !== undefined")
        phone.add_script_tag(path=str(AXE))
        found = phone.evaluate(
            "async () => (await axe.run()).violations.map("
            "(v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target).join(', ')}`)"
        )
        assert found == [], found
        context.close()
    table.store.close()
