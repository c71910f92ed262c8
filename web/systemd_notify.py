"""Tell systemd the companion is ready, and keep its watchdog fed while the table is alive.

A plain datagram to ``$NOTIFY_SOCKET`` is the whole protocol, so no dependency is needed.
The watchdog is fed only while the table's worker turns jobs over and the page's event
loop runs callbacks: a wedged worker, or a blocking call stuck on the loop (every page
would hang while the process looks alive), stops the pings and systemd restarts the
service (``Restart=on-failure``, ``WatchdogSec=``).
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
from collections.abc import Callable


def notify(message: str) -> bool:
    """Send one sd_notify message; False when not run by systemd."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(address)
        sock.sendall(message.encode())
    return True


def start_watchdog(alive: Callable[[], bool], stop: threading.Event) -> threading.Thread | None:
    """Ping at half the watchdog interval while ``alive()``; None when no watchdog is set."""
    usec = os.environ.get("WATCHDOG_USEC")
    if not usec or not usec.isdigit() or not os.environ.get("NOTIFY_SOCKET"):
        return None
    interval = int(usec) / 2_000_000

    def feed() -> None:
        while not stop.wait(interval):
            if alive():
                notify("WATCHDOG=1")

    thread = threading.Thread(target=feed, name="watchdog", daemon=True)
    thread.start()
    return thread


def loop_responsive(loop: asyncio.AbstractEventLoop, timeout: float = 5.0) -> bool:
    """The event loop ran a callback within ``timeout``: it is not stuck in a blocking call.

    Asked from the watchdog's thread, like the worker's check: a loop that is merely alive
    (its thread running) could be blocked, and every page with it.
    """
    answered = threading.Event()
    try:
        loop.call_soon_threadsafe(answered.set)
    except RuntimeError:  # the loop is closed: the server has stopped
        return False
    return answered.wait(timeout)


def watch_the_service(
    alive: Callable[[], bool], stop: threading.Event, timeout: float = 5.0
) -> threading.Thread | None:
    """Call on the page's event loop once it serves: feed the watchdog while ``alive()``
    (the table's worker) and this loop both answer; None when no watchdog is set."""
    loop = asyncio.get_running_loop()
    return start_watchdog(lambda: alive() and loop_responsive(loop, timeout), stop)
