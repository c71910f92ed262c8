"""The tablet speaks instead of the Pi: the "Speak" toggle (remembered on the tablet) makes
each live change's sentence go to the browser's speech synthesis, and nothing is said while
it is off. ``window.speechSynthesis`` is a stub recording what it is asked to say."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.engine.events import NEXT
from companion.games import find_game
from companion.simulate import bot_turn
from companion.table import Table
from tests.web.serving import serve_table

pytestmark = pytest.mark.browser

STUB = """
window.__said = [];
class StubUtterance { constructor(text) { this.text = text; } }
Object.defineProperty(window, "SpeechSynthesisUtterance", {
  value: StubUtterance, configurable: true,
});
Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
  speak(utterance) { window.__said.push(utterance.text); },
  cancel() {},
} });
"""

LAST_SAID = "text => window.__said[window.__said.length - 1] === text"


def _said(page: Page) -> list[str]:
    return list(page.evaluate("window.__said"))


def _next_and_wait(page: Page, table: Table) -> str:
    """The bot plays up to and including a NEXT; the page catches up; the sentence said."""
    spec, rng = find_game("run-hamster-run"), random.Random(7)
    assert spec.bot is not None
    while True:
        state = table.snapshot.state
        assert state is not None
        event = bot_turn(spec.bot, state, rng, lambda e: table.submit(e).result(timeout=10))
        if event.kind == NEXT:
            break
    seq = table.public_state()["seq"]
    expect(page.locator("body")).to_have_attribute("data-seq", str(seq))
    return str(table.public_state()["spoken"])


def test_the_speak_toggle_sends_each_change_to_speech_synthesis(
    browser: Browser, table: Table
) -> None:
    with serve_table(table) as port:
        page = browser.new_page()
        page.add_init_script(STUB)
        page.goto(f"http://127.0.0.1:{port}")
        expect(page.locator("#prompt")).not_to_have_text("Connecting…")
        _next_and_wait(page, table)
        assert _said(page) == []  # off by default: the tablet stays quiet

        page.locator("#speak").click()
        expect(page.locator("#speak")).to_have_attribute("aria-pressed", "true")
        assert _said(page) == ["Spoken cues on."]  # said from the tap (tablets require one)
        spoken = _next_and_wait(page, table)
        assert spoken and table.public_state()["prompt"] in spoken
        page.wait_for_function(LAST_SAID, arg=spoken)
        assert _said(page)[0] == "Spoken cues on." and len(_said(page)) >= 2

        page.reload()  # remembered on this tablet; the state it opens on is not said again
        expect(page.locator("#speak")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#prompt")).not_to_have_text("Connecting…")
        assert _said(page) == []
        spoken = _next_and_wait(page, table)
        page.wait_for_function(LAST_SAID, arg=spoken)
        page.close()
