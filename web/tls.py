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
import ipaddress
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

#: The addresses a tablet reaches a table by: private IPv4 ranges, link-local, loopback
#: and their IPv6 kin. The authority may sign for nothing else (``ensure_ca``).
PRIVATE_RANGES = tuple(
    ipaddress.ip_network(block)
    for block in (
        "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "127.0.0.0/8",
        "fc00::/7", "fe80::/10", "::1/128",
    )
)  # fmt: skip


def is_private(address: str) -> bool:
    """Whether the authority may sign for ``address`` (a certificate naming any other
    address would fail the name constraints as a whole, on every tablet)."""
    try:
        found = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(found in block for block in PRIVATE_RANGES)


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


def name_constraints(host_name: str) -> str:
    """The authority's critical nameConstraints: ``.local`` names, the bare host name,
    ``localhost`` and private addresses only, so a copy of its key (a lost SD card)
    cannot make a certificate a tablet would accept for any public site."""
    names = ["DNS:local", "DNS:localhost"]
    if host_name and "." not in host_name and host_name != "localhost":
        names.append(f"DNS:{host_name}")
    names += [f"IP:{block.network_address}/{block.netmask}" for block in PRIVATE_RANGES]
    return "nameConstraints=critical," + ",".join(f"permitted;{name}" for name in names)


def ensure_ca(folder: Path, host_name: str | None = None) -> tuple[Path, Path]:
    """The local authority's certificate and key in ``folder``, made on first use.

    Once the key was taken off the Pi (``companion ca export``) only the certificate is
    here; the key path is still returned, and signing says how to bring it back."""
    cert, key = folder / "tls-ca.pem", folder / "tls-ca-key.pem"
    if cert.exists():
        return cert, key
    folder.mkdir(parents=True, exist_ok=True)
    name = host_name or socket.gethostname()
    command = [
        _openssl(), "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
        "-nodes", "-days", str(CA_DAYS), "-subj", f"/CN={CA_NAME} ({name})",
        "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        "-addext", name_constraints(name),
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
        if address.startswith("127.") or f"IP:{address}" in found:
            continue
        if is_private(address):  # a public one is left out: see ``is_private``
            found.append(f"IP:{address}")
    return found


def signable(ca_cert: Path, names: list[str]) -> list[str]:
    """``names`` without the DNS names the authority may not sign for: a bare host name it
    was not made with (the Pi renamed since) would void the whole certificate."""
    text = _run(
        [_openssl(), "x509", "-in", str(ca_cert), "-noout", "-ext", "nameConstraints"], "read"
    )
    allowed = [
        line.strip()[4:].lower() for line in text.splitlines() if line.strip().startswith("DNS:")
    ]
    if not allowed:  # an authority made before the constraints: it may sign anything
        return names

    def permitted(name: str) -> bool:
        if not name.startswith("DNS:"):
            return True  # addresses were kept to the permitted ranges by names_for
        found = name[4:].lower()
        return any(found == rule or found.endswith(f".{rule}") for rule in allowed)

    return [name for name in names if permitted(name)]


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
    name = host_name or socket.gethostname()
    ca_cert, ca_key = ensure_ca(folder, name)
    cert, key = folder / "tls-cert.pem", folder / "tls-key.pem"
    chain = folder / "tls-chain.pem"
    wanted = signable(ca_cert, names_for(name, lan_name, addresses or _addresses(name)))
    if cert.exists() and key.exists() and chain.exists() and _current(cert, wanted):
        return chain, key
    if not ca_key.exists():
        raise TlsError(
            f"The table's certificate must be re-signed for {', '.join(wanted)} but the "
            f"authority's key was taken off the Pi: copy it back to {ca_key} (then "
            "`chmod 600` it) and restart the companion."
        )
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


def fingerprint(cert: Path) -> str:
    """The certificate's SHA-256 fingerprint as colon-separated hex pairs, the way a
    tablet's certificate details show it, so the downloaded authority can be checked."""
    text = _run([_openssl(), "x509", "-in", str(cert), "-noout", "-fingerprint", "-sha256"], "read")
    return text.strip().split("=", 1)[-1].upper()


def export_authority_key(folder: Path, to: Path) -> Path:
    """Move the authority's key from ``folder`` to ``to`` (a USB stick, a laptop), so a
    copy of the Pi's card cannot sign anything; returns where it went."""
    key = folder / "tls-ca-key.pem"
    if not key.exists():
        raise TlsError(f"There is no authority key in {folder}: it was exported already.")
    if to.is_dir():
        to = to / key.name
    if to.exists():
        raise TlsError(f"{to} exists already: choose another file name.")
    to.write_bytes(key.read_bytes())
    to.chmod(0o600)
    if to.read_bytes() != key.read_bytes():
        raise TlsError(f"The copy at {to} differs from the key: check the medium and try again.")
    key.unlink()
    return to


class CertificateFollower:
    """Re-signs the page's certificate when the machine's addresses change, then has the
    running server present it (``reload``), so a tablet that opens the new address over
    HTTPS is not refused a name the old certificate lacked."""

    def __init__(self, folder: Path, lan_name: str, reload: Callable[[], object]) -> None:
        self.folder, self.lan_name, self._reload = folder, lan_name, reload

    def __call__(self, addresses: Iterable[str]) -> None:
        ensure_certificate(self.folder, lan_name=self.lan_name, addresses=sorted(addresses))
        self._reload()
