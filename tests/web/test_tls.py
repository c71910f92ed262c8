"""HTTPS: a self-signed certificate made once, and the page, API and live stream served by
the same server speaking TLS itself (so the app sees each tablet's own address)."""

from __future__ import annotations

import http.client
import json
import ssl
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.table import Table
from tests.web.conftest import PIN
from tests.web.serving import serving
from web import create_app
from web.tls import ensure_certificate


@pytest.fixture
def https(table: Table, tmp_path: Path) -> Iterator[tuple[int, Path]]:
    cert, key = ensure_certificate(tmp_path, host_name="companion")
    app = create_app(table, PIN, heartbeat_seconds=0.2)
    with serving(app, table, threads=4, tls=(cert, key)) as port:
        yield port, cert


def connect(port: int, cert: Path) -> http.client.HTTPSConnection:
    context = ssl.create_default_context(cafile=str(cert))  # the certificate verifies itself
    return http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=10)


def test_the_certificate_is_made_once_and_kept(tmp_path: Path) -> None:
    cert, key = ensure_certificate(tmp_path, host_name="companion")
    first = cert.read_bytes()
    assert ensure_certificate(tmp_path, host_name="companion") == (cert, key)
    assert cert.read_bytes() == first and oct(key.stat().st_mode & 0o777) == "0o600"


def test_page_and_api_over_https(https: tuple[int, Path]) -> None:
    port, cert = https
    connection = connect(port, cert)
    connection.request("GET", "/api/state")
    state = json.loads(connection.getresponse().read())
    assert state["game"] == "run-hamster-run"
    connection.request("GET", "/")
    assert b"Hamster table companion" in connection.getresponse().read()
    connection.close()


def test_live_stream_over_https(https: tuple[int, Path]) -> None:
    port, cert = https
    connection = connect(port, cert)
    connection.request("GET", "/api/stream?after=0")
    response = connection.getresponse()
    assert response.getheader("Content-Type", "").startswith("text/event-stream")
    seen = b""
    while b"event: ping" not in seen:
        seen += response.fp.readline()
    connection.close()
