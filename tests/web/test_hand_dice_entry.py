"""Nothing the players roll is ever defaulted: every place the page asks for dice rolled by
hand (a move's pickers on the tablet and on the player's phone, the pickers beside NEXT)
starts at "?" and refuses to send until each die is set. Each game is played on by its bot;
every hand-roll entry met on the way is submitted untouched and must change nothing.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.games import GAMES
from companion.simulate import bot_of
from companion.store import Store
from companion.table import Table
from tests.web.conftest import unlock
from tests.web.serving import serve_table

NAMES = ("Ann", "Bo", "Cy")
STEPS = 400  # bot moves per game: enough to meet each entry at least once

# The hand-roll entries each game must show within STEPS (move names; "NEXT" for NEXT's).
EXPECTED = {
    ("hamsterdam", "classic"): {"roll", "NEXT"},
    ("hamsterdam", "full"): {"roll", "NEXT"},
    ("run-hamster-run", "classic"): {"NEXT"},
    ("run-hamster-run", "v2.1"): set(),
    ("hamster-wheel", "standard"): set(),
}


def _bot_step(table: Table, game: str, rng: random.Random) -> bool:
    """One bot move on the table; False once the game is over."""
    snapshot = table.snapshot
    if snapshot.state is None or snapshot.state.ctx.over:
        return False
    for event in bot_of(GAMES[game])(snapshot.state, rng):
        try:
            table.submit(event).result(5)
            return True
        except Exception:  # refused: the bot's next candidate
            continue
    return False


def _entries(state: dict[str, Any]) -> list[str]:
    names = [c["name"] for c in state["legal"] if c.get("dice")]
    return names + (["NEXT"] if state["next_dice"] else [])


def _refused_untouched(page: Page, seq: int, submit: Any) -> None:
    """Every picker reads "?", the tap sends nothing, and the page says which die is unset."""
    submit.click()
    expect(page.locator("#toast")).to_contain_text('still "?"')
    assert page.evaluate("document.body.dataset.seq") == str(seq)


def _try_entries(page: Page, phone: Page | None, state: dict[str, Any], tried: set[str]) -> None:
    seq = state["seq"]
    for shown in (page, phone):
        if shown is not None:
            expect(shown.locator("body")).to_have_attribute("data-seq", str(seq))
    if state["next_dice"] and "NEXT" not in tried:
        pickers = page.locator("#next-dice select")
        expect(pickers).to_have_count(len(state["next_dice"]))
        assert all(v == "" for v in pickers.evaluate_all("(all) => all.map((p) => p.value)"))
        _refused_untouched(page, seq, page.locator("#btn-next"))
        tried.add("NEXT")
    for choice in [c for c in state["legal"] if c.get("dice") and c["name"] not in tried]:
        form = page.locator("#choices form.dice-entry", has_text=choice["label"]).first
        faces = form.locator("select").evaluate_all("(a) => a.map((p) => p.value)")
        assert all(v == "" for v in faces)
        _refused_untouched(page, seq, form.locator("button[type=submit]"))
        if phone is not None and choice["seat"] == 0:
            mine = phone.locator("form.dice-entry", has_text=choice["label"]).first
            _refused_untouched(phone, seq, mine.locator("button[type=submit]"))
        tried.add(choice["name"])


@pytest.mark.browser
@pytest.mark.parametrize(("game", "rules"), sorted(EXPECTED))
def test_every_hand_roll_entry_refuses_dice_left_unset(
    browser: Browser, tmp_path: Path, game: str, rules: str
) -> None:
    table = Table(
        Store(tmp_path / "companion.sqlite3"), GameDefaults(players=NAMES, every_stop=True)
    )
    table.new_game(GameHeader(game, rules, NAMES, 5))
    rng, tried = random.Random(5), set[str]()
    with serve_table(table) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        unlock(page)
        token = page.evaluate("sessionStorage.getItem('tableToken')")
        seats = page.request.get(
            f"http://127.0.0.1:{port}/api/seats", headers={"X-Table-Token": token}
        )
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.goto(seats.json()["seats"][0]["url"].replace("localhost", "127.0.0.1"))
        for _ in range(STEPS):
            state = table.public_state(with_log=False)
            if set(_entries(state)) - tried:
                _try_entries(page, phone, state, tried)
            if (EXPECTED[(game, rules)] <= tried and tried) or not _bot_step(table, game, rng):
                break
        page.close()
        phone.close()
    assert EXPECTED[(game, rules)] <= tried, f"never met {EXPECTED[(game, rules)] - tried}"
