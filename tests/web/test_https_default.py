"""HTTPS by default on the installed table: a local authority that can sign only for the
table's own names and private addresses, its fingerprint on the page to check it by, its
key kept off the Pi if wanted, plain HTTP sending tablets to the HTTPS page (but for the
certificate and the join code), and ``companion pin`` giving the https:// address."""

from __future__ import annotations

import http.client
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.serve import companion_command
from companion.table import Table
from tests.web.conftest import PIN
from tests.web.serving import page_client
from web import MAX_REQUEST_BYTES, create_app
from web.asgi import companion_app, edge, live_streams, loopback_server, to_https
from web.tls import TlsError, ensure_certificate, export_authority_key

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl")


def openssl(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["openssl", *args], capture_output=True, text=True, check=False)


def signed_for(folder: Path, name: str) -> Path:
    """A certificate for ``name`` (``DNS:x`` or ``IP:x``) signed with the table's
    authority key, as someone holding a copy of the Pi's card could make one."""
    key, request, cert = folder / f"{name}.key", folder / f"{name}.csr", folder / f"{name}.pem"
    extensions = folder / f"{name}.cnf"
    extensions.write_text(f"subjectAltName={name}\n", encoding="utf-8")
    curve = "ec_paramgen_curve:prime256v1"
    made = openssl("req", "-new", "-newkey", "ec", "-pkeyopt", curve, "-nodes",
                   "-subj", "/CN=x", "-keyout", str(key), "-out", str(request))  # fmt: skip
    assert made.returncode == 0, made.stderr
    made = openssl("x509", "-req", "-in", str(request), "-CA", str(folder / "tls-ca.pem"),
                   "-CAkey", str(folder / "tls-ca-key.pem"), "-CAcreateserial", "-days", "1",
                   "-extfile", str(extensions), "-out", str(cert))  # fmt: skip
    assert made.returncode == 0, made.stderr
    return cert


def verifies(folder: Path, cert: Path) -> bool:
    return openssl("verify", "-CAfile", str(folder / "tls-ca.pem"), str(cert)).returncode == 0


def test_the_authority_cannot_vouch_for_a_public_site(tmp_path: Path) -> None:
    ensure_certificate(tmp_path, host_name="pi", addresses=["192.168.1.40"])
    assert verifies(tmp_path, tmp_path / "tls-cert.pem")  # the table's own page
    for private in ("DNS:pi-2.local", "IP:10.1.2.3", "IP:172.20.0.9", "IP:fe80::1"):
        assert verifies(tmp_path, signed_for(tmp_path, private)), private
    for public in ("DNS:example.com", "DNS:bank.example", "IP:8.8.8.8", "IP:2001:db8::1"):
        assert not verifies(tmp_path, signed_for(tmp_path, public)), public
    shown = openssl("x509", "-in", str(tmp_path / "tls-ca.pem"), "-noout", "-text").stdout
    assert "Name Constraints: critical" in shown


def test_with_the_key_off_the_pi_a_new_address_is_refused_until_it_is_back(
    tmp_path: Path,
) -> None:
    chain, key = ensure_certificate(tmp_path, host_name="pi", addresses=["192.168.1.40"])
    away = export_authority_key(tmp_path, tmp_path / "stick")
    assert not (tmp_path / "tls-ca-key.pem").exists() and away.exists()
    # The certificate it has is still served for the address it names.
    assert ensure_certificate(tmp_path, host_name="pi", addresses=["192.168.1.40"]) == (
        chain,
        key,
    )
    with pytest.raises(TlsError, match=r"copy it back to .*tls-ca-key\.pem"):
        ensure_certificate(tmp_path, host_name="pi", addresses=["10.0.0.7"])
    with pytest.raises(TlsError, match="exported already"):
        export_authority_key(tmp_path, tmp_path / "again")
    shutil.copy(away, tmp_path / "tls-ca-key.pem")
    ensure_certificate(tmp_path, host_name="pi", addresses=["10.0.0.7"])
    assert verifies(tmp_path, tmp_path / "tls-cert.pem")


def test_the_companion_ca_command_exports_the_key_and_prints_the_fingerprint(
    tmp_path: Path,
) -> None:
    ensure_certificate(tmp_path, host_name="pi", addresses=["192.168.1.40"])
    runner = CliRunner()
    printed = runner.invoke(companion_command, ["--data-dir", str(tmp_path), "ca", "fingerprint"])
    expected = openssl("x509", "-in", str(tmp_path / "tls-ca.pem"), "-noout", "-fingerprint",
                       "-sha256").stdout.strip().split("=")[1]  # fmt: skip
    assert printed.exit_code == 0 and expected in printed.output
    moved = runner.invoke(
        companion_command, ["--data-dir", str(tmp_path), "ca", "export", str(tmp_path / "k.pem")]
    )
    assert moved.exit_code == 0 and "copied back" in moved.output
    assert (tmp_path / "k.pem").exists() and not (tmp_path / "tls-ca-key.pem").exists()


def test_the_page_shows_the_authoritys_fingerprint_beside_the_join_code(
    table: Table, tmp_path: Path
) -> None:
    client = page_client(table, data_dir=tmp_path)
    assert b"ca-fingerprint" not in client.get("/").data  # no HTTPS, nothing to check
    ensure_certificate(tmp_path, host_name="pi", addresses=["192.168.1.40"])
    expected = openssl("x509", "-in", str(tmp_path / "tls-ca.pem"), "-noout", "-fingerprint",
                       "-sha256").stdout.strip().split("=")[1]  # fmt: skip
    page = client.get("/").get_data(as_text=True)
    join_box = page[page.index('id="join-box"') :]
    assert expected in join_box[: join_box.index("</details>")]


@pytest.fixture
def plain_port(table: Table, tmp_path: Path) -> Iterator[int]:
    """The page on plain HTTP as the installed service serves it beside HTTPS on 8443."""
    ensure_certificate(tmp_path, host_name="pi", addresses=["192.168.1.40"])
    # Own set-up: plain HTTP redirecting to HTTPS (to_https), as the installed service.
    app = create_app(table, PIN, data_dir=tmp_path, heartbeat_seconds=0.2)
    streams = live_streams(app, cap=8)
    asgi = edge(to_https(companion_app(app, streams, threads=2), 8443), {"127.0.0.1"})
    try:
        with loopback_server(asgi, max_body=MAX_REQUEST_BYTES, on_stop=streams.close) as port:
            yield port
    finally:
        table.close()


def ask(port: int, method: str, path: str) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request(method, path, body=b"{}" if method == "POST" else None)
    answer = connection.getresponse()
    answer.read()
    connection.close()
    return answer


def test_plain_http_sends_the_tablet_to_the_https_page(plain_port: int) -> None:
    page = ask(plain_port, "GET", "/?kiosk=1")
    assert page.status == 308 and page.getheader("location") == "https://127.0.0.1:8443/?kiosk=1"
    api = ask(plain_port, "POST", "/api/next")
    assert api.status == 308 and api.getheader("location") == "https://127.0.0.1:8443/api/next"
    assert page.getheader("x-frame-options") == "DENY"  # still behind the edge's headers


def test_the_certificate_and_the_join_code_stay_on_plain_http(plain_port: int) -> None:
    authority = ask(plain_port, "GET", "/ca.crt")
    assert authority.status == 200 and authority.getheader("location") is None
    assert ask(plain_port, "GET", "/join.svg").status == 200


def test_a_foreign_host_is_refused_not_redirected(plain_port: int) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", plain_port, timeout=10)
    connection.request("GET", "/", headers={"Host": "evil.example"})
    assert connection.getresponse().status == 421
    connection.close()


@pytest.mark.parametrize(
    ("web", "address"),
    [
        ('host = "192.168.1.40"\nhttps_port = 8443', "https://192.168.1.40:8443/"),
        ('host = "192.168.1.40"', "http://192.168.1.40:8080/"),
    ],
)
def test_companion_pin_gives_the_https_address_when_https_is_on(
    tmp_path: Path, web: str, address: str
) -> None:
    config = tmp_path / "companion.toml"
    config.write_text(f'[web]\npin = "{PIN}"\n{web}\n', encoding="utf-8")
    result = CliRunner().invoke(
        companion_command, ["--config", str(config), "--data-dir", str(tmp_path), "pin"]
    )
    assert result.exit_code == 0, result.output
    assert f"Tablet page: {address}" in result.output
    assert ("ca.crt" in result.output) == address.startswith("https")
    if address.startswith("https"):
        assert "http://192.168.1.40:8080/ca.crt" in result.output


def test_a_public_address_is_left_out_of_the_pages_certificate(tmp_path: Path) -> None:
    """One name outside the constraints would void the whole certificate on every tablet."""
    ensure_certificate(tmp_path, host_name="pi", addresses=["192.168.1.40", "203.0.113.9"])
    names = openssl("x509", "-in", str(tmp_path / "tls-cert.pem"), "-noout", "-ext",
                    "subjectAltName").stdout  # fmt: skip
    assert "192.168.1.40" in names and "203.0.113.9" not in names
    assert verifies(tmp_path, tmp_path / "tls-cert.pem")


def test_a_renamed_pi_still_gets_a_certificate_its_tablets_accept(tmp_path: Path) -> None:
    """The authority permits the bare host name it was made with; after a rename the new
    bare name is left out (its .local name is still in) rather than voiding the whole."""
    ensure_certificate(tmp_path, host_name="raspberrypi", addresses=["192.168.1.40"])
    ensure_certificate(tmp_path, host_name="hamster", addresses=["192.168.1.41"])
    names = openssl("x509", "-in", str(tmp_path / "tls-cert.pem"), "-noout", "-ext",
                    "subjectAltName").stdout  # fmt: skip
    assert "DNS:hamster.local" in names and "DNS:hamster," not in names
    assert verifies(tmp_path, tmp_path / "tls-cert.pem")


def test_doctor_points_out_an_authority_made_without_constraints(tmp_path: Path) -> None:
    from companion.commands.doctor import check_https

    ensure_certificate(tmp_path, host_name="pi", addresses=["192.168.1.40"])
    assert all(finding.ok for finding in check_https(tmp_path))
    # An authority as older releases made it: the same, but with no name constraints.
    made = openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                   "-nodes", "-days", "30", "-subj", "/CN=old", "-addext",
                   "basicConstraints=critical,CA:TRUE", "-keyout", str(tmp_path / "tls-ca-key.pem"),
                   "-out", str(tmp_path / "tls-ca.pem"))  # fmt: skip
    assert made.returncode == 0, made.stderr
    (tmp_path / "tls-cert.pem").unlink()
    ensure_certificate(tmp_path, host_name="pi", addresses=["192.168.1.40"])
    old = [finding for finding in check_https(tmp_path) if not finding.ok]
    assert len(old) == 1 and "no name constraints" in old[0].what and old[0].optional
