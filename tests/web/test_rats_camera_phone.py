"""A rat's pool read by the camera reaches that rat's phone for one tap, in headless Chromium.

What the player notices: the phone shows the dice the camera read (each size and face) and
one button; tapping it enters the whole roll, and no other rat's phone offers it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from companion.config import GameDefaults
from companion.engine.events import MOVE, Event
from companion.engine.readings import DICE, DiceSeen, Reading
from companion.engine.session import GameHeader
from companion.store import Store
from companion.table import Table
from tests.web.conftest import shots, unlock
from tests.web.serving import serve_table

pytestmark = pytest.mark.browser
AXE = Path(__file__).resolve().parents[2] / ".cache/axe/node_modules/axe-core/axe.min.js"
RATS = ("Ann", "Bob", "Cat", "Dan")
POOL = (4, 6, 8, 8, 10, 10)
READ = (3, 5, 7, 2, 10, 9)


def test_the_camera_reading_of_a_pool_is_one_tap_on_that_rats_phone(
    browser: Browser, tmp_path: Path
) -> None:
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=RATS, every_stop=True))
    table.new_game(GameHeader("rats", "standard", RATS, 11, {"rounds": 1}))
    for seat in range(4):
        create = Event(MOVE, name="create", seat=seat, args={"bonus": [8, 10]})
        table.submit(create).result(5)
    table.submit("next").result(5)
    table.submit(Event(MOVE, name="play", seat=0, args={"card": "9c"})).result(5)
    unsure = DiceSeen(READ, (0.99, 0.99, 0.6, 0.99, 0.99, 0.99), auto_accept=0.9, sizes=POOL)
    assert table.observe(Reading(DICE, unsure, source="camera")).result(5)
    assert table.public_state(with_log=False)["pending_move"]["seat"] == 0
    with serve_table(table) as port:
        base = f"http://127.0.0.1:{port}"
        tablet = browser.new_page(viewport={"width": 1280, "height": 800})
        tablet.goto(base)
        unlock(tablet)
        tablet.click("#seats-box summary")
        expect(tablet.locator(".seat-code")).to_have_count(4)
        links = [str(a.get_attribute("href")) for a in tablet.locator(".seat-code a").all()]
        addresses = [link.replace(f"http://localhost:{port}", base) for link in links]
        phones = []
        for seat in (0, 1):
            context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
            phone = context.new_page()
            phone.goto(addresses[seat])
            phones.append(phone)
        ann, bob = phones
        offer = ann.locator("#mine .rat-camera-roll")
        expect(offer).to_have_count(1)
        expect(
            offer.get_by_label("the camera reads d4 3, d6 5, d8 7, d8 2, d10 10, d10 9")
        ).to_have_count(1)
        expect(bob.locator("#mine .rat-camera-roll")).to_have_count(0)
        ann.add_script_tag(path=str(AXE))
        found = ann.evaluate(
            "async () => (await axe.run()).violations.map("
            "(v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target).join(', ')}`)"
        )
        assert found == [], found
        ann.screenshot(path=str(shots(tmp_path) / "rats-camera-roll-phone.png"), full_page=True)
        offer.get_by_role("button", name="That's my roll").click()
        expect(ann.locator("#mine .rat-camera-roll")).to_have_count(0)
    roll = table.public_state(with_log=False)["view"]["challenge"]["rolls"][0]
    assert sorted((d["size"], d["face"]) for d in roll["dice"]) == sorted(
        zip(POOL, READ, strict=True)
    )
    table.close()
    store.close()
