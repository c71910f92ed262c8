"""A player's phone joins its own seat from the code the tablet shows: no PIN, that seat's
moves and secrets only, and nothing once another game has started."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from companion.table import Table
from web.auth import TOKEN_HEADER, WrongSeatCodeError


def _codes(client: FlaskClient, token: str) -> list[dict[str, object]]:
    response = client.get("/api/seats", headers={TOKEN_HEADER: token})
    assert response.status_code == 200
    return list(response.get_json()["seats"])


def _join(client: FlaskClient, code: object) -> str:
    response = client.post("/api/join", json={"code": code})
    assert response.status_code == 200, response.get_json()
    return str(response.get_json()["token"])


def test_seat_codes_need_the_pin_and_give_an_address_and_a_qr_code(
    client: FlaskClient, token: str
) -> None:
    assert client.get("/api/seats").status_code == 401
    seats = _codes(client, token)
    assert [s["seat"] for s in seats] == [0, 1, 2, 3]
    assert all(str(s["url"]).endswith(f"/seat/{s['code']}") for s in seats)
    assert all(str(s["svg"]).lstrip().startswith("<?xml") or "<svg" in str(s["svg"]) for s in seats)
    assert _codes(client, token) == seats  # the same codes until a new game
    assert client.get(f"/seat/{seats[0]['code']}").status_code == 200


def test_a_seat_token_moves_only_for_its_own_seat(client: FlaskClient, token: str) -> None:
    seats = _codes(client, token)
    phone = _join(client, seats[1]["code"])
    state = client.get("/api/state", headers={TOKEN_HEADER: phone}).get_json()
    assert state["seat"] == 1 and state["control"] is False
    response = client.post(
        "/api/move", json={"seat": 0, "name": "allocate", "args": {}}, headers={TOKEN_HEADER: phone}
    )
    assert response.status_code == 403
    assert "only make Bob's moves" in response.get_json()["error"]
    response = client.post("/api/intent", json={"intent": "next"}, headers={TOKEN_HEADER: phone})
    assert response.status_code == 401  # NEXT is the table's


def test_a_wrong_code_is_one_clear_sentence_and_is_throttled(client: FlaskClient) -> None:
    response = client.post("/api/join", json={"code": "ZZZZZZ"})
    assert response.status_code == 403
    assert "scan the seat's code on the tablet again" in response.get_json()["error"]
    for _ in range(5):
        response = client.post("/api/join", json={"code": "ZZZZZZ"})
    assert response.status_code == 429
    assert client.post("/api/join", json={"code": 5}).status_code == 400


def test_a_seat_token_ends_with_its_game(client: FlaskClient, token: str, table: Table) -> None:
    phone = _join(client, _codes(client, token)[2]["code"])
    response = client.post(
        "/api/game",
        json={"game": "rats", "players": ["A", "B", "C", "D"], "options": {"deck": "phone"}},
        headers={TOKEN_HEADER: token},
    )
    assert response.status_code == 200, response.get_json()
    state = client.get("/api/state", headers={TOKEN_HEADER: phone}).get_json()
    assert state["seat"] is None  # the old game's seat means nothing now
    new_codes = _codes(client, token)
    assert all(c["code"] != "" for c in new_codes)


def test_a_code_from_the_previous_game_is_refused_with_a_sentence(
    client: FlaskClient, token: str
) -> None:
    """It joined (200) and handed out a token that every request then refused (401)."""
    old = _codes(client, token)[0]["code"]
    response = client.post(
        "/api/game", json={"game": "rats", "players": ["A", "B", "C", "D"]},
        headers={TOKEN_HEADER: token},
    )  # fmt: skip
    assert response.status_code == 200, response.get_json()
    for _ in range(6):  # an issued code, not a guess: never throttled
        refused = client.post("/api/join", json={"code": old})
        assert refused.status_code == 403 and "token" not in refused.get_json()
        assert "earlier game" in refused.get_json()["error"]
        assert "scan your seat's code on the tablet again" in refused.get_json()["error"]
    new = _codes(client, token)[0]["code"]
    assert new != old and _join(client, new)


def test_game_options_are_checked_with_a_sentence(client: FlaskClient, token: str) -> None:
    def start(options: object) -> tuple[int, str]:
        response = client.post(
            "/api/game",
            json={"game": "rats", "players": ["A", "B", "C", "D"], "options": options},
            headers={TOKEN_HEADER: token},
        )
        return response.status_code, str((response.get_json() or {}).get("error", ""))

    assert start({"rounds": 0}) == (400, "'rounds' is a whole number from 1 to 30.")
    assert start({"deck": "tarot"}) == (400, "'deck' is one of: physical, phone.")
    assert start({"colour": "red"})[1].startswith("Rats has no option 'colour'")
    assert start({"rounds": 3})[0] == 200
    games = client.get("/api/games").get_json()["games"]
    rats = next(g for g in games if g["name"] == "rats")
    assert rats["options"]["rounds"]["default"] == 10


def test_codes_are_kept_per_game_and_seat() -> None:
    from web.auth import TablePin

    pins = TablePin("123456")
    first = pins.seat_code(1, 0)
    assert pins.seat_code(1, 0) == first and pins.seat_code(2, 0) != first
    token, seat, game = pins.join("phone", first.lower())
    assert (seat, game) == (0, 1) and pins.grant(token) is not None
    with pytest.raises(WrongSeatCodeError):
        pins.join("phone", "nope")
