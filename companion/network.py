"""The machine's addresses, watched: what depends on them follows when they change.

Why: the Host allow-list, the LAN name's address record and the HTTPS certificate's names
were computed once at start. After the router handed out a new address, or when the Wi-Fi
came up after the companion, every tablet got "421 does not answer to that name" until
someone restarted it. A cheap check every few seconds (``hostname -I``, a few milliseconds)
is enough: a tablet on the new address is served within one interval plus the time to
re-sign a certificate, well under 10 s, with no netlink code to maintain.
"""

from __future__ import annotations

import logging
import subprocess
import threading
from collections.abc import Callable, Iterable

log = logging.getLogger(__name__)

INTERVAL = 3.0  # seconds between looks at the addresses

Addresses = frozenset[str]
Listener = Callable[[Addresses], object]


def machine_addresses() -> Addresses:
    """This machine's LAN addresses, IPv4 and IPv6 (``hostname -I``), loopback left out."""
    try:
        found = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2)
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    return frozenset(
        address.lower()
        for address in found.stdout.split()
        if not address.startswith("127.") and address != "::1"
    )


def first_ipv4(addresses: Iterable[str]) -> str | None:
    """The address to announce by name (mDNS here is IPv4): the lowest, so it is stable."""
    found = sorted(a for a in addresses if "." in a and not a.startswith("127."))
    return found[0] if found else None


class NetworkWatch:
    """Looks at the addresses every ``interval`` seconds; on a change, tells each listener.

    ``source`` is where the addresses come from (tests pass their own). A listener that
    fails is logged and the others still hear the change; it hears the next one too.
    """

    def __init__(
        self, source: Callable[[], Addresses] = machine_addresses, interval: float = INTERVAL
    ) -> None:
        self._source = source
        self.interval = interval
        self.addresses: Addresses = source()
        self._listeners: list[Listener] = []

    def on_change(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def check(self) -> bool:
        """Look once; True (and every listener told) when the addresses changed."""
        now = self._source()
        if now == self.addresses:
            return False
        gone, new = sorted(self.addresses - now), sorted(now - self.addresses)
        log.info("network: addresses now %s (new %s, gone %s)", sorted(now), new, gone)
        self.addresses = now
        for listener in self._listeners:
            try:
                listener(now)
            except Exception:
                log.exception("network: %r could not follow the new addresses", listener)
        return True

    def start(self, stop: threading.Event) -> threading.Thread:
        """Check every ``interval`` seconds on a thread of its own until ``stop`` is set."""

        def watch() -> None:
            while not stop.wait(self.interval):
                self.check()

        thread = threading.Thread(target=watch, name="network-watch", daemon=True)
        thread.start()
        return thread
