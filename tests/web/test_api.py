"""Every endpoint through Flask's client, including bad and hostile input."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.table import Table
from tests.web.conftest import PIN


def post(client: FlaskClient, path: str, body: Any, token: str | None = None) -> Any:
    headers = {"X-Table-Token": token} if token else {}
    return client.post(path, json=body, headers=headers)


def test_page_and_manifest_load(client: FlaskClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and b"Hamster table companion" in page.data
    manifest = client.get("/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    assert manifest.get_json()["display"] == "fullscreen"
    script = client.get("/static/app.js")
    assert script.status_code == 200
    script.close()


def test_watching_needs_no_pin_but_control_does(client: FlaskClient) -> None:
    state = client.get("/api/state").get_json()
    assert state["control"] is False and state["phase"] == "setup"
    assert state["prompt"].startswith("Alice: put your hamster")
    refused = post(client, "/api/intent", {"intent": "next"})
    assert refused.status_code == 401 and "table PIN" in refused.get_json()["error"]
    forged = post(client, "/api/intent", {"intent": "next"}, token="guess")
    assert forged.status_code == 401


def test_pin_guesses_are_throttled(client: FlaskClient) -> None:
    for _ in range(3):
        assert post(client, "/api/login", {"pin": "000000"}).status_code == 403
    locked = post(client, "/api/login", {"pin": PIN})
    assert locked.status_code == 429 and "wait" in locked.get_json()["error"]


def test_a_move_and_an_illegal_move(client: FlaskClient, token: str, table: Table) -> None:
    ok = post(client, "/api/move", {"seat": 0, "name": "place", "args": {"to": [5, 3]}}, token)
    assert ok.status_code == 200 and ok.get_json()["state"]["current"] == 1
    seq = table.public_state()["seq"]
    bad = post(client, "/api/move", {"seat": "Bob", "name": "place", "args": {"to": [5, 3]}}, token)
    assert bad.status_code == 409 and "taken" in bad.get_json()["error"]
    assert table.public_state()["seq"] == seq
    undo = post(client, "/api/intent", {"intent": "undo"}, token)
    assert undo.status_code == 200 and undo.get_json()["state"]["can_redo"] is True
    state = client.get("/api/state").get_json()
    assert state["log"][0]["undone"] is True


def test_a_misspelt_move_detail_is_refused_by_name(
    client: FlaskClient, token: str, table: Table
) -> None:
    seq = table.public_state()["seq"]
    args = {"to": [5, 3], "hamstr": "Alice"}
    refused = post(client, "/api/move", {"seat": 0, "name": "place", "args": args}, token)
    assert refused.status_code == 409 and "'hamstr'" in refused.get_json()["error"]
    assert table.public_state()["seq"] == seq


def test_state_offers_only_legal_moves(client: FlaskClient) -> None:
    legal = client.get("/api/state").get_json()["legal"]
    assert legal and all(choice["name"] == "place" and choice["seat"] == 0 for choice in legal)
    assert len(legal) == 25


def test_secret_allocations_stay_secret_in_the_log(client: FlaskClient, token: str) -> None:
    for seat, square in enumerate([[1, 1], [1, 2], [1, 3], [1, 4]]):
        post(client, "/api/move", {"seat": seat, "name": "place", "args": {"to": square}}, token)
    post(client, "/api/intent", {"intent": "next"}, token)
    post(
        client,
        "/api/move",
        {"seat": 0, "name": "allocate", "args": {"scamper": 7, "mettle": 0, "friskiness": 0}},
        token,
    )
    state = client.get("/api/state").get_json()
    assert "7" not in json.dumps(state["log"][-1]) and state["log"][-1]["secret"] is True
    assert state["view"]["hamsters"][0]["traits"] is None


def test_pluck_is_allocated_in_whole_chips_and_a_refusal_stores_nothing(
    client: FlaskClient, token: str, table: Table
) -> None:
    for seat, square in enumerate([[1, 1], [1, 2], [1, 3], [1, 4]]):
        post(client, "/api/move", {"seat": seat, "name": "place", "args": {"to": square}}, token)
    post(client, "/api/intent", {"intent": "next"}, token)
    seq = table.public_state()["seq"]
    for scamper in (2.5, True, "2", None):
        args = {"scamper": scamper, "mettle": 3, "friskiness": 2}
        refused = post(client, "/api/move", {"seat": 0, "name": "allocate", "args": args}, token)
        assert refused.status_code == 409, scamper
        assert refused.get_json()["error"].startswith("Pluck chips are allocated whole")
        assert table.public_state()["seq"] == seq
    state = client.get("/api/state", headers={"X-Table-Token": token}).get_json()
    assert state["view"]["hamsters"][0]["allocated"] is False
    args = {"scamper": 2, "mettle": 3, "friskiness": 2}
    ok = post(client, "/api/move", {"seat": 0, "name": "allocate", "args": args}, token)
    assert ok.status_code == 200 and table.public_state()["seq"] == seq + 1


def test_new_game_from_the_page(client: FlaskClient, token: str) -> None:
    response = post(
        client,
        "/api/game",
        {"game": "run-hamster-run", "rules": "classic", "players": ["Ann", "Bo"]},
        token,
    )
    assert response.status_code == 200
    assert response.get_json()["state"]["players"] == ["Ann", "Bo"]
    bad = post(client, "/api/game", {"game": "chess", "players": ["A", "B"]}, token)
    assert bad.status_code == 400 and "no game called" in bad.get_json()["error"]
    few = post(client, "/api/game", {"game": "run-hamster-run", "players": ["Solo"]}, token)
    assert few.status_code == 409 and "needs 2 to 5 players" in few.get_json()["error"]


def test_a_blank_player_name_is_refused_and_the_game_kept(
    client: FlaskClient, token: str, table: Table
) -> None:
    game_id = table.game_id
    blank = post(client, "/api/game", {"game": "run-hamster-run", "players": ["   ", "b"]}, token)
    assert blank.status_code == 400
    assert blank.get_json()["error"] == (
        "A player's name is blank: type a name for each player (1 to 24 letters)."
    )
    assert table.game_id == game_id
    padded = post(
        client, "/api/game", {"game": "run-hamster-run", "players": [" Ann ", "Bo"]}, token
    )
    assert padded.status_code == 200 and padded.get_json()["state"]["players"] == ["Ann", "Bo"]


def test_a_game_left_empty_is_named_as_missing(client: FlaskClient, token: str) -> None:
    response = post(client, "/api/game", {"game": None, "players": ["Ann", "Bo"]}, token)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert "'game' is missing" in error and "run-hamster-run" in error and "None" not in error


def test_malformed_requests_get_a_sentence_not_a_crash(client: FlaskClient, token: str) -> None:
    headers = {"X-Table-Token": token, "Content-Type": "application/json"}
    assert client.post("/api/move", data="{nope", headers=headers).status_code == 400
    assert post(client, "/api/move", [1, 2], token).status_code == 400
    assert (
        post(client, "/api/move", {"seat": 0, "name": "place", "args": "x"}, token).status_code
        == 400
    )
    assert post(client, "/api/move", {"seat": 9, "name": "place"}, token).status_code == 400
    assert post(client, "/api/intent", {"intent": "explode"}, token).status_code == 400
    assert client.get("/api/nothing").get_json()["error"] == "There is nothing at that address."
    assert client.delete("/api/state").status_code == 405
    huge = client.post("/api/move", data="x" * 100_000, headers=headers)
    assert huge.status_code == 413 and "too large" in huge.get_json()["error"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 20) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from(["/api/move", "/api/intent", "/api/game", "/api/login"]),
    st.dictionaries(
        st.sampled_from(["seat", "name", "args", "intent", "game", "players", "pin"]), json_values
    ),
)
def test_hostile_input_never_500_and_never_changes_the_game_unless_legal(
    client: FlaskClient, token: str, table: Table, path: str, body: dict[str, Any]
) -> None:
    if path == "/api/move":
        body.setdefault("name", "place")
    before = table.public_state(with_log=False)
    response = post(client, path, body, token)
    assert response.status_code in (200, 400, 403, 409, 429), response.get_json()
    assert isinstance(
        response.get_json()[
            "error" if response.status_code != 200 else next(iter(response.get_json()))
        ],
        object,
    )
    if response.status_code != 200 or path in ("/api/login",):
        after = table.public_state(with_log=False)
        assert after["seq"] == before["seq"] and after["game_id"] == before["game_id"]


def test_undo_says_what_to_put_back_on_the_table(client: FlaskClient, token: str) -> None:
    post(client, "/api/move", {"seat": 0, "name": "place", "args": {"to": [5, 3]}}, token)
    undone = post(client, "/api/intent", {"intent": "undo"}, token).get_json()["state"]
    assert undone["put_back"] == "Take Alice off the belt (not placed yet)."
    redone = post(client, "/api/intent", {"intent": "redo"}, token).get_json()["state"]
    assert redone["put_back"] == "Put Alice on row 5, lane 3."
    moved_on = post(
        client, "/api/move", {"seat": 1, "name": "place", "args": {"to": [4, 3]}}, token
    )
    assert moved_on.get_json()["state"]["put_back"] is None


def test_the_join_code_is_a_qr_of_the_page_address(client: FlaskClient) -> None:
    answer = client.get("/join.svg")
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    assert b"<svg" in answer.data


def test_keeping_every_stop_is_the_tables_and_needs_the_pin(
    client: FlaskClient, token: str, table: Table
) -> None:
    refused = post(client, "/api/settings", {"every_stop": False})
    assert refused.status_code == 401
    bad = post(client, "/api/settings", {"every_stop": "yes"}, token)
    assert bad.status_code == 400 and "every_stop" in bad.get_json()["error"]
    changed = post(client, "/api/settings", {"every_stop": False}, token)
    assert changed.status_code == 200 and changed.get_json()["state"]["every_stop"] is False
    assert client.get("/api/state").get_json()["every_stop"] is False  # every page reads it
    post(client, "/api/settings", {"every_stop": True}, token)
    seq = table.public_state()["seq"]
    # a page that had not heard yet passes a step on its own: the table's choice holds
    auto = post(client, "/api/intent", {"intent": "next", "auto": True}, token)
    assert auto.status_code == 409 and "keeps every stop" in auto.get_json()["error"]
    assert table.public_state()["seq"] == seq


def test_a_table_shutting_down_says_so_for_moves_and_settings_alike(
    client: FlaskClient, token: str, table: Table
) -> None:
    """Both requests that queue work on the table answer a stopping table with the same
    sentence, so a tablet pressed during a restart says to try again, whatever was pressed."""
    kept = post(client, "/api/settings", {"every_stop": True}, token)
    assert kept.status_code == 200 and table.snapshot.every_stop
    table.close()
    move = post(client, "/api/move", {"seat": 0, "name": "place", "args": {"to": [5, 3]}}, token)
    switch = post(client, "/api/settings", {"every_stop": False}, token)
    for answer in (move, switch):
        assert answer.status_code == 503
        assert answer.get_json()["error"] == (
            "The companion is shutting down; try again in a moment."
        )
