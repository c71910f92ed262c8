"""The buttons' twin in a terminal: single key presses become the same intents.

``n`` is NEXT, ``b`` a short BACK (undo), ``r`` or shift-``b`` a held BACK (redo), space or
``d`` READ. Used by ``companion run`` when it runs in a terminal, and by tests.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Final, TextIO

from companion.intents import NEXT_INTENT, READ, REDO_INTENT, UNDO_INTENT

Submit = Callable[[str], None]


#: Terminal keys standing in for the buttons when there is no GPIO.
KEY_INTENTS: Final[Mapping[str, str]] = {
    "n": NEXT_INTENT,
    "b": UNDO_INTENT,
    "B": REDO_INTENT,  # shift-b: "hold BACK"
    "r": REDO_INTENT,
    " ": READ,
    "d": READ,
}


def intent_for_key(key: str) -> str | None:
    """The intent a terminal key stands for, or None for keys that mean nothing."""
    return KEY_INTENTS.get(key)


def feed_keys(keys: Iterable[str], submit: Submit, *, quit_keys: str = "q\x04") -> int:
    """Submit the intent of every key until a quit key (q or Ctrl-D); returns how many."""
    count = 0
    for key in keys:
        if key in quit_keys:
            break
        intent = intent_for_key(key)
        if intent is not None:
            submit(intent)
            count += 1
    return count


def terminal_keys(stream: TextIO | None = None) -> Iterator[str]:
    """Yield single key presses from a terminal without waiting for Enter.

    The terminal is put in cbreak mode only while iterating and always restored; a
    non-terminal stream (a pipe, a test) is read one character at a time as it is.
    """
    stream = stream if stream is not None else sys.stdin
    restore: Callable[[], None] | None = None
    if stream.isatty():
        import termios
        import tty

        fd = stream.fileno()
        saved = termios.tcgetattr(fd)
        tty.setcbreak(fd)

        def restore() -> None:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)

    try:
        while True:
            key = stream.read(1)
            if not key:
                return
            yield key
    finally:
        if restore is not None:
            restore()
