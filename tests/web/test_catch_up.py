"""A tablet page whose stream died without a word while the game went on, in headless
Chromium against the real server: when it opens the stream again it shows what a page
opened afresh shows (the state and the whole log, undone moves struck through), drawn once."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.engine.events import MOVE, Event
from companion.engine.session import GameHeader
from companion.table import Table
from tests.web.serving import serve_table

# What a player sees of the log and the state, as (text, struck through) and plain text.
SEEN = """() => ({
  log: [...document.querySelectorAll("#log li")].map((li) => [li.textContent, li.className]),
  prompt: document.getElementById("prompt").textContent,
  round: document.getElementById("round").textContent,
  title: document.getElementById("game-title").textContent,
  belt: document.getElementById("belt").innerHTML,
})"""


def seen(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(SEEN))


def cut_off(page: Page, seq: int) -> None:
    """The page shows change ``seq`` with its stream open; then the stream dies silently
    (the Wi-Fi dropped: no error, no end, nothing more arrives)."""
    expect(page.locator("body")).to_have_attribute("data-seq", str(seq))
    expect(page.locator("#live.on")).to_have_count(1)
    page.evaluate("() => source.close()")
    # Each drawing of the page replaces the log's list once: count them from here on.
    page.evaluate("""() => {
      window.drawn = 0;
      new MutationObserver((changes) => { window.drawn += changes.length; })
        .observe(document.getElementById("log"), { childList: true });
    }""")


@pytest.mark.browser
def test_a_page_that_missed_many_changes_shows_the_table_as_it_is(
    browser: Browser, table: Table
) -> None:
    table.submit(Event(MOVE, name="place", seat=0, args={"to": [1, 1]})).result(timeout=10)
    with serve_table(table) as port:
        server = f"http://127.0.0.1:{port}"
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.clock.install()
        page.goto(server + "/")
        cut_off(page, 1)
        # Fifty changes it misses: more hamsters placed, moves undone and done again.
        for seat, square in enumerate([[1, 2], [1, 3], [1, 4]], start=1):
            table.submit(Event(MOVE, name="place", seat=seat, args={"to": square}))
        for index in range(46):
            table.submit("redo" if index % 2 else "undo")
        assert table.submit("undo").result(timeout=10).seq == 51
        # The page notices its silent stream (no ping for 25 s) and opens it again.
        page.clock.fast_forward(30_000)
        expect(page.locator("body")).to_have_attribute("data-seq", "51")
        caught_up = seen(page)
        drawn = page.evaluate("() => window.drawn")
        fresh = browser.new_page(viewport={"width": 1280, "height": 900})
        fresh.goto(server + "/")
        expect(fresh.locator("body")).to_have_attribute("data-seq", "51")
        assert caught_up == seen(fresh)
        log = caught_up["log"]
        assert len(log) == 51 and log[0][0] == "Undo #4" and log[-1][0] == "Alice place: to [1,1]"
        struck = [text for text, style in log if style == "undone"]
        assert struck == ["Dave place: to [1,4]"]  # undone at last, struck through
        assert drawn == 1  # the fifty entries, then one drawing with the table as it is
        page.close()
        fresh.close()


@pytest.mark.browser
def test_a_page_left_on_the_last_game_at_the_same_change_shows_the_new_one(
    browser: Browser, table: Table
) -> None:
    """The page was on game 1 at change 2 when its stream died; the table started a new
    game and reached change 2 there too. It showed game 1 until the next change."""
    for seat, square in enumerate([[1, 1], [1, 2]]):
        table.submit(Event(MOVE, name="place", seat=seat, args={"to": square})).result(10)
    with serve_table(table) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.clock.install()
        page.goto(f"http://127.0.0.1:{port}/")
        cut_off(page, 2)
        expect(page.locator("#log li").first).to_have_text("Bob place: to [1,2]")
        others = ("Eve", "Finn", "Gus")
        table.new_game(GameHeader("run-hamster-run", "v2.1", others, 7, given=([0, 1, 2],)))
        for seat, square in enumerate([[3, 1], [3, 2]]):
            table.submit(Event(MOVE, name="place", seat=seat, args={"to": square})).result(10)
        page.clock.fast_forward(30_000)
        expect(page.locator("#log li")).to_have_text(
            ["Finn place: to [3,2]", "Eve place: to [3,1]"]
        )
        expect(page.locator("body")).to_have_attribute("data-seq", "2")
        page.close()


@pytest.mark.browser
def test_a_change_the_tablets_own_reply_overtook_still_joins_the_log(
    browser: Browser, table: Table
) -> None:
    """Another device's move lands a moment before this tablet's tap: the tap's reply
    (change N) can reach the page before the stream's entry for change N-1. That entry
    was dropped from the log for good; it now joins it in its place, and the board keeps
    showing change N (not the older state that came with the entry)."""
    for seat, square in enumerate([[1, 1], [1, 2], [1, 3]]):
        table.submit(Event(MOVE, name="place", seat=seat, args={"to": square})).result(10)
    with serve_table(table) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        expect(page.locator("#live.on")).to_have_count(1)
        seqs = page.evaluate("() => log.map((e) => e.seq)")
        prompt = page.locator("#prompt").text_content()
        page.evaluate("""() => {
          const missed = log.splice(log.length - 2, 1)[0];  // the reply came first
          const older = Object.assign({}, state, { seq: missed.seq, prompt: "OLDER" });
          delete older.log;  // a stream's state carries no log
          applyState(older, missed);
        }""")
        assert page.evaluate("() => log.map((e) => e.seq)") == seqs
        expect(page.locator("#prompt")).to_have_text(str(prompt))
        page.close()
