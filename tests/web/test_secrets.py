"""No secret reaches a client that may not see it, through any field.

Every game is played by its bot through the table; after every change the payloads a
watcher can fetch (``/api/state``, ``/api/vision``, the live stream's events) are walked:
a secret move (``MoveSpec.secret``) whose phase is still open must not show its arguments
in the log or the stream, and no legal-move button may carry a secret move. The bug this
guards: the ``legal`` list told every watcher "Ann: keep Buffster".
"""

from __future__ import annotations

import http.client
import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.config import GameDefaults
from companion.engine.redact import is_secret
from companion.engine.session import GameHeader
from companion.games import GAMES
from companion.simulate import bot_of, bot_turn
from companion.store import Store
from companion.table import Table
from tests.web.conftest import PIN
from tests.web.serving import make_app, page_client, serving

STEPS = 150


def secret_moves(table: Table) -> set[str]:
    snap = table.snapshot
    assert snap.spec is not None and snap.state is not None
    return {n for n, m in snap.spec.phases[snap.state.ctx.phase].moves.items() if m.secret}


def check(payload: dict[str, Any], hidden: set[str], open_secrets: dict[int, Any]) -> None:
    for choice in payload.get("legal") or []:
        assert choice["name"] not in hidden, f"a watcher sees the button {choice['label']!r}"
    for entry in payload.get("log") or []:
        if entry["seq"] in open_secrets:
            assert "args" not in entry and "outcome" not in entry, entry


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_watcher_never_sees_a_secret(name: str, tmp_path: Path) -> None:
    spec = GAMES[name]
    players = tuple(f"P{i + 1}" for i in range(spec.max_players))
    store = Store(tmp_path / "games.sqlite3")
    table = Table(store, GameDefaults(players=players))
    table.new_game(GameHeader(name, spec.rules_default, players, 5))
    app = make_app(table, heartbeat_seconds=0.5)
    client = app.test_client()
    rng, seen_secret = random.Random(5), 0
    with serving(app, table) as port:
        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        stream.request("GET", "/api/stream?after=0")
        events = stream.getresponse()
        open_secrets: dict[int, Any] = {}
        for _ in range(STEPS):
            snap = table.snapshot
            if snap.state is None or snap.state.ctx.over:
                break
            bot_turn(bot_of(spec), snap.state, rng, lambda e: table.submit(e).result(timeout=10))
            after = table.snapshot
            logged = after.log[-1]
            assert after.state is not None and after.spec is not None
            if is_secret(after.spec, after.state, logged):
                open_secrets[logged.seq] = logged.args
                seen_secret += 1
            open_secrets = {
                s: a
                for s, a in open_secrets.items()
                if is_secret(after.spec, after.state, next(e for e in after.log if e.seq == s))
            }
            hidden = secret_moves(table)
            check(client.get("/api/state").get_json(), hidden, open_secrets)
            check(client.get("/api/vision").get_json(), hidden, open_secrets)
            line = b""
            while not line.startswith(b'data: {"event"'):
                line = events.fp.readline()
            streamed = json.loads(line[6:])
            if streamed["event"]["seq"] in open_secrets:
                assert "args" not in streamed["event"], streamed["event"]
            check(streamed["state"], hidden, open_secrets)
        stream.close()
    store.close()
    if any(m.secret for p in spec.phases.values() for m in p.moves.values()):
        assert seen_secret > 0, "the bot never made a secret move: the test saw nothing"


def test_a_secret_move_the_rules_cannot_read_is_logged_without_its_arguments(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Hamsterdam's set-up: the specials a player keeps are secret. An arrangement the
    rules could not read (a blank in ``order``) was written to the log with every
    argument, the kept specials among them."""
    spec, players = GAMES["hamsterdam"], ("Ann", "Bo", "Cy")
    store = Store(tmp_path / "games.sqlite3")
    table = Table(store, GameDefaults(players=players))
    table.new_game(GameHeader("hamsterdam", "full", players, 5))
    rng = random.Random(1)
    for _ in range(3):  # every player passes cards; then each arranges the dam in secret
        assert table.snapshot.state is not None
        bot_turn(bot_of(spec), table.snapshot.state, rng, lambda e: table.submit(e).result(10))
    kept = [
        c["args"]["special"]
        for c in table.public_state(control=True, with_log=False)["legal"]
        if c["name"] == "keep_special" and c["seat"] == 0
    ]
    assert kept, "no special to keep: the test sees nothing"
    client = page_client(table, test_config=None)
    token = client.post("/api/login", json={"pin": PIN}).get_json()["token"]
    secret = {"order": [None] * 11, "keep": kept[:3], "note": "only-ann-knows"}
    with caplog.at_level("DEBUG"):
        answer = client.post(
            "/api/move",
            json={"name": "arrange", "seat": 0, "args": secret},
            headers={"X-Table-Token": token},
        )
    assert answer.status_code == 400
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "arrange" in logged and "only-ann-knows" not in logged
    assert "'keep'" not in logged and repr(kept[:3]) not in logged, logged
    table.close()
    store.close()
