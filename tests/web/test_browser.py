"""The page in a real headless Chromium (Debian's), driven by Playwright.

These never skip: CI installs chromium, and a missing browser is a failure to fix.
Screenshots go to $SCREENSHOT_DIR (``make screenshots`` points it at docs/screenshots).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from playwright.sync_api import Browser, Page, expect

from companion.config import ButtonsConfig
from companion.engine.events import MOVE, Event
from companion.table import Table
from hardware.buttons import TableButtons
from tests.web.conftest import PIN, PLAYERS, shots, unlock
from tests.web.serving import serve_table

pytestmark = pytest.mark.browser


@pytest.fixture
def server(table: Table) -> Iterator[str]:
    with serve_table(table) as port:
        yield f"http://127.0.0.1:{port}"


def place_everyone(table: Table) -> None:
    for seat, square in enumerate([[5, 2], [5, 3], [3, 4], [4, 1]]):
        table.submit(Event(MOVE, name="place", seat=seat, args={"to": square})).result(timeout=10)


def press_next(page: Page) -> None:
    """Click NEXT and wait until the page has shown the resulting event."""
    count = page.locator("#log li").count()
    page.click("#btn-next")
    expect(page.locator("#log li")).to_have_count(count + 1)


def test_a_button_press_advances_the_phase_on_the_page(
    browser: Browser, server: str, table: Table, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(server)
    expect(page.locator("#prompt")).to_contain_text("Alice: put your hamster")
    place_everyone(table)
    expect(page.locator(".belt .token")).to_have_count(4)
    factory = MockFactory()
    buttons = TableButtons(
        ButtonsConfig(), lambda intent: table.submit_intent(intent), pin_factory=factory
    )
    try:
        pin = factory.pin(17)
        pin.drive_low()
        page.wait_for_timeout(200)  # held past the 30 ms debounce: a press, not a glitch
        pin.drive_high()
        expect(page.locator("#phases li.now")).to_have_text("1 Allocate Pluck")
        expect(page.locator("#prompt")).to_contain_text("Allocate Pluck in secret")
    finally:
        buttons.close()
    page.close()


def test_a_full_round_from_the_page_with_screenshots(
    browser: Browser, server: str, table: Table, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(server)
    unlock(page)
    for square in ["5,2", "5,3", "3,4", "4,1"]:
        count = page.locator("#log li").count()
        page.click(f'.cell[data-square="{square}"].target')
        expect(page.locator("#log li")).to_have_count(count + 1)
    expect(page.locator(".belt .token")).to_have_count(4)
    press_next(page)
    expect(page.locator("#phases li.now")).to_have_text("1 Allocate Pluck")
    splits = [(0, 6, 1), (0, 3, 4), (4, 2, 1), (4, 2, 1)]
    for name, (s, m, f) in zip(PLAYERS, splits, strict=True):
        form = page.locator("#allocate form.alloc")  # one hamster's split at a time
        expect(form.locator("b")).to_have_text(name)
        form.locator('input[name="scamper"]').fill(str(s))
        form.locator('input[name="mettle"]').fill(str(m))
        form.locator('input[name="friskiness"]').fill(str(f))
        form.locator("button").click()
        expect(page.locator("#allocate .alloc-who button", has_text=name)).to_contain_text("✓")
    press_next(page)
    expect(page.locator("#phases li.now")).to_have_text("2 Initiative")
    press_next(page)
    for _ in range(4):
        count = page.locator("#log li").count()
        page.locator("#choices button", has_text="Rest").first.click()
        expect(page.locator("#log li")).to_have_count(count + 1)
    press_next(page)
    expect(page.locator("#phases li.now")).to_have_text("4 Resolve Actions")
    page.screenshot(path=str(shots(tmp_path) / "tablet.png"))
    for _ in range(5):  # each hamster's turn ends, then the phase
        press_next(page)
    expect(page.locator("#phases li.now")).to_have_text("5 Move the Belt")
    expect(page.locator("#notes")).to_contain_text("strip nearest the Pit")
    for phase in ["6 Alligators", "7 Fatigue", "8 Tally", "9 New Round", "1 Allocate Pluck"]:
        press_next(page)
        expect(page.locator("#phases li.now")).to_have_text(phase)
    assert table.public_state()["round"] == 2
    page.click("#btn-undo")
    expect(page.locator("#phases li.now")).to_have_text("9 New Round")
    expect(page.locator("#log li.undone")).to_have_count(1)
    phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    phone.goto(server)
    expect(phone.locator("#prompt")).to_contain_text("Press NEXT")
    phone.screenshot(path=str(shots(tmp_path) / "phone.png"), full_page=True)
    phone.close()
    page.close()


def test_illegal_move_shows_the_engines_sentence(
    browser: Browser, server: str, table: Table
) -> None:
    page = browser.new_page()
    page.goto(server)
    unlock(page)
    page.click("#btn-next")
    expect(page.locator("#toast")).to_contain_text("must place their hamster first")
    page.close()


def test_a_tap_while_the_companion_is_away_says_so_in_words(
    browser: Browser, server: str, table: Table
) -> None:
    """The Wi-Fi drops or the Pi is off: a tap says the companion did not answer (it said
    the browser's "Failed to fetch"), and works again once it is back."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(server)
    unlock(page)
    context.set_offline(True)
    page.click("#btn-next")
    expect(page.locator("#toast")).to_contain_text("The companion did not answer")
    expect(page.locator("#toast")).not_to_contain_text("fetch")
    context.set_offline(False)
    page.click("#btn-next")
    expect(page.locator("#toast")).to_contain_text("must place their hamster first")
    context.close()


def test_a_dropped_connection_resumes_without_missing_an_event(
    browser: Browser, server: str, table: Table
) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(server)
    expect(page.locator("#live.on")).to_have_count(1)
    table.submit(Event(MOVE, name="place", seat=0, args={"to": [5, 2]})).result(timeout=10)
    expect(page.locator("#log li")).to_have_count(1)
    page.evaluate("source.close()")  # the connection drops (a tablet going to sleep)
    for seat, square in [(1, [5, 3]), (2, [3, 4])]:
        table.submit(Event(MOVE, name="place", seat=seat, args={"to": square})).result(timeout=10)
    page.evaluate("connect()")  # EventSource resumes from the last seq it saw
    expect(page.locator("#log li")).to_have_count(3)
    texts = page.locator("#log li").all_text_contents()
    assert texts[0].startswith("Cathleen place"), texts
    expect(page.locator(".belt .token")).to_have_count(3)
    context.close()


def test_a_tablet_that_slept_catches_up_on_waking(
    browser: Browser, server: str, table: Table
) -> None:
    page = browser.new_page()
    page.goto(server)
    expect(page.locator("#live.on")).to_have_count(1)
    page.evaluate("source.close()")
    place_everyone(table)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator("#prompt")).to_contain_text("press NEXT to allocate", timeout=2000)
    page.close()


def test_a_game_in_progress_is_not_replaced_by_one_tap(
    browser: Browser, server: str, table: Table
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(server)
    unlock(page)
    first = table.game_id
    page.locator(".new-game-box summary").click()
    start = page.locator("#new-game button[type=submit]")
    start.click()
    expect(start).to_contain_text("the current game is kept")
    assert table.game_id == first
    start.click()
    expect(start).to_have_text("Start")
    for _ in range(100):  # the second tap starts it (never a timing assertion: a ceiling)
        if table.game_id != first:
            break
        page.wait_for_timeout(100)
    assert table.game_id != first
    page.close()


def test_the_allocation_form_says_how_many_chips_to_split(
    browser: Browser, server: str, table: Table
) -> None:
    place_everyone(table)
    table.submit_intent("next").result(timeout=10)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(server)
    unlock(page)
    form = page.locator("#allocate form").first
    expect(form).to_contain_text("7 chips to split")
    for trait in ("scamper", "mettle", "friskiness"):  # nine chips: one hamster has seven
        form.locator(f'input[name="{trait}"]').fill("3")
    form.locator("button").click()
    expect(page.locator("#toast")).to_be_visible()
    expect(form.locator('input[name="scamper"]')).to_have_value("0")  # the refused split is gone
    page.close()


# Marks on the page when the reply and the live stream have brought a change, and counts
# how often the buttons in the given element are drawn anew.
COUNT_REDRAWS = """(id) => {
  source.addEventListener('change', (m) => {
    document.body.dataset.streamed = String(JSON.parse(m.data).state.seq); });
  const reply = send;
  send = async (...args) => {
    const sent = await reply(...args);
    document.body.dataset.replied = String(state.seq);
    return sent;
  };
  window.drawn = 0;
  new MutationObserver(() => { window.drawn += 1; })
    .observe(document.getElementById(id), { childList: true });
}"""


def count_redraws(page: Page, element: str) -> None:
    page.evaluate(COUNT_REDRAWS, element)


def test_the_buttons_a_tap_leaves_stay_put_when_the_live_stream_repeats_it(
    browser: Browser, server: str
) -> None:
    """The tablet's own tap comes back twice (its reply, then the live stream): the buttons
    drawn from the reply must not be replaced by the repeat, or a quick next tap is lost."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(server)
    unlock(page)
    count_redraws(page, "choices")
    page.locator("#choices .choice-group button").first.click()  # Alice places her hamster
    expect(page.locator("body")).to_have_attribute("data-replied", "1")
    expect(page.locator("body")).to_have_attribute("data-streamed", "1")
    assert page.evaluate("window.drawn") == 1  # drawn once for the change, not twice
    page.close()


def test_a_phone_draws_its_own_tap_once_too(browser: Browser, server: str) -> None:
    """The same on a player's phone (the seat page): its tap's buttons stay put."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    login = page.request.post(f"{server}/api/login", data={"pin": PIN}).json()
    seats = page.request.get(f"{server}/api/seats", headers={"X-Table-Token": login["token"]})
    page.goto(f"{server}/seat/{seats.json()['seats'][0]['code']}")  # Alice's phone
    moves = page.locator("#mine .choice-group button")
    expect(moves.first).to_be_visible()
    count_redraws(page, "mine")
    moves.first.click()  # Alice places her hamster from her phone
    expect(page.locator("body")).to_have_attribute("data-replied", "1")
    expect(page.locator("body")).to_have_attribute("data-streamed", "1")
    assert page.evaluate("window.drawn") == 1
    page.close()
