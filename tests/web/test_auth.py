"""Tokens and PIN guesses: expiry, revocation, seat binding, and a throttle that rotating
addresses cannot get round."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from web.auth import SEAT_TOKENS, TABLE_FREE_GUESSES, TablePin, ThrottledError, WrongPinError

PIN = "246810"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_token_expires_and_can_be_revoked() -> None:
    clock = Clock()
    pins = TablePin(PIN, clock, token_seconds=3600)
    token = pins.login("10.0.0.5", PIN)
    assert pins.allows(token)
    clock.now += 3599
    assert pins.allows(token)
    clock.now += 2
    assert not pins.allows(token)  # a day-old tablet must unlock again
    again = pins.login("10.0.0.5", PIN)
    assert pins.revoke(again) and not pins.allows(again)
    first, second = pins.login("a", PIN), pins.login("b", PIN)
    assert pins.revoke_all() == 2 and not pins.allows(first) and not pins.allows(second)


def test_a_seat_token_never_controls_the_table() -> None:
    pins = TablePin(PIN, Clock())
    token = pins.grant_seat(2)
    grant = pins.grant(token)
    assert grant is not None and grant.seat == 2 and not pins.allows(token)


def test_rotating_addresses_meet_the_table_lock() -> None:
    """200 addresses guessing in turn used to get 1,200 guesses a minute."""
    clock = Clock()
    pins = TablePin(PIN, clock)
    guesses = 0
    for address in range(200):
        try:
            pins.login(f"10.0.{address}.1", "000000")
        except WrongPinError:
            guesses += 1
        except ThrottledError as wait:
            assert wait.seconds > 0 and "wait" in str(wait)
            break
    assert guesses == TABLE_FREE_GUESSES  # the table locked itself after that
    with pytest.raises(ThrottledError):
        pins.login("10.9.9.9", PIN)  # everyone waits, even with the right PIN
    clock.now += 3600
    assert pins.allows(pins.login("10.9.9.9", PIN))


def test_no_minute_ever_holds_more_than_ten_wrong_guesses() -> None:
    """200 rotating addresses, a guess every 50 ms for ten minutes: 14 wrong PINs got
    through in the first minute (a 2 s, then 4 s lock after the tenth)."""
    clock = Clock()
    pins = TablePin(PIN, clock)
    wrong: list[float] = []
    start = clock.now
    for attempt in range(12_000):
        clock.now = start + attempt * 0.05
        try:
            pins.login(f"10.0.{attempt % 200}.1", "000000")
        except WrongPinError:
            wrong.append(clock.now)
        except ThrottledError:
            pass
    assert len([t for t in wrong if t < start + 60]) == TABLE_FREE_GUESSES
    for when in wrong:  # any window of 60 s, however placed, ends at some guess
        assert len([t for t in wrong if when - 60 < t <= when]) <= TABLE_FREE_GUESSES
    assert len(wrong) < 30  # and the doubling lock slows a long run far below that


def test_odd_tokens_are_just_not_tokens(client: FlaskClient) -> None:
    for odd in ("ü" * 4, "x" * 5000, "\t"):
        answer = client.post("/api/intent", json={"intent": "next"}, headers={"X-Table-Token": odd})
        assert answer.status_code == 401


def test_lock_ends_this_token_and_lock_all_needs_control(client: FlaskClient) -> None:
    token = client.post("/api/login", json={"pin": PIN}).get_json()["token"]
    other = client.post("/api/login", json={"pin": PIN}).get_json()["token"]
    assert client.post("/api/logout", json={}, headers={"X-Table-Token": token}).get_json() == {
        "ended": 1
    }
    refused = client.post("/api/intent", json={"intent": "undo"}, headers={"X-Table-Token": token})
    assert refused.status_code == 401
    assert client.post("/api/logout", json={"all": True}).status_code == 401
    ended = client.post("/api/logout", json={"all": True}, headers={"X-Table-Token": other})
    assert ended.get_json() == {"ended": 1}


def test_lock_all_ends_the_seat_links_too(client: FlaskClient) -> None:
    """Lock all ended the phones' tokens, but a phone (or whoever photographed its QR
    code) reloading the seat link joined again at once: no way to shut a seat out."""
    tablet = {"X-Table-Token": client.post("/api/login", json={"pin": PIN}).get_json()["token"]}
    code = client.get("/api/seats", headers=tablet).get_json()["seats"][0]["code"]
    phone = client.post("/api/join", json={"code": code}).get_json()["token"]
    assert client.get("/api/state", headers={"X-Table-Token": phone}).get_json()["seat"] == 0
    client.post("/api/logout", json={"all": True}, headers=tablet)
    assert client.get("/api/state", headers={"X-Table-Token": phone}).get_json()["seat"] is None
    for _ in range(15):  # a phone reloading its old link: one sentence, never a guess
        again = client.post("/api/join", json={"code": code})
        assert again.status_code == 403 and "ended on the tablet" in again.get_json()["error"]
    tablet = {"X-Table-Token": client.post("/api/login", json={"pin": PIN}).get_json()["token"]}
    fresh = client.get("/api/seats", headers=tablet).get_json()["seats"][0]["code"]
    assert fresh != code
    assert client.post("/api/join", json={"code": fresh}).get_json()["seat"] == 0


def test_joining_in_a_loop_keeps_a_few_tokens_per_seat() -> None:
    """Every join made a token kept for a day: a phone posting its code in a loop could
    fill the Pi's memory (a quarter of a kilobyte each)."""
    pins = TablePin(PIN, Clock())
    code = pins.seat_code(1, 0)
    other = pins.join("10.0.0.9", pins.seat_code(1, 1))[0]
    tokens = [pins.join("10.0.0.5", code)[0] for _ in range(5_000)]
    assert len(pins._grants) <= SEAT_TOKENS + 1
    assert all(pins.grant(t) is not None for t in tokens[-SEAT_TOKENS:])
    assert pins.grant(tokens[0]) is None and pins.grant(other) is not None


def test_a_phone_held_back_by_the_table_lock_is_told_why(client: FlaskClient) -> None:
    """A phone joining while guessers locked the table was told "Too many wrong PINs",
    though its player typed no PIN at all."""
    tablet = {"X-Table-Token": client.post("/api/login", json={"pin": PIN}).get_json()["token"]}
    code = client.get("/api/seats", headers=tablet).get_json()["seats"][0]["code"]
    for address in range(TABLE_FREE_GUESSES + 1):
        client.post(
            "/api/login", json={"pin": "000000"}, environ_base={"REMOTE_ADDR": f"10.1.{address}.1"}
        )
    held = client.post("/api/join", json={"code": code})
    assert held.status_code == 429
    said = held.get_json()["error"]
    assert not said.startswith("Too many wrong PINs") and "scan your seat's code again" in said
