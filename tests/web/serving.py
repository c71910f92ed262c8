"""A real waitress server in a thread for browser and HTTPS tests, and a clean way to stop it.

Stopping waitress from another thread is delicate: its loop owns the sockets. So the open
streams are ended first (the table closes them), the worker threads are drained, and the
sockets are closed inside the loop's own thread through its trigger.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import waitress.server
from flask import Flask

from companion.table import Table


@contextmanager
def serving(app: Flask, table: Table, threads: int = 8) -> Iterator[int]:
    """Serve ``app`` on a free loopback port; yields the port."""
    httpd: Any = waitress.server.create_server(app, host="127.0.0.1", port=0, threads=threads)
    thread = threading.Thread(target=httpd.run, daemon=True)
    thread.start()
    try:
        yield int(httpd.effective_port)
    finally:
        table.close()  # ends the live streams first, so no request outlives the server
        httpd.task_dispatcher.shutdown(timeout=10)

        def close_everything() -> None:
            for channel in list(httpd._map.values()):
                if channel is not httpd and channel is not httpd.trigger:
                    channel.close()
            httpd.close()  # the trigger and the listener: the loop's map empties and it returns

        httpd.pull_trigger = lambda: None  # a straggling task must not poke a closed trigger
        try:
            httpd.trigger.pull_trigger(close_everything)
        except OSError:  # the loop already closed its trigger and is ending by itself
            thread.join(timeout=10)
            close_everything()
        thread.join(timeout=10)
