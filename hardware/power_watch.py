"""The Pi's power line for the device list: "ok", or the firmware's warning, kept fresh.

Why on the page and not only in ``companion doctor``: a weak supply shows up under load,
in the middle of a game, long after anyone ran doctor; the firmware's flags
(``hardware.power``) say so, and the tablet is where people look. They are read every
``every`` seconds on a thread of its own (a ``vcgencmd`` call can take a moment; the page's
request never waits for it). Off a Raspberry Pi there are no flags and no line.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Final

from hardware.power import describe, read_throttled

log = logging.getLogger(__name__)

EVERY: Final = 30.0  # seconds between two readings of the firmware's flags
PREFIX: Final = "power: "


def power_line(flags: int | None) -> str | None:
    """ "ok", or every warning with its fix, from the firmware's flags; None off a Pi."""
    if flags is None:
        return None
    reports = describe(flags)
    if all(report.ok for report in reports):
        return "ok"
    return "; ".join(
        f"{report.what.removeprefix(PREFIX)}: {report.fix}" for report in reports if not report.ok
    )


class PowerWatch:
    """Reads the flags now and then every ``every`` seconds; ``lines()`` is never slow.

    ``read`` stands in for the firmware in tests, ``wait`` for the pause between readings
    (it answers True to stop, like ``threading.Event.wait``).
    """

    def __init__(
        self,
        read: Callable[[], int | None] = read_throttled,
        *,
        every: float = EVERY,
        wait: Callable[[float], bool] | None = None,
    ) -> None:
        self._read = read
        self._every = every
        self._stopping = threading.Event()
        self._wait = wait if wait is not None else self._stopping.wait
        self._line: str | None = None
        self._thread: threading.Thread | None = None

    def refresh(self) -> None:
        """One reading now; a reader that fails keeps the last line (and logs why)."""
        try:
            line = power_line(self._read())
        except Exception:
            log.warning("the firmware's power flags could not be read", exc_info=True)
            return
        if line != self._line and line not in (None, "ok"):
            log.warning("power: %s", line)
        self._line = line

    def start(self) -> None:
        if self._thread is None:
            self.refresh()  # the first line is there before the page asks
            self._thread = threading.Thread(target=self._run, name="power watch", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._wait(self._every) and not self._stopping.is_set():
            self.refresh()

    def stop(self) -> None:
        self._stopping.set()

    def lines(self) -> dict[str, str]:
        """``{"power": line}`` for the device list; nothing off a Raspberry Pi."""
        return {} if self._line is None else {"power": self._line}


_watch: PowerWatch | None = None
_watch_lock = threading.Lock()


def power_lines() -> dict[str, str]:
    """The device list's power line from the process's one watch, started at the first ask."""
    global _watch
    with _watch_lock:
        if _watch is None:
            _watch = PowerWatch()
            _watch.start()
        return _watch.lines()
