"""Physical table buttons turned into intents for the table's queue (plus the LED and buzzer).

Three buttons drive the game without touching the tablet:

* NEXT — advance the phase / confirm.
* BACK — a short press undoes; holding it past ``hold_time`` redoes.
* READ — read the dice now / accept the camera's reading.

The callbacks here only call ``submit(intent)`` with ``"next"``, ``"undo"``, ``"redo"`` or
``"read"``; the table's single worker decides what that means (DESIGN.md: device callbacks do
no game logic). Debouncing is done in software, with an injectable clock, so that it behaves
the same on lgpio and on gpiozero's MockFactory (whose pins never bounce) and can be tested.

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


class _ButtonTracker:
    """Debounces one button's edges and remembers whether it is logically pressed.

    An edge counts only when the line has been quiet for ``bounce_time`` before it: a burst
    of bounces (press or release) therefore collapses into its first edge. This accepts the
    first edge at once, so debouncing adds no latency, unlike hardware debouncers that wait
    for the level to settle.
    """

    def __init__(self, bounce_time: float, clock: Clock) -> None:
        self._bounce_time = bounce_time
        self._clock = clock
        self._last_edge = float("-inf")
        self.pressed = False
        self.pressed_at = 0.0

    def edge(self, pressed: bool) -> tuple[bool, float]:
        """Feed one edge; returns (accepted, time). A repeated level is not a change."""
        now = self._clock()
        quiet = now - self._last_edge >= self._bounce_time
        self._last_edge = now
        if not quiet:
            return False, now
        if pressed:
            # A press while already pressed means a very short tap's release was lost
            # inside the bounce window; the new press is still a real one.
            self.pressed, self.pressed_at = True, now
            return True, now
        if not self.pressed:
            return False, now
        self.pressed = False
        return True, now


class _BackGesture:
    """BACK: a short press means undo (decided on release), a hold means redo.

    The hold is reported by gpiozero's hold thread while the button is still down, so the
    table reacts without waiting for the release. If the release wins the race against that
    thread, the press duration (by the injectable clock) decides instead. Either way exactly
    one of "undo" / "redo" is produced per gesture.
    """

    def __init__(self, bounce_time: float, hold_time: float, clock: Clock) -> None:
        self._tracker = _ButtonTracker(bounce_time, clock)
        self._hold_time = hold_time
        self._lock = threading.Lock()
        self._redo_sent = False

    def press(self) -> Intent | None:
        with self._lock:
            was_pressed = self._tracker.pressed
            previous_redo_sent = self._redo_sent
            accepted, _ = self._tracker.edge(True)
            if not accepted:
                return None
            self._redo_sent = False
            # The previous gesture's release was lost in the bounce window: it was a tap.
            return UNDO_INTENT if was_pressed and not previous_redo_sent else None

    def held(self) -> Intent | None:
        with self._lock:
            if not self._tracker.pressed or self._redo_sent:
                return None
            self._redo_sent = True
            return REDO_INTENT

    def release(self) -> Intent | None:
        with self._lock:
            accepted, now = self._tracker.edge(False)
            if not accepted or self._redo_sent:
                return None
            if now - self._tracker.pressed_at >= self._hold_time:
                self._redo_sent = True
                return REDO_INTENT
            return UNDO_INTENT


class TableButtons:
    """NEXT, BACK and READ wired to ``submit``; plus the optional LED and buzzer.

    ``pin_factory`` defaults to gpiozero's configured ``Device.pin_factory`` if one is set,
    else to ``hardware.pins.choose_pin_factory``'s pick; ``clock`` decides bounce and hold
    (tests pass a fake one).
    """

    def __init__(
        self,
        config: ButtonsConfig,
        submit: Submit,
        *,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
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
        self._next = _ButtonTracker(config.bounce_time, clock)
        self._read = _ButtonTracker(config.bounce_time, clock)
        self._back = _BackGesture(config.bounce_time, config.hold_time, clock)
        self._devices: list[Any] = []
        self.light: StatusLight | None = None
        self.beeper: Beeper | None = None
        try:

            def button(pin: int) -> Any:
                # bounce_time=None: debouncing is ours, identical on every pin factory.
                device = Button(
                    pin,
                    pull_up=config.pull_up,
                    bounce_time=None,
                    hold_time=config.hold_time,
                    pin_factory=pin_factory,
                )
                self._devices.append(device)
                return device

            next_button = button(config.next_pin)
            next_button.when_pressed = self._on_next
            back_button = button(config.back_pin)
            back_button.when_pressed = self._on_back_pressed
            back_button.when_released = self._on_back_released
            back_button.when_held = self._on_back_held
            read_button = button(config.read_pin)
            read_button.when_pressed = self._on_read
            # Releases of NEXT/READ matter only for debouncing: release bounce must not
            # look like a fresh press.
            next_button.when_released = self._on_next_released
            read_button.when_released = self._on_read_released
            if config.led_pin is not None:
                self.light = StatusLight(config.led_pin, pin_factory=pin_factory)
            if config.buzzer_pin is not None:
                self.beeper = Beeper(config.buzzer_pin, pin_factory=pin_factory, sleep=buzzer_sleep)
        except BaseException:
            self.close()
            raise

    # Callbacks run on gpiozero's threads: they only enqueue, never decide game rules.

    def _on_next(self) -> None:
        if self._next.edge(True)[0]:
            self._emit(NEXT_INTENT)

    def _on_next_released(self) -> None:
        self._next.edge(False)

    def _on_read(self) -> None:
        if self._read.edge(True)[0]:
            self._emit(READ)

    def _on_read_released(self) -> None:
        self._read.edge(False)

    def _on_back_pressed(self) -> None:
        self._emit(self._back.press())

    def _on_back_held(self) -> None:
        self._emit(self._back.held())

    def _on_back_released(self) -> None:
        self._emit(self._back.release())

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
