"""A whole 10-round game of Rats for five, every move sent the way the table sends it:
each rat's moves from its own phone's seat token, NEXT from the tablet. Nothing a phone
sends may act for another seat, and the companion keeps every count right to the end."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.config import GameDefaults
from companion.engine.events import NEXT
from companion.engine.session import GameHeader
from companion.games.rats import SPEC
from companion.store import Store
from companion.table import Table
from tests.web.conftest import PIN
from tests.web.serving import page_client
from web.auth import TOKEN_HEADER

RATS = ("Ann", "Bob", "Cat", "Dan", "Eve")


@pytest.fixture
def five(tmp_path: Path) -> Iterator[Table]:
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=RATS))
    table.new_game(GameHeader("rats", "standard", RATS, 21, {"deck": "phone"}))
    yield table
    table.close()
    store.close()


def test_five_rats_play_ten_rounds_from_their_phones(five: Table) -> None:
    client: FlaskClient = page_client(five)
    tablet = client.post("/api/login", json={"pin": PIN}).get_json()["token"]
    seats = client.get("/api/seats", headers={TOKEN_HEADER: tablet}).get_json()["seats"]
    phones = [client.post("/api/join", json={"code": s["code"]}).get_json()["token"] for s in seats]
    rng = random.Random(3)
    refused = 0
    for _ in range(20_000):
        snapshot = five.snapshot
        state = snapshot.state
        assert state is not None
        if state.ctx.over:
            break
        for event in SPEC.bot(state, rng):  # type: ignore[misc]
            if event.kind == NEXT:
                response = client.post(
                    "/api/intent", json={"intent": "next"}, headers={TOKEN_HEADER: tablet}
                )
            else:
                assert event.seat is not None
                body = {"seat": event.seat, "name": event.name, "args": event.args}
                body["given"] = list(event.given)
                response = client.post(
                    "/api/move", json=body, headers={TOKEN_HEADER: phones[event.seat]}
                )
            if response.status_code == 200:
                break
            assert response.status_code == 409, response.get_json()
            refused += 1
    final = five.public_state(with_log=False)
    assert final["over"] and final["round"] == 10, final["prompt"]
    game = five.snapshot.state.G  # type: ignore[union-attr]
    assert all(rat.hate >= 0 for rat in game.rats)
    in_hands = sum(rat.hand_count + len(rat.dominance) for rat in game.rats)
    assert in_hands + game.deck_count + game.discard_count == 52
    # A phone never acts for another seat.
    wrong = client.post(
        "/api/move", json={"seat": 1, "name": "draw", "args": {}}, headers={TOKEN_HEADER: phones[0]}
    )
    assert wrong.status_code == 403
