"""Tell systemd the companion is ready, and keep its watchdog fed while the table is alive.

A plain datagram to ``$NOTIFY_SOCKET`` is the whole protocol, so no dependency is needed.
The watchdog is fed only while the table's worker thread runs: a wedged worker stops the
pings and systemd restarts the service (``Restart=on-failure``, ``WatchdogSec=``).
"""

from __future__ import annotations

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
