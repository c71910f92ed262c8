"""The real server (hypercorn, as ``companion run`` uses it) on a loopback port for tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask

from companion.table import Table
from web import MAX_REQUEST_BYTES
from web.asgi import BODY_STALL_SECONDS, companion_app, edge, live_streams, loopback_server


@contextmanager
def serving(
    app: Flask,
    table: Table,
    threads: int = 8,
    *,
    max_streams: int = 256,
    tls: tuple[Path, Path] | None = None,
    hosts: set[str] | None = None,
    body_stall: float = BODY_STALL_SECONDS,
) -> Iterator[int]:
    """Serve ``app`` on a free loopback port (HTTPS with ``tls``); yields the port.

    The table is closed on the way out, after the server stopped.
    """
    streams = live_streams(app, cap=max_streams)
    asgi = edge(companion_app(app, streams, threads=threads, body_stall=body_stall), hosts)
    try:
        with loopback_server(
            asgi, max_body=MAX_REQUEST_BYTES, on_stop=streams.close, tls=tls
        ) as port:
            yield port
    finally:
        table.close()
