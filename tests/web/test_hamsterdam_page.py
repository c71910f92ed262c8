"""A whole game of Hamsterdam, each variant, played in a real headless Chromium.

Only the page is used: the PIN dialog, the legal-move buttons the engine offers, the dice
pickers and NEXT. A seeded random player chooses which button to tap, so every run plays
the same game; the table runs on a temporary SQLite store behind a real hypercorn server,
shut down the careful way of ``test_browser.py``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.games.hamsterdam import bot, breach
from companion.simulate import bot_turn
from companion.store import Store
from companion.table import Table
from tests.web.conftest import shots, unlock
from tests.web.serving import serve_table
from tests.web.tables import hamsterdam_in_movement

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Bo", "Cy")
SEEDS = {"full": 5, "classic": 8}
TAPS = 1500  # far more than a game needs; a stuck page fails instead of hanging


@pytest.fixture(params=["full", "classic"])
def table(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Table]:
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=PLAYERS, every_stop=True))
    variant = str(request.param)
    table.new_game(GameHeader("hamsterdam", variant, PLAYERS, SEEDS[variant]))
    yield table
    table.close()
    store.close()


@pytest.fixture
def server(table: Table) -> Iterator[str]:
    with serve_table(table) as port:
        yield f"http://127.0.0.1:{port}"


# What the player looks at before each tap, read in one round trip to the page.
LOOK = """() => ({
  over: document.getElementById("btn-next").disabled,
  log: document.querySelectorAll("#log li").length,
  buttons: [...document.querySelectorAll("#choices > .choice-group > button")]
    .map((b) => b.textContent),
  forms: document.querySelectorAll("#choices form.dice-entry").length,
  wet: document.querySelectorAll(".dam-card.wet").length,
})"""


def tap(page: Page, seen: dict[str, Any], rng: random.Random) -> str:
    """Tap one button a player might; return what was tapped (for the failure message).

    Steps that block NEXT (set-up, Physicster's keep) are always answered with a button;
    a form with dice pickers (the roll, Physicster, Whack-a-Mole) is always filled in and
    sent; otherwise a button is tapped now and then, and NEXT does the plain thing.
    """
    labels: list[str] = seen["buttons"]

    def pick(*parts: str) -> int | None:
        found = [i for i, label in enumerate(labels) if any(p in label for p in parts)]
        return rng.choice(found) if found else None

    if seen["forms"]:
        form = page.locator("#choices form.dice-entry").nth(rng.randrange(seen["forms"]))
        for die in range(2):
            form.locator("select.die").nth(die).select_option(str(rng.randint(1, 6)))
        label = form.locator("button").inner_text()
        form.locator("button").click()
        return label
    choice = pick("won the roll-off", ": pass ", ": keep ")  # keep a special, or a roll
    if choice is None and rng.random() < 0.3:
        choice = pick(" in the dam", " on ")  # one card or hamster at a time, now and then
    if choice is None:
        choice = pick("the rest in order", "spread the rest")
    if choice is None and labels and rng.random() < 0.3:
        choice = rng.randrange(len(labels))
    if choice is None:
        page.click("#btn-next")
        return "NEXT"
    page.locator("#choices > .choice-group > button").nth(choice).click()
    return labels[choice]


def shown(page: Page, entries: int, what: str) -> None:
    """Wait until the log shows ``entries`` events; if it never does, say why (the toast)."""
    try:
        page.wait_for_function(
            "n => document.querySelectorAll('#log li').length === n", arg=entries, timeout=5000
        )
    except PlaywrightTimeout:
        toast = page.locator("#toast").inner_text()
        raise AssertionError(f"{what} changed nothing on the page ({toast!r})") from None


def play_to_the_end(page: Page, seed: int, screenshot: Path | None) -> int:
    """Tap until the page says the game is over; return the number of taps."""
    rng = random.Random(seed)
    for taps in range(TAPS):
        seen: dict[str, Any] = page.evaluate(LOOK)
        if seen["over"]:
            return taps
        if screenshot and seen["wet"] >= 2 and len(seen["buttons"]) >= 3:
            page.screenshot(path=str(screenshot), full_page=True)
            screenshot = None
        what = tap(page, seen, rng)
        shown(page, seen["log"] + 1, f"tap {taps}: {what}")
    raise AssertionError(f"No end after {TAPS} taps: {page.locator('#prompt').inner_text()}")


def test_a_whole_game_is_played_from_the_page(
    browser: Browser, server: str, table: Table, tmp_path: Path
) -> None:
    rules = table.public_state()["rules"]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server)
    expect(page.locator("#game-title")).to_contain_text("Hamsterdam")
    unlock(page)
    shot = shots(tmp_path) / "hamsterdam.png" if rules == "full" else None
    taps = play_to_the_end(page, SEEDS[rules], shot)
    public = table.public_state()
    assert public["over"], public["prompt"]
    expect(page.locator("#prompt")).to_have_text(public["result"])
    assert "flood tokens have broken through" in public["result"]
    assert public["view"]["table"]["piles"] >= public["view"]["table"]["threshold"]
    assert not errors, errors
    assert taps > 50, "a whole game takes more than a handful of taps"
    if shot:
        assert shot.exists()
    page.close()


@pytest.mark.parametrize("table", ["classic"], indirect=True)
def test_the_page_draws_a_table_with_water_in_a_flood_pile(
    browser: Browser, server: str, table: Table
) -> None:
    """Regression: the page once summed the table's pile total as a list and stopped updating."""
    rng = random.Random(1)
    while table.public_state()["view"]["table"]["piles"] == 0:
        state = table.snapshot.state
        assert state is not None
        bot_turn(bot.candidates, state, rng, lambda e: table.submit(e).result(timeout=10))
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server)
    expect(page.locator("#prompt")).to_have_text(table.public_state()["prompt"])
    page.evaluate("0")  # a round trip: the page's errors have reached us
    assert not errors, errors
    expect(page.locator("#log li")).to_have_count(len(table.public_state()["log"]))
    # Each player's water is one big number, readable across the table.
    players = table.public_state()["view"]["players"]
    water = page.locator(".dam-water")
    expect(water).to_have_count(len(players))
    for index, player in enumerate(players):
        expect(water.nth(index)).to_have_text(str(player["tallies"]["total"]))
    size = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.dam-water')).fontSize)"
    )
    assert size >= 30
    page.close()


@pytest.mark.parametrize("players", [3, 4])
def test_three_or_four_dams_fit_a_tablet_without_scrolling(
    browser: Browser, tmp_path: Path, players: int
) -> None:
    """Compact dams: every dam on one row of cards, all of them above the fold at 1280x800."""
    fit = hamsterdam_in_movement(tmp_path / "fit.sqlite3", ("Ann", "Bo", "Cy", "Di")[:players])
    with serve_table(fit) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        expect(page.locator(".dam")).to_have_count(players)
        bottom = page.evaluate(
            "Math.max(...[...document.querySelectorAll('.dam')]"
            ".map((d) => d.getBoundingClientRect().bottom))"
        )
        assert bottom <= 800
        rows = page.evaluate(
            """() => [...document.querySelectorAll('.dam-cards')].map((row) => new Set(
                 [...row.children].map((c) => Math.round(c.getBoundingClientRect().top))).size)"""
        )
        assert rows == [1] * players  # one row of cards per dam
        page.close()
    fit.store.close()


def play_to_a_roll(table: Table, rules: str, names: tuple[str, ...]) -> None:
    """Start a game and let the bot play (seeded) until a player is to roll the dice."""
    table.new_game(GameHeader("hamsterdam", rules, names, 3))
    rng = random.Random(1)
    while True:
        snapshot = table.snapshot
        assert snapshot.state is not None
        if snapshot.state.ctx.phase == "roll" and snapshot.state.G.dice is None:
            return
        bot_turn(bot.candidates, snapshot.state, rng, lambda e: table.submit(e).result(5))


def test_flood_odds_show_before_the_roll_and_a_table_can_hide_them(
    browser: Browser, tmp_path: Path
) -> None:
    names = ("Ann", "Bo", "Cy")
    store = Store(tmp_path / "odds.sqlite3")
    odds = Table(store, GameDefaults(players=names))
    play_to_a_roll(odds, "full", names)
    with serve_table(odds) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        shown = page.locator(".dam-head .odds")
        expect(shown).to_have_count(3)
        expect(shown.first).to_contain_text("floods on this roll:")
        page.screenshot(path=str(shots(tmp_path) / "odds-hamsterdam.png"))
        page.click("#odds")  # some groups find odds spoilers
        expect(shown.first).to_be_hidden()
        page.reload()
        expect(page.locator(".dam")).to_have_count(3)
        expect(page.locator(".dam-head .odds").first).to_be_hidden()  # remembered
        page.close()
    store.close()


def test_dice_set_on_a_roll_survive_a_redraw_before_it_is_sent(
    browser: Browser, tmp_path: Path
) -> None:
    """The roll's pickers are drawn anew whenever anything changes on the page (a camera
    note, the live stream): a face a player had set went back to 1 and was played as 1
    (seen as a wrong stored die in the whole-game test)."""
    names = ("Ann", "Bo")
    store = Store(tmp_path / "redraw.sqlite3")
    table = Table(store, GameDefaults(players=names, every_stop=True))
    play_to_a_roll(table, "classic", names)
    with serve_table(table) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        unlock(page)
        form = page.locator("#choices form.dice-entry").first
        form.locator("select").nth(0).select_option("5")
        form.locator("select").nth(1).select_option("3")
        page.evaluate("state = null; refresh()")  # everything drawn again, as on a redraw
        expect(form.locator("select").nth(0)).to_have_value("5")
        expect(form.locator("select").nth(1)).to_have_value("3")
        seq = table.public_state(with_log=False)["seq"]
        form.locator("button[type=submit]").click()
        expect(page.locator("body")).not_to_have_attribute("data-seq", str(seq))
        state = table.snapshot.state
        assert state is not None and state.G.dice is not None
        assert sorted(state.G.dice) == [3, 5]
        page.close()
    store.close()


def test_a_breach_due_and_a_cheekster_that_held_a_flood_are_shown(
    browser: Browser, tmp_path: Path
) -> None:
    """The tallies read 'breach in 0' while a breach waited, and Cheekster looked unused
    after holding back its first flood (the table marks it with a token)."""
    names = ("Ann", "Bo", "Cy")
    store = Store(tmp_path / "marks.sqlite3")
    marks = Table(store, GameDefaults(players=names))
    marks.new_game(GameHeader("hamsterdam", "full", names, 8))
    rng = random.Random(1)

    def shown_now() -> bool:
        snapshot = marks.snapshot
        assert snapshot.state is not None
        game = snapshot.state.G
        cheeked = any(s.stops for p in game.players for spot in p.dam for s in spot.specials)
        return cheeked and snapshot.state.ctx.phase == "breach" and bool(breach.waiting(game))

    while not shown_now():
        snapshot = marks.snapshot
        assert snapshot.state is not None and not snapshot.state.ctx.over
        bot_turn(bot.candidates, snapshot.state, rng, lambda e: marks.submit(e).result(5))
    with serve_table(marks) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        expect(page.locator(".dam-head", has_text="breach now")).not_to_have_count(0)
        expect(page.locator(".dam-head", has_text="breach in 0")).to_have_count(0)
        expect(
            page.locator(".dam-card .special", has_text="Cheekster (1 stop used)")
        ).not_to_have_count(0)
        page.close()
    store.close()
