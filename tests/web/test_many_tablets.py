"""Twenty open live streams never starve the API (waitress with the configured threads)."""

from __future__ import annotations

import http.client
import json

from companion.config import WebConfig
from companion.table import Table
from tests.web.conftest import PIN
from tests.web.serving import serving
from web import create_app


def test_twenty_streams_and_the_api_still_answers(table: Table) -> None:
    app = create_app(table, PIN, heartbeat_seconds=0.5)
    with serving(app, table, threads=WebConfig().threads) as port:
        streams = []
        for _ in range(20):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/api/stream?after=0")
            response = connection.getresponse()
            assert response.status == 200
            streams.append((connection, response))
        api = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        api.request("GET", "/api/state")
        state = json.loads(api.getresponse().read())
        assert state["game"] == "run-hamster-run"
        api.close()
        for connection, response in streams:
            seen = b""
            while b"event: ping" not in seen:  # every stream is alive and heartbeating
                seen += response.fp.readline()
            connection.close()
