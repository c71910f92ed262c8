"""Rats at a table with one tablet and a phone per player, in a real headless Chromium.

The tablet shows each seat's code; each phone opens its seat's address, makes its rat,
plays cards from its own (secret) hand, taps its dice one by one, spends or declines Hate,
loots, takes its wounds and makes its nest decisions; the tablet only presses NEXT. Every
count is then checked against the engine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Dialog, Page, expect

from companion.config import GameDefaults
from companion.engine.events import MOVE, Event
from companion.engine.session import GameHeader
from companion.store import Store
from companion.table import Table
from tests.web.conftest import shots, unlock
from tests.web.serving import serve_table

pytestmark = pytest.mark.browser
RATS = ("Ann", "Bob", "Cat", "Dan")
STEPS = 900


@pytest.fixture
def rats_table(tmp_path: Path) -> Iterator[Table]:
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=RATS, every_stop=True))
    table.new_game(GameHeader("rats", "standard", RATS, 11, {"deck": "phone", "rounds": 1}))
    yield table
    table.close()
    store.close()


def _seq(table: Table) -> int:
    return int(table.public_state(with_log=False)["seq"])


def _caught_up(pages: list[Page], seq: int) -> None:
    for page in pages:
        expect(page.locator(f"body[data-seq='{seq}']")).to_have_count(1)


def _act(phone: Page, rng: random.Random) -> bool:
    """Whatever this rat may do now, as a player would tap it; False when nothing."""
    panel = phone.locator("#mine")
    for selector in (".rat-form button[type=submit]", ".rat-entry .face"):
        found = panel.locator(selector)
        if found.count():
            found.nth(rng.randrange(found.count()) if "face" in selector else 0).click()
            return True
    cards = panel.locator(".rat-hand button:not([disabled])")
    if cards.count():
        cards.nth(rng.randrange(cards.count())).click()
        return True
    choices = panel.locator(".choice-group button")
    if choices.count():
        choices.nth(rng.randrange(choices.count())).click()
        return True
    enough = panel.locator("button", has_text="no more re-rolls")
    if enough.count():
        enough.first.click()
        return True
    return False


def test_four_rats_play_a_round_from_their_phones(
    browser: Browser, rats_table: Table, tmp_path: Path
) -> None:
    with serve_table(rats_table) as port:
        base = f"http://127.0.0.1:{port}"
        tablet = browser.new_page(viewport={"width": 1280, "height": 800})
        tablet.goto(base)
        unlock(tablet)
        tablet.click("#seats-box summary")
        expect(tablet.locator(".seat-code")).to_have_count(4)
        addresses = [a.get_attribute("href") for a in tablet.locator(".seat-code a").all()]
        assert all(a and "/seat/" in a for a in addresses)
        phones = []
        for seat, address in enumerate(addresses):
            context = browser.new_context(viewport={"width": 390, "height": 844})
            phone = context.new_page()
            phone.goto(str(address).replace(f"http://localhost:{port}", base))
            expect(phone.locator("#seat-title")).to_contain_text(RATS[seat])
            phones.append(phone)
        rng = random.Random(5)
        pages = [tablet, *phones]
        odds_shown = False
        for _ in range(STEPS):
            if rats_table.public_state(with_log=False)["over"]:
                break
            seq = _seq(rats_table)
            _caught_up(pages, seq)
            state = rats_table.public_state(with_log=False)
            if not odds_shown and tablet.locator(".rat-odds").count():
                odds_shown = True  # README's picture of a rat's chance to pass
                tablet.locator(".rat-odds").first.scroll_into_view_if_needed()
                tablet.screenshot(path=str(shots(tmp_path) / "odds-rats.png"))
            if state["phase"] == "tunnel" and state["view"]["turn"]["stage"] == "card":
                # Only the rat whose turn it is sees its hand enabled.
                current = state["current"]
                others = [p for s, p in enumerate(phones) if s != current]
                for other in others:
                    assert other.locator(".rat-hand button:not([disabled])").count() == 0
            if not any(_act(phone, rng) for phone in rng.sample(phones, len(phones))):
                tablet.click("#btn-next")
            expect_change(rats_table, seq)
        state = rats_table.public_state(with_log=False)
        assert state["over"], state["prompt"]
        assert odds_shown, "no challenge ever showed the rats' odds"
        tablet.screenshot(path=str(shots(tmp_path) / "rats-tablet.png"))
        phones[0].screenshot(path=str(shots(tmp_path) / "rats-phone.png"), full_page=True)
        # Every phone shows its own hand, and nobody else's.
        view = rats_table.public_state(0, with_log=False)["view"]
        assert "hand" in view["rats"][0] and "hand" not in view["rats"][1]
        expect(tablet.locator("#prompt")).to_contain_text("win")


def _move(table: Table, seat: int, name: str, given: tuple[int, ...] = (), **args: object) -> None:
    table.submit(Event(MOVE, name=name, seat=seat, args=args, given=given)).result(5)


def _tablet_with_codes(browser: Browser, port: int, seats: int) -> tuple[Page, list[str]]:
    """An unlocked tablet showing the seats' codes, and each seat's address."""
    base = f"http://127.0.0.1:{port}"
    tablet = browser.new_page(viewport={"width": 1280, "height": 800})
    tablet.goto(base)
    unlock(tablet)
    tablet.click("#seats-box summary")
    expect(tablet.locator(".seat-code")).to_have_count(seats)
    links = [str(a.get_attribute("href")) for a in tablet.locator(".seat-code a").all()]
    return tablet, [link.replace(f"http://localhost:{port}", base) for link in links]


def _phone(browser: Browser, table: Table, port: int, seat: int) -> Page:
    """The tablet shows the seats' codes; ``seat``'s phone opens its address."""
    _, addresses = _tablet_with_codes(browser, port, len(RATS))
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(addresses[seat])
    return phone


def _wounded_three_times(table: Table) -> None:
    """Ann, Bob and Cat each play a club and pass it alone; Dan fails all three and loses
    his d10, a d8 and his d6 to wounds. Then it is Dan's turn (a real deck: any card)."""

    def move(seat: int, name: str, given: tuple[int, ...] = (), **args: object) -> None:
        _move(table, seat, name, given, **args)

    for seat in range(4):
        move(seat, "create", bonus=[8, 10])  # d4 d6 d8 d8 d10 d10
    table.submit("next").result(5)
    for player, card, lost in ((0, "9c", 10), (1, "8c", 8), (2, "7c", 6)):
        move(player, "play", card=card)
        for seat in range(4):
            dice = len(table.public_state(with_log=False)["view"]["rats"][seat]["pool"])
            fight = (2, 3, 4, 4, 3, 2) if seat == player else (5,) * dice
            move(seat, "roll", given=fight[:dice] if seat == player else (1, *fight[1:]))
        table.submit("next").result(5)  # nobody re-rolls
        move(player, "loot", item="none")
        rats = table.public_state(with_log=False)["view"]["rats"]
        for seat in range(4):
            if seat != player:
                move(seat, "wound", die=lost if seat == 3 else rats[seat]["pool"][0])
        table.submit("next").result(5)


def test_a_burrowing_rat_heals_only_the_wound_dice_it_taps(
    browser: Browser, tmp_path: Path
) -> None:
    """The rule heals *any* of the wound dice, a Hate each; the phone offered only "all"
    or "nothing", so Dan could not take back his d10 alone without paying for the rest."""
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=RATS, every_stop=True))
    table.new_game(GameHeader("rats", "standard", RATS, 11, {"rounds": 1}))
    _wounded_three_times(table)
    dan = table.public_state(with_log=False)["view"]["rats"][3]
    assert dan["wounds"] == [6, 8, 10] and table.public_state(with_log=False)["current"] == 3
    hate = dan["hate"]
    table.submit(Event(MOVE, name="play", seat=3, args={"card": "Qh"})).result(5)
    with serve_table(table) as port:
        phone = _phone(browser, table, port, 3)
        burrow = phone.locator("#mine form.rat-burrow")
        expect(burrow).to_have_count(1)
        burrow.get_by_role("button", name="heal a d10").click()
        burrow.get_by_role("button", name="heal a d6").click()
        burrow.get_by_role("button", name="heal a d6").click()  # changed his mind
        burrow.locator("button[type=submit]").click()
        expect(phone.locator("#mine form.rat-burrow")).to_have_count(0)
    dan = table.public_state(with_log=False)["view"]["rats"][3]
    assert dan["wounds"] == [6, 8] and 10 in dan["pool"] and dan["hate"] == hate + 1
    store.close()


def _hateful_bob_rolls_his_club(tmp_path: Path) -> tuple[Store, Table]:
    """Bob takes 4 Hate for his 1s failing Ann's club, then plays the 2 of clubs and
    everyone's dice are in (he alone passes it): the Hate window is open."""
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=RATS, every_stop=True))
    table.new_game(GameHeader("rats", "standard", RATS, 11, {"rounds": 1}))
    for seat in range(4):
        _move(table, seat, "create", bonus=[8, 10])  # d4 d6 d8 d8 d10 d10
    table.submit("next").result(5)
    for player, card, bob in ((0, "9c", (1, 1, 1, 1, 5, 5)), (1, "2c", (2, 2, 2, 5, 5))):
        _move(table, player, "play", card=card)
        for seat in range(4):
            dice = len(table.public_state(with_log=False)["view"]["rats"][seat]["pool"])
            faces = (2, 3, 4, 4, 3, 2) if seat == player == 0 else (1, 5, 5, 5, 5, 5)
            _move(table, seat, "roll", given=bob if seat == 1 else faces[:dice])
        if player == 0:
            table.submit("next").result(5)  # nobody re-rolls
            _move(table, 0, "loot", item="none")
            rats = table.public_state(with_log=False)["view"]["rats"]
            for seat in (1, 2, 3):
                _move(table, seat, "wound", die=rats[seat]["pool"][-1])
            table.submit("next").result(5)
    return store, table


def test_a_die_tapped_for_a_reroll_stays_tapped_when_another_rat_passes(
    browser: Browser, tmp_path: Path
) -> None:
    """The others' "no more re-rolls" redraw every phone; Bob's re-roll panel went back to
    the list of dice between his two taps (die, then what it shows now)."""
    store, table = _hateful_bob_rolls_his_club(tmp_path)
    with serve_table(table) as port:
        phone = _phone(browser, table, port, 1)
        panel = phone.locator("#mine .rat-reroll")
        # one "no more re-rolls" (it was drawn twice: the panel's and the offered button)
        expect(phone.locator("#mine button", has_text="no more re-rolls")).to_have_count(1)
        panel.get_by_role("button", name="re-roll Cat's d6 showing 5").click()
        expect(panel).to_contain_text("Roll Cat's d6 again")
        seq = _seq(table)
        _move(table, 3, "enough")  # Dan spends no Hate: every phone is redrawn
        expect(phone.locator(f"body[data-seq='{seq + 1}']")).to_have_count(1)
        expect(panel).to_contain_text("Roll Cat's d6 again")
        panel.locator("button.face", has_text="3").click()
        expect(phone.locator(f"body[data-seq='{seq + 2}']")).to_have_count(1)
    view = table.public_state(with_log=False)["view"]
    assert view["rats"][1]["hate"] == 2
    assert view["challenge"]["rolls"][2]["dice"][1] == {"face": 3, "rerolled_by": [1], "size": 6}
    store.close()


def test_a_looting_rat_lowers_its_hate_by_any_amount(browser: Browser, tmp_path: Path) -> None:
    """Loot lowers Hate by any amount (at least 1); the phone offered only "all" or "1", so
    a rat could not keep two Hate for a re-roll. Bob, with 4 Hate, wins his club and loots
    first."""
    store, table = _hateful_bob_rolls_his_club(tmp_path)
    table.submit("next").result(5)  # nobody re-rolls
    state = table.public_state(with_log=False)
    assert state["view"]["settle"]["loot_order"] == [1] and state["view"]["rats"][1]["hate"] == 4
    with serve_table(table) as port:
        phone = _phone(browser, table, port, 1)
        form = phone.locator("#mine form.rat-loot-hate")
        expect(form).to_have_count(1)
        form.locator("select").select_option("2")
        form.locator("button[type=submit]").click()
        expect(phone.locator("#mine form.rat-loot-hate")).to_have_count(0)
    assert table.public_state(with_log=False)["view"]["rats"][1]["hate"] == 2
    store.close()


def expect_change(table: Table, seq: int) -> None:
    """A tap that the engine refused changes nothing: that must not happen from offered
    controls, so each step must add one event."""
    import time

    deadline = time.monotonic() + 10
    while _seq(table) == seq:
        assert time.monotonic() < deadline, table.public_state(with_log=False)["prompt"]
        time.sleep(0.02)


def test_run_hamster_run_pluck_is_allocated_in_secret_on_each_phone(
    browser: Browser, table: Table
) -> None:
    """The same seat page serves Run, Hamster, Run!: each player allocates on their own
    phone; the tablet and the other phones see only that it was done."""
    for seat, square in enumerate([[5, 2], [5, 3], [3, 4], [4, 1]]):
        table.submit(Event(MOVE, name="place", seat=seat, args={"to": square})).result(5)
    table.submit("next").result(5)
    with serve_table(table) as port:
        base = f"http://127.0.0.1:{port}"
        tablet = browser.new_page(viewport={"width": 1280, "height": 800})
        tablet.goto(base)
        unlock(tablet)
        tablet.click("#seats-box summary")
        expect(tablet.locator(".seat-code")).to_have_count(4)
        addresses = [a.get_attribute("href") for a in tablet.locator(".seat-code a").all()]
        splits = [(0, 6, 1), (0, 3, 4), (4, 2, 1), (4, 2, 1)]
        for seat, (s, m, f) in enumerate(splits):
            phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            phone.goto(str(addresses[seat]).replace(f"http://localhost:{port}", base))
            forms = phone.locator("#mine form.alloc")
            expect(forms).to_have_count(1)  # this hamster's form only
            forms.locator('input[name="scamper"]').fill(str(s))
            if seat == 1:  # another player's change arrives while Bob is typing
                seq = phone.evaluate("document.body.dataset.seq")
                split = {"scamper": 4, "mettle": 2, "friskiness": 1}
                table.submit(Event(MOVE, name="allocate", seat=3, args=split)).result(5)
                expect(phone.locator(f"body:not([data-seq='{seq}'])")).to_have_count(1)
                expect(forms.locator('input[name="scamper"]')).to_have_value(str(s))
            forms.locator('input[name="mettle"]').fill(str(m))
            forms.locator('input[name="friskiness"]').fill(str(f))
            forms.locator("button").click()
            expect(phone.locator("#mine form.alloc")).to_contain_text("✓")
            if seat == 0:
                other = table.public_state(1, with_log=True)
                mine = [e for e in other["log"] if e.get("name") == "allocate"]
                assert mine and mine[-1].get("secret") and "args" not in mine[-1]
        expect(tablet.locator("#log li", has_text="allocate (secret)")).to_have_count(5)
        table.submit("next").result(5)
        assert table.public_state(with_log=False)["phase"] == "initiative"


def test_ending_every_access_locks_the_tablet_and_ends_each_phones_link(
    browser: Browser, rats_table: Table
) -> None:
    """A phone lost at the café: the tablet's "End every tablet's and phone's access" asks
    first, then locks this tablet, and the lost phone's link says it was ended."""
    with serve_table(rats_table) as port:
        tablet, addresses = _tablet_with_codes(browser, port, len(RATS))
        address = addresses[1]
        phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        phone.goto(address)
        expect(phone.locator("#mine")).to_be_visible()
        asked: list[str] = []

        def accept(dialog: Dialog) -> None:
            asked.append(dialog.message)
            dialog.accept()

        tablet.on("dialog", accept)
        tablet.click("#btn-lock-all")
        expect(tablet.locator("#lock")).to_have_text("Unlock")
        assert asked and "new code" in asked[0]
        phone.goto(address)
        expect(phone.locator("body")).to_contain_text("the tablet can end every phone")
