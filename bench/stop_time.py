"""How long `companion run` takes to stop on SIGTERM, whatever the event's broker does.

Three cases, each timed from SIGTERM to the process's exit (systemd waits for it):
``steady`` (the broker keeps running), ``stopping`` (the broker gets SIGTERM at the same
moment, as when the event's Pi and a table both shut down) and ``silent`` (a broker that
accepts the connection and never answers, as one that is hung or half way down).

Run: ``.venv/bin/python -m bench.stop_time [--rounds N]``; prints one line per case with
the median and the worst of N rounds (default 3) on this machine, then the share no
broker can change: Python's own exit with the companion's libraries loaded.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from tests.mqtt.mosquitto import Mosquitto, free_port


class SilentBroker:
    """A TCP port that accepts connections and never says a word."""

    def __init__(self) -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(16)
        self.port: int = self.socket.getsockname()[1]

    def stop(self) -> None:
        self.socket.close()


def start_table(folder: Path, broker_port: int) -> tuple[subprocess.Popen[bytes], int]:
    """`companion run --simulate` with [mqtt] on the broker; returns once its page answers."""
    port = free_port()
    config = folder / "companion.toml"
    config.write_text(
        f'data_dir = "{folder / "data"}"\n[mqtt]\nhost = "127.0.0.1"\n'
        f'port = {broker_port}\ntable = "t"\n[web]\nport = {port}\n',
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "--config", str(config), "run", "--simulate"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=1).close()
            return process, port
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("companion run did not answer within 60 s")


def one_stop(case: str) -> float:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        broker: Mosquitto | SilentBroker
        if case == "silent":
            broker = SilentBroker()
        else:
            broker = Mosquitto(folder / "broker")
            broker.start()
        process, _ = start_table(folder, broker.port)
        time.sleep(2.0)  # connected (or stuck connecting, for the silent broker)
        began = time.monotonic()
        process.send_signal(signal.SIGTERM)
        if case == "stopping" and isinstance(broker, Mosquitto) and broker.process:
            broker.process.send_signal(signal.SIGTERM)
        process.wait(60)
        took = time.monotonic() - began
        broker.stop()
        return took


def python_exit() -> float:
    """Python's own exit with the companion's libraries loaded: from the last line of a
    process that only imported them to the process being gone."""
    code = (
        "import companion.serve, time, atexit; "
        "atexit.register(lambda: print(time.time(), flush=True))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return time.time() - float(done.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    for case in ("steady", "stopping", "silent"):
        times = [one_stop(case) for _ in range(rounds)]
        print(
            f"{case:<9} SIGTERM to exit: median {statistics.median(times):.2f} s, "
            f"worst {max(times):.2f} s over {rounds} rounds"
        )
    exits = [python_exit() for _ in range(rounds)]
    print(
        f"python's exit alone: median {statistics.median(exits):.2f} s, "
        f"worst {max(exits):.2f} s over {rounds} rounds"
    )


if __name__ == "__main__":
    main()
