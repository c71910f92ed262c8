"""The power line of the device list: "ok" or the firmware's warning, read again and again.

The firmware is a scripted reader and the pause between readings a queue the test feeds,
so the refresh is driven step by step with no waiting on the clock.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable

from hardware.power_watch import PowerWatch, power_line

GENEROUS = 10.0  # seconds; a ceiling for waits, never an assertion about speed
UNDER_VOLTAGE_NOW = 0x50005  # under-voltage and throttled now, and since boot


class Firmware:
    """Gives the flags it is told, and says each time it was read."""

    def __init__(self, flags: int | None) -> None:
        self.flags = flags
        self.reads: queue.SimpleQueue[int | None] = queue.SimpleQueue()

    def __call__(self) -> int | None:
        self.reads.put(self.flags)
        return self.flags


class Ticks:
    """Stands in for the pause between readings: each tick the test gives ends one pause."""

    def __init__(self) -> None:
        self.ticks: queue.SimpleQueue[bool] = queue.SimpleQueue()
        self.asked: list[float] = []

    def __call__(self, seconds: float) -> bool:
        self.asked.append(seconds)
        return self.ticks.get(timeout=GENEROUS)  # True: stop


def test_the_line_is_ok_or_the_warning_with_its_fix() -> None:
    assert power_line(0) == "ok"
    assert power_line(None) is None  # not a Pi: no line at all
    warning = power_line(UNDER_VOLTAGE_NOW)
    assert warning is not None
    assert warning.startswith("under-voltage, throttled now (firmware flags 0x50005): use the")
    past = power_line(0x50000)
    assert past is not None and "since boot (not now)" in past


def test_the_line_follows_the_firmware_every_period() -> None:
    firmware, ticks = Firmware(0), Ticks()
    watch = PowerWatch(firmware, every=30.0, wait=ticks)
    watch.start()
    assert watch.lines() == {"power": "ok"}  # read before the page first asks
    firmware.flags = UNDER_VOLTAGE_NOW  # a kettle on the same socket
    firmware.reads.get(timeout=GENEROUS)
    ticks.ticks.put(False)  # thirty seconds later
    assert firmware.reads.get(timeout=GENEROUS) == UNDER_VOLTAGE_NOW
    ticks.ticks.put(True)  # stop: the thread ends after its last pause
    assert ticks.asked[0] == 30.0
    _wait_until(lambda: watch.lines()["power"].startswith("under-voltage"))


def test_a_reader_that_fails_keeps_the_last_line() -> None:
    answers = iter([0])

    def read() -> int | None:
        return next(answers)  # the second reading raises StopIteration

    watch = PowerWatch(read, wait=lambda _: True)
    watch.refresh()
    watch.refresh()
    assert watch.lines() == {"power": "ok"}


def test_off_a_pi_there_is_no_power_line() -> None:
    watch = PowerWatch(lambda: None, wait=lambda _: True)
    watch.start()
    assert watch.lines() == {}


def _wait_until(done: Callable[[], bool]) -> None:
    finished = threading.Event()
    for _ in range(1000):
        if done():
            finished.set()
            break
        finished.wait(0.01)
    assert finished.is_set()
