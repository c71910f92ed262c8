"""Joining the table in one scan: the page's address as a QR code, for a terminal or a page.

The address and the PIN used to live only in the journal. ``companion run`` now prints the
address with a QR code a tablet's camera opens at once, ``companion pin`` prints both again
whenever someone needs them, and the unlocked page shows the code for a second tablet.
"""

from __future__ import annotations

import io
import socket
import subprocess

import segno


def lan_address(host: str) -> str:
    """What to type on the tablet: the Pi's LAN address (``hostname -I``), else its name."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    try:
        found = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2)
        for address in found.stdout.split():
            if "." in address and not address.startswith("127."):
                return address
    except (OSError, subprocess.SubprocessError):
        pass
    return f"{socket.gethostname()}.local"


def page_url(host: str, port: int, scheme: str = "http") -> str:
    return f"{scheme}://{lan_address(host)}:{port}/"


def tablet_url(host: str, port: int, https_port: int | None) -> str:
    """The address to give a tablet: the HTTPS one when HTTPS is on (plain HTTP then only
    redirects there), so the QR and ``companion pin`` open the page a tablet keeps awake."""
    return page_url(host, https_port, "https") if https_port else page_url(host, port)


def terminal_qr(url: str) -> str:
    """The QR code of ``url`` drawn with block characters, two rows of modules a line."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def svg_qr(url: str, scale: int = 6) -> str:
    """The QR code of ``url`` as an SVG document (black on white, with its quiet zone)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=scale, dark="#000", light="#fff")
    return out.getvalue().decode("utf-8")
