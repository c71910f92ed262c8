"""*Download logs*: the companion's last log lines, ``companion doctor`` and the versions,
as one text file a person can send to whoever helps them.

The lines come from the journal when the companion runs under systemd and the journal
can be read (``journalctl`` needs the ``systemd-journal`` group), else from the lines this
process kept itself (:data:`companion.logs.RING`); the file says which.
"""

from __future__ import annotations

import platform
import subprocess
import sys
from collections.abc import Callable
from datetime import datetime
from importlib import metadata
from pathlib import Path

from companion import logs

LIBRARIES = (
    "hamster-companion",
    "flask",
    "hypercorn",
    "numpy",
    "opencv-python-headless",
    "picamera2",
    "gpiozero",
    "lgpio",
    "paho-mqtt",
    "zeroconf",
)
MAX_LINES = 5000


def journal_lines(count: int, unit: str = "companion") -> list[str] | None:
    """The unit's last ``count`` journal lines, None when not under systemd or unreadable."""
    if not logs.under_journal():
        return None
    command = ["journalctl", "-u", unit, "-n", str(count), "--no-pager", "-o", "short-iso"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = [line for line in done.stdout.splitlines() if not line.startswith("-- ")]
    return lines if done.returncode == 0 and lines else None


def doctor_text(config_file: str | None, data_dir: Path) -> str:
    """``companion doctor``'s output, run as a command of its own (its checks import the
    device libraries, which the page never does)."""
    command = [sys.executable, "-m", "companion"]
    if config_file:
        command += ["--config", config_file]
    command += ["--data-dir", str(data_dir), "doctor"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"companion doctor could not be run ({error})."
    return (done.stdout + done.stderr).rstrip()


def versions() -> list[str]:
    """The companion's and its libraries' versions, Python's and the system's."""
    found = [f"Python {sys.version.split()[0]} on {platform.platform()} ({platform.machine()})"]
    os_release = Path("/etc/os-release")
    if os_release.exists():
        for line in os_release.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("PRETTY_NAME="):
                found.append(f"System: {line.split('=', 1)[1].strip(chr(34))}")
    for name in LIBRARIES:
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name}: not installed")
    return found


def log_file(
    count: int,
    doctor: Callable[[], str],
    journal: Callable[[int], list[str] | None] = journal_lines,
    release: str = "",
) -> str:
    """The whole download: a heading, the versions, doctor, then the last ``count`` lines."""
    count = max(1, min(count, MAX_LINES))
    lines = journal(count)
    where = "the journal (journalctl -u companion)"
    if lines is None:
        lines = logs.RING.last(count)
        where = "the companion's own memory since it started (the journal could not be read)"
    parts = [
        f"Hamster table companion: logs taken {datetime.now().isoformat(timespec='seconds')}",
        "",
        "== Versions ==",
        *versions(),
        *([f"Release: {release}"] if release else []),
        "",
        "== companion doctor ==",
        doctor(),
        "",
        f"== Last {len(lines)} log lines, from {where} ==",
        *(lines or ["(no lines logged yet)"]),
    ]
    return "\n".join(parts) + "\n"
