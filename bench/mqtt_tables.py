"""An evening with many tables on one broker: publish latency and the board's catch-up.

Run from the project folder: ``.venv/bin/python -m bench.mqtt_tables [--tables 50]
[--rounds 20] [--repeats 10]`` (needs Debian's mosquitto; it starts its own on a free
127.0.0.1 port).

What is measured, with everything real (a ``Table`` over its own SQLite file per table,
its ``TablePublisher``, mosquitto, paho):

* publish latency: each round every table makes one legal move of its game's bot (the
  tables in turn, as fast as they go: a busy evening compressed), and a subscriber notes
  when each table's new state arrives. ``sent->received`` is the broker hop (the state's
  own ``sent`` stamp to arrival); ``change->received`` adds the publisher's wake-up and
  payload (from the move's acknowledgement to arrival).
* catch-up: a fresh board connects and subscribes; the time until it holds every table's
  retained state (counted, not guessed), and until its probe says it is caught up.
* broker restart: mosquitto is killed (-9) and started again empty; the time until a
  board holds every table's state again, which is dominated by paho's reconnect back-off
  (1 s, doubling up to 8 s).

Medians (and p95) over the samples; the last line is JSON, for scripts.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from bench.latency import percentile
from companion.engine.session import GameHeader
from companion.games import GAMES
from companion.mqtt.board import BoardClient
from companion.mqtt.connect import Broker, client_id, make_client
from companion.mqtt.publisher import TablePublisher
from companion.mqtt.topics import Topics
from companion.simulate import bot_of, bot_turn
from companion.store import Store
from companion.table import Table
from tests.mqtt.mosquitto import MISSING, MOSQUITTO, Mosquitto

WAIT = 60.0
MS = 1000.0


class Arrivals:
    """A subscriber noting when each (table, seq) state arrives and its ``sent`` stamp."""

    def __init__(self, broker: Broker) -> None:
        self.seen: dict[tuple[str, int], tuple[float, float]] = {}
        self.lock = threading.Lock()
        self.ready = threading.Event()
        self.client = make_client(broker, client_id("bench-arrivals"))
        self.client.on_connect = lambda c, *_: c.subscribe("hamster/+/state", qos=1)
        self.client.on_subscribe = lambda *_: self.ready.set()
        self.client.on_message = self._message
        self.client.connect_async(broker.host, broker.port)
        self.client.loop_start()

    def _message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        now = time.time()
        data = json.loads(message.payload)
        with self.lock:
            self.seen[(str(data["table"]), int(data.get("seq") or 0))] = (now, float(data["sent"]))

    def has(self, key: tuple[str, int]) -> bool:
        with self.lock:
            return key in self.seen

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class BenchTable:
    """One table of the evening, played by its game's bot."""

    def __init__(self, folder: Path, index: int, broker: Broker) -> None:
        spec = list(GAMES.values())[index % len(GAMES)]
        self.name = f"table-{index + 1:02d}"
        self.store = Store(folder / f"{self.name}.sqlite3")
        self.table = Table(self.store, resume=False)
        players = tuple(f"P{(index + seat) % 60}" for seat in range(spec.min_players))
        self.table.new_game(GameHeader(spec.name, spec.rules_default, players, index))
        self.bot, self.rng = bot_of(spec), random.Random(index)
        self.publisher = TablePublisher(self.table, broker, Topics("hamster", self.name))
        self.publisher.start()

    def move(self) -> tuple[int, float] | None:
        """One legal move; its seq and when it was acknowledged (None: the game is over)."""
        state = self.table.snapshot.state
        if state is None or state.ctx.over:
            return None
        bot_turn(self.bot, state, self.rng, lambda e: self.table.submit(e).result(WAIT))
        return self.table.current_stamp()[1], time.time()

    def close(self) -> None:
        self.publisher.stop()
        self.table.close()
        self.store.close()


def wait_for(check: Any, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError("the broker did not deliver in time")
        time.sleep(0.001)


def latency(tables: list[BenchTable], broker: Broker, rounds: int) -> dict[str, float]:
    arrivals = Arrivals(broker)
    arrivals.ready.wait(WAIT)
    hop: list[float] = []
    whole: list[float] = []
    for _ in range(rounds):
        moved = [(t.name, t.move()) for t in tables]
        for name, done in moved:
            if done is None:
                continue
            seq, acked = done
            wait_for(lambda name=name, seq=seq: arrivals.has((name, seq)))
            received, sent = arrivals.seen[(name, seq)]
            hop.append(received - sent)
            whole.append(received - acked)
    arrivals.stop()
    return {
        "states": len(hop),
        "sent_to_received_p50_ms": round(statistics.median(hop) * MS, 2),
        "sent_to_received_p95_ms": round(percentile(hop, 0.95) * MS, 2),
        "change_to_received_p50_ms": round(statistics.median(whole) * MS, 2),
        "change_to_received_p95_ms": round(percentile(whole, 0.95) * MS, 2),
    }


def catch_up(broker: Broker, count: int, timeout: float = WAIT) -> tuple[float, float]:
    """A fresh board: seconds until it holds ``count`` tables, and until its probe returns."""
    start = time.perf_counter()
    board = BoardClient(broker)
    board.start()
    try:
        wait_for(lambda: len(board.board.tables()) >= count, timeout)
        counted = time.perf_counter() - start
        board.wait_caught_up(timeout)
        probed = time.perf_counter() - start
    finally:
        board.stop()
    return counted, probed


def restart(server: Mosquitto, broker: Broker, tables: list[BenchTable]) -> float:
    """Kill -9, start again empty: seconds from the start until a board has every table."""
    server.kill()
    wait_for(lambda: not any(t.publisher.connected for t in tables))
    server.start()
    start = time.perf_counter()
    wait_for(lambda: all(t.publisher.connected for t in tables))
    board = BoardClient(broker)
    board.start()
    try:
        wait_for(lambda: len(board.board.tables()) >= len(tables))
    finally:
        board.stop()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--restarts", type=int, default=3)
    args = parser.parse_args()
    if not MOSQUITTO.exists():
        raise SystemExit(MISSING)
    with tempfile.TemporaryDirectory() as folder:
        server = Mosquitto(Path(folder) / "broker")
        server.start()
        broker = Broker("127.0.0.1", server.port)
        tables = [BenchTable(Path(folder), i, broker) for i in range(args.tables)]
        try:
            wait_for(lambda: all(t.publisher.connected for t in tables))
            figures: dict[str, Any] = {"tables": args.tables}
            figures.update(latency(tables, broker, args.rounds))
            runs = [catch_up(broker, args.tables) for _ in range(args.repeats)]
            figures["catch_up_all_states_p50_ms"] = round(
                statistics.median(r[0] for r in runs) * MS, 1
            )
            figures["catch_up_probe_p50_ms"] = round(statistics.median(r[1] for r in runs) * MS, 1)
            restarts = [restart(server, broker, tables) for _ in range(args.restarts)]
            figures["broker_restart_to_whole_board_p50_s"] = round(statistics.median(restarts), 2)
        finally:
            for table in tables:
                table.close()
            server.stop()
    print(f"{args.tables} tables, {figures['states']} states over {args.rounds} rounds")
    print(
        f"  publish latency, sent -> received: median {figures['sent_to_received_p50_ms']} ms, "
        f"p95 {figures['sent_to_received_p95_ms']} ms"
    )
    print(
        f"  move acknowledged -> state received: median "
        f"{figures['change_to_received_p50_ms']} ms, p95 {figures['change_to_received_p95_ms']} ms"
    )
    print(
        f"  fresh board catch-up ({args.repeats} boards): every state in median "
        f"{figures['catch_up_all_states_p50_ms']} ms, probe back in "
        f"{figures['catch_up_probe_p50_ms']} ms"
    )
    print(
        f"  broker killed and restarted ({args.restarts} times): whole board again in median "
        f"{figures['broker_restart_to_whole_board_p50_s']} s (paho's reconnect back-off)"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
