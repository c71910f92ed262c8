"""Physical table buttons, status LED and buzzer, turned into intents for the table's queue.

Three buttons drive the game without touching the tablet:

* NEXT — advance the phase / confirm.
* BACK — a short press undoes; holding it past ``hold_time`` redoes.
* READ — read the dice now / accept the camera's reading.

The callbacks here only call ``submit(intent)`` with ``"next"``, ``"undo"``, ``"redo"`` or
``"read"``; the table's single worker decides what that means (DESIGN.md: device callbacks do
no game logic). Debouncing is done in software, with an injectable clock, so that it behaves
the same on lgpio and on gpiozero's MockFactory (whose pins never bounce) and can be tested.

On a machine without GPIO, :func:`choose_pin_factory` falls back to MockFactory and the
keyboard twin (:func:`intent_for_key`, :func:`feed_keys`) stands in for the buttons.
"""

from __future__ import annotations

import contextlib
import enum
import logging
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Literal, TextIO

log = logging.getLogger(__name__)

Intent = Literal["next", "undo", "redo", "read"]
Submit = Callable[[str], None]
Clock = Callable[[], float]

#: GPIO numbers on the 40-pin header that are free for buttons (0 and 1 belong to HAT EEPROMs).
_HEADER_GPIOS: Final = range(2, 28)


# --------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class ButtonsConfig:
    """Where the buttons, LED and buzzer are wired, and how presses are interpreted.

    Pins are BCM GPIO numbers. ``pull_up=True`` means each button connects its pin to ground
    (the usual wiring, no external resistor). ``bounce_time`` is how long the line must be
    quiet before a new edge counts; ``hold_time`` is how long BACK must be held to redo.
    """

    next_pin: int = 17
    back_pin: int = 27
    read_pin: int = 22
    pull_up: bool = True
    bounce_time: float = 0.03
    hold_time: float = 1.0
    led_pin: int | None = None
    buzzer_pin: int | None = None

    def __post_init__(self) -> None:
        problem = _first_problem({f.name: getattr(self, f.name) for f in fields(self)})
        if problem is not None:
            raise ValueError(problem)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, section: str = "buttons") -> ButtonsConfig:
        """Build a config from a TOML table, failing with one sentence that names the bad key.

        Missing keys keep their defaults, so an empty table means "the standard wiring".
        """
        known = [f.name for f in fields(cls)]
        for key in data:
            if key not in known:
                raise ValueError(f"Unknown key {section}.{key}; use one of: {', '.join(known)}.")
        values: dict[str, Any] = {f.name: f.default for f in fields(cls)}
        values.update(data)
        problem = _first_problem(values, section)
        if problem is not None:
            raise ValueError(problem)
        for key in ("bounce_time", "hold_time"):
            values[key] = float(values[key])
        return cls(**values)

    @property
    def pins(self) -> dict[str, int]:
        """Every pin in use, by the config key that claims it."""
        named = {
            "next_pin": self.next_pin,
            "back_pin": self.back_pin,
            "read_pin": self.read_pin,
            "led_pin": self.led_pin,
            "buzzer_pin": self.buzzer_pin,
        }
        return {key: pin for key, pin in named.items() if pin is not None}


def _check_value(section: str, key: str, value: object) -> str | None:
    """Type check one key; returns the sentence to show, or None when the value is fine."""
    if key.endswith("_pin"):
        optional = key in ("led_pin", "buzzer_pin")
        if optional and value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value not in _HEADER_GPIOS:
            hint = " (or leave it out for none)" if optional else ""
            return f"{section}.{key} must be a BCM GPIO number from 2 to 27{hint}, not {value!r}."
    elif key == "pull_up":
        if not isinstance(value, bool):
            return (
                f"{section}.pull_up must be true (button wired to ground) or false "
                f"(button wired to 3.3 V), not {value!r}."
            )
    elif key in ("bounce_time", "hold_time"):
        limit = 0.5 if key == "bounce_time" else 10.0
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not 0.0 <= value <= limit
        ):
            return f"{section}.{key} must be a number of seconds from 0 to {limit}, not {value!r}."
    return None


def _first_problem(current: Mapping[str, Any], section: str = "buttons") -> str | None:
    """Every check, per key first and then across keys; the first problem's sentence or None."""
    for key, value in current.items():
        problem = _check_value(section, key, value)
        if problem is not None:
            return problem
    if current["hold_time"] <= current["bounce_time"]:
        return (
            f"{section}.hold_time ({current['hold_time']} s) must be longer than "
            f"{section}.bounce_time ({current['bounce_time']} s); raise hold_time."
        )
    seen: dict[int, str] = {}
    for key in ("next_pin", "back_pin", "read_pin", "led_pin", "buzzer_pin"):
        pin = current[key]
        if pin is None:
            continue
        if pin in seen:
            return (
                f"{section}.{key} uses GPIO {pin}, which {section}.{seen[pin]} already uses; "
                f"give each button, LED and buzzer its own pin."
            )
        seen[pin] = key
    return None


# --------------------------------------------------------------------------- press logic


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
            return "undo" if was_pressed and not previous_redo_sent else None

    def held(self) -> Intent | None:
        with self._lock:
            if not self._tracker.pressed or self._redo_sent:
                return None
            self._redo_sent = True
            return "redo"

    def release(self) -> Intent | None:
        with self._lock:
            accepted, now = self._tracker.edge(False)
            if not accepted or self._redo_sent:
                return None
            if now - self._tracker.pressed_at >= self._hold_time:
                self._redo_sent = True
                return "redo"
            return "undo"


# --------------------------------------------------------------------------- outputs


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


# --------------------------------------------------------------------------- the buttons


class TableButtons:
    """NEXT, BACK and READ wired to ``submit``; plus the optional LED and buzzer.

    ``pin_factory`` defaults to gpiozero's configured ``Device.pin_factory`` if one is set,
    else to :func:`choose_pin_factory`'s pick; ``clock`` decides bounce and hold (tests pass
    a fake one).
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
            self._emit("next")

    def _on_next_released(self) -> None:
        self._next.edge(False)

    def _on_read(self) -> None:
        if self._read.edge(True)[0]:
            self._emit("read")

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


# --------------------------------------------------------------------------- pin factory


def _read_text(path: Path) -> str:
    try:
        return path.read_text(errors="replace").replace("\x00", "").strip()
    except OSError:
        return ""


def is_raspberry_pi(model_path: Path = Path("/proc/device-tree/model")) -> bool:
    """Whether this machine is a Raspberry Pi (its device tree names the model)."""
    return _pi_generation(_read_text(model_path)) is not None


def _pi_generation(model: str) -> int | None:
    """4 for "Raspberry Pi 4 Model B Rev 1.5" or "Raspberry Pi Compute Module 4", etc."""
    if "Raspberry Pi" not in model:
        return None
    for word in model.replace("Raspberry Pi", "").split():
        if word.isdigit():
            return int(word)
    return 1


def _debian_release(os_release: str) -> int | None:
    for line in os_release.splitlines():
        key, _, value = line.partition("=")
        if key == "VERSION_ID":
            value = value.strip().strip('"')
            return int(value) if value.isdigit() else None
    return None


def _load_lgpio() -> Any:
    from gpiozero.pins.lgpio import LGPIOFactory

    return LGPIOFactory()


def _load_rpigpio() -> Any:
    from gpiozero.pins.rpigpio import RPiGPIOFactory

    return RPiGPIOFactory()


def _mock_factory() -> Any:
    from gpiozero.pins.mock import MockFactory

    return MockFactory()


def choose_pin_factory(
    *,
    simulate: bool = False,
    work_dir: Path | str | None = None,
    model_path: Path = Path("/proc/device-tree/model"),
    os_release_path: Path = Path("/etc/os-release"),
    dev_dir: Path = Path("/dev"),
    loaders: Mapping[str, Callable[[], Any]] | None = None,
) -> tuple[Any, str]:
    """Pick the gpiozero pin factory for this machine; returns (factory, one-line reason).

    lgpio is the only backend that works on a Pi 5 (its GPIOs sit behind the RP1 chip) and
    the supported one on Bookworm; RPi.GPIO is kept as a fallback for a Pi 4 or older on an
    older OS. lgpio creates notification pipes in its working directory, so ``LG_WD`` is set
    (unless the user already set it) to ``work_dir``, e.g. the data dir, before lgpio loads —
    otherwise a service started in an unwritable cwd fails. Without GPIO (a laptop, CI) or
    when every backend fails, MockFactory is returned and the reason says why, so the log
    explains dead buttons instead of gpiozero's PinFactoryFallback warnings.
    """
    loaders = dict(loaders or {"lgpio": _load_lgpio, "rpigpio": _load_rpigpio})
    if simulate:
        return _mock_factory(), "simulated buttons (MockFactory), as --simulate asked"
    model = _read_text(model_path)
    generation = _pi_generation(model)
    if generation is None:
        return _mock_factory(), "no Raspberry Pi GPIO here, so buttons are simulated (MockFactory)"
    if not any(dev_dir.glob("gpiochip*")):
        return _mock_factory(), (
            f"{model} has no {dev_dir}/gpiochip* device, so buttons are simulated (MockFactory)"
        )
    release = _debian_release(_read_text(os_release_path))
    if generation >= 5:
        order = ["lgpio"]
    elif release is not None and release >= 12:
        order = ["lgpio", "rpigpio"]
    else:
        order = ["rpigpio", "lgpio"]
    failures: list[str] = []
    for name in order:
        loader = loaders.get(name)
        if loader is None:
            continue
        where = ""
        if name == "lgpio":
            lg_wd = _prepare_lgpio_work_dir(work_dir)
            where = f", LG_WD={lg_wd}"
        try:
            factory = loader()
        except Exception as exc:  # ImportError, OSError, lgpio.error, ... all mean "not this one"
            failures.append(f"{name}: {exc}")
            continue
        return factory, f"{name} on {model}{where}"
    return _mock_factory(), (
        f"no GPIO backend worked on {model} ({'; '.join(failures)}), so buttons are simulated; "
        f"install python3-lgpio and create the venv with --system-site-packages"
    )


def _prepare_lgpio_work_dir(work_dir: Path | str | None) -> str:
    """Set LG_WD (unless already set) to a writable directory and return it.

    Must happen before lgpio is first imported: the library reads LG_WD when it loads.
    """
    existing = os.environ.get("LG_WD")
    if existing:
        return existing
    directory = Path(work_dir) if work_dir is not None else Path(tempfile.gettempdir())
    with contextlib.suppress(OSError):
        directory.mkdir(parents=True, exist_ok=True)
    os.environ["LG_WD"] = str(directory)
    if "lgpio" in sys.modules:
        log.warning("lgpio was imported before LG_WD was set; it may write pipes to the cwd")
    return str(directory)


# --------------------------------------------------------------------------- keyboard twin

#: Terminal keys standing in for the buttons when there is no GPIO.
KEY_INTENTS: Final[Mapping[str, Intent]] = {
    "n": "next",
    "b": "undo",
    "B": "redo",  # shift-b: "hold BACK"
    "r": "redo",
    " ": "read",
    "d": "read",
}


def intent_for_key(key: str) -> Intent | None:
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
