"""Server-Sent Events: ids are sequence numbers and a reconnect resumes exactly."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from companion.table import Table


def read_events(response: Any, count: int) -> list[tuple[str, str, dict[str, Any]]]:
    """Parse ``count`` events (id, name, data) from a streaming response."""
    found: list[tuple[str, str, dict[str, Any]]] = []
    buffer = ""
    for chunk in response.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
            if "event" in fields:
                found.append((fields.get("id", ""), fields["event"], json.loads(fields["data"])))
        if len([f for f in found if f[1] == "change"]) >= count:
            break
    response.close()
    return [f for f in found if f[1] == "change"]


def test_stream_sends_each_change_with_its_seq(
    client: FlaskClient, token: str, table: Table
) -> None:
    for seat, square in enumerate([[1, 1], [1, 2], [1, 3]]):
        table.submit(_place(seat, square)).result(timeout=10)
    response = client.get("/api/stream?after=0", buffered=False)
    events = read_events(response, 3)
    assert [e[0] for e in events] == ["1", "2", "3"]
    assert events[-1][2]["state"]["current"] == 3


def test_reconnect_with_last_event_id_gets_only_what_was_missed(
    client: FlaskClient, table: Table
) -> None:
    for seat, square in enumerate([[1, 1], [1, 2], [1, 3], [1, 4]]):
        table.submit(_place(seat, square)).result(timeout=10)
    response = client.get("/api/stream", headers={"Last-Event-ID": "2"}, buffered=False)
    events = read_events(response, 2)
    assert [e[0] for e in events] == ["3", "4"]
    assert events[0][2]["event"]["name"] == "place"


def test_idle_stream_sends_heartbeats(client: FlaskClient) -> None:
    response = client.get("/api/stream?after=0", buffered=False)
    chunks = iter(response.response)
    seen = ""
    while "event: ping" not in seen:
        chunk = next(chunks)
        assert isinstance(chunk, bytes)
        seen += chunk.decode()
    response.close()


def _place(seat: int, square: list[int]) -> Any:
    from companion.engine.events import MOVE, Event

    return Event(MOVE, name="place", seat=seat, args={"to": square})
