"""Server-Sent Events on the real server: ids are sequence numbers, a reconnect resumes
exactly, open pages cost no thread, and a crowd of tabs never freezes the API."""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from companion.engine.events import MOVE, Event
from companion.engine.session import GameHeader
from companion.table import Table
from tests.web.conftest import PIN, PLAYERS
from tests.web.serving import serving
from web import create_app


@contextmanager
def server(table: Table, **options: Any) -> Iterator[int]:
    """Own set-up: a 0.2 s heartbeat and server options (stream cap, threads) per test."""
    with serving(create_app(table, PIN, heartbeat_seconds=0.2), table, **options) as port:
        yield port


def open_stream(
    port: int, query: str = "?after=0", headers: dict[str, str] | None = None
) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", f"/api/stream{query}", headers=headers or {})
    return connection, connection.getresponse()


def read_events(response: http.client.HTTPResponse, count: int) -> list[tuple[str, str, Any]]:
    """Parse events (id, name, data) until ``count`` changes have arrived."""
    found: list[tuple[str, str, Any]] = []
    fields: dict[str, str] = {}
    while len([f for f in found if f[1] == "change"]) < count:
        line = response.fp.readline().decode().rstrip("\n")
        if line:
            key, _, value = line.partition(": ")
            fields[key] = value
            continue
        if "event" in fields:
            found.append((fields.get("id", ""), fields["event"], json.loads(fields["data"])))
        fields = {}
    return [f for f in found if f[1] == "change"]


def read_until(response: http.client.HTTPResponse, last: str) -> list[tuple[str, str, Any]]:
    """Every event (id, name, data), pings left out, up to the one with id ``last``."""
    found: list[tuple[str, str, Any]] = []
    fields: dict[str, str] = {}
    while not found or found[-1][0] != last:
        line = response.fp.readline().decode().rstrip("\n")
        if line:
            key, _, value = line.partition(": ")
            fields[key] = value
            continue
        if fields.get("event", "ping") != "ping":
            found.append((fields.get("id", ""), fields["event"], json.loads(fields["data"])))
        fields = {}
    return found


def first_event(response: http.client.HTTPResponse) -> str:
    """The name of the first event other than a ping."""
    while True:
        line = response.fp.readline().decode()
        if line.startswith("event: ") and line != "event: ping\n":
            return line[len("event: ") :].strip()


def place(seat: int, square: list[int]) -> Event:
    return Event(MOVE, name="place", seat=seat, args={"to": square})


def test_stream_sends_each_change_with_its_seq(table: Table) -> None:
    for seat, square in enumerate([[1, 1], [1, 2], [1, 3]]):
        table.submit(place(seat, square)).result(timeout=10)
    with server(table) as port:
        connection, response = open_stream(port)
        events = read_events(response, 3)
        connection.close()
    assert [e[0] for e in events] == ["1", "2", "3"]
    assert events[-1][2]["state"]["current"] == 3


def test_reconnect_with_last_event_id_gets_only_what_was_missed(table: Table) -> None:
    for seat, square in enumerate([[1, 1], [1, 2], [1, 3], [1, 4]]):
        table.submit(place(seat, square)).result(timeout=10)
    with server(table) as port:
        connection, response = open_stream(port, "", {"Last-Event-ID": "2"})
        events = read_events(response, 2)
        connection.close()
    assert [e[0] for e in events] == ["3", "4"]
    assert events[0][2]["event"]["name"] == "place"


def test_a_live_change_arrives_and_an_idle_stream_sends_heartbeats(table: Table) -> None:
    with server(table) as port:
        connection, response = open_stream(port)
        seen = b""
        while b"event: ping" not in seen:
            seen += response.fp.readline()
        table.submit(place(0, [2, 2])).result(timeout=10)
        assert read_events(response, 1)[0][0] == "1"
        connection.close()


def test_head_opens_no_stream_and_bad_ids_are_a_clear_400(table: Table) -> None:
    """HEAD used to open a subscription that was never closed: 40k of them grew the server
    by 128 MB. Odd ids (a superscript two, 4,300 digits) used to be a 500."""
    with server(table) as port:
        for _ in range(200):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("HEAD", "/api/stream")
            response = connection.getresponse()
            assert response.status == 200 and response.read() == b""
            connection.close()
        assert len(table._hub._listeners) == 0  # nothing left open by HEAD
        for bad in ("²", "9" * 4300, "-1", "1e3"):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.putrequest("GET", "/api/stream")
            connection.putheader("Last-Event-ID", bad.encode())
            connection.endheaders()
            response = connection.getresponse()
            assert response.status == 400, bad
            assert "whole number" in json.loads(response.read())["error"]
            connection.close()


def test_streams_beyond_the_cap_get_a_clear_refusal_and_the_api_answers(table: Table) -> None:
    with server(table, max_streams=5) as port:
        opened = [open_stream(port) for _ in range(5)]
        assert all(response.status == 200 for _, response in opened)
        connection, refused = open_stream(port)
        assert refused.status == 503 and "close a tab" in json.loads(refused.read())["error"]
        connection.close()
        api = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        api.request("GET", "/api/state")
        assert api.getresponse().status == 200
        api.close()
        for connection, _ in opened:
            connection.close()


def test_two_hundred_open_pages_and_the_api_still_answers_quickly(table: Table) -> None:
    """The crowded-LAN requirement: 200 open live streams use no thread of the API's."""
    with server(table, threads=4) as port:
        streams = []
        for _ in range(200):
            connection = socket.create_connection(("127.0.0.1", port), timeout=10)
            connection.sendall(b"GET /api/stream?after=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            streams.append(connection)
        for connection in streams:  # every one of them is answered and open
            assert connection.recv(64).startswith(b"HTTP/1.1 200")
        api = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        started = time.perf_counter()
        api.request("GET", "/api/state")
        state = json.loads(api.getresponse().read())
        assert state["game"] == "run-hamster-run" and time.perf_counter() - started < 5
        api.close()
        for connection in streams:
            connection.close()


def test_a_change_arrives_at_once_not_with_the_next_heartbeat(table: Table) -> None:
    """The stream once woke only at its heartbeat (an asyncio.wait that waited for all of
    its tasks): every change reached the tablets seconds late. With a 60 s heartbeat and a
    10 s socket timeout, only a prompt delivery passes."""
    # Own set-up: a 60 s heartbeat, so only a prompt delivery passes.
    app = create_app(table, PIN, heartbeat_seconds=60)
    with serving(app, table) as port:
        connection, response = open_stream(port)
        response.fp.readline()  # "retry: ..."
        table.submit(place(0, [2, 2])).result(timeout=10)
        assert read_events(response, 1)[0][0] == "1"
        table.submit(place(1, [2, 3])).result(timeout=10)
        assert read_events(response, 1)[0][0] == "2"
        connection.close()


def test_a_catch_up_carries_the_state_once_with_its_last_event(table: Table) -> None:
    """A page that missed 50 changes was sent 50 whole states (~5 KB each) and drew 50
    times; a page that asks with v=2 gets each log entry and the state once, at the end."""
    for seat, square in enumerate([[1, 1], [1, 2], [1, 3], [1, 4]]):
        table.submit(place(seat, square)).result(timeout=10)
    table.submit("undo").result(timeout=10)
    with server(table) as port:
        connection, response = open_stream(port, "?after=1&v=2")
        events = read_until(response, "5")
        connection.close()
    assert [name for _, name, _ in events] == ["change"] * 4
    assert [data["event"]["seq"] for _, _, data in events] == [2, 3, 4, 5]
    assert [data["event"]["kind"] for _, _, data in events][-1] == "undo"
    assert ["state" in data for _, _, data in events] == [False, False, False, True]
    # Only the event with the state has an id: a page cut off before it resumes before
    # the entries that came without it, and so never misses the state.
    assert [id_ for id_, _, _ in events] == ["", "", "", "5"]
    assert events[-1][2]["state"]["seq"] == 5
    assert events[-1][2]["state"] == table.public_state(with_log=False)


def test_a_reconnect_by_last_event_id_in_the_lean_form_resumes_exactly(table: Table) -> None:
    for seat, square in enumerate([[1, 1], [1, 2], [1, 3], [1, 4]]):
        table.submit(place(seat, square)).result(timeout=10)
    with server(table) as port:
        connection, response = open_stream(port, "?v=2", {"Last-Event-ID": "2"})
        events = read_until(response, "4")
        connection.close()
    assert [(id_, data["event"]["seq"], "state" in data) for id_, _, data in events] == [
        ("", 3, False),
        ("4", 4, True),
    ]


def test_a_page_that_did_not_ask_still_gets_the_state_with_every_event(table: Table) -> None:
    """A script from before (still open on a tablet, or cached) reads data.state from
    every change: it keeps getting it, with every id."""
    for seat, square in enumerate([[1, 1], [1, 2], [1, 3]]):
        table.submit(place(seat, square)).result(timeout=10)
    with server(table) as port:
        connection, response = open_stream(port, "?after=0")
        events = read_events(response, 3)
        connection.close()
    assert [id_ for id_, _, _ in events] == ["1", "2", "3"]
    assert [data["state"]["current"] for _, _, data in events] == [3, 3, 3]


def test_a_live_burst_ends_with_the_state_and_loses_no_entry(table: Table) -> None:
    """Changes made quickly one after another while the page listens: however they are
    batched, every entry arrives once and in order, and the last carries the final state."""
    table.submit(place(0, [1, 1])).result(timeout=10)
    with server(table) as port:
        connection, response = open_stream(port, "?after=1&v=2")
        seen = b""
        while b"event: ping" not in seen:
            seen += response.fp.readline()
        for index in range(30):
            table.submit("redo" if index % 2 else "undo")
        table.submit("undo").result(timeout=10)
        events = read_until(response, "32")
        connection.close()
    assert [data["event"]["seq"] for _, _, data in events] == list(range(2, 33))
    assert all(("state" in data) == bool(id_) for id_, _, data in events)
    assert events[-1][2]["state"]["seq"] == 32 and events[-1][2]["state"]["can_redo"]


def test_a_page_on_another_game_at_the_same_change_number_is_reset(table: Table) -> None:
    """Game 1 at change 3 on the page; the table has moved on to game 2, also at change 3.
    The change number alone matched, so the page kept showing game 1 until the next change."""
    for seat, square in enumerate([[1, 1], [1, 2], [1, 3]]):
        table.submit(place(seat, square)).result(timeout=10)
    first = table.game_id
    assert first is not None
    table.new_game(GameHeader("run-hamster-run", "v2.1", PLAYERS, 7, given=([0, 1, 2, 3],)))
    for seat, square in enumerate([[2, 1], [2, 2], [2, 3]]):
        table.submit(place(seat, square)).result(timeout=10)
    assert table.game_id != first and table.public_state()["seq"] == 3
    with server(table) as port:
        connection, response = open_stream(port, f"?after=3&v=2&game={first}")
        assert first_event(response) == "reset"  # the page reloads the whole state
        connection.close()
        # The game it shows: nothing to redo, the next change comes as usual.
        connection, response = open_stream(port, f"?after=3&v=2&game={table.game_id}")
        table.submit(place(3, [2, 4])).result(timeout=10)
        events = read_until(response, "4")
        connection.close()
        assert [name for _, name, _ in events] == ["change"]
        # A page from before (no v=2) that names the old game gets the reset and the log.
        connection, response = open_stream(port, f"?after=3&game={first}")
        events = read_until(response, "4")
        connection.close()
    assert events[0][1] == "reset"
    assert [id_ for id_, _, _ in events[1:]] == ["1", "2", "3", "4"]


def test_a_game_that_is_not_a_number_is_a_clear_400(table: Table) -> None:
    with server(table) as port:
        connection, response = open_stream(port, "?after=0&v=2&game=one")
        assert response.status == 400
        assert "game" in json.loads(response.read())["error"]
        connection.close()
