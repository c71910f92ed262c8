"""A whole game of every served game, played to its end on the page in Chromium, as a table
plays it: each action is a tap on the page's own controls (the game's bot only decides which
one), every die the players roll is one the test rolled and set in the page's dice picker,
never one the companion made up (classic Run, Hamster, Run!'s alligators are the only dice
the rules give the companion). After every action with an outcome line (a test's winner, a
roll, a flood, a Chomp!) that line is on screen, inside the viewport and not merely somewhere
in the page; at the end the result is.

Each game is played on the tablet page at tablet size (1280x800) and again at phone size
(390x844); Run, Hamster, Run! and Rats once more with each player's moves on their own phone
(the seat page at phone size) and NEXT on the tablet. The games are the shortest the rules
allow: two players (Rats: four, one round), seeds with short games, a real game (no demo, no
"roll for us") started through the API as the page starts one. The dice are checked in the
SQLite file itself: each event's dice are exactly the faces the test set for it.
"""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from companion.config import GameDefaults
from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, NEXT, Event
from companion.engine.flow import step
from companion.engine.readings import DICE, DiceSeen, Reading
from companion.engine.session import GameHeader
from companion.engine.spec import GameSpec
from companion.games import find_game
from companion.simulate import bot_of, bot_turn
from companion.store import Store
from companion.table import Table
from tests.web.conftest import unlock
from tests.web.serving import serve_table

pytestmark = pytest.mark.browser

TABLET: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
MAX_ACTIONS = 600  # far more than any of these games takes; a stuck game fails loudly


@dataclass(frozen=True)
class Case:
    game: str
    rules: str
    players: tuple[str, ...]
    seed: int
    hand_dice: bool  # the players roll dice in this game (all but v2.1 and the Wheel)
    options: dict[str, Any] = field(default_factory=dict)
    # moves the seed's game must reach through the page's own forms (rarer parts of a game)
    covers: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.game}-{self.rules}"


CASES = [
    Case("run-hamster-run", "classic", ("Ann", "Bo"), 32, True),
    Case("run-hamster-run", "v2.1", ("Ann", "Bo"), 19, False),
    Case("hamster-wheel", "standard", ("Ann", "Bo"), 8, False, covers=("higher_powers",)),
    Case("hamsterdam", "full", ("Ann", "Bo"), 13, True),
    Case("hamsterdam", "classic", ("Ann", "Bo"), 25, True),
    Case(
        "rats",
        "standard",
        ("Ann", "Bo", "Cy", "Di"),
        3,
        True,
        {"rounds": 1},
        covers=("scrap", "mate", "offer", "steal"),  # a nest challenge: its own test below
    ),
]


class Player:
    """Plays one game on the tablet page, and on each player's phone when it has them: finds
    the control for a move and taps it."""

    def __init__(
        self,
        page: Page,
        table: Table,
        spec: GameSpec[Any],
        phones: list[Page] | None = None,
    ):
        self.page = page
        self.phones = phones or []
        self.table = table
        self.spec = spec
        self.entered: list[int] = []  # every die the test rolled and set on the page
        self.actions = 0
        self.outcomes = 0  # actions whose outcome line was checked in view
        self.fallbacks = 0  # actions the bot wanted that the page had no control for
        self.on_phones = 0  # actions tapped on a player's phone

    # -------------------------------------------------------------- what the page holds
    def page_for(self, seat: int | None) -> Page:
        """The page a seat acts on: its own phone, or the shared tablet."""
        return self.phones[seat] if self.phones and seat is not None else self.page

    def page_state(self, page: Page | None = None) -> dict[str, Any]:
        return dict((page or self.page).evaluate("state"))

    def settled(self, page: Page) -> None:
        """Wait until ``page`` shows the table's latest change: a phone learns of a tap on
        the tablet from the live stream, a moment later."""
        seq = self.table.public_state(with_log=False)["seq"]
        expect(page.locator("body")).to_have_attribute("data-seq", str(seq))

    def in_view(self, locator: Locator, page: Page | None = None) -> None:
        box = locator.bounding_box()
        assert box is not None, "not drawn"
        size = (page or self.page).viewport_size
        assert size is not None
        width, height = size["width"], size["height"]
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (box, size)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (box, size)

    # -------------------------------------------------------------- one action
    def act(self, tap: Any, dice: list[int], page: Page | None = None) -> None:
        """Do one action (``tap`` taps ``page``), then check what that page shows."""
        page = page or self.page
        # the outcome line the page last showed (a phone shows the game's notes)
        shown = "lastHappened" if page is self.page else "lastNotes"
        before_seq = page.locator("body").get_attribute("data-seq") or "0"
        before_text = page.evaluate(shown)
        if dice:
            self.demo_camera_sees(dice)
        tap()
        try:
            expect(page.locator("body")).not_to_have_attribute("data-seq", before_seq)
        except AssertionError:
            toast = page.locator("#toast")
            said = toast.text_content() if toast.is_visible() else "nothing"
            raise AssertionError(f"the tap changed nothing; the page said: {said}") from None
        self.entered.extend(dice)
        self.actions += 1
        self.on_phones += page is not self.page
        text = page.evaluate(shown)
        if text and text != before_text:  # the action had an outcome: it is in view
            banner = page.locator("#happened")
            expect(banner).to_be_visible()
            expect(banner).to_have_text(text)
            self.in_view(banner, page)
            self.outcomes += 1

    def demo_camera_sees(self, dice: list[int]) -> None:
        """The simulated (demo) camera reads other faces than the players rolled, sure of
        them: in a real game that is shown at most, never played."""
        seq = self.table.public_state(with_log=False)["seq"]
        seen = DiceSeen(
            values=tuple(6 if d != 6 else 5 for d in dice),
            confidences=(0.99,) * len(dice),
            auto_accept=True,
            demo=True,
        )
        self.table.observe(Reading(DICE, seen, source="camera")).result(timeout=10)
        assert self.table.public_state(with_log=False)["seq"] == seq  # nothing was applied

    def click_phone_choice(self, page: Page, seat: int, index: int) -> None:
        """Tap, on a seat's phone, the button it drew for its ``index``-th legal move."""
        legal = self.page_state(page)["legal"]
        mine = [i for i, choice in enumerate(legal) if choice["seat"] == seat]
        control = page.locator("#mine .choice-group button").nth(mine.index(index))
        expect(control).to_have_text(legal[index]["label"])
        self.act(control.click, [], page)

    def click_choice(self, index: int, dice: tuple[int, ...] = ()) -> None:
        """Tap the index-th button the page drew for ``state.legal`` (with its dice set)."""
        legal = self.page_state()["legal"]
        order: list[str] = []
        for choice in legal:  # the page groups the buttons by move name, in order
            if choice["name"] not in order:
                order.append(choice["name"])
        ranked = sorted(range(len(legal)), key=lambda i: order.index(legal[i]["name"]))
        control = self.page.locator("#choices .choice-group > *").nth(ranked.index(index))
        label = legal[index]["label"]
        expect(control).to_contain_text(label)  # the button the page drew for that move
        if not dice:
            self.act(control.click, [])
            return

        def roll_and_send() -> None:
            pickers = control.locator("select")
            for k, face in enumerate(dice):
                pickers.nth(k).select_option(str(face))
            control.locator("button").click()

        self.act(roll_and_send, list(dice))

    def next(self, dice: tuple[int, ...]) -> None:
        pickers = self.page.locator("#next-dice select")

        def roll_and_next() -> None:
            for k, face in enumerate(dice):
                pickers.nth(k).select_option(str(face))
            self.page.click("#btn-next")

        self.act(roll_and_next, list(dice))

    def allows(self, event: Event) -> bool:
        state = self.table.snapshot.state
        assert state is not None
        return _legal(self.spec, state, event)

    # -------------------------------------------------------------- the bot's event
    def perform(self, event: Event, rng: random.Random) -> bool:
        """Tap the page's control for ``event`` if the page has one; False if not."""
        self.settled(self.page)
        state = self.page_state()
        if event.kind == NEXT:
            due = state.get("next_dice") or []
            if due:
                dice = tuple(event.given[: len(due)]) or tuple(rng.randint(1, 6) for _ in due)
                if not self.allows(Event(NEXT, given=dice)):
                    return False
                self.next(dice)
                return True
            if event.given:  # a roll the page takes as a move with dice (Hamsterdam)
                for index, choice in enumerate(state["legal"]):
                    if choice.get("dice") == len(event.given):
                        self.click_choice(index, tuple(event.given))
                        return True
                return False
            if not self.allows(Event(NEXT)):
                return False
            self.next(())
            return True
        page = self.page_for(event.seat)
        if page is not self.page:
            self.settled(page)  # the phone has drawn the latest change (it arrives live)
            state = self.page_state(page)
        wanted = json.loads(json.dumps(dict(event.args)))
        same = [
            index
            for index, choice in enumerate(state["legal"])
            if choice["name"] == event.name and choice["seat"] == event.seat
        ]
        # the button for exactly that move, else one that says more (Hamsterdam's specials
        # name the piece too)
        exact = [i for i in same if state["legal"][i]["args"] == wanted]
        fuller = [
            i
            for i in same
            if all(state["legal"][i]["args"].get(key) == value for key, value in wanted.items())
        ]
        for index in (exact or fuller)[:1]:
            if page is not self.page:
                assert event.seat is not None
                self.click_phone_choice(page, event.seat, index)
            else:
                rolled = int(state["legal"][index].get("dice", 0))
                self.click_choice(index, tuple(event.given)[:rolled])
            return True
        return GAME_CONTROLS.get(self.spec.name, _no_control)(self, event, state, page)


def _no_control(player: Player, event: Event, state: dict[str, Any], page: Page) -> bool:
    return False


# ---------------------------------------------------------------- each game's own forms
def _rhr_controls(player: Player, event: Event, state: dict[str, Any], page: Page) -> bool:
    if event.name != "allocate":
        return False
    name = state["players"][event.seat]
    panel = "#allocate" if page is player.page else "#mine"  # the tablet, or the seat's phone
    form = page.locator(f"{panel} form.alloc").filter(has=page.locator("b", has_text=name))
    args = event.args

    def allocate() -> None:
        if page is player.page:  # the tablet shows one split at a time: pick whose
            page.locator("#allocate .alloc-who button", has_text=name).click()
        for trait in ("scamper", "mettle", "friskiness"):
            form.locator(f"input[name={trait}]").fill(str(args[trait]))
        if "against_alligators" in args:
            form.locator("select[name=against]").select_option(args["against_alligators"])
        form.locator("button[type=submit]").click()

    player.act(allocate, [], page)
    return True


def _wheel_counts(form: Locator, fell: list[str]) -> None:
    for colour in set(fell):
        form.locator(f"input[name={colour}]").fill(str(fell.count(colour)))


def _wheel_controls(player: Player, event: Event, state: dict[str, Any], page: Page) -> bool:
    args = event.args
    if event.name == "fail":
        form = page.locator("#hw-failed")

        def fail() -> None:
            for box in form.locator("input[type=number]").all():
                box.fill("0")
            _wheel_counts(form, list(args["fell"]))
            form.locator("input[name=stayed]").set_checked(bool(args["stayed"]))
            form.locator("button[type=submit]").click()

        player.act(fail, [])
        return True
    by_hand = page.locator("#allocate details.hw-by-hand")
    if event.name == "higher_powers":  # pieces fell between turns: the by-hand form
        form = by_hand.locator("form").filter(has=page.locator("h2", has_text="Higher Powers"))

        def set_aside() -> None:
            if by_hand.get_attribute("open") is None:
                by_hand.locator("summary").click()
            _wheel_counts(form, list(args["fell"]))
            form.locator("button[type=submit]").click()

        player.act(set_aside, [])
        return True
    if event.name == "turn_wheel":

        def turn() -> None:
            if by_hand.get_attribute("open") is None:
                by_hand.locator("summary").click()
            by_hand.locator("input[name=lowest]").fill(str(args["lowest"]))
            by_hand.locator("button", has_text="Set").first.click()

        player.act(turn, [])
        return True
    return False


def _rat_box(player: Player, state: dict[str, Any], seat: int, page: Page) -> Locator:
    """Where a rat's own controls are: its phone's panel, or its box on the tablet."""
    if page is not player.page:
        return page.locator("#mine")
    name = state["view"]["rats"][seat]["name"]
    return page.locator("#allocate details.rat-seat").filter(
        has=page.locator("summary", has_text=name)
    )


SUITS = {"c": "♣", "s": "♠", "d": "♦", "h": "♥"}


def _rats_controls(player: Player, event: Event, state: dict[str, Any], page: Page) -> bool:
    assert event.seat is not None
    box = _rat_box(player, state, event.seat, page)
    args = event.args
    if event.name == "create":
        form = box.locator("form.rat-form")

        def create() -> None:
            for k, size in enumerate(args["bonus"]):
                form.locator(f"select[aria-label='bonus die {k + 1}']").select_option(str(size))
            form.locator("button[type=submit]").click()

        player.act(create, [], page)
        return True
    if event.name == "play":
        rank, suit = args["card"][:-1], args["card"][-1]

        def play() -> None:
            box.locator(".rat-picker button", has_text=SUITS[suit]).first.click()
            box.locator(".rat-picker button", has_text=f"{rank}{SUITS[suit]}").first.click()

        player.act(play, [], page)
        return True
    if event.name == "roll":
        face = int(event.given[0])
        row = box.locator(".rat-entry").first
        tap = row.locator("button.face", has_text=str(face)).first.click
        player.act(tap, [face], page)
        return True
    if event.name == "reroll":  # 2 Hate: tap the die (any rat's), then what it shows now
        view = state["view"]
        nest, challenge = view.get("nest") or {}, view.get("challenge") or {}
        contest = nest.get("fight") or challenge
        owner = args["owner"]
        die = contest["rolls"][owner]["dice"][args["die"]]
        if die["face"] == 1 or event.seat in die["rerolled_by"]:
            return False  # the page offers no re-roll of that die
        name = view["rats"][owner]["name"]
        label = f"re-roll {name}'s d{die['size']} showing {die['face']}"
        face = int(event.given[0])
        panel = box.locator(".rat-reroll")

        def reroll() -> None:
            panel.get_by_role("button", name=label, exact=True).first.click()
            panel.locator("button.face", has_text=str(face)).first.click()

        player.act(reroll, [face], page)
        return True
    if event.name == "challenge":
        target = state["view"]["rats"][args["target"]]["name"]
        buttons = box.locator(".rat-picker button", has_text=target)
        player.act(buttons.first.click, [], page)
        return True
    return False


GAME_CONTROLS = {
    "run-hamster-run": _rhr_controls,
    "hamster-wheel": _wheel_controls,
    "rats": _rats_controls,
}


def _legal(spec: GameSpec[Any], state: Any, event: Event) -> bool:
    try:
        step(spec, state, event, record=False)
    except IllegalMoveError:
        return False
    return True


def play_to_the_end(player: Player, seed: int) -> None:
    """The bot picks; the page is tapped. A move the page has no control for is passed
    over for the bot's next candidate, then for a button the page offers."""
    spec, rng = player.spec, random.Random(seed)
    bot = bot_of(spec)
    while not player.table.public_state(with_log=False)["over"]:
        assert player.actions < MAX_ACTIONS, player.table.public_state(with_log=False)["prompt"]
        state = player.table.snapshot.state
        assert state is not None
        done = False
        for event in bot(state, rng):
            if event.kind == MOVE and not _legal(spec, state, event):
                continue
            if player.perform(event, rng):
                done = True
                break
        if not done:  # nothing the bot wanted is on the page: one of the page's buttons
            player.fallbacks += 1
            legal = player.page_state()["legal"]
            assert legal, f"no control for any move: {player.table.public_state()['prompt']}"
            index = rng.randrange(len(legal))
            dice = tuple(rng.randint(1, 6) for _ in range(int(legal[index].get("dice", 0))))
            player.click_choice(index, dice)


# The dice the rules give the companion to roll, not the players: classic Run, Hamster, Run!'s
# alligators (docs/rules/run-hamster-run.md), logged with their values like any draw.
COMPANION_DICE = {
    "does another alligator arrive?",
    "does this alligator Chomp!?",
    "the alligator's Mettle (d6 + 3)",
    "Pluck lost to the Chomp!",
}


def stored_moves(path: Path) -> set[str]:
    """The names of every move the store holds (the SQLite file itself)."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return {name for (name,) in db.execute("SELECT name FROM events WHERE kind = 'move'")}


def stored_dice(path: Path) -> list[int]:
    """Every die the players rolled, as the store holds it (the SQLite file itself).

    Each event's player dice must be exactly the faces given to it: a die with no given face
    behind it is one the companion made up.
    """
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        rows = db.execute("SELECT seq, given, outcome FROM events ORDER BY game_id, seq").fetchall()
    entered: list[int] = []
    for seq, given_json, outcome_json in rows:
        given = json.loads(given_json)
        dice = [
            o["value"]
            for o in json.loads(outcome_json)
            if o.get("kind") == "die" and o.get("why") not in COMPANION_DICE
        ]
        assert dice == given, f"event {seq}: dice {dice} but the players rolled {given}"
        entered.extend(given)
    return entered


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Table, int, Path]]:
    path = tmp_path / "companion.sqlite3"
    store = Store(path)
    table = Table(store, GameDefaults(players=("Ann", "Bo"), every_stop=True))
    with serve_table(table) as port:
        yield table, port, path
    store.close()


def start(page: Page, case: Case) -> None:
    """Start a real game (no demo, no "roll for us") as the page's New game form does."""
    body = {
        "game": case.game,
        "rules": case.rules,
        "players": list(case.players),
        "options": case.options,
        "seed": case.seed,
    }
    page.evaluate("(body) => api('/api/game', body).then((data) => applyState(data.state))", body)


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet", "phone"])
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_whole_game_on_the_page(
    browser: Browser, served: tuple[Table, int, Path], case: Case, viewport: ViewportSize
) -> None:
    table, port, path = served
    page = browser.new_page(viewport=viewport)
    page.goto(f"http://127.0.0.1:{port}")
    unlock(page)
    start(page, case)
    expect(page.locator("#game-title")).to_contain_text(case.rules)
    player = Player(page, table, find_game(case.game))
    play_to_the_end(player, case.seed)
    assert player.outcomes > 0
    assert bool(player.entered) == case.hand_dice  # the players' own dice went in by hand
    assert stored_dice(path) == player.entered  # every die stored is one the test set
    assert set(case.covers) <= stored_moves(path)  # the rarer forms were reached and worked
    result = table.public_state(with_log=False)["result"]
    assert result
    expect(page.locator("#prompt")).to_contain_text(result)
    expect(page.locator("#happened")).to_contain_text(result)  # where the last tap left it
    player.in_view(page.locator("#happened"))
    page.close()


SEATED = [c for c in CASES if c.id in ("run-hamster-run-v2.1", "rats-standard")]


@pytest.mark.parametrize("case", SEATED, ids=[c.id for c in SEATED])
def test_a_whole_game_with_each_player_on_their_phone(
    browser: Browser, served: tuple[Table, int, Path], case: Case
) -> None:
    """Each player's moves from their own phone (the seat page at phone size: a Pluck
    allocation, a rat's dice and cards), NEXT from the tablet."""
    table, port, path = served
    base = f"http://127.0.0.1:{port}"
    page = browser.new_page(viewport=TABLET)
    page.goto(base)
    unlock(page)
    start(page, case)
    expect(page.locator("#game-title")).to_contain_text(case.rules)
    token = page.evaluate("token")
    seats = page.request.get(f"{base}/api/seats", headers={"X-Table-Token": token}).json()
    phones = []
    for seat in seats["seats"]:
        phone = browser.new_page(viewport=PHONE)
        phone.goto(f"{base}/seat/{seat['code']}")
        expect(phone.locator("#seat-title")).to_contain_text(seat["name"])
        phones.append(phone)
    player = Player(page, table, find_game(case.game), phones)
    play_to_the_end(player, case.seed)
    # Every move the players made went through their own phones; only NEXT is the tablet's.
    assert player.fallbacks == 0 and player.on_phones > 0
    assert player.outcomes > 0
    assert bool(player.entered) == case.hand_dice
    assert stored_dice(path) == player.entered
    assert set(case.covers) <= stored_moves(path)
    result = table.public_state(with_log=False)["result"]
    assert result
    for phone in phones:
        expect(phone.locator("#prompt")).to_contain_text(result)
        phone.close()
    expect(page.locator("#happened")).to_contain_text(result)
    player.in_view(page.locator("#happened"))
    page.close()


def test_a_suit_tapped_in_the_rats_card_picker_survives_a_redraw(
    browser: Browser, served: tuple[Table, int, Path]
) -> None:
    """A card from the table's own deck takes two taps, suit then rank; a redraw in between
    (the live stream, a tablet waking up) used to put the picker back to the suits."""
    table, port, _ = served
    rats = ("Ann", "Bo", "Cy", "Di")
    table.new_game(GameHeader("rats", "standard", rats, 17, {"rounds": 1}))
    spec, rng = find_game("rats"), random.Random(17)
    while table.public_state(with_log=False)["phase"] != "tunnel":  # the rats are made
        state = table.snapshot.state
        assert state is not None
        bot_turn(bot_of(spec), state, rng, lambda e: table.submit(e).result(timeout=10))
    page = browser.new_page(viewport=TABLET)
    page.goto(f"http://127.0.0.1:{port}")
    unlock(page)
    picker = page.locator("#allocate .rat-picker").first
    picker.locator("button", has_text="♣").click()
    expect(picker.locator("button", has_text="10♣")).to_be_visible()
    seq = page.locator("body").get_attribute("data-seq")
    page.evaluate("refresh()")  # what a tablet does when it wakes
    expect(page.locator("body")).to_have_attribute("data-seq", str(seq))
    picker.locator("button", has_text="10♣").click()
    expect(page.locator(".rat-challenge .card.big")).to_have_text("10♣")
    page.close()


def test_a_rat_challenges_the_dominant_rat_from_the_page(
    browser: Browser, served: tuple[Table, int, Path]
) -> None:
    """The nest's challenge of the Dominant Rat and the answer to it, tapped on the page
    (the whole game's seed does not reach one): the game is played by the bot up to the
    moment a rat challenges, then the challenge and everything up to its answer are taps."""
    table, port, path = served
    table.new_game(GameHeader("rats", "standard", ("Ann", "Bo", "Cy", "Di"), 0, {"rounds": 1}))
    spec, rng = find_game("rats"), random.Random(0)
    bot = bot_of(spec)
    for _ in range(MAX_ACTIONS):
        state = table.snapshot.state
        assert state is not None and not state.ctx.over, "no challenge in this game"
        event = next(e for e in bot(state, rng) if e.kind == NEXT or _legal(spec, state, e))
        if state.ctx.phase == "nest" and event.name == "challenge":
            break
        table.submit(event).result(timeout=10)
    page = browser.new_page(viewport=TABLET)
    page.goto(f"http://127.0.0.1:{port}")
    unlock(page)
    player = Player(page, table, spec)
    assert player.perform(event, rng), "the page offers no challenge"
    for _ in range(20):  # the answer, and any dice before it, as taps
        if "answer" in stored_moves(path):
            break
        state = table.snapshot.state
        assert state is not None
        assert any(player.perform(e, rng) for e in bot(state, rng) if _legal(spec, state, e))
    assert {"challenge", "answer"} <= stored_moves(path)
    assert player.outcomes > 0
    page.close()
