"""The page follows the network: a new address is served with no restart.

Before, the Host allow-list, the certificate's names and the LAN name's address were
computed once at start, so after a DHCP change (or Wi-Fi that came up after the companion)
every tablet was refused with 421 until someone restarted the Pi. Here the machine's
addresses come from an injectable source; the real server, the real certificate authority
(the system's openssl) and the real TLS handshake do the rest.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import threading
from pathlib import Path

import pytest

from companion.network import NetworkWatch, first_ipv4
from companion.table import Table
from tests.web.conftest import PIN
from tests.web.serving import serving
from web import create_app
from web.asgi import AllowedHosts, ServerConfig
from web.tls import CertificateFollower, ensure_certificate

OLD, NEW = "10.0.0.5", "192.168.7.9"


class Addresses:
    """What ``hostname -I`` would say, changed by the test as a router would."""

    def __init__(self, *found: str) -> None:
        self.now = frozenset(found)

    def __call__(self) -> frozenset[str]:
        return self.now


def get(port: int, host: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/api/state", headers={"Host": f"{host}:{port}"})
    status = connection.getresponse().status
    connection.close()
    return status


def test_a_new_address_is_served_after_one_look_and_the_old_one_no_longer(
    table: Table,
) -> None:
    addresses = Addresses(OLD)
    watch = NetworkWatch(addresses)
    hosts = AllowedHosts({"localhost", "hamster-table.local"}, watch.addresses)
    watch.on_change(hosts.follow)
    # Own set-up: the server's Host allow-list follows a made-up address source.
    with serving(create_app(table, PIN), table, threads=2, hosts=hosts) as port:
        assert (get(port, OLD), get(port, NEW)) == (200, 421)
        addresses.now = frozenset({NEW})
        assert watch.check()
        assert (get(port, OLD), get(port, NEW)) == (421, 200)
        assert get(port, "hamster-table.local") == 200  # fixed names stay
        assert not watch.check()  # nothing changed: nobody is told again


def test_the_watch_looks_by_itself_and_a_failing_listener_stops_nobody() -> None:
    addresses = Addresses(OLD)
    watch = NetworkWatch(addresses, interval=0.05)
    heard: list[frozenset[str]] = []
    told = threading.Event()

    def broken(_: frozenset[str]) -> None:
        raise RuntimeError("the certificate could not be signed")

    def listen(now: frozenset[str]) -> None:
        heard.append(now)
        told.set()

    watch.on_change(broken)
    watch.on_change(listen)
    stop = threading.Event()
    thread = watch.start(stop)
    try:
        addresses.now = frozenset({OLD, NEW})
        assert told.wait(10), "the watch never looked again"
    finally:
        stop.set()
        thread.join(5)
    assert heard == [frozenset({OLD, NEW})] and not thread.is_alive()


def test_the_address_announced_by_name_is_the_lowest_ipv4() -> None:
    assert first_ipv4({"fe80::1", "192.168.7.9", "10.0.0.5"}) == "10.0.0.5"
    assert first_ipv4({"fe80::1"}) is None


def handshake(port: int, ca: Path, name: str) -> None:
    """A TLS handshake that checks the page's certificate names ``name`` (an address)."""
    context = ssl.create_default_context(cafile=str(ca))
    with (
        socket.create_connection(("127.0.0.1", port), timeout=10) as raw,
        context.wrap_socket(raw, server_hostname=name),
    ):
        pass


def test_the_certificate_follows_the_address_without_a_restart(
    table: Table, tmp_path: Path
) -> None:
    chain, key = ensure_certificate(tmp_path, host_name="companion", addresses=[OLD])
    ca = tmp_path / "tls-ca.pem"
    configs: list[ServerConfig] = []
    # Own set-up: TLS, and the server's config kept to reload the certificate.
    app = create_app(table, PIN)
    with serving(app, table, threads=2, tls=(chain, key), on_config=configs.append) as port:
        handshake(port, ca, OLD)
        with pytest.raises(ssl.SSLCertVerificationError):
            handshake(port, ca, NEW)
        renew = CertificateFollower(tmp_path, "hamster-table", configs[0].reload_certificate)
        renew(frozenset({NEW}))
        # The new certificate is loaded on the server's loop: the next handshakes get it.
        served = threading.Event()
        for _ in range(100):
            try:
                handshake(port, ca, NEW)
                served.set()
                break
            except ssl.SSLCertVerificationError:
                threading.Event().wait(0.05)
        assert served.is_set(), "the renewed certificate was never presented"
