"""The page writes a chance it gets raw (a HAT test's odds) as the companion does: the
tablet, the phones and the terminal say 0.3 %, 0.06 % and 99.7 % alike."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from companion.engine.percent import percent_text
from companion.table import Table
from tests.web.serving import serve_table

CHANCES = [
    0,
    1e-6,
    0.0025,
    0.125,
    0.0006,
    0.0034,
    0.00995,
    0.01,
    0.25,
    0.5,
    0.985,
    0.99,
    0.9934,
    0.9994,
    1 - 1e-15,  # closer to 1 than a percent float can say: the closest written, never 100
    1e-9,  # 1e-7 % in the browser's own writing: one decimal figure, as the terminal
    1e-300,
    1,
]


@pytest.mark.browser
def test_the_page_and_the_terminal_write_a_chance_alike(browser: Browser, table: Table) -> None:
    with serve_table(table) as port:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(f"http://127.0.0.1:{port}")
        page.wait_for_load_state("domcontentloaded")
        shown = page.evaluate("(chances) => chances.map(percentText)", CHANCES)
        assert shown == [percent_text(c) for c in CHANCES]
        page.close()
