"""The status LED and the buzzer: what the table shows and sounds without a screen.

The LED has three meanings (off, blink: the table must act, steady: look at the tablet);
the buzzer plays a named pattern for each cue a game gives (``GameSpec.cues``), on a thread
of its own so the table's worker never waits for a sound. Both are gpiozero devices, so
MockFactory drives them in tests.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Callable, Mapping
from typing import Any, Final


class LightMode(enum.Enum):
    """What the status LED tells the table."""

    OFF = "off"
    #: The table must act (roll, move, confirm).
    BLINK = "blink"
    #: The camera and the engine disagree: look at the tablet.
    STEADY = "steady"


class StatusLight:
    """One LED with three meanings; gpiozero's own blink thread does the timing."""

    def __init__(
        self, pin: int, *, pin_factory: Any = None, on_time: float = 0.4, off_time: float = 0.4
    ) -> None:
        from gpiozero import LED

        self._led: Any = LED(pin, pin_factory=pin_factory)
        self._on_time = on_time
        self._off_time = off_time
        self.mode = LightMode.OFF

    def set_mode(self, mode: LightMode | str) -> None:
        mode = LightMode(mode)
        if mode is LightMode.OFF:
            self._led.off()
        elif mode is LightMode.STEADY:
            self._led.on()
        else:
            self._led.blink(on_time=self._on_time, off_time=self._off_time, background=True)
        self.mode = mode

    def close(self) -> None:
        self._led.close()


#: Buzzer patterns as alternating on/off durations in seconds, starting with "on".
#: They differ in rhythm, not only length, so players can tell them apart without looking.
BUZZER_PATTERNS: Final[Mapping[str, tuple[float, ...]]] = {
    # Two quick bites.
    "chomp": (0.06, 0.06, 0.06),
    # An alarm: five rapid pips.
    "breach": (0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04),
    # Short, short, long.
    "game_over": (0.15, 0.1, 0.15, 0.1, 0.7),
}


class Beeper:
    """Plays named patterns on an on/off buzzer in a background thread.

    Playing never blocks the caller (the table worker), and a new pattern cuts off the one
    still sounding. ``sleep`` is injectable so tests can play patterns instantly.
    """

    def __init__(
        self,
        pin: int,
        *,
        pin_factory: Any = None,
        sleep: Callable[[float], object] | None = None,
    ) -> None:
        from gpiozero import Buzzer

        self._buzzer: Any = Buzzer(pin, pin_factory=pin_factory)
        self._sleep = sleep
        self._lock = threading.Lock()
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None

    def play(self, pattern: str) -> threading.Thread:
        """Start playing ``pattern`` (a key of BUZZER_PATTERNS); returns the player thread."""
        try:
            durations = BUZZER_PATTERNS[pattern]
        except KeyError:
            raise ValueError(
                f"Unknown buzzer pattern {pattern!r}; use one of: {', '.join(BUZZER_PATTERNS)}."
            ) from None
        with self._lock:
            self._stop_current()
            cancel = threading.Event()
            self._cancel = cancel
            thread = threading.Thread(
                target=self._run, args=(durations, cancel), name=f"buzzer-{pattern}", daemon=True
            )
            self._thread = thread
            thread.start()
        return thread

    def _run(self, durations: tuple[float, ...], cancel: threading.Event) -> None:
        sleep = self._sleep or cancel.wait
        try:
            for index, seconds in enumerate(durations):
                if cancel.is_set():
                    break
                if index % 2 == 0:
                    self._buzzer.on()
                else:
                    self._buzzer.off()
                sleep(seconds)
        finally:
            self._buzzer.off()

    def _stop_current(self) -> None:
        self._cancel.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)

    def close(self) -> None:
        with self._lock:
            self._stop_current()
        self._buzzer.close()
