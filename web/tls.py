"""HTTPS the tablets trust: a certificate authority made once on the Pi, and the page's
certificate signed by it.

Why: browsers grant the Screen Wake Lock (the tablet must not sleep mid-game), service
workers and a full-screen installed app only to secure contexts. A self-signed certificate
has to be accepted on every tablet again whenever it changes and never counts as trusted;
a small local authority is installed once per tablet (its certificate is downloadable from
the page, ``/ca.crt``) and then every certificate the Pi makes is trusted, including a new
one after the Pi's address changes. Made with the system's ``openssl``; the page's server
(``web.asgi``) speaks TLS itself with it, beside plain ``http://``.

The server certificate names the Pi's host name, its ``.local`` names (the one
``companion.advertise`` announces too), ``localhost`` and the LAN addresses, and lives 800
days (Apple refuses longer ones from a local authority); it is renewed at start when it is
within 30 days of expiring or no longer names the current address.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
from collections.abc import Callable, Iterable
from pathlib import Path

from companion.errors import CompanionError

CA_DAYS = 3650
CERT_DAYS = 800
RENEW_SECONDS = 30 * 24 * 3600
CA_NAME = "Hamster table companion local CA"


class TlsError(CompanionError, RuntimeError):
    """HTTPS cannot be offered; the message says why and what to do."""


def _openssl() -> str:
    found = shutil.which("openssl")
    if found is None:
        raise TlsError("HTTPS needs the openssl command: `sudo apt install openssl`.")
    return found


def _run(command: list[str], what: str) -> str:
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise TlsError(f"openssl could not {what}: {result.stderr.strip()[:200]}")
    return result.stdout


def ensure_ca(folder: Path) -> tuple[Path, Path]:
    """The local authority's certificate and key in ``folder``, made on first use."""
    cert, key = folder / "tls-ca.pem", folder / "tls-ca-key.pem"
    if cert.exists() and key.exists():
        return cert, key
    folder.mkdir(parents=True, exist_ok=True)
    command = [
        _openssl(), "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
        "-nodes", "-days", str(CA_DAYS), "-subj", f"/CN={CA_NAME} ({socket.gethostname()})",
        "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        "-keyout", str(key), "-out", str(cert),
    ]  # fmt: skip
    _run(command, "make the local certificate authority")
    key.chmod(0o600)
    return cert, key


def names_for(host_name: str, lan_name: str = "", addresses: Iterable[str] = ()) -> list[str]:
    """subjectAltName entries: the host, its .local names, localhost and the addresses."""
    found = [f"DNS:{host_name}", f"DNS:{host_name}.local", "DNS:localhost", "IP:127.0.0.1"]
    if lan_name and lan_name != host_name:
        found.append(f"DNS:{lan_name}.local")
    for address in addresses:
        if address and not address.startswith("127.") and f"IP:{address}" not in found:
            found.append(f"IP:{address}")
    return found


def _current(cert: Path, names: list[str]) -> bool:
    """Whether ``cert`` still names all of ``names`` and is not about to expire."""
    openssl = _openssl()
    fresh = subprocess.run(
        [openssl, "x509", "-in", str(cert), "-noout", "-checkend", str(RENEW_SECONDS)],
        capture_output=True,
        check=False,
    )
    if fresh.returncode != 0:
        return False
    text = _run([openssl, "x509", "-in", str(cert), "-noout", "-ext", "subjectAltName"], "read")
    # The names are the output's last line: "DNS:pi, DNS:pi.local, IP Address:127.0.0.1".
    entries = text.strip().splitlines()[-1].replace("IP Address:", "IP:")
    listed = {entry.strip() for entry in entries.split(",")}
    return all(name in listed for name in names)


def ensure_certificate(
    folder: Path,
    host_name: str | None = None,
    *,
    lan_name: str = "",
    addresses: Iterable[str] = (),
) -> tuple[Path, Path]:
    """The page's certificate and key in ``folder``, signed by the local authority; made
    on first use and renewed when it expires soon or misses a current name or address."""
    ca_cert, ca_key = ensure_ca(folder)
    cert, key = folder / "tls-cert.pem", folder / "tls-key.pem"
    chain = folder / "tls-chain.pem"
    name = host_name or socket.gethostname()
    wanted = names_for(name, lan_name, addresses or _addresses(name))
    if cert.exists() and key.exists() and chain.exists() and _current(cert, wanted):
        return chain, key
    openssl = _openssl()
    request = folder / "tls-request.pem"
    extensions = folder / "tls-extensions.cnf"
    extensions.write_text(
        f"subjectAltName={','.join(wanted)}\n"
        "basicConstraints=critical,CA:FALSE\n"
        "keyUsage=critical,digitalSignature,keyEncipherment\n"
        "extendedKeyUsage=serverAuth\n",
        encoding="utf-8",
    )
    ask = [
        openssl, "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
        "-nodes", "-subj", f"/CN={name}", "-keyout", str(key), "-out", str(request),
    ]  # fmt: skip
    _run(ask, "make a certificate request")
    sign = [
        openssl, "x509", "-req", "-in", str(request), "-CA", str(ca_cert), "-CAkey",
        str(ca_key), "-CAcreateserial", "-days", str(CERT_DAYS), "-extfile",
        str(extensions), "-out", str(cert),
    ]  # fmt: skip
    _run(sign, "sign the page's certificate")
    request.unlink(missing_ok=True)
    key.chmod(0o600)
    # The server presents its certificate followed by the authority's, so a tablet that
    # trusts the authority can build the chain.
    chain.write_bytes(cert.read_bytes() + ca_cert.read_bytes())
    return chain, key


def _addresses(name: str) -> list[str]:
    """The LAN addresses a tablet may type (``hostname -I``, else the name's address)."""
    found: list[str] = []
    try:
        result = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2)
        found = [a for a in result.stdout.split() if "." in a]
    except (OSError, subprocess.SubprocessError):
        pass
    if not found:
        with contextlib.suppress(OSError):
            found = [socket.gethostbyname(name)]
    return found


def authority_certificate(folder: Path) -> Path | None:
    """The local authority's certificate for tablets to install, if HTTPS was ever set up."""
    cert = folder / "tls-ca.pem"
    return cert if cert.exists() else None


class CertificateFollower:
    """Re-signs the page's certificate when the machine's addresses change, then has the
    running server present it (``reload``), so a tablet that opens the new address over
    HTTPS is not refused a name the old certificate lacked."""

    def __init__(self, folder: Path, lan_name: str, reload: Callable[[], object]) -> None:
        self.folder, self.lan_name, self._reload = folder, lan_name, reload

    def __call__(self, addresses: Iterable[str]) -> None:
        ensure_certificate(self.folder, lan_name=self.lan_name, addresses=sorted(addresses))
        self._reload()
