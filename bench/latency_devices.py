"""How long the device adapters take: button edge to submit(), and frames through the camera.

Run: ``.venv/bin/python bench/latency_devices.py [--presses 2000] [--seconds 2]``.

The button figure is the software path only (gpiozero's MockFactory calls the callback in
the thread that drives the pin): what our debounce and gesture logic add on top of the
GPIO library's own edge latency. The camera figure is SimulatedSource through
CameraSupervisor with a trivial renderer, i.e. the supervisor's ceiling, not a camera's.
The last line is JSON, for scripts.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from gpiozero.pins.mock import MockFactory

from companion.config import ButtonsConfig
from hardware.buttons import TableButtons
from hardware.camera import CameraSupervisor, Frame, SimulatedSource


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def at_once(delay: float, callback: Callable[[], None]) -> Callable[[], None]:
    """A debounce timer that fires immediately (the level is already steady here)."""
    callback()
    return lambda: None


def button_latencies(presses: int) -> dict[str, list[float]]:
    """Microseconds from driving a mock pin to submit() being called, per button gesture."""
    factory = MockFactory()
    submitted_at: list[int] = []
    # Each reading of this clock is 100 ms later, so no edge falls in the bounce window and
    # no BACK press counts as a hold: we measure the logic, not the debounce rejecting our
    # own machine-speed presses.
    ticks = itertools.count(start=1000.0, step=0.1)
    config = ButtonsConfig()
    results: dict[str, list[float]] = {"next (press)": [], "undo (BACK release)": []}
    with TableButtons(
        config,
        lambda intent: submitted_at.append(time.perf_counter_ns()),
        pin_factory=factory,
        clock=lambda: next(ticks),
        # The debounce wait (bounce_time, 30 ms) runs at once: we time the logic, not it.
        schedule=at_once,
    ):
        next_pin, back_pin = factory.pin(config.next_pin), factory.pin(config.back_pin)
        for _ in range(presses):
            start = time.perf_counter_ns()
            next_pin.drive_low()
            results["next (press)"].append((submitted_at[-1] - start) / 1000)
            next_pin.drive_high()
            back_pin.drive_low()
            start = time.perf_counter_ns()
            back_pin.drive_high()
            results["undo (BACK release)"].append((submitted_at[-1] - start) / 1000)
        if len(submitted_at) != 2 * presses:
            raise SystemExit(f"expected {2 * presses} intents, got {len(submitted_at)}")
    factory.reset()
    return results


def camera_throughput(seconds: float, size: tuple[int, int]) -> dict[str, float]:
    """Frames per second read from SimulatedSource and delivered by the supervisor."""
    width, height = size
    frame: Frame = np.zeros((height, width, 3), dtype=np.uint8)
    counter = itertools.count()

    def render() -> Frame:
        frame[0, 0, 0] = next(counter) % 256  # a changing frame, as a renderer would give
        return frame

    delivered = 0

    def consumer(_: Frame) -> None:
        nonlocal delivered
        delivered += 1

    supervisor = CameraSupervisor(SimulatedSource(render), consumer)
    started = time.perf_counter()
    supervisor.start()
    time.sleep(seconds)
    supervisor.stop()
    elapsed = time.perf_counter() - started
    stats = supervisor.stats
    return {
        "read_fps": stats.frames_read / elapsed,
        "delivered_fps": delivered / elapsed,
        "dropped_share": stats.frames_dropped / max(1, stats.frames_read),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--presses", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=960)
    args = parser.parse_args()

    figures: dict[str, Any] = {"presses": args.presses}
    for gesture, samples in button_latencies(args.presses).items():
        p50, p99 = percentile(samples, 0.5), percentile(samples, 0.99)
        print(
            f"button {gesture:<20} p50 {p50:7.1f} us   p99 {p99:7.1f} us   "
            f"max {max(samples):8.1f} us   mean {statistics.fmean(samples):6.1f} us"
        )
        key = gesture.split()[0]
        figures[f"{key}_p50_us"] = round(p50, 1)
        figures[f"{key}_p99_us"] = round(p99, 1)

    camera = camera_throughput(args.seconds, (args.width, args.height))
    print(
        f"camera simulated {args.width}x{args.height}: read {camera['read_fps']:8.0f} fps, "
        f"delivered {camera['delivered_fps']:8.0f} fps "
        f"({camera['dropped_share']:.0%} of frames superseded before delivery)"
    )
    figures.update({key: round(value, 3) for key, value in camera.items()})
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
