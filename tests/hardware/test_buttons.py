"""Buttons, LED and buzzer driven through gpiozero's own MockFactory.

MockFactory calls the button callbacks synchronously inside drive_low()/drive_high()
(gpiozero/pins/mock.py, MockPin; its bounce setting is a stub, so debouncing is the
companion's own), and a fake clock whose ``advance`` also runs the debounce waits decides
what counts as bounce, glitch or hold, so nothing here depends on timing except the tests of
gpiozero's real hold thread and of the real timer, which wait on events with long timeouts.
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypedDict

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.config import ButtonsConfig
from hardware.buttons import TableButtons
from hardware.keyboard import feed_keys, intent_for_key, terminal_keys
from hardware.lights import BUZZER_PATTERNS, LightMode, StatusLight
from hardware.pins import choose_pin_factory

GENEROUS = 10.0  # seconds; only ever a ceiling for waits, never an assertion about speed


class FakeClock:
    """A monotonic clock that moves only when the test says so, and the debounce timer that
    goes with it: callbacks scheduled on it run, in order and at their own time, when
    ``advance`` passes them."""

    def __init__(self) -> None:
        self.now = 1000.0
        self._due: list[tuple[float, int, Callable[[], None]]] = []
        self._made = 0

    def __call__(self) -> float:
        return self.now

    def schedule(self, delay: float, callback: Callable[[], None]) -> Callable[[], None]:
        self._made += 1
        entry = (self.now + delay, self._made, callback)
        self._due.append(entry)
        return lambda: self._due.remove(entry) if entry in self._due else None

    def advance(self, seconds: float) -> None:
        end = self.now + seconds
        while True:
            ready = [entry for entry in self._due if entry[0] <= end]
            if not ready:
                break
            entry = min(ready)
            self._due.remove(entry)
            self.now = max(self.now, entry[0])
            entry[2]()
        self.now = end


class Recorder:
    """Collects submitted intents and lets a test wait for one from another thread."""

    def __init__(self) -> None:
        self.intents: list[str] = []
        self._changed = threading.Condition()

    def __call__(self, intent: str) -> None:
        with self._changed:
            self.intents.append(intent)
            self._changed.notify_all()

    def wait_for(self, intent: str) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: intent in self.intents, timeout=GENEROUS)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    previous = Device.pin_factory
    mock = MockFactory()
    Device.pin_factory = mock
    try:
        yield mock
    finally:
        mock.reset()
        Device.pin_factory = previous


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def submitted() -> Recorder:
    return Recorder()


@pytest.fixture
def make_buttons(
    factory: MockFactory, clock: FakeClock, submitted: Recorder
) -> Iterator[Callable[..., TableButtons]]:
    made: list[TableButtons] = []

    def make(**overrides: Any) -> TableButtons:
        buttons = TableButtons(
            ButtonsConfig(**overrides),
            submitted,
            pin_factory=factory,
            clock=clock,
            schedule=clock.schedule,
            buzzer_sleep=lambda seconds: None,
        )
        made.append(buttons)
        return buttons

    yield make
    for buttons in made:
        buttons.close()


def tap(pin: Any, clock: FakeClock, held_for: float = 0.1) -> None:
    """A clean press and release with the default pull-up wiring (pressed = low)."""
    pin.drive_low()
    clock.advance(held_for)
    pin.drive_high()
    clock.advance(0.5)


# --------------------------------------------------------------------------- presses


def test_one_press_of_next_submits_exactly_one_next(
    make_buttons: Callable[..., TableButtons],
    factory: MockFactory,
    clock: FakeClock,
    submitted: Recorder,
) -> None:
    make_buttons()
    next_pin = factory.pin(17)
    next_pin.drive_low()
    clock.advance(0.029)
    assert submitted.intents == []  # not before the level has held for bounce_time
    clock.advance(0.002)
    assert submitted.intents == ["next"]  # on press, not on release
    clock.advance(0.2)
    next_pin.drive_high()
    clock.advance(0.5)
    assert submitted.intents == ["next"]


def test_a_glitch_shorter_than_the_debounce_is_not_a_press(
    make_buttons: Callable[..., TableButtons],
    factory: MockFactory,
    clock: FakeClock,
    submitted: Recorder,
) -> None:
    """A spike on a long wire: low for 10 ms with a 30 ms debounce. Then a real press."""
    make_buttons(bounce_time=0.03)
    for number in (17, 27, 22):
        pin = factory.pin(number)
        pin.drive_low()
        clock.advance(0.01)
        pin.drive_high()
        clock.advance(1.0)
    assert submitted.intents == []
    tap(factory.pin(17), clock)
    assert submitted.intents == ["next"]
    # A glitch while the button is held is not a release and a second press either.
    next_pin = factory.pin(17)
    next_pin.drive_low()
    clock.advance(0.2)
    next_pin.drive_high()
    clock.advance(0.01)
    next_pin.drive_low()
    clock.advance(0.5)
    next_pin.drive_high()
    clock.advance(0.5)
    assert submitted.intents == ["next", "next"]


def test_each_clean_press_counts(
    make_buttons: Callable[..., TableButtons],
    factory: MockFactory,
    clock: FakeClock,
    submitted: Recorder,
) -> None:
    make_buttons()
    for _ in range(3):
        tap(factory.pin(17), clock)
    tap(factory.pin(22), clock)
    assert submitted.intents == ["next", "next", "next", "read"]


def test_burst_of_edges_inside_bounce_window_counts_once(
    make_buttons: Callable[..., TableButtons],
    factory: MockFactory,
    clock: FakeClock,
    submitted: Recorder,
) -> None:
    make_buttons(bounce_time=0.03)
    pin = factory.pin(17)
    # Contact bounce on press: twelve edges 2 ms apart, ending pressed.
    for _ in range(6):
        pin.drive_low()
        clock.advance(0.002)
        pin.drive_high()
        clock.advance(0.002)
    pin.drive_low()
    clock.advance(0.3)
    # Contact bounce on release must not look like a fresh press.
    for _ in range(6):
        pin.drive_high()
        clock.advance(0.002)
        pin.drive_low()
        clock.advance(0.002)
    pin.drive_high()
    assert submitted.intents == ["next"]


def test_short_back_press_submits_undo_on_release(
    make_buttons: Callable[..., TableButtons],
    factory: MockFactory,
    clock: FakeClock,
    submitted: Recorder,
) -> None:
    make_buttons(hold_time=1.0)
    back = factory.pin(27)
    back.drive_low()
    clock.advance(0.2)
    assert submitted.intents == []
    back.drive_high()
    clock.advance(0.05)
    assert submitted.intents == ["undo"]


def test_back_released_after_hold_time_submits_redo_not_undo(
    make_buttons: Callable[..., TableButtons],
    factory: MockFactory,
    clock: FakeClock,
    submitted: Recorder,
) -> None:
    make_buttons(hold_time=1.0)
    tap(factory.pin(27), clock, held_for=1.5)
    assert submitted.intents == ["redo"]


def test_back_held_fires_redo_while_still_down_via_gpiozero_hold_thread(
    make_buttons: Callable[..., TableButtons],
    factory: MockFactory,
    clock: FakeClock,
    submitted: Recorder,
) -> None:
    make_buttons(hold_time=0.3, bounce_time=0.01)
    back = factory.pin(27)
    back.drive_low()
    clock.advance(0.01)  # the press counts (by the fake clock) long before 0.3 s real time
    assert submitted.wait_for("redo")
    clock.advance(0.1)  # by the fake clock the press was short: the hold thread decided
    back.drive_high()
    clock.advance(0.1)
    assert submitted.intents == ["redo"]


def test_active_high_wiring(
    make_buttons: Callable[..., TableButtons],
    factory: MockFactory,
    clock: FakeClock,
    submitted: Recorder,
) -> None:
    make_buttons(pull_up=False)
    pin = factory.pin(22)
    pin.drive_high()
    clock.advance(0.1)
    pin.drive_low()
    assert submitted.intents == ["read"]


def test_failing_submit_is_logged_and_later_presses_still_work(
    factory: MockFactory, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[str] = []

    def flaky(intent: str) -> None:
        calls.append(intent)
        if len(calls) == 1:
            raise RuntimeError("queue full")

    with TableButtons(
        ButtonsConfig(), flaky, pin_factory=factory, clock=clock, schedule=clock.schedule
    ):
        tap(factory.pin(17), clock)
        tap(factory.pin(17), clock)
    assert calls == ["next", "next"]
    assert "could not submit" in caplog.text


def test_buttons_use_gpiozeros_configured_factory_by_default(
    factory: MockFactory, clock: FakeClock, submitted: Recorder
) -> None:
    with TableButtons(ButtonsConfig(), submitted, clock=clock, schedule=clock.schedule) as buttons:
        tap(factory.pin(17), clock)
    assert submitted.intents == ["next"]
    assert "MockFactory" in buttons.pin_factory_reason


def test_the_real_debounce_timer_turns_a_press_into_next(
    factory: MockFactory, submitted: Recorder
) -> None:
    with TableButtons(ButtonsConfig(bounce_time=0.01), submitted, pin_factory=factory):
        factory.pin(17).drive_low()
        assert submitted.wait_for("next")


class Rig:
    """One set of buttons on its own MockFactory, shared by every hypothesis example."""

    def __init__(self) -> None:
        self.factory = MockFactory()
        self.clock = FakeClock()
        self.submitted = Recorder()
        # hold_time is long in real time so gpiozero's hold thread never fires; the fake
        # clock alone decides hold versus tap here.
        self.config = ButtonsConfig(bounce_time=0.03, hold_time=10.0)
        self.buttons = TableButtons(
            self.config,
            self.submitted,
            pin_factory=self.factory,
            clock=self.clock,
            schedule=self.clock.schedule,
        )

    def edges(self, pin: Any, gaps_ms: list[int], *, pressed_first: bool) -> None:
        """Alternate edges starting with a press (or release), ``gaps_ms`` apart."""
        pressed = pressed_first
        for index, gap in enumerate([0, *gaps_ms]):
            self.clock.advance(gap / 1000)
            if pressed:
                pin.drive_low()
            else:
                pin.drive_high()
            if index < len(gaps_ms):
                pressed = not pressed


@pytest.fixture(scope="module")
def rig() -> Iterator[Rig]:
    made = Rig()
    yield made
    made.buttons.close()
    made.factory.reset()


# A gesture: press bounce gaps (< bounce), time held after the last bounce (> bounce),
# release bounce gaps (< bounce). Bursts have an even number of gaps so they end on the
# same level they started with.
bounce_burst = st.lists(st.integers(1, 29), max_size=6).map(lambda g: g[: len(g) // 2 * 2])
gesture = st.tuples(bounce_burst, st.integers(31, 20_000), bounce_burst)


@settings(max_examples=60, deadline=None)
@given(gestures=st.lists(gesture, min_size=1, max_size=5))
def test_every_gesture_gives_exactly_one_intent_whatever_the_bounce(
    rig: Rig, gestures: list[tuple[list[int], int, list[int]]]
) -> None:
    hold_ms = rig.config.hold_time * 1000
    for pin_number in (rig.config.next_pin, rig.config.back_pin):
        pin = rig.factory.pin(pin_number)
        rig.submitted.intents.clear()
        expected: list[str] = []
        for press_gaps, held_ms, release_gaps in gestures:
            # Each change counts once its level has held for bounce_time after the last
            # bounce, so the press lasts from the last press bounce to the last release one.
            duration_ms = held_ms + sum(release_gaps)
            assume(abs(duration_ms - hold_ms) > 1)  # float rounding at the exact boundary
            rig.clock.advance(1.0)  # quiet before each gesture
            rig.edges(pin, press_gaps, pressed_first=True)
            rig.clock.advance(held_ms / 1000)
            rig.edges(pin, release_gaps, pressed_first=False)
            if pin_number == rig.config.next_pin:
                expected.append("next")
            else:
                expected.append("redo" if duration_ms >= hold_ms else "undo")
        rig.clock.advance(1.0)  # the last release settles
        assert rig.submitted.intents == expected


# --------------------------------------------------------------------------- outputs


def wait_until(condition: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + GENEROUS
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def test_status_led_modes_are_visible_on_the_pin(
    make_buttons: Callable[..., TableButtons], factory: MockFactory
) -> None:
    buttons = make_buttons(led_pin=5)
    led = factory.pin(5)
    assert led.state is False
    buttons.set_light("steady")
    assert led.state is True
    buttons.set_light(LightMode.OFF)
    assert led.state is False
    assert buttons.light is not None and buttons.light.mode is LightMode.OFF


def test_status_led_blinks_and_steady_stops_the_blinking(factory: MockFactory) -> None:
    light = StatusLight(5, pin_factory=factory, on_time=0.01, off_time=0.01)
    try:
        led = factory.pin(5)
        light.set_mode(LightMode.BLINK)
        assert wait_until(lambda: len(led.states) >= 5)  # off, on, off, on, off: it blinks
        light.set_mode(LightMode.STEADY)
        assert led.state is True
        settled = len(led.states)
        light.set_mode(LightMode.STEADY)
        assert len(led.states) == settled  # the blink thread has been stopped, not raced
    finally:
        light.close()


def test_buzzer_patterns_are_distinct_and_play_on_the_pin(
    factory: MockFactory, clock: FakeClock, submitted: Recorder
) -> None:
    slept: list[float] = []
    config = ButtonsConfig(buzzer_pin=6)
    with TableButtons(
        config, submitted, pin_factory=factory, clock=clock, buzzer_sleep=slept.append
    ) as buttons:
        buzzer = factory.pin(6)
        assert buttons.beeper is not None
        heard: dict[str, tuple[tuple[bool, ...], tuple[float, ...]]] = {}
        for name, durations in BUZZER_PATTERNS.items():
            buzzer.clear_states()
            slept.clear()
            buttons.beeper.play(name).join(GENEROUS)
            states = tuple(state.state for state in buzzer.states)
            beeps = (len(durations) + 1) // 2
            assert states == (False,) + (True, False) * beeps
            assert tuple(slept) == durations
            heard[name] = (states, tuple(slept))
        assert set(heard) == {"chomp", "breach", "game_over"}
        assert len(set(heard.values())) == len(heard)
        with pytest.raises(ValueError, match="Unknown buzzer pattern 'woof'"):
            buttons.buzz("woof")


def test_outputs_are_optional(make_buttons: Callable[..., TableButtons]) -> None:
    buttons = make_buttons()
    buttons.set_light("blink")
    buttons.buzz("chomp")
    assert buttons.light is None and buttons.beeper is None


# --------------------------------------------------------------------------- config


def test_config_defaults_and_mapping() -> None:
    assert ButtonsConfig.from_mapping({}) == ButtonsConfig()
    config = ButtonsConfig.from_mapping({"next_pin": 5, "hold_time": 2, "led_pin": 12})
    assert (config.next_pin, config.hold_time, config.led_pin) == (5, 2.0, 12)
    assert isinstance(config.hold_time, float)


@pytest.mark.parametrize(
    ("data", "names"),
    [
        ({"nxt_pin": 5}, "buttons.nxt_pin"),
        ({"next_pin": "seventeen"}, "buttons.next_pin"),
        ({"next_pin": True}, "buttons.next_pin"),
        ({"read_pin": 40}, "buttons.read_pin"),
        ({"back_pin": 17}, "buttons.back_pin uses GPIO 17, which buttons.next_pin"),
        ({"pull_up": "yes"}, "buttons.pull_up"),
        ({"bounce_time": -1}, "buttons.bounce_time"),
        ({"hold_time": 0.01}, "buttons.hold_time"),
        ({"led_pin": "gpio5"}, "buttons.led_pin"),
    ],
)
def test_bad_config_gives_one_clear_sentence(data: dict[str, Any], names: str) -> None:
    with pytest.raises(ValueError) as caught:
        ButtonsConfig.from_mapping(data)
    message = str(caught.value)
    assert names in message
    assert message.endswith(".") and "\n" not in message
    assert message.count(". ") == 0  # one sentence


def test_constructor_validates_too() -> None:
    with pytest.raises(ValueError, match=r"buttons\.read_pin uses GPIO 17"):
        ButtonsConfig(read_pin=17)


# --------------------------------------------------------------------------- pin factory


class PiFiles(TypedDict):
    model_path: Path
    os_release_path: Path
    dev_dir: Path


def write_pi(tmp_path: Path, model: str, version_id: str = "12") -> PiFiles:
    (tmp_path / "dev").mkdir()
    (tmp_path / "dev" / "gpiochip0").touch()
    (tmp_path / "model").write_text(model + "\x00")
    (tmp_path / "os-release").write_text(f'NAME="Debian"\nVERSION_ID="{version_id}"\n')
    return {
        "model_path": tmp_path / "model",
        "os_release_path": tmp_path / "os-release",
        "dev_dir": tmp_path / "dev",
    }


def test_pin_factory_falls_back_to_mock_without_gpio(tmp_path: Path) -> None:
    factory, reason = choose_pin_factory(model_path=tmp_path / "missing", dev_dir=tmp_path)
    assert isinstance(factory, MockFactory)
    assert "no Raspberry Pi GPIO" in reason and "\n" not in reason


def test_pin_factory_simulate_forces_mock() -> None:
    factory, reason = choose_pin_factory(simulate=True)
    assert isinstance(factory, MockFactory)
    assert "--simulate" in reason


def test_pi5_uses_lgpio_with_writable_work_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LG_WD", raising=False)
    seen_wd: list[str] = []
    sentinel = object()

    def fake_lgpio() -> object:
        import os

        seen_wd.append(os.environ["LG_WD"])
        return sentinel

    data_dir = tmp_path / "data"
    factory, reason = choose_pin_factory(
        work_dir=data_dir,
        loaders={"lgpio": fake_lgpio, "rpigpio": pytest.fail},
        **write_pi(tmp_path, "Raspberry Pi 5 Model B Rev 1.0"),
    )
    assert factory is sentinel
    assert seen_wd == [str(data_dir)] and data_dir.is_dir()
    assert reason.startswith("lgpio on Raspberry Pi 5")


def test_pi4_on_bookworm_prefers_lgpio_and_older_os_prefers_rpigpio(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LG_WD", str(tmp_path))
    loaders = {"lgpio": lambda: "lgpio", "rpigpio": lambda: "rpigpio"}
    paths = write_pi(tmp_path, "Raspberry Pi 4 Model B Rev 1.5", version_id="12")
    assert choose_pin_factory(loaders=loaders, **paths)[0] == "lgpio"
    paths["os_release_path"].write_text('VERSION_ID="11"\n')
    assert choose_pin_factory(loaders=loaders, **paths)[0] == "rpigpio"


def test_pin_factory_explains_a_broken_backend(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LG_WD", str(tmp_path))

    def broken() -> object:
        raise OSError("gpiochip busy")

    factory, reason = choose_pin_factory(
        loaders={"lgpio": broken}, **write_pi(tmp_path, "Raspberry Pi 5 Model B Rev 1.0")
    )
    assert isinstance(factory, MockFactory)
    assert "gpiochip busy" in reason and "python3-lgpio" in reason


# --------------------------------------------------------------------------- keyboard twin


def test_keyboard_twin_maps_keys_to_intents() -> None:
    assert [intent_for_key(key) for key in "nbBr d?"] == [
        "next",
        "undo",
        "redo",
        "redo",
        "read",
        "read",
        None,
    ]


def test_feed_keys_stops_at_quit(submitted: Recorder) -> None:
    count = feed_keys(terminal_keys(io.StringIO("nx bq n")), submitted)
    assert count == 3
    assert submitted.intents == ["next", "read", "undo"]


def test_gpiozero_pin_factory_in_the_environment_is_honoured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """gpiozero's own GPIOZERO_PIN_FACTORY beats the companion's guess (as in
    gpiozero/devices.py, which reads it for Device.pin_factory)."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    factory, reason = choose_pin_factory()
    assert type(factory).__name__ == "MockFactory" and "GPIOZERO_PIN_FACTORY" in reason
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "pigpio")
    factory, reason = choose_pin_factory()
    assert type(factory).__name__ == "MockFactory" and "unset it" in reason


class error(Exception):  # lgpio's own name for every failure it reports
    """Stands in for ``lgpio.error``: an Exception of its own, not an OSError."""


class BusyPin(MockPin):  # type: ignore[misc]  # gpiozero ships no types
    """A pin another program holds: lgpio's ``gpio_claim_input`` fails 'GPIO busy'
    (gpiozero ``pins/lgpio.py``, ``LGPIOPin.__init__``)."""

    def __init__(self, factory: Any, info: Any) -> None:
        raise error("'GPIO busy'")


def test_pins_another_program_holds_turn_the_buttons_off_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`make run` beside the running service on a Pi: lgpio refused the pins with its own
    exception, which `companion run` did not catch, so the start ended in a traceback.
    Now the buttons are off with one line and the rest of the table starts."""
    from companion.config import Config
    from companion.startup import buttons as start

    busy = MockFactory(pin_class=BusyPin)
    monkeypatch.setattr(
        "hardware.pins.choose_pin_factory", lambda **_: (busy, "lgpio on a Raspberry Pi 5")
    )
    buttons, line = start.start_buttons(Config(), table=None, simulate=False)  # type: ignore[arg-type]
    assert buttons is None
    assert line == (
        "buttons off: the GPIO pins could not be claimed ('GPIO busy'); if another program "
        "holds them (the service: sudo systemctl stop companion), stop it and start again"
    )
