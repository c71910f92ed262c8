"""Is the Pi getting enough power, and is it too hot? The firmware's own answer.

Why: a weak power supply or a thin USB cable is the most common cause of a Pi that
"randomly" misbehaves: the firmware lowers the clock when the voltage drops or the chip
runs hot, and the dice reader and camera slow down with it, silently. The firmware keeps
flags for this (documented for ``vcgencmd get_throttled``): bits 0-3 say what is happening
now, bits 16-19 what has happened since boot. The kernel shows the same number in sysfs
(``get_throttled`` of the firmware device); ``vcgencmd`` is the fallback.
"""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Final, NamedTuple

SYSFS: Final = Path("/sys/devices/platform/soc/soc:firmware/get_throttled")

# bit -> what it means, from the firmware's get_throttled documentation.
NOW: Final = {
    0: "under-voltage",
    1: "the CPU's frequency capped",
    2: "throttled",
    3: "at its soft temperature limit",
}
SINCE_BOOT: Final = {bit + 16: what for bit, what in NOW.items()}
POWER_FIX: Final = (
    "use the official power supply (Pi 4: 5.1 V 3 A; Pi 5: 5.1 V 5 A) and its own short cable; "
    "a phone charger or a thin cable drops the voltage under load"
)
HEAT_FIX: Final = "give the Pi a heatsink or a fan and room to breathe (not in a closed box)"


class PowerReport(NamedTuple):
    ok: bool
    what: str
    fix: str


def read_throttled(
    sysfs: Path = SYSFS, run: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run
) -> int | None:
    """The firmware's flags, from sysfs or ``vcgencmd get_throttled``; None off a Pi."""
    with contextlib.suppress(OSError, ValueError):
        return int(sysfs.read_text(encoding="ascii").strip(), 16)
    with contextlib.suppress(OSError, ValueError, subprocess.SubprocessError):
        found = run(["vcgencmd", "get_throttled"], capture_output=True, text=True, timeout=3)
        if found.returncode == 0 and "=" in found.stdout:  # "throttled=0x50005"
            return int(found.stdout.strip().split("=", 1)[1], 16)
    return None


def describe(flags: int | None) -> list[PowerReport]:
    """One report per thing worth saying about ``flags``; all well is one ok line."""
    if flags is None:
        return [PowerReport(True, "power: not a Raspberry Pi (no firmware flags to read)", "")]
    now = [what for bit, what in NOW.items() if flags >> bit & 1]
    # What happened since boot but is over now (what is still happening is said once).
    before = [
        what for bit, what in SINCE_BOOT.items() if flags >> bit & 1 and not flags >> bit - 16 & 1
    ]
    if not now and not before:
        return [PowerReport(True, "power: no under-voltage or throttling since boot", "")]
    reports = []
    for found, when in ((now, "now"), (before, "since boot (not now)")):
        if found:
            heat_only = all("temperature" in what for what in found)
            fix = HEAT_FIX if heat_only else POWER_FIX
            text = f"power: {', '.join(found)} {when} (firmware flags {flags:#x})"
            reports.append(PowerReport(False, text, fix))
    return reports
