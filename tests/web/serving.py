"""The real server (hypercorn, as ``companion run`` uses it) on a loopback port for tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.table import Table
from web import MAX_REQUEST_BYTES, create_app
from web.asgi import (
    BODY_STALL_SECONDS,
    AllowedHosts,
    ServerConfig,
    companion_app,
    edge,
    live_streams,
    loopback_server,
)

PIN = "246810"  # the table PIN every web test types


@contextmanager
def serving(
    app: Flask,
    table: Table,
    threads: int = 8,
    *,
    max_streams: int = 256,
    tls: tuple[Path, Path] | None = None,
    hosts: set[str] | AllowedHosts | None = None,
    body_stall: float = BODY_STALL_SECONDS,
    on_config: Callable[[ServerConfig], object] = lambda _: None,
) -> Iterator[int]:
    """Serve ``app`` on a free loopback port (HTTPS with ``tls``); yields the port.

    The table is closed on the way out, after the server stopped.
    """
    streams = live_streams(app, cap=max_streams)
    asgi = edge(companion_app(app, streams, threads=threads, body_stall=body_stall), hosts)
    try:
        with loopback_server(
            asgi, max_body=MAX_REQUEST_BYTES, on_stop=streams.close, tls=tls, on_config=on_config
        ) as port:
            yield port
    finally:
        table.close()


def make_app(table: Table, pin: str = PIN, **options: Any) -> Flask:
    """The page's app over ``table`` as the web tests build it: the test PIN and a
    one-second heartbeat. A test names only what differs (``camera=...``, ``data_dir=...``)."""
    options.setdefault("heartbeat_seconds", 1.0)
    return create_app(table, pin, **options)


def page_client(table: Table, **options: Any) -> FlaskClient:
    """Flask's test client over :func:`make_app` (no server): errors raise in the test."""
    options.setdefault("test_config", {"TESTING": True})
    return make_app(table, **options).test_client()


@contextmanager
def serve_table(table: Table, **options: Any) -> Iterator[int]:
    """The page most browser tests open: :func:`make_app` served; yields the port."""
    with serving(make_app(table, **options), table) as port:
        yield port
