"""HTTPS: the table's own certificate authority and the page's certificate, made once;
the page, API and live stream served by the same server speaking TLS itself (so the app
sees each tablet's own address)."""

from __future__ import annotations

import http.client
import json
import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.table import Table
from tests.web.conftest import PIN
from tests.web.serving import page_client, serving
from web import create_app
from web.tls import ensure_certificate


@pytest.fixture
def https(table: Table, tmp_path: Path) -> Iterator[tuple[int, Path]]:
    cert, key = ensure_certificate(tmp_path, host_name="companion")
    # Own set-up: served over TLS with the table's own certificate, on four threads.
    app = create_app(table, PIN, heartbeat_seconds=0.2)
    with serving(app, table, threads=4, tls=(cert, key)) as port:
        yield port, cert


def connect(port: int, cert: Path) -> http.client.HTTPSConnection:
    context = ssl.create_default_context(cafile=str(cert))  # the certificate verifies itself
    return http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=10)


def test_the_certificate_is_made_once_and_kept(tmp_path: Path) -> None:
    cert, key = ensure_certificate(tmp_path, host_name="companion")
    first = cert.read_bytes()
    assert ensure_certificate(tmp_path, host_name="companion") == (cert, key)
    assert cert.read_bytes() == first and oct(key.stat().st_mode & 0o777) == "0o600"


def test_page_and_api_over_https(https: tuple[int, Path]) -> None:
    port, cert = https
    connection = connect(port, cert)
    connection.request("GET", "/api/state")
    state = json.loads(connection.getresponse().read())
    assert state["game"] == "run-hamster-run"
    connection.request("GET", "/")
    assert b"Hamster table companion" in connection.getresponse().read()
    connection.close()


def test_live_stream_over_https(https: tuple[int, Path]) -> None:
    port, cert = https
    connection = connect(port, cert)
    connection.request("GET", "/api/stream?after=0")
    response = connection.getresponse()
    assert response.getheader("Content-Type", "").startswith("text/event-stream")
    seen = b""
    while b"event: ping" not in seen:
        seen += response.fp.readline()
    connection.close()


def test_the_page_certificate_is_signed_by_the_tables_own_authority(tmp_path: Path) -> None:
    """Installed once per tablet, the authority makes every later certificate trusted; the
    page's certificate names the .local names and the LAN addresses (checked with the real
    openssl, as the Pi makes them)."""
    chain, _ = ensure_certificate(
        tmp_path, host_name="pi", lan_name="hamster-table", addresses=["192.168.1.40"]
    )
    ca = tmp_path / "tls-ca.pem"
    cert = tmp_path / "tls-cert.pem"
    verified = subprocess.run(
        ["openssl", "verify", "-CAfile", str(ca), str(cert)], capture_output=True, text=True
    )
    assert verified.returncode == 0, verified.stderr
    text = subprocess.run(
        ["openssl", "x509", "-in", str(cert), "-noout", "-text"], capture_output=True, text=True
    ).stdout
    for name in ("DNS:pi.local", "DNS:hamster-table.local", "IP Address:192.168.1.40"):
        assert name in text
    assert "CA:FALSE" in text and ca.read_bytes() in chain.read_bytes()


def test_a_new_address_gets_a_new_certificate_from_the_same_authority(tmp_path: Path) -> None:
    ensure_certificate(tmp_path, host_name="pi", addresses=["192.168.1.40"])
    authority = (tmp_path / "tls-ca.pem").read_bytes()
    first = (tmp_path / "tls-cert.pem").read_bytes()
    ensure_certificate(tmp_path, host_name="pi", addresses=["192.168.1.40"])
    assert (tmp_path / "tls-cert.pem").read_bytes() == first  # kept while it still fits
    ensure_certificate(tmp_path, host_name="pi", addresses=["10.0.0.7"])
    assert (tmp_path / "tls-cert.pem").read_bytes() != first
    assert (tmp_path / "tls-ca.pem").read_bytes() == authority  # tablets need not reinstall


def test_the_authority_is_downloadable_from_the_page(table: Table, tmp_path: Path) -> None:
    client = page_client(table, data_dir=tmp_path)
    missing = client.get("/ca.crt")
    assert missing.status_code == 404 and "--https-port" in missing.get_json()["error"]
    ensure_certificate(tmp_path, host_name="pi", addresses=["192.168.1.40"])
    found = client.get("/ca.crt")
    assert found.status_code == 200
    assert found.mimetype == "application/x-x509-ca-cert"
    assert found.data == (tmp_path / "tls-ca.pem").read_bytes()
    assert b"PRIVATE KEY" not in found.data


def test_companion_doctor_checks_the_https_set_up(tmp_path: Path) -> None:
    from companion.commands.doctor import check_https

    (finding,) = check_https(tmp_path)
    assert not finding.ok and finding.optional and "--https-port" in finding.fix
    ensure_certificate(tmp_path, host_name="pi", addresses=["192.168.1.40"])
    (finding,) = check_https(tmp_path)
    assert finding.ok and "signed by the table's authority" in finding.what
