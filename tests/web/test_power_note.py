"""The Pi's power warning at the top of the page, from the device list's power line
(hardware/power_watch.py); "power: ok" shows nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from hardware.power_watch import PowerWatch
from tests.web.serving import make_app, serving
from tests.web.tables import new_table

pytestmark = pytest.mark.browser


def test_a_weak_power_supply_is_said_at_the_top_of_the_page_and_ok_is_not(
    browser: Browser, tmp_path: Path
) -> None:
    table = new_table(tmp_path, "hamsterdam")
    flags = [0x50005]  # under-voltage and throttled, now and since boot
    power = PowerWatch(lambda: flags[0], wait=lambda _: True)
    power.refresh()
    app = make_app(table, device_status=lambda: {"camera": "camera off", **power.lines()})
    with serving(app, table) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        note = page.locator("#power-note")
        expect(note).to_be_visible(timeout=10_000)
        expect(note).to_contain_text("Power: under-voltage, throttled now")
        expect(note).to_contain_text("use the official power supply")
        flags[0] = 0  # a proper supply plugged in: the next reading is fine
        power.refresh()
        assert app.test_client().get("/api/devices").get_json()["power"] == "ok"
        expect(note).to_be_hidden(timeout=10_000)
        page.close()
    table.close()
    table.store.close()
