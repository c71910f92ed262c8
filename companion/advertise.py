"""The page by name on the LAN: ``http://hamster-table.local:8080/`` instead of an address.

A tablet cannot guess the Pi's address, and the address changes with the router's mood.
Multicast DNS lets it ask for a name instead. python-zeroconf answers A queries for the
``server`` name of every service it has registered (its query handler looks the name up
among the registered services' servers: ``_add_address_answers`` in
python-zeroconf ``src/zeroconf/_handlers/query_handler.py``), so registering the page as an
``_http._tcp`` service whose server is ``hamster-table.local.`` both lists the table in
service browsers and makes the name resolve, alongside avahi's own ``<hostname>.local``.

One name per table: python-zeroconf probes only the service's instance name, never the
host name, so at an event every Pi answered for ``hamster-table.local``. Before claiming
the name the companion asks the LAN who has it; if another machine answers, it takes
``NAME-2`` (``-3``, ...) and says so on the console and the page.

The name follows the network: :class:`LanName` moves the record to the machine's new
address when it changes, or announces it late when there was no address at start.

Optional by design: without python-zeroconf, without a network address yet, or when the
multicast socket cannot be opened, the page still works by address and the start-up line
says why the name is off. Nothing here raises.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import socket
import subprocess
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from companion.network import first_ipv4

log = logging.getLogger(__name__)

SERVICE_TYPE = "_http._tcp.local."
PROBE_MS = 2000  # how long to ask (a first answer can take ~1.5 s: measured on loopback)
MAX_SUFFIX = 9  # NAME-2 ... NAME-9, then give up (the page still works by address)

#: Who answers for a name on the LAN: (the open Zeroconf, "name.local.") -> addresses.
Probe = Callable[[Any, str], set[str]]


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


def _info(zeroconf: Any, name: str, port: int, address: str) -> Any:
    return zeroconf.ServiceInfo(
        SERVICE_TYPE,
        f"Hamster table ({name}).{SERVICE_TYPE}",
        addresses=[socket.inet_aton(address)],
        port=port,
        properties={"path": "/"},
        server=f"{name}.local.",
    )


def ask_the_lan(module: Any) -> Probe:
    """python-zeroconf's address query: the addresses other machines give for ``host``."""

    def probe(service: Any, host: str) -> set[str]:
        resolver = module.AddressResolverIPv4(host)
        resolver.request(service, PROBE_MS)
        return set(resolver.parsed_addresses())

    return probe


def free_name(name: str, service: Any, probe: Probe, ours: Iterable[str]) -> tuple[str | None, str]:
    """The first of NAME, NAME-2, ... nobody else answers for; (name or None, a note)."""
    mine = set(ours)
    for candidate in [name, *(f"{name}-{n}" for n in range(2, MAX_SUFFIX + 1))]:
        theirs = probe(service, f"{candidate}.local.") - mine
        if not theirs:
            note = "" if candidate == name else f" ({name}.local is another machine's)"
            return candidate, note
        log.info("LAN name %s.local is taken by %s", candidate, sorted(theirs))
    return None, f"{name}.local to {name}-{MAX_SUFFIX}.local are all taken on this network"


class Advert:
    """A registered name; ``close`` withdraws it (goodbye packets) and frees the socket."""

    def __init__(
        self, zeroconf: Any, info: Any, url: str, *, name: str = "", module: Any = None
    ) -> None:
        self._zeroconf = zeroconf
        self._info = info
        self._module = module
        self.url = url
        self.name = name

    def move_to(self, address: str, port: int) -> None:
        """Answer for the same name at ``address`` from now on (the old record is replaced)."""
        info = _info(self._module, self.name, port, address)
        self._zeroconf.update_service(info)
        self._info = info

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
    probe: Probe | None = None,
) -> tuple[Advert | None, str]:
    """Announce the page as ``http://<name>.local:<port>/``; (handle or None, one line why).

    ``name`` empty turns it off (``[web] lan_name = ""``). ``load`` stands in for
    ``import zeroconf`` in tests, ``probe`` for asking the LAN who has a name (default:
    ask it; a stand-in module without a resolver is never probed).
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
    if probe is None and hasattr(zeroconf, "AddressResolverIPv4"):
        probe = ask_the_lan(zeroconf)
    service = None
    wanted, note = name, ""
    try:
        service = zeroconf.Zeroconf(ip_version=zeroconf.IPVersion.V4Only)
        if probe is not None:
            found, note = free_name(wanted, service, probe, [address])
            if found is None:
                service.close()
                return None, f"{wanted}.local: off ({note})"
            name = found
        info = _info(zeroconf, name, port, address)
        # A second table on the same LAN gets "... (2)" as its service name, not an error.
        service.register_service(info, allow_name_change=True)
    except Exception as error:  # OSError from the multicast socket, zeroconf's own errors
        if service is not None:
            service.close()
        return None, f"{wanted}.local: off ({type(error).__name__}: {error})"
    url = f"http://{name}.local:{port}/"
    advert = Advert(service, info, url, name=name, module=zeroconf)
    return advert, f"Also at: {url} (announced on the LAN){note}"


class LanName:
    """The page's LAN name kept at the machine's current address (:class:`NetworkWatch`
    calls :meth:`follow`): moved when the address changes, announced late when there was
    none at start."""

    def __init__(
        self,
        name: str,
        port: int,
        *,
        load: Callable[[], Any] | None = None,
        probe: Probe | None = None,
    ) -> None:
        self.wanted, self.port = name, port
        self._load, self._probe = load, probe
        self.advert: Advert | None = None
        self.address: str | None = None
        self.line = ""
        self._closed = False
        self._handoff = threading.Lock()  # a close during the probe withdraws what it finds

    @property
    def name(self) -> str:
        """The name this table answers to (``NAME-2`` after a clash), or the one it wants."""
        return self.advert.name if self.advert is not None else self.wanted

    def page_note(self) -> str:
        """What the page says about the name: the one it got, and why if not the one asked."""
        if self.advert is None:
            return ""
        taken = "" if self.name == self.wanted else f" ({self.wanted}.local is another machine's)"
        return f"On the LAN this table is {self.advert.url}{taken}."

    def follow(self, addresses: Iterable[str]) -> str:
        """Announce at the lowest IPv4 address of ``addresses``; the start-up line."""
        address = first_ipv4(addresses)
        if address is None or address == self.address:
            return self.line
        if self.advert is None:
            advert, self.line = advertise(
                self.wanted, self.port, address=address, load=self._load, probe=self._probe
            )
            self._keep(advert)
        else:
            self.advert.move_to(address, self.port)
            log.info("LAN name %s.local now answers with %s", self.name, address)
        if self.advert is not None:
            self.address = address
        return self.line

    def _keep(self, advert: Advert | None) -> None:
        """Hold the name the probe found, unless the companion stopped while it probed."""
        with self._handoff:
            if not self._closed:
                self.advert = advert
                return
        if advert is not None:
            advert.close()

    def close(self) -> None:
        """Withdraw the name; a probe still under way withdraws its own when it ends."""
        with self._handoff:
            self._closed = True
            advert = self.advert
        if advert is not None:
            advert.close()


LAN_NAME_FILE = "lan-name.txt"  # in the data folder, for `companion pin`


def remember(folder: Path, lan: LanName | None) -> None:
    """Leave the name this table got where ``companion pin`` (another process) finds it;
    no name announced (or the companion stopping): nothing left behind."""
    path = folder / LAN_NAME_FILE
    with contextlib.suppress(OSError):  # a read-only folder is reported elsewhere
        if lan is not None and lan.advert is not None:
            path.write_text(lan.advert.url + "\n", encoding="utf-8")
        else:
            path.unlink(missing_ok=True)


def remembered(folder: Path) -> str | None:
    """The page's LAN address the running companion announced, if it did."""
    try:
        return (folder / LAN_NAME_FILE).read_text(encoding="utf-8").strip() or None
    except OSError:
        return None
