"""Optional HTTPS for the tablet page: a certificate made once on the Pi.

Why: browsers grant the Screen Wake Lock (the tablet must not sleep mid-game) only to
secure contexts. The page's server (``web.asgi``) speaks TLS itself with this certificate,
beside plain ``http://``. It is self-signed (made once with the system's ``openssl``), so
each tablet accepts it once.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
from pathlib import Path

from companion.errors import CompanionError

CERT_DAYS = 3650


class TlsError(CompanionError, RuntimeError):
    """HTTPS cannot be offered; the message says why and what to do."""


def ensure_certificate(folder: Path, host_name: str | None = None) -> tuple[Path, Path]:
    """The certificate and key in ``folder``, generated on first use."""
    cert, key = folder / "tls-cert.pem", folder / "tls-key.pem"
    if cert.exists() and key.exists():
        return cert, key
    openssl = shutil.which("openssl")
    if openssl is None:
        raise TlsError("HTTPS needs the openssl command: `sudo apt install openssl`.")
    folder.mkdir(parents=True, exist_ok=True)
    name = host_name or socket.gethostname()
    names = f"DNS:{name},DNS:{name}.local,DNS:localhost,IP:127.0.0.1"
    try:
        address = socket.gethostbyname(name)
        if not address.startswith("127."):
            names += f",IP:{address}"
    except OSError:
        pass
    command = [
        openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
        "-nodes", "-days", str(CERT_DAYS), "-subj", f"/CN={name}",
        "-addext", f"subjectAltName={names}", "-keyout", str(key), "-out", str(cert),
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise TlsError(f"openssl could not make a certificate: {result.stderr.strip()[:200]}")
    key.chmod(0o600)
    return cert, key
