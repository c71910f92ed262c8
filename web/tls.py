"""Optional HTTPS for the tablet page: a locally generated certificate and a TLS front.

Why: browsers grant the Screen Wake Lock (the tablet must not sleep mid-game) only to
secure contexts. waitress speaks plain HTTP only, so HTTPS is a small TLS front that
terminates TLS and pipes the bytes to waitress on the loopback: the page, the API and the
live stream work unchanged. The certificate is self-signed (made once with the system's
``openssl``), so each tablet accepts it once; plain ``http://`` keeps working beside it.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import ssl
import subprocess
import threading
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


class TlsFront:
    """Accept TLS on ``port`` and pipe each connection to ``upstream`` (waitress)."""

    def __init__(
        self, cert: Path, key: Path, host: str, port: int, upstream: tuple[str, int]
    ) -> None:
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.load_cert_chain(cert, key)
        self.host, self.port, self.upstream = host, port, upstream
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tls-front", daemon=True)

    def start(self) -> int:
        """Start serving; returns the port (useful with port 0 in tests)."""
        self._thread.start()
        self._ready.wait(timeout=10)
        if self._server is None:
            raise TlsError(f"Cannot serve HTTPS on port {self.port}; try another https_port.")
        return int(self._server.sockets[0].getsockname()[1])

    def stop(self) -> None:
        """Close the listener, end every open pipe, then stop the loop (nothing left pending)."""
        if self._server is None or not self._loop.is_running():
            return
        asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)

    async def _shutdown(self) -> None:
        assert self._server is not None
        self._server.close()
        current = asyncio.current_task()
        pipes = [task for task in asyncio.all_tasks() if task is not current]
        for task in pipes:
            task.cancel()
        await asyncio.gather(*pipes, return_exceptions=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._server = self._loop.run_until_complete(
                asyncio.start_server(self._pipe, self.host, self.port, ssl=self.context)
            )
        except OSError:
            self._server = None
        self._ready.set()
        if self._server is not None:
            self._loop.run_forever()
        self._loop.run_until_complete(self._loop.shutdown_asyncgens())
        self._loop.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            writer.close()
            return
        await asyncio.gather(_copy(reader, up_writer), _copy(up_reader, writer))


async def _copy(source: asyncio.StreamReader, target: asyncio.StreamWriter) -> None:
    try:
        while data := await source.read(65536):
            target.write(data)
            await target.drain()
    except (ConnectionError, ssl.SSLError, OSError):
        pass
    finally:
        with contextlib.suppress(ConnectionError, ssl.SSLError, OSError, RuntimeError):
            target.close()
