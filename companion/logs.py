"""Where the companion's log lines go: the terminal, or the journal with its priorities.

Why: without a handler, Python drops ``log.info`` ("camera live", "backup made", the
exposure locked, the broker's state) and prints warnings bare, with no level or logger, so
the journal of a Pi that misbehaved overnight says nothing useful. ``companion run`` sets
this up once, from ``log_level`` in the config.

Under systemd (``JOURNAL_STREAM`` is set for a service whose output goes to the journal)
each line starts with the syslog priority in angle brackets, ``<6>`` for info, ``<4>`` for a
warning: journald reads that prefix (``SyslogLevelPrefix=``, on by default), files the line
at that priority and strips it, so ``journalctl -u companion -p warning`` shows only the
warnings. Elsewhere a line reads ``WARNING companion.camera: ...``.
"""

from __future__ import annotations

import collections
import logging
import os
import sys
import threading
from typing import IO, Final

#: The names ``log_level`` accepts, quietest last ("" chooses by where the lines go).
LEVELS: Final = ("debug", "info", "warning", "error")

# syslog priorities (sd-daemon.h: SD_DEBUG 7 ... SD_CRIT 2) for Python's levels.
_PRIORITIES: Final = (
    (logging.CRITICAL, 2),
    (logging.ERROR, 3),
    (logging.WARNING, 4),
    (logging.INFO, 6),
)
_HANDLER_NAME: Final = "companion"
_RING_NAME: Final = "companion-ring"
RING_LINES: Final = 2000  # what *Download logs* can give when the journal cannot be read


class LogRing(logging.Handler):
    """The newest lines this process logged, kept in memory for the page's *Download logs*.

    Why: the service runs as a system user that may not read the journal (journalctl
    needs the ``systemd-journal`` group), and a companion started in a terminal has no
    journal at all; these lines are there in both cases, at the cost of ~200 KiB."""

    def __init__(self, size: int = RING_LINES) -> None:
        super().__init__(logging.DEBUG)
        self._lines: collections.deque[str] = collections.deque(maxlen=size)
        self._guard = threading.Lock()
        self.setFormatter(
            logging.Formatter(
                "%(asctime)s %(levelname)s %(name)s: %(message)s", "%Y-%m-%d %H:%M:%S"
            )
        )

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = self.format(record)
        except Exception:
            return
        with self._guard:
            self._lines.extend(text.splitlines())

    def last(self, count: int) -> list[str]:
        """The newest ``count`` lines, oldest first."""
        with self._guard:
            found = list(self._lines)
        return found[-count:] if count > 0 else []


RING = LogRing()


def priority(level: int) -> int:
    """The syslog priority of a Python log level (debug and anything lower: 7)."""
    return next((prio for floor, prio in _PRIORITIES if level >= floor), 7)


def under_journal(environ: dict[str, str] | None = None) -> bool:
    """Whether standard error goes to the journal (systemd sets ``JOURNAL_STREAM``)."""
    return bool((os.environ if environ is None else environ).get("JOURNAL_STREAM"))


class JournalFormatter(logging.Formatter):
    """``<N>logger: message``: journald keeps the level, and adds the time itself."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        prefix = f"<{priority(record.levelno)}>"
        # Each line of a traceback is a journal entry of its own: each gets the priority.
        return "\n".join(prefix + line for line in text.splitlines())


class _CurrentStderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is when a line is logged (a test's captured
    stream that has since closed is never written to)."""

    @property
    def stream(self) -> IO[str]:
        return sys.stderr

    @stream.setter
    def stream(self, _: IO[str]) -> None:
        pass


def configure(
    level: str = "",
    *,
    journal: bool | None = None,
    stream: IO[str] | None = None,
) -> logging.Handler:
    """Send the ``companion`` loggers (and the libraries' warnings) to ``stream``.

    ``level`` empty (the default): info in the journal, which keeps it for later, and
    warning in a terminal, where the start-up lines already say what the info would.
    Called again (a test, a second ``run`` in one process), it replaces its own handler
    rather than adding a second one, so no line is written twice.
    """
    if level and level not in LEVELS:
        raise ValueError(f"log level must be one of {', '.join(LEVELS)}, not {level!r}")
    journal = under_journal() if journal is None else journal
    level = level or ("info" if journal else "warning")
    handler: logging.StreamHandler = (  # type: ignore[type-arg]
        logging.StreamHandler(stream) if stream is not None else _CurrentStderr()
    )
    handler.set_name(_HANDLER_NAME)
    if journal:
        handler.setFormatter(JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() in (_HANDLER_NAME, _RING_NAME)]:
        root.removeHandler(old)
    root.addHandler(handler)
    RING.set_name(_RING_NAME)
    root.addHandler(RING)
    # Libraries (hypercorn, paho, zeroconf) speak at warning and above; our own at the
    # chosen level, so "debug" does not bury the journal in every library's chatter.
    root.setLevel(logging.WARNING)
    for name in ("companion", "web", "hardware", "calibration"):
        logging.getLogger(name).setLevel(level.upper())
    logging.captureWarnings(True)
    return handler
