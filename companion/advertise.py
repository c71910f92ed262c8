"""The page by name on the LAN: ``http://hamster-table.local:8080/`` instead of an address.

A tablet cannot guess the Pi's address, and the address changes with the router's mood.
Multicast DNS lets it ask for a name instead. python-zeroconf answers A queries for the
``server`` name of every service it has registered (its query handler looks the name up
among the registered services' servers: ``_add_address_answers`` in
python-zeroconf ``src/zeroconf/_handlers/query_handler.py``), so registering the page as an
``_http._tcp`` service whose server is ``hamster-table.local.`` both lists the table in
service browsers and makes the name resolve, alongside avahi's own ``<hostname>.local``.

Optional by design: without python-zeroconf, without a network address yet, or when the
multicast socket cannot be opened, the page still works by address and the start-up line
says why the name is off. Nothing here raises.
"""

from __future__ import annotations

import importlib
import logging
import socket
import subprocess
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

SERVICE_TYPE = "_http._tcp.local."


def lan_ipv4() -> str | None:
    """This machine's first LAN IPv4 address (``hostname -I``), or None before it has one."""
    try:
        found = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2)
    except (OSError, subprocess.SubprocessError):
        return None
    for address in found.stdout.split():
        if "." in address and not address.startswith("127."):
            return address
    return None


class Advert:
    """A registered name; ``close`` withdraws it (goodbye packets) and frees the socket."""

    def __init__(self, zeroconf: Any, info: Any, url: str) -> None:
        self._zeroconf = zeroconf
        self._info = info
        self.url = url

    def close(self) -> None:
        try:
            self._zeroconf.unregister_service(self._info)
        except Exception:
            log.debug("withdrawing %s failed", self.url, exc_info=True)
        finally:
            self._zeroconf.close()


def advertise(
    name: str,
    port: int,
    *,
    address: str | None = None,
    load: Callable[[], Any] | None = None,
) -> tuple[Advert | None, str]:
    """Announce the page as ``http://<name>.local:<port>/``; (handle or None, one line why).

    ``name`` empty turns it off (``[web] lan_name = ""``). ``load`` stands in for
    ``import zeroconf`` in tests.
    """
    if not name:
        return None, "LAN name: off (web.lan_name is empty)"
    try:
        zeroconf = load() if load is not None else importlib.import_module("zeroconf")
    except ImportError:
        return None, f"{name}.local: off (python-zeroconf is not installed)"
    address = address or lan_ipv4()
    if address is None:
        return None, f"{name}.local: off (no network address yet)"
    url = f"http://{name}.local:{port}/"
    service = None
    try:
        info = zeroconf.ServiceInfo(
            SERVICE_TYPE,
            f"Hamster table ({name}).{SERVICE_TYPE}",
            addresses=[socket.inet_aton(address)],
            port=port,
            properties={"path": "/"},
            server=f"{name}.local.",
        )
        service = zeroconf.Zeroconf(ip_version=zeroconf.IPVersion.V4Only)
        # A second table on the same LAN gets "... (2)" as its service name, not an error.
        service.register_service(info, allow_name_change=True)
    except Exception as error:  # OSError from the multicast socket, zeroconf's own errors
        if service is not None:
            service.close()
        return None, f"{name}.local: off ({type(error).__name__}: {error})"
    return Advert(service, info, url), f"Also at: {url} (announced on the LAN)"
