"""What a player notices on a phone and a 1024-wide tablet, in a real headless Chromium:
targets big enough to tap, text laid out to be read."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from companion.config import GameDefaults
from companion.engine.events import MOVE, NEXT, Event
from companion.engine.session import GameHeader
from companion.games import GAMES
from companion.store import Store
from companion.table import Table
from tests.web.conftest import unlock
from tests.web.serving import serve_table
from tests.web.tables import hamsterdam_in_movement, new_table

pytestmark = pytest.mark.browser
PHONE: ViewportSize = {"width": 390, "height": 844}
# Every visible control shorter than 44 px (a finger's width), as "tag 'text' height".
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'button, select, input:not([type=checkbox]), summary')]
  .filter((e) => e.checkVisibility())
  .map((e) => [e, e.getBoundingClientRect().height])
  .filter(([, h]) => h > 0 && h < 43.5)
  .map(([e, h]) => `${e.tagName} '${(e.textContent || e.value || '').trim().slice(0, 20)}' ${h}`)"""


@pytest.fixture
def page_server(table: Table) -> Iterator[str]:
    with serve_table(table) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_control_is_big_enough_to_tap_on_a_phone(
    name: str, browser: Browser, tmp_path: Path
) -> None:
    """The unlocked tablet page and a seat's phone page at phone size: no control under
    44 px (Rats' rat forms and a phone's move buttons were 41 px where the root font is 15 px)."""
    table = new_table(tmp_path, name)
    with serve_table(table) as port:
        page = browser.new_page(viewport=PHONE)
        page.goto(f"http://127.0.0.1:{port}")
        unlock(page)
        expect(page.locator("#phases li").first).to_be_attached()
        assert page.evaluate(SMALL_TARGETS) == []
        page.click("#seats-box summary")
        address = page.locator(".seat-code a").first.get_attribute("href")
        assert address is not None
        phone = browser.new_page(viewport=PHONE)
        phone.goto(address.replace("localhost", "127.0.0.1"))
        expect(phone.locator("body[data-seq]")).to_have_count(1)
        assert phone.evaluate(SMALL_TARGETS) == []
        phone.close()
        page.close()
    table.store.close()


def test_speak_odds_and_flip_show_whether_they_are_on(page_server: str, browser: Browser) -> None:
    """The header's toggles look different on and off (they looked the same: a tap on
    Speak changed nothing a player could see)."""
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    page.goto(page_server)
    look = "(e) => getComputedStyle(e).boxShadow + ' ' + getComputedStyle(e).backgroundColor"
    expect(page.locator("#speak")).to_have_attribute("aria-pressed", "false")
    off = page.eval_on_selector("#speak", look)
    assert page.eval_on_selector("#flip", look) == off
    page.click("#speak")
    page.click("#flip")
    expect(page.locator("#speak")).to_have_attribute("aria-pressed", "true")
    assert page.eval_on_selector("#speak", look) != off
    assert page.eval_on_selector("#flip", look) != off
    assert page.eval_on_selector("#odds", look) != off  # odds are shown by default
    page.click("#odds")
    expect(page.locator("#odds")).to_have_attribute("aria-pressed", "false")
    assert page.eval_on_selector("#odds", look) == off
    page.close()


def test_a_counters_sentence_reads_as_a_sentence(browser: Browser, tmp_path: Path) -> None:
    """Hamsterdam's counters say 'water in piles: 0 of 20 ends the game' without the wide
    letter spacing of Run, Hamster, Run!'s speed marks; with nobody's turn, the moves'
    heading starts with a capital ('what happened on the table?' did not)."""
    players = ("Ann", "Bo", "Cy")
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=players, every_stop=True))
    table.new_game(GameHeader("hamsterdam", "full", players, 7))
    with serve_table(table) as port:
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        page.goto(f"http://127.0.0.1:{port}")
        unlock(page)
        expect(page.locator("#speed-chips")).to_contain_text("ends the game")
        spacing = page.eval_on_selector("#speed-chips", "(e) => getComputedStyle(e).letterSpacing")
        assert spacing in ("normal", "0px"), spacing
        expect(page.locator("#choices h2")).to_have_text("What happened on the table?")
        page.close()
    table.store.close()


def test_the_round_stays_on_one_line_on_a_phone(browser: Browser, tmp_path: Path) -> None:
    """'Round 1' in a phone's header (it broke into 'Round' over '1' beside the buttons).
    Played in Run, Hamster, Run!: Hamster Wheel, with turns but no rounds, shows no pill."""
    players = ("Ann", "Bo", "Cy")
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=players, every_stop=True))
    table.new_game(GameHeader("run-hamster-run", "v2.1", players, 7, given=([0, 1, 2],)))
    for seat in range(3):
        table.submit(
            Event(
                MOVE,
                name="place",
                seat=table.public_state(with_log=False)["current"],
                args={"to": [1, seat + 1]},
            )
        ).result(5)
    table.submit(Event(NEXT)).result(5)
    with serve_table(table) as port:
        page = browser.new_page(viewport=PHONE)
        page.goto(f"http://127.0.0.1:{port}")
        unlock(page)
        expect(page.locator("#round")).to_have_text("Round 1")
        lines = page.eval_on_selector(
            "#round",
            "(e) => { const r = document.createRange(); r.selectNodeContents(e);"
            " return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size; }",
        )
        assert lines == 1
        overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0
        page.close()
    table.store.close()


# Every part of a dam card drawn beyond its card, and every card beyond its dam (a row that
# slides: the row beyond its dam).
SPILLS = """() => {
  const bad = [];
  for (const card of document.querySelectorAll(".dam-card")) {
    const c = card.getBoundingClientRect();
    for (const part of card.children) {
      const r = part.getBoundingClientRect();
      if (r.width && (r.left < c.left - 0.5 || r.right > c.right + 0.5)) bad.push(part.textContent);
    }
  }
  for (const row of document.querySelectorAll(".dam-cards")) {
    const dam = row.closest(".dam").getBoundingClientRect();
    // A phone's row slides inside its dam: the row stays within the dam, its cards may
    // lie past the row's edge (out of sight until slid), never over the next dam.
    const slides = getComputedStyle(row).overflowX !== "visible";
    for (const card of slides ? [row] : row.children) {
      if (card.getBoundingClientRect().right > dam.right + 0.5) bad.push(card.textContent);
    }
  }
  return bad;
}"""


def test_hamsterdams_dam_cards_hold_what_they_show(browser: Browser, tmp_path: Path) -> None:
    """Four dams at 1024x768 and on a phone: a special's name and a card's dots stay on their
    card (at 1024 'Contractster' ran under the next card, on a phone most names did)."""
    table = hamsterdam_in_movement(tmp_path / "companion.sqlite3", ("Ann", "Bo", "Cy", "Di"))
    with serve_table(table) as port:
        tablet: ViewportSize = {"width": 1024, "height": 768}
        for size in (tablet, PHONE):
            page = browser.new_page(viewport=size)
            page.goto(f"http://127.0.0.1:{port}")
            expect(page.locator(".dam")).to_have_count(4)
            assert page.locator(".dam-card .special").count() >= 3
            assert page.evaluate(SPILLS) == [], size
            page.close()
    table.store.close()
