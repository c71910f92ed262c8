"""An idle live page stays live: the server never closes a stream that is being read.

Hypercorn's ``read_timeout`` (30 s) closed every connection whose client had sent nothing,
and a page reading its stream sends nothing: an idle table showed "Offline: reconnecting"
every ~32 s, and 200 pages made ~7 reconnects a second.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Request, expect

from companion.table import Table
from tests.web.serving import serve_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HELD_MS = 180_000  # three minutes: six of the old cuts
LIVE = re.compile(r"\bon\b")  # the dot that says the stream is open

WATCH_OFFLINE = """() => {
  window.offlineShown = 0;
  const banner = document.getElementById("offline");
  new MutationObserver(() => { if (!banner.hidden) window.offlineShown += 1; })
    .observe(banner, { attributes: true, attributeFilter: ["hidden"] });
}"""


def test_an_idle_page_stays_live_for_three_minutes(browser: Browser, table: Table) -> None:
    # The production heartbeat (10 s), not the tests' quick one: the pings must keep the
    # page live by themselves.
    with serve_table(table, heartbeat_seconds=10.0) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        streams: list[str] = []

        def seen(request: Request) -> None:
            if "/api/stream" in request.url:
                streams.append(request.url)

        page.on("request", seen)
        page.goto(f"http://127.0.0.1:{port}")
        expect(page.locator("#live")).to_have_class(LIVE, timeout=10_000)
        page.evaluate(WATCH_OFFLINE)
        page.wait_for_timeout(HELD_MS)
        assert page.evaluate("window.offlineShown") == 0
        expect(page.locator("#offline")).to_be_hidden()
        expect(page.locator("#live")).to_have_class(LIVE)
        assert len(streams) == 1, streams  # never reconnected
        page.close()
