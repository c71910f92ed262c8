"""A crowded evening on the table's Wi-Fi, against the real server on 127.0.0.1: two tablets
pressing together, pages that stop reading, phones whose stream died."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from companion.config import GameDefaults
from companion.engine.events import MOVE, NEXT, Event
from companion.store import Store
from companion.table import Table
from tests.web.conftest import PIN
from tests.web.serving import serve_table, serving
from tests.web.test_hamsterdam_page import play_to_a_roll
from web import create_app


def post(
    port: int, path: str, body: dict[str, object], token: str = ""
) -> tuple[int, dict[str, Any]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    headers = {"Content-Type": "application/json", "X-Table-Token": token}
    connection.request("POST", path, body=json.dumps(body), headers=headers)
    response = connection.getresponse()
    answer = (response.status, json.loads(response.read()))
    connection.close()
    return answer


def test_two_tablets_pressing_next_together_step_the_game_once(tmp_path: Path) -> None:
    """Both tablets showed "press NEXT to flood"; both pressed. The game flooded and then
    plugged the flood the plain way too: the players' moment to stop it was skipped."""
    names = ("Ann", "Bo", "Cy")
    store = Store(tmp_path / "next.sqlite3")
    table = Table(store, GameDefaults(players=names))
    play_to_a_roll(table, "full", names)
    table.submit(Event(NEXT, given=(3, 4))).result(timeout=5)  # the roll: a 7
    with serve_table(table) as port:
        token = str(post(port, "/api/login", {"pin": PIN})[1]["token"])
        shown = table.public_state()
        assert "press NEXT to flood" in shown["prompt"]
        answers: list[tuple[int, dict[str, Any]]] = []
        together = threading.Barrier(2)

        def press() -> None:
            together.wait()
            answers.append(post(port, "/api/intent", {"intent": "next", "at": shown["seq"]}, token))

        tablets = [threading.Thread(target=press) for _ in range(2)]
        for tablet in tablets:
            tablet.start()
        for tablet in tablets:
            tablet.join(timeout=30)
        assert sorted(status for status, _ in answers) == [200, 409]
        refused = next(body for status, body in answers if status == 409)
        assert "changed just now" in refused["error"] and "NEXT was not applied" in refused["error"]
        assert table.public_state()["seq"] == shown["seq"] + 1
        assert table.public_state()["phase"] == "flood"
    store.close()


@pytest.mark.browser
def test_a_phone_refused_while_the_companion_was_full_comes_back_live(
    browser: Browser, table: Table
) -> None:
    """The phone opened while every live page was taken (a reconnect storm after the Wi-Fi
    came back): its stream was refused and it never opened it again, so it showed the old
    state for the rest of the evening. A silent stream is now opened again."""
    # Own set-up: room for one live page only.
    app = create_app(table, PIN, heartbeat_seconds=1.0)
    with serving(app, table, max_streams=1) as port:
        server = f"http://127.0.0.1:{port}"
        full = socket.create_connection(("127.0.0.1", port), timeout=10)
        full.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert full.recv(64).startswith(b"HTTP/1.1 200")  # the one place is taken
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.clock.install()
        login = page.request.post(f"{server}/api/login", data={"pin": PIN}).json()
        seats = page.request.get(f"{server}/api/seats", headers={"X-Table-Token": login["token"]})
        page.goto(f"{server}/seat/{seats.json()['seats'][1]['code']}")  # Bob's phone
        expect(page.locator("#offline")).to_be_visible()  # refused: 503
        full.close()  # a place is free again
        table.submit(Event(MOVE, name="place", seat=0, args={"to": [5, 2]})).result(timeout=10)
        page.clock.fast_forward(30_000)
        expect(page.locator("#live.on")).to_have_count(1)
        table.submit(Event(MOVE, name="place", seat=1, args={"to": [5, 3]})).result(timeout=10)
        expect(page.locator("body")).to_have_attribute("data-seq", "2")
        page.close()


def test_a_page_that_reads_nothing_gives_its_place_back(table: Table) -> None:
    """A client that opened a stream and read nothing more (a phone frozen mid-stream, a
    half-open connection) held its place for good: with the places all taken, the next
    phone was told "Too many live pages are open" however long it waited."""
    # Own set-up: room for one live page only.
    with serving(create_app(table, PIN, heartbeat_seconds=0.2), table, max_streams=1) as port:
        stuck = socket.socket()
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stuck.connect(("127.0.0.1", port))
        stuck.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        table.submit(Event(MOVE, name="place", seat=0, args={"to": [5, 2]})).result(timeout=10)
        for index in range(700):  # some 4 MB of changes it never takes (past the buffers)
            table.submit("undo" if index % 2 == 0 else "redo").result(timeout=10)
        deadline = time.monotonic() + 10
        while True:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/api/stream?after=701")
            status = connection.getresponse().status
            connection.close()
            if status == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert status == 200
        stuck.close()
