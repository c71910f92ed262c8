"""Web benchmarks: first page load, SSE fan-out latency to 20 tablets, /api/state req/s.

Everything runs against a real waitress server on 127.0.0.1 with a real table and SQLite
store in a temporary folder. Prints medians/percentiles and a last line of JSON.
Run: ``.venv/bin/python bench/web.py`` (needs Debian's chromium for the page-load figure).
"""

from __future__ import annotations

import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

# Run as `python bench/web.py`, this file's folder comes first on sys.path and its own name
# would shadow the `web` package it measures.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]

import waitress.server  # noqa: E402

from companion.config import GameDefaults  # noqa: E402
from companion.engine.events import MOVE, Event  # noqa: E402
from companion.engine.session import GameHeader  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.table import Table  # noqa: E402
from web import create_app  # noqa: E402

PLAYERS = ("Alice", "Bob", "Cathleen", "Dave")
CLIENTS = 20
EVENTS = 150


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def first_load(url: str) -> dict[str, Any]:
    """Requests and bytes a fresh browser fetches to show the page (stream excluded)."""
    from playwright.sync_api import sync_playwright

    sizes: list[int] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        page = browser.new_page()

        def on_response(response: Any) -> None:
            if "/api/stream" not in response.url:
                sizes.append(len(response.body()))

        page.on("response", on_response)
        page.goto(url, wait_until="networkidle")
        browser.close()
    return {"requests": len(sizes) + 1, "bytes": sum(sizes)}


def fan_out(host: str, port: int, table: Table) -> dict[str, float]:
    """Seconds from submitting a change to each of 20 open streams receiving it."""
    received: dict[int, list[float]] = {}
    lock = threading.Lock()
    ready = threading.Barrier(CLIENTS + 1)

    def listen() -> None:
        connection = http.client.HTTPConnection(host, port, timeout=30)
        connection.request("GET", f"/api/stream?after={table.public_state()['seq']}")
        response = connection.getresponse()
        ready.wait()
        seen = 0
        while seen < EVENTS:
            line = response.fp.readline().decode()
            if line.startswith("id: "):
                seq = int(line[4:])
                with lock:
                    received.setdefault(seq, []).append(time.perf_counter())
                seen += 1
        connection.close()

    threads = [threading.Thread(target=listen, daemon=True) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    ready.wait()
    time.sleep(0.5)
    sent: dict[int, float] = {}
    for index in range(EVENTS):
        # Undo and redo of the one move alternate forever: a real change each time.
        started = time.perf_counter()
        logged = table.submit("redo" if index % 2 else "undo").result(timeout=10)
        sent[logged.seq] = started
        time.sleep(0.01)
    for thread in threads:
        thread.join(timeout=30)
    latencies = [t - sent[seq] for seq, times in received.items() if seq in sent for t in times]
    return {
        "fanout_p50_ms": round(statistics.median(latencies) * 1000, 2),
        "fanout_p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
        "deliveries": len(latencies),
    }


def state_rps(host: str, port: int, seconds: float = 5.0, workers: int = 4) -> float:
    counts = [0] * workers
    deadline = time.perf_counter() + seconds

    def hammer(index: int) -> None:
        connection = http.client.HTTPConnection(host, port, timeout=10)
        while time.perf_counter() < deadline:
            connection.request("GET", "/api/state")
            connection.getresponse().read()
            counts[index] += 1
        connection.close()

    threads = [threading.Thread(target=hammer, args=(i,)) for i in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / seconds


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "bench.sqlite3")
        table = Table(store, GameDefaults(players=PLAYERS))
        table.new_game(GameHeader("run-hamster-run", "v2.1", PLAYERS, 7))
        first = table.public_state()["current"]
        table.submit(Event(MOVE, name="place", seat=first, args={"to": [3, 3]})).result(timeout=10)
        app = create_app(table, "123456", heartbeat_seconds=5)
        server: Any = waitress.server.create_server(app, host="127.0.0.1", port=0, threads=32)
        threading.Thread(target=server.run, daemon=True).start()
        host, port = "127.0.0.1", int(server.effective_port)
        load = first_load(f"http://{host}:{port}/")
        spread = fan_out(host, port, table)
        rps = state_rps(host, port)
        table.close()
        store.close()
    figures = {**{f"first_load_{k}": v for k, v in load.items()}, **spread, "state_rps": round(rps)}
    print(f"first page load: {load['requests']} requests, {load['bytes'] / 1024:.1f} KiB")
    p50, p99 = spread["fanout_p50_ms"], spread["fanout_p99_ms"]
    print(f"SSE fan-out to {CLIENTS} tablets: p50 {p50} ms, p99 {p99} ms")
    print(f"/api/state under waitress (4 clients): {rps:.0f} requests/s")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
