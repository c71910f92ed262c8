"""Connection-level limits on the real server: half-sent requests, huge bodies and headers,
foreign Host names, and the security headers every answer carries."""

from __future__ import annotations

import http.client
import json
import socket
import time

import pytest

from companion.table import Table
from tests.web.conftest import PIN
from tests.web.serving import serving
from web import create_app
from web.asgi import Listen, server_config

# Own set-up in every test: the server's limits are the subject (threads, Host list, stall).


def api_state(port: int, host: str = "127.0.0.1") -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", "/api/state", headers={"Host": host})
    response = connection.getresponse()
    answer = response.status, dict(response.getheaders()), response.read()
    connection.close()
    return answer


def test_a_hundred_half_sent_requests_do_not_block_the_api(table: Table) -> None:
    with serving(create_app(table, PIN), table, threads=2) as port:
        idle = []
        for _ in range(100):
            connection = socket.create_connection(("127.0.0.1", port), timeout=5)
            connection.sendall(b"POST /api/move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")
            idle.append(connection)
        started = time.perf_counter()
        status, _, _ = api_state(port)
        assert status == 200 and time.perf_counter() - started < 5
        for connection in idle:
            connection.close()


def test_a_large_body_is_refused_before_it_is_read(table: Table) -> None:
    """The body limit (64 KiB) answers 413 at once, without reading a gigabyte first."""
    with serving(create_app(table, PIN), table) as port:
        connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        connection.sendall(
            b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000000000\r\n\r\n" + b"{" * 65536
        )
        answer = connection.recv(200)
        connection.close()
        assert answer.startswith(b"HTTP/1.1 413"), answer


def post_chunked(port: int, path: str, body: bytes) -> tuple[int, dict[str, str]]:
    """POST ``body`` with ``Transfer-Encoding: chunked`` (no Content-Length), 4 KiB a chunk."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.putrequest("POST", path)
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Transfer-Encoding", "chunked")
    connection.endheaders()
    for start in range(0, len(body), 4096):
        part = body[start : start + 4096]
        connection.send(b"%x\r\n" % len(part) + part + b"\r\n")
    connection.send(b"0\r\n\r\n")
    response = connection.getresponse()
    answer = response.status, json.loads(response.read())
    connection.close()
    return answer


def test_a_chunked_body_is_read_and_an_oversized_one_is_too_large(table: Table) -> None:
    """A client that streams its body (no Content-Length) was refused "Send a JSON object"
    for every request, and a chunked 100 KB body was not called too large."""
    with serving(create_app(table, PIN), table) as port:
        status, answer = post_chunked(port, "/api/login", json.dumps({"pin": PIN}).encode())
        assert status == 200 and answer["token"]
        status, answer = post_chunked(
            port, "/api/login", json.dumps({"pin": "1" * 100_000}).encode()
        )
        assert status == 413 and "too large" in answer["error"]


def test_huge_headers_are_refused(table: Table) -> None:
    with serving(create_app(table, PIN), table) as port:
        connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        connection.sendall(
            b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n"
        )
        try:
            answer = connection.recv(200)
        except ConnectionResetError:
            answer = b""
        connection.close()
        assert not answer.startswith(b"HTTP/1.1 200")


def test_a_foreign_host_name_is_refused_and_every_answer_is_hardened(table: Table) -> None:
    """DNS rebinding: a page on another name must not reach the table through a browser."""
    with serving(create_app(table, PIN), table, hosts={"127.0.0.1", "localhost"}) as port:
        status, _, body = api_state(port, host="attacker.example")
        assert status == 421 and "does not answer to the name" in json.loads(body)["error"]
        status, headers, _ = api_state(port)
        headers = {k.lower(): v for k, v in headers.items()}
        assert status == 200 and headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"
        assert "default-src 'self'" in headers["content-security-policy"]


@pytest.mark.skipif(not hasattr(socket, "TCP_USER_TIMEOUT"), reason="Linux socket options")
def test_a_phone_gone_from_the_wifi_without_closing_is_let_go_in_half_a_minute() -> None:
    """A phone that sleeps or walks out of range leaves its connection half-open: the
    kernel would retry for about 15 minutes and the live page's place stayed taken. Every
    connection the page's server accepts gives up after 30 s of unanswered data and sends
    keepalive probes after 20 s of silence."""
    config = server_config(Listen("127.0.0.1", 0), max_body=1024)
    sockets = config.create_sockets()
    (listener,) = sockets.insecure_sockets or sockets.secure_sockets
    listener.listen()  # as hypercorn does when it starts serving
    try:
        with socket.create_connection(listener.getsockname()[:2], timeout=5):
            accepted, _ = listener.accept()
            with accepted:
                tcp = socket.IPPROTO_TCP
                assert accepted.getsockopt(tcp, socket.TCP_USER_TIMEOUT) == 30_000
                assert accepted.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
                assert accepted.getsockopt(tcp, socket.TCP_KEEPIDLE) == 20
    finally:
        listener.close()


def test_a_stalled_body_does_not_hold_an_api_thread(table: Table) -> None:
    """The server no longer times out connections that send nothing (a live page only
    listens); a request whose body stops half-way is given up by the app instead, so with
    one API thread the next request is still answered."""
    with serving(create_app(table, PIN), table, threads=1, body_stall=1.0) as port:
        stalled = socket.create_connection(("127.0.0.1", port), timeout=10)
        stalled.sendall(
            b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"pin": '
        )
        try:
            status, _, _ = api_state(port)  # waits for the one thread: 5 s at most
            assert status == 200
        finally:
            stalled.close()
