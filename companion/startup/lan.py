"""The table's LAN name (``NAME.local``), claimed once the page is served, and what
follows the machine's addresses when they change: the Host names the page answers to,
the certificate naming them, the name's record."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import click

from companion.advertise import LanName, remember
from companion.config import Config
from companion.network import NetworkWatch, machine_addresses
from web.asgi import AllowedHosts
from web.tls import CertificateFollower


def lan_name_for(config: Config, host: str, port: int) -> tuple[LanName | None, str]:
    """The LAN name to claim once the page is served, or None and the line saying why not."""
    if host.startswith("127.") or host in ("localhost", "::1"):
        return None, f"  {config.web.lan_name or 'LAN name'}: off (listening on {host} only)"
    if not config.web.lan_name:
        return None, "  LAN name: off (web.lan_name is empty)"
    return LanName(config.web.lan_name, port), ""


def claim(lan: LanName, host: str, addresses: Iterable[str] | None = None) -> str:
    """Ask the LAN who has the name (~2 s) and announce the free one; the console line.
    The name goes at the first of ``addresses``, the machine's, when the page listens on
    all of them, else at ``host``."""
    if host not in ("0.0.0.0", "::", ""):
        addresses = [host]
    line = lan.follow(machine_addresses() if addresses is None else addresses)
    line = line or f"{lan.wanted}.local: off (no network address yet)"
    return ("" if lan.advert is not None else "  ") + line


def announce(
    config: Config, host: str, port: int, addresses: Iterable[str] | None = None
) -> tuple[LanName | None, str]:
    """The page as ``http://hamster-table.local:PORT/`` on the LAN, when it listens there
    (at the first of ``addresses``, the machine's, when it listens on all of them)."""
    lan, off = lan_name_for(config, host, port)
    return (lan, claim(lan, host, addresses)) if lan is not None else (None, off)


@dataclass
class LateLanName:
    """The LAN name claimed once the page is served. Asking the LAN who has NAME.local
    takes ~2 s, which the first page must not wait for (issue 28); until the answer the
    page works by address. Once the name is known the Host check, the certificate (with
    HTTPS), the console, the note for ``companion pin`` and the network watch follow it."""

    lan: LanName
    host: str
    network: NetworkWatch
    hosts: AllowedHosts | None
    certificate: CertificateFollower | None
    folder: Path

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self.claim, name="lan-name", daemon=True)
        thread.start()
        return thread

    def claim(self) -> None:
        """Claim the name, then say so: the console line comes last, once the page, the
        Host check and the note for ``companion pin`` all know the name (a user, or a
        script reading the console, may ask ``companion pin`` the moment it appears)."""
        line = claim(self.lan, self.host, self.network.addresses)
        if self.lan.advert is not None:
            self._answer_to(self.lan.name)
        remember(self.folder, self.lan)
        click.secho(line, bold=self.lan.advert is not None)
        if self.host in ("0.0.0.0", "::", ""):
            follow_the_network(self.network, None, self.lan, None, self.folder)

    def _answer_to(self, name: str) -> None:
        """The page answers to the name it got (``NAME-2`` after a clash), over HTTPS too."""
        if self.hosts is not None:
            self.hosts.allow(f"{name}.local")
        if self.certificate is not None and name != self.certificate.lan_name:
            self.certificate.lan_name = name
            self.certificate(self.network.addresses)


def follow_the_network(
    network: NetworkWatch,
    hosts: AllowedHosts | None,
    lan: LanName | None,
    certificate: CertificateFollower | None,
    folder: Path,
) -> None:
    """What follows the machine's addresses when they change, in this order: the names
    the page answers to, the certificate naming them, then the LAN name's record (and
    the note of it in ``folder`` that ``companion pin`` reads)."""
    if hosts is not None:
        network.on_change(hosts.follow)
    if certificate is not None:
        network.on_change(certificate)
    if lan is not None:
        network.on_change(lan.follow)
        network.on_change(lambda _: remember(folder, lan))  # for `companion pin`
