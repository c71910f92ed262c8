"""How long a table's MQTT part (its publisher and its /board client) takes to stop,
the broker-dependent share of ``systemctl stop``, apart from the devices and Python's own
exit (``bench/stop_time.py`` times the whole ``companion run``).

Two brokers: ``stopping`` (mosquitto gets SIGTERM at the same moment as the table stops)
and ``mute`` (lets clients in and hands messages back, never acknowledges: a broker half
way down). Run from the repository: ``.venv/bin/python -m bench.mqtt_stop [--rounds N]``;
prints the median and worst seconds of N rounds (default 5) for each broker. The same
script runs against an older checkout (``PYTHONPATH=<checkout>``) for a before/after.
"""

from __future__ import annotations

import argparse
import signal
import statistics
import tempfile
import time
from pathlib import Path

from companion.engine.session import GameHeader
from companion.mqtt.board import BoardClient
from companion.mqtt.connect import Broker
from companion.mqtt.publisher import TablePublisher
from companion.mqtt.topics import Topics
from companion.store import Store
from companion.table import Table
from tests.mqtt.mosquitto import Mosquitto
from tests.mqtt.mute_broker import MuteBroker


def wait_for(check: object, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.02)
    raise RuntimeError("the table never reached the broker")


def one_stop(kind: str, folder: Path) -> float:
    store = Store(folder / "t.sqlite3")
    table = Table(store)
    table.new_game(GameHeader("hamster-wheel", "standard", ("Ann", "Bo"), 3))
    broker: Mosquitto | MuteBroker
    if kind == "mute":
        broker = MuteBroker()
    else:
        broker = Mosquitto(folder / "broker")
        broker.start()
    address = Broker("127.0.0.1", broker.port)
    publisher = TablePublisher(table, address, Topics("hamster", "t"))
    board = BoardClient(address)
    publisher.start()
    board.start()
    wait_for(lambda: publisher.published >= 1)
    began = time.monotonic()
    if isinstance(broker, Mosquitto) and broker.process is not None:
        broker.process.send_signal(signal.SIGTERM)
    board.stop()
    publisher.stop()
    took = time.monotonic() - began
    if isinstance(broker, Mosquitto):
        broker.stop()
    else:
        broker.close()
    table.close()
    store.close()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    for kind in ("stopping", "mute"):
        times = []
        for _ in range(rounds):
            with tempfile.TemporaryDirectory() as name:
                times.append(one_stop(kind, Path(name)))
        print(
            f"{kind:<9} MQTT stop: median {statistics.median(times):.2f} s, "
            f"worst {max(times):.2f} s over {rounds} rounds"
        )


if __name__ == "__main__":
    main()
