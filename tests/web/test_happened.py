"""What just happened is in view: the outcome appears at the top of the page, and stays in a
short list under the prompt (it used to be only at the very bottom, far below the fold)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser, FloatRect, ViewportSize, expect

from companion.config import GameDefaults
from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, Event
from companion.engine.flow import step
from companion.engine.session import GameHeader
from companion.games import find_game
from companion.simulate import bot_turn
from companion.store import Store
from companion.table import Table
from tests.web.serving import serve_table

pytestmark = pytest.mark.browser


def hamsterdam_at_first_roll(store: Store) -> Table:
    """A classic Hamsterdam table the bot has played up to its first roll."""
    players = ("Ann", "Bo", "Cy")
    table = Table(store, GameDefaults(players=players))
    table.new_game(GameHeader("hamsterdam", "classic", players, 3))
    spec, rng = find_game("hamsterdam"), random.Random(3)
    while True:
        state = table.snapshot.state
        assert state is not None and spec.bot is not None
        if state.ctx.phase == "roll" and getattr(state.G, "dice", None) is None:
            return table
        bot_turn(spec.bot, state, rng, lambda e: table.submit(e).result(timeout=10))


def test_a_roll_shows_at_the_top_and_stays_in_the_recent_list(
    browser: Browser, tmp_path: Path
) -> None:
    store = Store(tmp_path / "companion.sqlite3")
    table = hamsterdam_at_first_roll(store)
    with serve_table(table) as port:
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


def _in_view(box: FloatRect | None, viewport: ViewportSize) -> bool:
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= viewport["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= viewport["width"]
    )


def test_the_outcome_is_in_view_wherever_the_page_was_scrolled(
    browser: Browser, tmp_path: Path
) -> None:
    """A phone scrolled down to its buttons still sees what the tap did (it used to appear
    at the top of the page only, above the screen)."""
    store = Store(tmp_path / "companion.sqlite3")
    table = hamsterdam_at_first_roll(store)
    phone: ViewportSize = {"width": 390, "height": 844}
    with serve_table(table) as port:
        page = browser.new_page(viewport=phone)
        page.goto(f"http://127.0.0.1:{port}")
        expect(page.locator("#prompt")).to_contain_text("roll")
        page.locator("#log-box").scroll_into_view_if_needed()  # the very bottom of the page
        assert not _in_view(page.locator("#prompt").bounding_box(), phone)
        roller = table.public_state()["current"]
        table.submit(Event(MOVE, name="roll", seat=roller, given=(3, 5))).result(timeout=10)
        banner = page.locator("#happened")
        expect(banner).to_contain_text("rolled 3+5 = 8")
        assert _in_view(banner.bounding_box(), phone)
        page.close()
    store.close()


def test_the_result_is_in_view_when_the_last_action_ends_the_game(
    browser: Browser, tmp_path: Path
) -> None:
    """The last tap of a game is usually far down the page: the result shows where it is."""
    players = ("Ann", "Bo")
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=players))
    table.new_game(GameHeader("hamster-wheel", "standard", players, 15))
    spec, rng = find_game("hamster-wheel"), random.Random(15)
    last = None
    while last is None:  # the bot plays up to the action that ends the game
        state = table.snapshot.state
        assert state is not None and spec.bot is not None
        for event in spec.bot(state, rng):
            try:
                after, _ = step(spec, state, event, record=False)
            except IllegalMoveError:
                continue
            if after.ctx.over:
                last = event
            else:
                table.submit(event).result(timeout=10)
            break
    tablet: ViewportSize = {"width": 1280, "height": 800}
    with serve_table(table) as port:
        page = browser.new_page(viewport=tablet)
        page.goto(f"http://127.0.0.1:{port}")
        expect(page.locator("#prompt")).not_to_have_text("Connecting…")
        page.locator("#log-box").scroll_into_view_if_needed()
        table.submit(last).result(timeout=10)
        result = table.public_state(with_log=False)["result"]
        assert result
        banner = page.locator("#happened")
        expect(banner).to_contain_text(result)
        assert _in_view(banner.bounding_box(), tablet)
        page.close()
    store.close()


def test_the_banner_says_only_what_the_latest_change_did(browser: Browser, tmp_path: Path) -> None:
    """Run, Hamster, Run!: "Initiative, highest first" came down only after eight seconds,
    standing over the hamsters' declarations; a change of action had no banner at all."""
    players = ("Ann", "Bo", "Cy")
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=players))
    table.new_game(GameHeader("run-hamster-run", "v2.1", players, 4))
    spec, rng = find_game("run-hamster-run"), random.Random(4)

    def play_until(phase: str) -> None:
        while table.public_state(with_log=False)["phase"] != phase:
            state = table.snapshot.state
            assert state is not None and spec.bot is not None
            bot_turn(spec.bot, state, rng, lambda e: table.submit(e).result(timeout=10))

    play_until("allocate")
    with serve_table(table) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        expect(page.locator("#prompt")).not_to_have_text("Connecting…")
        banner = page.locator("#happened")
        play_until("initiative")
        expect(banner).to_contain_text("Initiative, highest first")
        play_until("declare")
        expect(page.locator("#phases li.now")).to_contain_text("Declare")
        expect(banner).to_be_hidden()  # at once, not eight seconds later
        play_until("resolve")
        change = next(c for c in table.public_state()["legal"] if c["name"] == "change")
        table.submit(Event(MOVE, name="change", seat=change["seat"], args=change["args"])).result(
            timeout=10
        )
        expect(banner).to_contain_text(f"{players[change['seat']]} changes from")
        page.close()
    store.close()
