"""A restart of the companion (a power cut, an update) changes nothing for the players:
unlocked tablets stay unlocked, phones keep their seats and links, "lock all" stays in
force, and what expired stays expired. Each test builds the app on a games file, stops it
and builds a new app on the same file, as ``companion run`` does after a restart."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.store import MIGRATIONS, SCHEMA_VERSION, AccessStore, Store, StoreError
from companion.table import Table
from web import create_app
from web.auth import TABLE_FREE_GUESSES, TOKEN_HEADER, TablePin

PIN = "246810"
RATS = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


class Companion:
    """One run of the companion on a games file: its store, table and page."""

    def __init__(self, path: Path, *, new_game: bool = False) -> None:
        self.store = Store(path)
        self.table = Table(self.store, GameDefaults(players=RATS))
        if new_game:
            self.new_game(11)
        self.access = AccessStore(self.store)
        # Own set-up: the app is built again over the same games file, as a restart does.
        self.app: Flask = create_app(
            self.table, PIN, access=self.access, test_config={"TESTING": True}
        )
        self.client: FlaskClient = self.app.test_client()

    def new_game(self, seed: int) -> None:
        self.table.new_game(GameHeader("rats", "standard", RATS, seed, {"deck": "phone"}))

    def stop(self) -> None:
        self.table.close()
        self.store.close()

    def unlock(self, address: str = "10.0.0.2") -> dict[str, str]:
        answer = self.client.post(
            "/api/login", json={"pin": PIN}, environ_base={"REMOTE_ADDR": address}
        )
        assert answer.status_code == 200, answer.get_json()
        return {TOKEN_HEADER: answer.get_json()["token"]}

    def codes(self, tablet: dict[str, str]) -> list[str]:
        answer = self.client.get("/api/seats", headers=tablet)
        assert answer.status_code == 200, answer.get_json()
        return [str(s["code"]) for s in answer.get_json()["seats"]]

    def join(self, code: str, address: str) -> tuple[int, dict[str, object]]:
        """A phone opening its seat link (the page posts its code)."""
        answer = self.client.post(
            "/api/join", json={"code": code}, environ_base={"REMOTE_ADDR": address}
        )
        return answer.status_code, answer.get_json()

    def seat_of(self, phone: dict[str, str]) -> object:
        return self.client.get("/api/state", headers=phone).get_json()["seat"]

    def controls(self, tablet: dict[str, str]) -> bool:
        return bool(self.client.get("/api/state", headers=tablet).get_json()["control"])


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "companion.sqlite3"


@pytest.fixture
def first(path: Path) -> Iterator[Companion]:
    run = Companion(path, new_game=True)
    yield run
    run.stop()


def _phone(token: object) -> dict[str, str]:
    return {TOKEN_HEADER: str(token)}


def test_after_a_restart_tablets_stay_unlocked_and_phones_keep_their_seats(
    first: Companion, path: Path
) -> None:
    tablet = first.unlock()
    codes = first.codes(tablet)
    status, joined = first.join(codes[1], "10.0.0.21")
    assert status == 200
    phone = _phone(joined["token"])
    game = first.table.game_id
    first.stop()

    again = Companion(path)
    try:
        assert again.table.game_id == game
        assert again.controls(tablet)  # the tablet needs no PIN again
        assert again.seat_of(phone) == 1  # the phone's stored token still holds Bob's seat
        assert again.codes(tablet) == codes  # the tablet shows the same codes
        status, rejoined = again.join(codes[1], "10.0.0.21")  # the old link, reloaded
        assert status == 200 and rejoined["seat"] == 1 and rejoined["game_id"] == game
        step = again.client.post("/api/intent", json={"intent": "next"}, headers=tablet)
        assert step.status_code != 401
    finally:
        again.stop()


def test_six_phones_reloading_after_a_power_cut_lock_nobody_out(
    first: Companion, path: Path
) -> None:
    """Six Rats phones reloading their links after a power cut counted as wrong guesses;
    with the tablet's own tries that tripped the table lock, and nobody could unlock."""
    tablet = first.unlock()
    codes = first.codes(tablet)
    for seat, code in enumerate(codes):
        assert first.join(code, f"10.0.1.{seat}")[0] == 200
    # A power cut: the old process never closes its store (no checkpoint, the WAL stays).
    cut = Companion(path)
    try:
        for _ in range(3):  # each phone reloads its link a few times while the Pi boots
            for seat, code in enumerate(codes):
                status, joined = cut.join(code, f"10.0.1.{seat}")
                assert status == 200 and joined["seat"] == seat
        assert len(codes) * 3 > TABLE_FREE_GUESSES  # enough to lock the table if counted
        assert cut.controls(cut.unlock("10.0.0.3"))  # a second tablet still unlocks
    finally:
        cut.stop()


def test_lock_all_before_a_restart_stays_in_force(first: Companion, path: Path) -> None:
    tablet = first.unlock()
    spare = first.unlock("10.0.0.9")
    codes = first.codes(tablet)
    phone = _phone(first.join(codes[0], "10.0.0.21")[1]["token"])
    ended = first.client.post("/api/logout", json={"all": True}, headers=tablet)
    assert ended.get_json() == {"ended": 3}
    first.stop()

    again = Companion(path)
    try:
        assert not again.controls(tablet) and not again.controls(spare)
        assert again.seat_of(phone) is None
        for _ in range(TABLE_FREE_GUESSES + 2):  # reloading an ended link: never a guess
            status, said = again.join(codes[0], "10.0.0.21")
            assert status == 403 and "ended on the tablet" in str(said["error"])
        fresh = again.unlock("10.0.0.21")  # so no lock-out: the PIN unlocks at once
        new_codes = again.codes(fresh)
        assert not set(new_codes) & set(codes)
        assert again.join(new_codes[0], "10.0.0.21")[1]["seat"] == 0
    finally:
        again.stop()


def test_a_tablet_locked_before_a_restart_stays_locked(first: Companion, path: Path) -> None:
    tablet, other = first.unlock(), first.unlock("10.0.0.9")
    assert first.client.post("/api/logout", json={}, headers=tablet).get_json() == {"ended": 1}
    first.stop()
    again = Companion(path)
    try:
        assert not again.controls(tablet) and again.controls(other)
    finally:
        again.stop()


def test_a_new_game_after_a_restart_gives_new_codes_and_ends_old_seats(
    first: Companion, path: Path
) -> None:
    tablet = first.unlock()
    codes = first.codes(tablet)
    phone = _phone(first.join(codes[2], "10.0.0.23")[1]["token"])
    first.stop()
    again = Companion(path)
    try:
        again.new_game(12)
        assert again.seat_of(phone) is None  # a seat holds for the game it joined only
        assert not set(again.codes(tablet)) & set(codes)
    finally:
        again.stop()


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def test_expired_tokens_stay_expired_after_a_restart(path: Path) -> None:
    clock = Clock()
    store = Store(path)
    pins = TablePin(PIN, clock, token_seconds=3600, store=AccessStore(store))
    old = pins.login("10.0.0.2", PIN)
    clock.now += 1800
    young = pins.login("10.0.0.2", PIN)
    seat = pins.grant_seat(1, 7)
    store.close()

    clock.now += 1801  # the companion was off while the first token ran out
    store = Store(path)
    try:
        pins = TablePin(PIN, clock, token_seconds=3600, store=AccessStore(store))
        assert not pins.allows(old) and pins.allows(young)
        found = pins.grant(seat)
        assert found is not None and (found.seat, found.game_id) == (1, 7)
        clock.now += 1800
        assert not pins.allows(young) and pins.grant(seat) is None
        # Checking a token never writes (every page and stream does it): the next start,
        # which reads the file, forgets them.
        TablePin(PIN, clock, token_seconds=3600, store=AccessStore(store))
        assert store._read("SELECT COUNT(*) FROM tokens")[0][0] == 0
    finally:
        store.close()


def test_a_clock_set_back_at_boot_lengthens_no_token_beyond_its_lifetime(path: Path) -> None:
    """A Pi has no clock of its own: it may boot a day early until it hears the time."""
    clock = Clock()
    store = Store(path)
    token = TablePin(PIN, clock, token_seconds=3600, store=AccessStore(store)).login("a", PIN)
    store.close()
    clock.now -= 24 * 3600
    store = Store(path)
    try:
        pins = TablePin(PIN, clock, token_seconds=3600, store=AccessStore(store))
        clock.now += 3599
        assert pins.allows(token)
        clock.now += 2
        assert not pins.allows(token)
    finally:
        store.close()


def test_the_file_keeps_no_token_and_only_its_owner_may_read_it(
    first: Companion, path: Path
) -> None:
    tablet = first.unlock()
    phone = first.join(first.codes(tablet)[0], "10.0.0.21")[1]["token"]
    first.store.close()
    first.store = Store(path)  # everything folded into the file itself
    data = b"".join(p.read_bytes() for p in path.parent.glob("companion.sqlite3*"))
    for token in (tablet[TOKEN_HEADER], str(phone)):
        assert token.encode() not in data
    assert path.stat().st_mode & 0o777 == 0o600
    assert first.store._read("SELECT COUNT(*) FROM tokens")[0][0] == 2


def test_a_lock_all_the_card_cannot_record_is_said_not_hidden(
    first: Companion, monkeypatch: pytest.MonkeyPatch
) -> None:
    tablet = first.unlock()

    def full() -> None:
        raise StoreError("The SD card is full")

    monkeypatch.setattr(first.access, "end_access", full)
    answer = first.client.post("/api/logout", json={"all": True}, headers=tablet)
    assert answer.status_code == 503
    said = answer.get_json()["error"]
    assert "locked out now" in said and "SD card is full" in said and "restart" in said
    assert not first.controls(tablet)  # locked out now all the same


def test_a_games_file_from_before_kept_access_opens_and_plays_on(path: Path) -> None:
    db = sqlite3.connect(path)
    for script in MIGRATIONS[:3]:
        db.executescript(script)
    db.execute(
        "INSERT INTO games (game, rules, seed, players, options, created) "
        "VALUES ('rats', 'standard', 11, ?, '{\"deck\": \"phone\"}', 0)",
        ('["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]',),
    )
    db.execute("INSERT INTO settings (key, value) VALUES ('current_game', '1')")
    db.execute("PRAGMA user_version=3")
    db.commit()
    db.close()
    run = Companion(path)
    try:
        assert run.store.version == SCHEMA_VERSION and run.table.game_id == 1
        tablet = run.unlock()
        assert run.join(run.codes(tablet)[0], "10.0.0.21")[1]["seat"] == 0
    finally:
        run.stop()
    again = Companion(path)
    try:
        assert again.controls(tablet)
    finally:
        again.stop()


class SlowCard(AccessStore):
    """A real games file on a card that takes its time over one write (an SD card's fsync)."""

    def __init__(self, path: Path) -> None:
        self.file = Store(path)
        super().__init__(self.file)
        self.writing = threading.Event()
        self.finish = threading.Event()

    def add_token(self, *args: Any, **kwargs: Any) -> None:
        self.writing.set()
        self.finish.wait(10)
        super().add_token(*args, **kwargs)


def test_pages_are_not_held_up_while_a_new_token_is_written(path: Path) -> None:
    """Every page and live stream asks what its token unlocks; a login writing its token
    to a slow card held the same lock, so in a reconnect storm every page waited on the
    card. Now the check is answered while the write is under way, and the login returns
    once its token is kept."""
    store = SlowCard(path)
    pins = TablePin(PIN, token_seconds=3600, store=store)
    result: list[str] = []
    login = threading.Thread(target=lambda: result.append(pins.login("10.0.0.3", PIN)))
    checked = threading.Event()

    def a_page_checks_its_token() -> None:
        pins.grant("a phone's token")
        checked.set()

    page = threading.Thread(target=a_page_checks_its_token)
    try:
        login.start()
        assert store.writing.wait(10)
        page.start()
        assert checked.wait(10)  # answered while the login's write still waits on the card
        assert not result  # and the login has not returned before its token is written
    finally:
        store.finish.set()
        login.join(10)
        page.join(10)
        store.file.close()
    assert result and pins.allows(result[0])
