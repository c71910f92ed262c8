"""Physical table buttons turned into intents for the table's queue (plus the LED and buzzer).

Three buttons drive the game without touching the tablet:

* NEXT — advance the phase / confirm.
* BACK — a short press undoes; holding it past ``hold_time`` redoes.
* READ — read the dice now / accept the camera's reading.

The callbacks here only call ``submit(intent)`` with ``"next"``, ``"undo"``, ``"redo"`` or
``"read"``; the table's single worker decides what that means (DESIGN.md: device callbacks do
no game logic). Debouncing is done in software: a level counts once it has held for
``bounce_time``, so a glitch shorter than that is never a press. Its clock and timer are
injectable, so it behaves the same on lgpio and on gpiozero's MockFactory (whose pins never
bounce) and can be tested without waiting.

On a machine without GPIO, ``hardware.pins.choose_pin_factory`` falls back to MockFactory and
the keyboard twin (``hardware.keyboard``) stands in for the buttons. The LED and buzzer are
in ``hardware.lights``; the pins and timings come from ``companion.config.ButtonsConfig``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from companion.config import ButtonsConfig
from companion.intents import NEXT_INTENT, READ, REDO_INTENT, UNDO_INTENT
from hardware.lights import BUZZER_PATTERNS, Beeper, LightMode, StatusLight
from hardware.pins import choose_pin_factory

log = logging.getLogger(__name__)

Intent = str
Submit = Callable[[str], object]
Clock = Callable[[], float]
# schedule(delay, callback) runs callback once after delay seconds; returns a cancel.
Schedule = Callable[[float, Callable[[], None]], Callable[[], None]]


def _start_timer(delay: float, callback: Callable[[], None]) -> Callable[[], None]:
    """Run ``callback`` once after ``delay`` seconds on its own thread; returns the cancel."""
    timer = threading.Timer(delay, callback)
    timer.daemon = True
    timer.start()
    return timer.cancel


class _Debouncer:
    """Turns one button's raw edges into stable level changes.

    A level counts only once the line has held it for ``bounce_time``: every edge restarts
    the wait, and when the wait ends the pin's level is read. So a burst of contact bounce
    becomes one change, and a glitch shorter than ``bounce_time`` (a spike picked up by a
    long wire) becomes none at all, whichever pin factory delivers the edges. gpiozero's own
    ``bounce_time`` is not used because it means different things per backend: lgpio's
    debounce wants a stable level, RPi.GPIO's ignores edges after the first (so a glitch is a
    press), MockFactory's is not implemented. The price is ``bounce_time`` of latency
    (30 ms by default), which nobody notices on a button.
    """

    def __init__(
        self,
        bounce_time: float,
        read_level: Callable[[], bool],
        on_change: Callable[[bool], None],
        schedule: Schedule,
    ) -> None:
        self._bounce_time = bounce_time
        self._read_level = read_level
        self._on_change = on_change
        self._schedule = schedule
        # Re-entrant: a scheduler may run the wait's end at once, on this very thread.
        self._lock = threading.RLock()
        self._stable = read_level()  # a button held while starting is not a press
        self._edges = 0
        self._cancel: Callable[[], None] | None = None

    def edge(self) -> None:
        """Any raw edge: wait for the line to be quiet again before believing its level."""
        with self._lock:
            self._edges += 1
            seen = self._edges
            if self._cancel is not None:
                self._cancel()
            self._cancel = self._schedule(self._bounce_time, lambda: self._settled(seen))

    def _settled(self, seen: int) -> None:
        with self._lock:
            if seen != self._edges:  # a newer edge came: its own wait decides
                return
            self._cancel = None
            level = bool(self._read_level())
            if level == self._stable:  # a glitch: back where it was
                return
            self._stable = level
        self._on_change(level)

    def close(self) -> None:
        with self._lock:
            self._edges += 1
            if self._cancel is not None:
                self._cancel()
            self._cancel = None


class _BackGesture:
    """BACK: a short press means undo (decided on release), a hold means redo.

    The hold is reported by gpiozero's hold thread while the button is still down, so the
    table reacts without waiting for the release. If the release wins the race against that
    thread, the press duration (by the injectable clock) decides instead. Either way exactly
    one of "undo" / "redo" is produced per gesture.
    """

    def __init__(self, hold_time: float, clock: Clock) -> None:
        self._hold_time = hold_time
        self._clock = clock
        self._lock = threading.Lock()
        self._pressed = False
        self._pressed_at = 0.0
        self._redo_sent = False

    def press(self) -> Intent | None:
        with self._lock:
            self._pressed, self._pressed_at, self._redo_sent = True, self._clock(), False
            return None

    def held(self) -> Intent | None:
        with self._lock:
            if not self._pressed or self._redo_sent:
                return None
            self._redo_sent = True
            return REDO_INTENT

    def release(self) -> Intent | None:
        with self._lock:
            if not self._pressed:
                return None
            self._pressed = False
            if self._redo_sent:
                return None
            if self._clock() - self._pressed_at >= self._hold_time:
                self._redo_sent = True
                return REDO_INTENT
            return UNDO_INTENT


class TableButtons:
    """NEXT, BACK and READ wired to ``submit``; plus the optional LED and buzzer.

    ``pin_factory`` defaults to gpiozero's configured ``Device.pin_factory`` if one is set,
    else to ``hardware.pins.choose_pin_factory``'s pick (which honours
    ``GPIOZERO_PIN_FACTORY``); ``clock`` measures a BACK press and ``schedule`` runs the
    debounce waits (tests pass fake ones that move together).
    """

    def __init__(
        self,
        config: ButtonsConfig,
        submit: Submit,
        *,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
        schedule: Schedule = _start_timer,
        buzzer_sleep: Callable[[float], object] | None = None,
    ) -> None:
        from gpiozero import Button, Device

        if pin_factory is None:
            # Never let gpiozero search for a backend itself: its fallback chain warns
            # (PinFactoryFallback) and says little about why the buttons are dead.
            pin_factory = Device.pin_factory
            if pin_factory is None:
                pin_factory, reason = choose_pin_factory()
            else:
                reason = f"gpiozero's configured pin factory {type(pin_factory).__name__}"
        else:
            reason = f"pin factory {type(pin_factory).__name__} given by the caller"
        #: Why these pins are (or are not) real, for the log and `companion doctor`.
        self.pin_factory_reason = reason
        log.info("buttons: %s", reason)
        self.config = config
        self._submit = submit
        self._back = _BackGesture(config.hold_time, clock)
        self._devices: list[Any] = []
        self._debouncers: list[_Debouncer] = []
        self.light: StatusLight | None = None
        self.beeper: Beeper | None = None
        try:

            def button(pin: int, on_change: Callable[[bool], None]) -> Any:
                # bounce_time=None: debouncing is ours (_Debouncer), the same on every
                # pin factory; both edges only start its wait.
                device = Button(
                    pin,
                    pull_up=config.pull_up,
                    bounce_time=None,
                    hold_time=config.hold_time,
                    pin_factory=pin_factory,
                )
                self._devices.append(device)
                debouncer = _Debouncer(
                    config.bounce_time, lambda: bool(device.is_pressed), on_change, schedule
                )
                self._debouncers.append(debouncer)
                device.when_pressed = debouncer.edge
                device.when_released = debouncer.edge
                return device

            button(config.next_pin, self._on_next)
            back_button = button(config.back_pin, self._on_back)
            back_button.when_held = self._on_back_held
            button(config.read_pin, self._on_read)
            if config.led_pin is not None:
                self.light = StatusLight(config.led_pin, pin_factory=pin_factory)
            if config.buzzer_pin is not None:
                self.beeper = Beeper(config.buzzer_pin, pin_factory=pin_factory, sleep=buzzer_sleep)
        except BaseException:
            self.close()
            raise

    # Callbacks run on gpiozero's threads: they only enqueue, never decide game rules.

    def _on_next(self, pressed: bool) -> None:
        if pressed:
            self._emit(NEXT_INTENT)

    def _on_read(self, pressed: bool) -> None:
        if pressed:
            self._emit(READ)

    def _on_back(self, pressed: bool) -> None:
        self._emit(self._back.press() if pressed else self._back.release())

    def _on_back_held(self) -> None:
        self._emit(self._back.held())

    def _emit(self, intent: Intent | None) -> None:
        if intent is None:
            return
        try:
            self._submit(intent)
        except Exception:
            # A failing queue must not kill gpiozero's callback thread (and every later press).
            log.exception("could not submit button intent %r", intent)

    def set_light(self, mode: LightMode | str) -> None:
        """Show a status on the LED; silently nothing when no LED is wired."""
        if self.light is not None:
            self.light.set_mode(mode)

    def buzz(self, pattern: str) -> None:
        """Sound a pattern from BUZZER_PATTERNS; silently nothing when no buzzer is wired."""
        if pattern not in BUZZER_PATTERNS:
            raise ValueError(
                f"Unknown buzzer pattern {pattern!r}; use one of: {', '.join(BUZZER_PATTERNS)}."
            )
        if self.beeper is not None:
            self.beeper.play(pattern)

    def cue(self, cues: tuple[str, ...]) -> None:
        """Sound the first of a game's cues that has a pattern; cues without one stay quiet.

        Cues are the game's hints (``GameSpec.cues``): a new cue name must never break the
        table, it simply has no sound until a pattern is added for it.
        """
        for name in cues:
            if name in BUZZER_PATTERNS:
                self.buzz(name)
                return

    def close(self) -> None:
        """Release every pin (safe to call twice)."""
        for output in (self.beeper, self.light):
            if output is not None:
                output.close()
        self.beeper = self.light = None
        for debouncer in self._debouncers:
            debouncer.close()
        self._debouncers.clear()
        for device in self._devices:
            device.close()
        self._devices.clear()

    def __enter__(self) -> TableButtons:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
