"""The layout matrix: each game on a 1280x800 tablet, an 800x1280 tablet stood up, a 390x844
phone and the tablet flipped for the players opposite, in set-up, mid-round, at a decision and
at game over. What a player needs (the board, whose turn and what to do, the main action) lies
on the first screen, its text is big enough to read across a table (18 px on the tablet, 16 px
on a phone), every target is at least 44 px and nothing scrolls sideways.

Screenshots of the whole matrix go to ``tmp/test-artifacts/layout/`` (or $SCREENSHOT_DIR), to
be looked at; they are never committed.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.games import GAMES
from companion.simulate import bot_of
from companion.store import Store
from companion.table import Table
from tests.web.conftest import unlock
from tests.web.serving import serve_table

pytestmark = pytest.mark.browser

ARTEFACTS = Path(os.environ.get("SCREENSHOT_DIR", "tmp/test-artifacts")) / "layout"
NAMES = ("Ann", "Bo", "Cy", "Di")
SCREENS: dict[str, tuple[ViewportSize, bool]] = {  # name: (viewport, flipped)
    "tablet": ({"width": 1280, "height": 800}, False),
    "portrait": ({"width": 800, "height": 1280}, False),
    "phone": ({"width": 390, "height": 844}, False),
    "flipped": ({"width": 1280, "height": 800}, True),
}
STAGES = ("setup", "mid", "decision", "over")
# The board of each game: the element that must be on the first screen whole.
BOARD = {
    "run-hamster-run": "#belt, #pit",
    "hamsterdam": "#belt",
    "hamster-wheel": ".hw-wheel",
    "rats": "#belt",
}

# What the page measures: each needed element's box, the text sizes inside the elements a
# player reads, targets under 44 px, and the widest the page scrolls.
MEASURE = "\n".join(
    line
    for line in (Path(__file__).parent / "layout_measure.js").read_text("utf-8").splitlines()
    if not line.startswith("//")
)


def _bot_step(table: Table, game: str, rng: random.Random) -> bool:
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


def _advance(table: Table, game: str, stage: str, rng: random.Random) -> None:
    """Play on to the stage: mid-round (round 2 begun), a decision (moves offered), the end."""
    for _ in range(20_000):
        state = table.public_state(with_log=False)
        if stage == "setup" or state["over"]:
            return
        if stage == "mid" and (state["round"] or 0) >= 2:
            return
        if stage == "decision" and len(state["legal"]) >= 2 and (state["round"] or 0) >= 2:
            return
        if not _bot_step(table, game, rng):
            return


def _problems(found: dict[str, Any], screen: ViewportSize, phone: bool, over: bool) -> list[str]:
    height, width = screen["height"], screen["width"]
    problems = []

    def on_screen(box: list[float]) -> bool:
        return box[1] >= -1 and box[3] <= height + 1 and box[0] >= -1 and box[2] <= width + 1

    if not found["boards"] or not all(on_screen(b) for b in found["boards"]):
        problems.append(f"board off the first screen: {found['boards']}")
    if not on_screen(found["prompt"]):
        problems.append(f"prompt off the first screen: {found['prompt']}")
    if not over and found["action"] is not None and not on_screen(found["action"]):
        problems.append(f"main action off the first screen: {found['action']}")
    if not phone and not all(on_screen(f) for f in found["forms"]):
        problems.append(f"a split's form off the first screen: {found['forms']}")
    least = 16 if phone else 18
    small = [t for t in found["texts"] if t[3] < least - 0.01]
    if small:
        problems.append(f"text under {least}px: {small[:4]}")
    if found["tiny"]:
        problems.append(f"targets under 44px: {found['tiny'][:4]}")
    if found["scroll"] > 0:
        problems.append(f"scrolls sideways by {found['scroll']}px")
    return problems


def _look(page: Page, game: str, stage: str, screen: str, seq: int) -> list[str]:
    viewport, flipped = SCREENS[screen]
    page.set_viewport_size(viewport)
    page.evaluate(f"document.body.classList.toggle('flipped', {str(flipped).lower()})")
    expect(page.locator("body")).to_have_attribute("data-seq", str(seq))
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(100)  # a frame for the layout to settle after the resize
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{game}-{stage}-{screen}.png"))
    found = page.evaluate(MEASURE, BOARD[game])
    problems = _problems(found, viewport, screen == "phone", stage == "over")
    return [f"{game} {stage} {screen}: {p}" for p in problems]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_board_and_the_next_action_are_on_the_first_screen(
    browser: Browser, tmp_path: Path, game: str
) -> None:
    spec = GAMES[game]
    names = NAMES[: max(spec.min_players, 3)]
    table = Table(
        Store(tmp_path / "companion.sqlite3"), GameDefaults(players=names, every_stop=True)
    )
    table.new_game(GameHeader(game, spec.rules_default, names, 11))
    rng, problems = random.Random(11), []
    with serve_table(table) as port:
        page = browser.new_page(viewport=SCREENS["tablet"][0])
        page.goto(f"http://127.0.0.1:{port}")
        unlock(page)
        for stage in STAGES:
            _advance(table, game, stage, rng)
            seq = table.public_state(with_log=False)["seq"]
            for screen in SCREENS:
                problems += _look(page, game, stage, screen, seq)
        page.close()
    assert not problems, "\n".join(problems)


def test_start_on_the_new_game_form_brings_the_new_game_into_view(
    browser: Browser, tmp_path: Path
) -> None:
    """The page used to stay down on the form after Start, the new game out of sight."""
    table = Table(Store(tmp_path / "companion.sqlite3"), GameDefaults(players=NAMES))
    table.new_game(GameHeader("hamster-wheel", "standard", NAMES[:3], 3))
    with serve_table(table) as port:
        page = browser.new_page(viewport=SCREENS["tablet"][0])
        page.goto(f"http://127.0.0.1:{port}")
        unlock(page)
        page.click(".new-game-box summary")
        page.select_option("#ng-game", "hamsterdam")
        start = page.locator("#new-game button[type=submit]")
        start.scroll_into_view_if_needed()
        assert page.evaluate("window.scrollY") > 0
        start.click()  # a game is under way: the first tap asks
        start.click()
        expect(page.locator("body")).to_have_attribute("data-game", "hamsterdam")
        expect(page.locator("#game-title")).to_contain_text("Hamsterdam")
        assert page.evaluate("window.scrollY") == 0
        assert not page.locator(".new-game-box").evaluate("(box) => box.open")
        page.close()
