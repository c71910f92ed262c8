"""How long a change takes through the table: button press → stored → delivered to N listeners.

Run: ``.venv/bin/python bench/latency.py [--events 1000] [--data-dir DIR]``.

Why undo/redo: after one move (the bot's first legal one), alternating UNDO and REDO is
legal forever and each is a real, stored event of a real Run, Hamster, Run! game (with a
replayed step for each REDO), so the figures include the engine, the SQLite fsync
(``synchronous=FULL``) and the fan-out, not a toy. Latency is measured one event at a time
(submit, wait for every listener); throughput with the queue kept full. ``--data-dir``
should be on the disk you care about (the Pi's SD card): the fsync dominates.
The last line is JSON, for scripts.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.session import GameHeader
from companion.games.run_hamster_run import bot
from companion.hub import Subscription
from companion.store import Store
from companion.table import Table

HEADER = GameHeader("run-hamster-run", "v2.1", ("Ann", "Bo"), seed=1)
WAIT = 60.0


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class Listener(threading.Thread):
    """One tablet: notes when each event arrives (as an SSE handler would get it)."""

    def __init__(self, sub: Subscription, last_seq: int) -> None:
        super().__init__(daemon=True)
        self.sub, self.last_seq = sub, last_seq
        self.arrived: dict[int, float] = {}
        self.seqs: list[int] = []

    def run(self) -> None:
        for event in self.sub:
            self.arrived[event.seq] = time.perf_counter()
            self.seqs.append(event.seq)
            if event.seq >= self.last_seq:
                return


def first_move(table: Table) -> int:
    """Make one legal move so that UNDO/REDO have something to work on; return its seq."""
    state = table.snapshot.state
    assert state is not None
    for candidate in bot.candidates(state, random.Random(0)):
        try:
            return table.submit(candidate, "bench").result(WAIT).seq
        except IllegalMoveError:
            continue
    raise RuntimeError("the bot found no legal first move")


def intents(count: int) -> list[str]:
    return ["undo" if i % 2 == 0 else "redo" for i in range(count)]


class FakeClock:
    """The buttons' debounce clock, moved by hand so presses are never mistaken for bounce."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def at_once(delay: float, callback: Callable[[], None]) -> Callable[[], None]:
    """A debounce timer that fires immediately (the level is already steady here)."""
    callback()
    return lambda: None


def latency(data_dir: Path, listeners: int, events: int) -> dict[str, Any]:
    """Per BACK press on a MockFactory pin: press → stored → the last listener has it.

    Every other change is a redo sent straight to the table (a redo needs BACK held for a
    second, which would only measure the hold time), so the measured presses are undos.
    "acked" is press → the table's future resolved (after the fsync and the fan-out).
    """
    from gpiozero.pins.mock import MockFactory

    from companion.config import ButtonsConfig
    from hardware.buttons import TableButtons

    store = Store(data_dir / f"latency-{listeners}.sqlite3")
    table = Table(store, resume=False)
    table.new_game(HEADER)
    first = first_move(table)
    last = first + events
    subs = [Listener(table.subscribe(after_seq=first), last) for _ in range(listeners)]
    for sub in subs:
        sub.start()
    acks: list[Any] = []
    clock = FakeClock()
    factory = MockFactory()
    buttons = TableButtons(
        ButtonsConfig(),
        lambda intent: acks.append(table.submit_intent(intent, "button")),
        pin_factory=factory,
        clock=clock,
        schedule=at_once,  # the debounce wait (30 ms) is not what is measured
    )
    back = factory.pin(ButtonsConfig().back_pin)
    acked: list[float] = []
    delivered: list[float] = []
    for index in range(events):
        if index % 2:
            table.submit_intent("redo", "bench").result(WAIT)
            continue
        start = time.perf_counter()
        back.drive_low()
        clock.now += 0.1
        back.drive_high()  # a short press: undo on release
        clock.now += 0.5
        seq = acks.pop().result(WAIT).seq
        acked.append(time.perf_counter() - start)
        while not all(seq in s.arrived for s in subs):
            time.sleep(0)  # yield to the listeners; the wait is part of what we measure
        delivered.append(max(s.arrived[seq] for s in subs) - start)
    buttons.close()
    for sub in subs:
        sub.join(WAIT)
        assert sub.seqs == list(range(first + 1, last + 1)), "a listener missed an event"
    table.close()
    store.close()
    ms = 1000.0
    return {
        "listeners": listeners,
        "presses": len(acked),
        "acked_p50_ms": round(percentile(acked, 0.5) * ms, 3),
        "acked_p99_ms": round(percentile(acked, 0.99) * ms, 3),
        "delivered_p50_ms": round(percentile(delivered, 0.5) * ms, 3),
        "delivered_p99_ms": round(percentile(delivered, 0.99) * ms, 3),
    }


def throughput(data_dir: Path, listeners: int, events: int) -> float:
    """Events per second with the queue kept full and every listener reading."""
    store = Store(data_dir / f"throughput-{listeners}.sqlite3")
    table = Table(store, resume=False)
    table.new_game(HEADER)
    first = first_move(table)
    subs = [Listener(table.subscribe(after_seq=first), first + events) for _ in range(listeners)]
    for sub in subs:
        sub.start()
    start = time.perf_counter()
    futures = [table.submit_intent(intent, "bench") for intent in intents(events)]
    futures[-1].result(WAIT)
    for sub in subs:
        sub.join(WAIT)
    elapsed = time.perf_counter() - start
    table.close()
    store.close()
    return round(events / elapsed, 1)


def camera_fps(data_dir: Path, seconds: float = 4.0) -> dict[str, float]:
    """Frames per second the runtime sustains from the simulated camera (640x480 dice
    frames), with the vision pipeline off (frames only) and on (dice reader + stabiliser)."""
    import numpy as np

    from companion.watch.dice import DiceWatcher
    from hardware.camera import CameraSupervisor, SimulatedSource
    from hardware.simulator import Conditions, random_dice_scene, render_dice

    rng = np.random.default_rng(3)
    frame = render_dice(random_dice_scene(rng, 2), rng, Conditions(noise=2.0)).frame
    figures: dict[str, float] = {}
    counted = [0]

    def count(_: Any) -> None:
        counted[0] += 1

    supervisor = CameraSupervisor(SimulatedSource(lambda: frame), count)
    supervisor.start()
    time.sleep(seconds)
    supervisor.stop()
    figures["camera_fps_vision_off"] = round(counted[0] / seconds, 1)
    store = Store(data_dir / "camera.sqlite3")
    table = Table(store, resume=False)
    table.new_game(HEADER)
    watcher = DiceWatcher(table, stable_frames=5)
    watcher.start()
    supervisor = CameraSupervisor(SimulatedSource(lambda: frame), watcher.offer)
    supervisor.start()
    time.sleep(seconds)
    supervisor.stop()
    watcher.stop()
    # Frames the dice reader actually read (the camera delivers more; the newest is read).
    figures["camera_fps_vision_on"] = round(watcher.worker.stats.handled / seconds, 1)
    table.close()
    store.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--data-dir", type=Path, default=None)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=options.data_dir) as tmp:
        figures: dict[str, Any] = {"events": options.events}
        for n in (1, 20):
            result = latency(Path(tmp), n, options.events)
            rate = throughput(Path(tmp), n, options.events)
            figures[f"n{n}"] = {**result, "events_per_s": rate}
            print(
                f"N={n:>2}: BACK press → stored p50 {result['acked_p50_ms']:.2f} ms, "
                f"p99 {result['acked_p99_ms']:.2f} ms; delivered to all p50 "
                f"{result['delivered_p50_ms']:.2f} ms, p99 {result['delivered_p99_ms']:.2f} ms; "
                f"{rate:.0f} events/s"
            )
        figures.update(camera_fps(Path(tmp)))
        print(
            f"simulated camera 640x480: {figures['camera_fps_vision_off']:.0f} frames/s without "
            f"vision, {figures['camera_fps_vision_on']:.1f} frames/s reading dice"
        )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
