"""Where the page listens and what it says first: the ports checked before anything
starts, HTTPS beside HTTP, the Host names it answers to, and the start-up banner."""

from __future__ import annotations

import errno
import socket
import sys
from collections.abc import Iterable

import click

from companion import logs
from companion.config import Config
from companion.joining import page_url, tablet_url, terminal_qr
from companion.network import NetworkWatch
from companion.startup.devices import Devices
from companion.startup.games import Games
from web.asgi import AllowedHosts, Listen, machine_names
from web.tls import TlsError, ensure_certificate


def https_listen(
    config: Config, host: str, port: int, https_port: int | None, lan_name: str | None = None
) -> tuple[Listen, str]:
    """Where to listen, with HTTPS beside HTTP when asked (needed for the Screen Wake Lock).

    The certificate is made once on the Pi with ``openssl``; without it, HTTPS is off and
    the second value says why in one line.
    """
    wanted = https_port if https_port is not None else config.web.https_port
    if not wanted:
        return Listen(host, port), ""
    try:
        names = config.web.lan_name if lan_name is None else lan_name
        cert, key = ensure_certificate(config.data_dir, lan_name=names)
    except TlsError as error:
        return Listen(host, port), f"https: off ({error})"
    return Listen(host, port, wanted, cert, key), ""


def check_ports(host: str, ports: Iterable[int]) -> None:
    """Raise the OSError that serving would, before anything starts or is printed.

    Why: the page's port is opened last, after the banner with the address and PIN, so
    a port in use (a companion already running) read as a started companion followed
    by an error. Binding a probe first says it at once;
    the real server still reports the rare port taken in between.
    """
    for port in ports:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as hypercorn does
            probe.bind((host, port))


def bind_problem(error: OSError) -> str:
    """Why the page's port could not be opened, and the option that fixes it."""
    if isinstance(error, socket.gaierror):
        return f"no such host or address ({error.strerror}); check --host or web.host."
    if error.errno == errno.EADDRINUSE:
        return "the port is already in use (another companion?); try another --port."
    if error.errno == errno.EACCES:
        return "ports below 1024 need root; use a --port from 1024 up (8080 is the default)."
    if error.errno == errno.EADDRNOTAVAIL:
        return "this machine has no such address; check --host or web.host."
    return f"{error.strerror or error}; check --host and --port."


def allowed_hosts(config: Config, network: NetworkWatch) -> AllowedHosts | None:
    """The Host names the page answers to (None: any, ``web.any_host``); the LAN name
    after a clash (``NAME-2``) is added once it is known."""
    if config.web.any_host:
        return None
    named = {f"{config.web.lan_name}.local"} if config.web.lan_name else set()
    return AllowedHosts(machine_names() | set(config.web.hosts) | named, network.addresses)


def print_banner(
    config: Config,
    host: str,
    port: int,
    games: Games,
    devices: Devices,
    listen: Listen,
    https_note: str,
    lan_off: str,
) -> None:
    """The start-up lines: the page's address and PIN (and QR on a terminal), HTTPS, the
    LAN name when it is off, each device, and where the games are kept."""
    # The journal keeps every start for months: the PIN is shown by `companion pin` instead.
    shown = "shown by `companion pin`" if logs.under_journal() else games.pin
    url = tablet_url(host, port, listen.https_port)
    click.secho(f"Tablet page: {url}   table PIN: {shown}", bold=True)
    if sys.stdout.isatty():  # a tablet's camera opens the page from this
        click.echo(terminal_qr(url))
    if listen.https_port:
        click.echo(f"  first trust the table's certificate: {page_url(host, port)}ca.crt")
    elif https_note:
        click.secho(f"  {https_note}", fg="yellow")
    if devices.lan is None:
        click.secho(lan_off)
    for name, status in devices.status().items():
        click.echo(f"  {name}: {status}")
    click.echo(f"  games are stored in {config.database}")
    if games.damaged:
        click.secho(f"  {games.damaged}", fg="red")
