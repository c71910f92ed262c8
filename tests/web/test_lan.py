"""A crowded evening on the table's Wi-Fi, against the real server on 127.0.0.1: two tablets
pressing together, pages that stop reading, phones whose stream died."""

from __future__ import annotations

import http.client
import json
import threading
from pathlib import Path
from typing import Any

from companion.config import GameDefaults
from companion.engine.events import NEXT, Event
from companion.store import Store
from companion.table import Table
from tests.web.conftest import PIN
from tests.web.serving import serving
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
    with serving(create_app(table, PIN, heartbeat_seconds=1.0), table) as port:
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
