"""Fewer taps: a step where nobody has a decision (Hamsterdam: no after-roll special held, no
breach, passing the dice) passes on its own once the outcome has been on screen a moment;
a table set to keep every stop ("Auto" off, a setting of the table, not of one tablet)
waits for NEXT there on every tablet."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.games import find_game
from companion.simulate import bot_turn
from companion.store import Store
from companion.table import Table
from tests.web.conftest import unlock
from tests.web.serving import serve_table

START = datetime(2026, 1, 1)


@pytest.fixture
def idle(tmp_path: Path) -> Iterator[Table]:
    """Classic Hamsterdam played by its bot up to a step nobody decides anything in."""
    names = ("Ann", "Bo", "Cy")
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=names))
    table.new_game(GameHeader("hamsterdam", "classic", names, 3))
    spec, rng = find_game("hamsterdam"), random.Random(3)
    assert spec.bot is not None
    while not table.public_state(with_log=False)["passes"]:
        state = table.snapshot.state
        assert state is not None
        bot_turn(spec.bot, state, rng, lambda e: table.submit(e).result(timeout=10))
    yield table
    table.close()
    store.close()


def test_only_a_step_with_nothing_to_decide_passes(idle: Table) -> None:
    state = idle.public_state(with_log=False)
    assert state["phase"] in ("round", "roll", "flood", "breach", "dice")
    assert state["legal"] == [] and state["next_dice"] == []


@pytest.mark.browser
def test_the_tablet_passes_it_after_a_moment(browser: Browser, idle: Table) -> None:
    seq = idle.public_state(with_log=False)["seq"]
    with serve_table(idle) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        unlock(page)
        expect(page.locator("body")).not_to_have_attribute("data-seq", str(seq), timeout=10_000)
        log = idle.public_state()["log"]
        assert log[-1]["kind"] == "next" and log[-1]["seq"] == seq + 1
        page.close()


@pytest.mark.browser
def test_a_table_that_keeps_every_stop_waits_for_next(browser: Browser, idle: Table) -> None:
    seq = idle.public_state(with_log=False)["seq"]
    idle.keep_every_stop(True).result(timeout=10)
    with serve_table(idle) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        unlock(page)
        expect(page.locator("#auto")).to_have_attribute("aria-pressed", "false")
        page.wait_for_timeout(4500)  # longer than the moment a step is shown
        assert idle.public_state(with_log=False)["seq"] == seq
        page.click("#btn-next")
        expect(page.locator("body")).to_have_attribute("data-seq", str(seq + 1))
        page.close()


@pytest.mark.browser
def test_auto_off_on_one_tablet_holds_on_every_tablet(browser: Browser, idle: Table) -> None:
    """Switched off on one tablet, a step waits for NEXT on another that had not heard yet
    (the companion refuses its automatic NEXT, and it reads the table's choice), on a page
    opened later, and after the companion restarts (the choice is kept in the games file)."""
    seq = idle.public_state(with_log=False)["seq"]
    with serve_table(idle) as port:
        pages = []
        for _ in range(2):
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            # the pages' timers run only when the test says
            page.clock.install(time=START)
            page.clock.pause_at(START + timedelta(seconds=1))
            page.goto(f"http://127.0.0.1:{port}")
            unlock(page)
            expect(page.locator("#auto")).to_have_attribute("aria-pressed", "true")
            pages.append(page)
        first, second = pages
        first.click("#auto")
        expect(first.locator("#auto")).to_have_attribute("aria-pressed", "false")
        assert idle.snapshot.every_stop
        second.clock.run_for(4500)  # its moment is up: it tries to pass the step
        expect(second.locator("#auto")).to_have_attribute("aria-pressed", "false")
        first.clock.run_for(4500)
        later = browser.new_page(viewport={"width": 390, "height": 844})
        later.goto(f"http://127.0.0.1:{port}")
        unlock(later)
        expect(later.locator("#auto")).to_have_attribute("aria-pressed", "false")
        assert idle.public_state(with_log=False)["seq"] == seq
        for page in (*pages, later):
            page.close()
    again = Table(idle.store, GameDefaults(), resume=False)
    assert again.snapshot.every_stop
    again.close()


def test_a_config_sets_the_tables_choice_until_the_page_changes_it(tmp_path: Path) -> None:
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(every_stop=True), resume=False)
    assert table.snapshot.every_stop
    table.keep_every_stop(False).result(timeout=10)
    table.close()
    table = Table(store, GameDefaults(every_stop=True), resume=False)
    assert not table.snapshot.every_stop  # the table's own choice, over the config's default
    table.close()
    store.close()
