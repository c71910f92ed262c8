"""The real server (hypercorn, as ``companion run`` uses it) in a thread, stopped cleanly.

The socket is bound here first (port 0 picks a free one) and handed to hypercorn as a file
descriptor, so the test knows the port before the server starts. Stopping sets the stop
event on the server's own loop: the live streams end first, then hypercorn closes.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask

from companion.table import Table
from web import MAX_REQUEST_BYTES
from web.asgi import Listen, companion_app, edge, server_config
from web.asgi import run as run_server
from web.live import LiveStreams


@contextmanager
def serving(
    app: Flask,
    table: Table,
    threads: int = 8,
    *,
    max_streams: int = 256,
    heartbeat: float | None = None,
    tls: tuple[Path, Path] | None = None,
    hosts: set[str] | None = None,
) -> Iterator[int]:
    """Serve ``app`` on a free loopback port (HTTPS with ``tls``); yields the port."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    port = int(listener.getsockname()[1])
    beat = heartbeat if heartbeat is not None else app.extensions["companion"].heartbeat_seconds
    streams = LiveStreams(table, heartbeat=beat, cap=max_streams)
    asgi = edge(companion_app(app, streams, threads=threads), hosts)
    listen = Listen("127.0.0.1", port)
    config = server_config(listen, max_body=MAX_REQUEST_BYTES)
    if tls is not None:
        config.certfile, config.keyfile = str(tls[0]), str(tls[1])
    config.bind = [f"fd://{listener.detach()}"]  # hypercorn owns (and closes) it from now on
    config.insecure_bind = []
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    started = threading.Event()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(run_server(asgi, config, stop, started.set))
        loop.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    started.wait(10)
    try:
        yield port
    finally:

        def stopping() -> None:
            streams.close()
            stop.set()

        loop.call_soon_threadsafe(stopping)
        thread.join(timeout=15)
        table.close()
