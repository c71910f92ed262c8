"""Web benchmarks: first page load, SSE fan-out to 20 tablets, /api/state req/s, and the
crowded LAN: 200 open live pages with control traffic (API latency p50/p99) and the cap.

Everything runs against the real server (hypercorn, as ``companion run`` serves it) on
127.0.0.1 with a real table and SQLite store in a temporary folder. Prints medians and
percentiles and a last line of JSON.
Run: ``.venv/bin/python bench/web.py`` (needs Debian's chromium for the page-load figure);
``bench/web.py storm`` measures only the reconnect storm (200 pages catching up at once);
``bench/web.py crowds`` only the API's p50/p99 with 0, 50, 200 and 250 open live pages and
the start-up time of ``companion run --simulate`` to its first page (no browser needed);
``bench/web.py start-up [HOST]`` only that start-up, on HOST (default ``0.0.0.0``, as
``companion run`` listens by default: the LAN name is claimed too).
Pages ask for the stream as today's scripts do (``v=2``: a batch carries the state once);
the storm is also measured for pages with a script from before (the state on every event).
"""

from __future__ import annotations

import http.client
import json
import os
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

# Run as `python bench/web.py`, this file's folder comes first on sys.path and its own name
# would shadow the `web` package it measures.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]

from companion.config import GameDefaults  # noqa: E402
from companion.engine.events import MOVE, Event  # noqa: E402
from companion.engine.session import GameHeader  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.table import Table  # noqa: E402
from web import MAX_REQUEST_BYTES, create_app  # noqa: E402
from web.asgi import companion_app, edge, live_streams, loopback_server  # noqa: E402

PLAYERS = ("Alice", "Bob", "Cathleen", "Dave")
CLIENTS = 20
EVENTS = 150
CROWD = 200  # open live pages in the crowded-LAN figure
CAP = 256  # the default web.max_streams
CONTROL_REQUESTS = 400
CROWDS = (0, 50, 200, 250)  # open live pages in the API latency sweep
STARTS = 5  # start-ups timed; the median is reported


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
    """Seconds from submitting a change to each of 20 open streams receiving it.

    A page asking with ``v=2`` is sent changes that come close together as one batch whose
    last alone carries an id: the time counted is the submitting of that change to the
    batch's arrival (when the page draws them all). Each page listens until it has the
    last change submitted."""
    received: dict[int, list[float]] = {}
    lock = threading.Lock()
    ready = threading.Barrier(CLIENTS + 1)
    last: list[int | None] = [None]  # the last change's number, once all are submitted

    def listen() -> None:
        connection = http.client.HTTPConnection(host, port, timeout=30)
        connection.request("GET", f"/api/stream?after={table.public_state()['seq']}&v=2")
        response = connection.getresponse()
        ready.wait()
        highest = 0
        while last[0] is None or highest < last[0]:
            line = response.fp.readline().decode()
            if line.startswith("id: "):
                highest = int(line[4:])
                with lock:
                    received.setdefault(highest, []).append(time.perf_counter())
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
    last[0] = max(sent)
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


def crowd(host: str, port: int) -> dict[str, float]:
    """200 open live pages (drained as a browser would) while a tablet sends NEXT-like
    changes and reads the state: the API's latency, and what the 201st..cap+1th page gets."""
    selector = selectors.DefaultSelector()
    streams = []
    for _ in range(CROWD):
        page = socket.create_connection((host, port), timeout=10)
        page.sendall(b"GET /api/stream?after=0&v=2 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        page.setblocking(False)
        selector.register(page, selectors.EVENT_READ)
        streams.append(page)
    stop = threading.Event()
    received = [0]

    def drain() -> None:
        while not stop.is_set():
            for key, _ in selector.select(timeout=0.2):
                try:
                    received[0] += len(key.fileobj.recv(65536))  # type: ignore[union-attr]
                except BlockingIOError:
                    continue

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    time.sleep(1.0)
    api = http.client.HTTPConnection(host, port, timeout=10)
    api.request("POST", "/api/login", body=json.dumps({"pin": "123456"}),
                headers={"Content-Type": "application/json"})  # fmt: skip
    token = json.loads(api.getresponse().read())["token"]
    headers = {"Content-Type": "application/json", "X-Table-Token": token}
    latencies = []
    for index in range(CONTROL_REQUESTS):
        started = time.perf_counter()
        if index % 2:
            api.request("GET", "/api/state")
        else:
            body = json.dumps({"intent": "redo" if index % 4 else "undo"})
            api.request("POST", "/api/intent", body=body, headers=headers)
        response = api.getresponse()
        response.read()
        latencies.append(time.perf_counter() - started)
        assert response.status == 200, response.status
    extra = []
    refused = 0
    for _ in range(CAP - CROWD + 1):  # fill up to the cap, then one more
        page = socket.create_connection((host, port), timeout=10)
        page.sendall(b"GET /api/stream?after=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        extra.append(page)
    refused = sum(1 for page in extra if page.recv(12) == b"HTTP/1.1 503")
    stop.set()
    reader.join(timeout=5)
    for page in streams + extra:
        page.close()
    api.close()
    return {
        "crowd_streams": CROWD,
        "crowd_api_p50_ms": round(statistics.median(latencies) * 1000, 2),
        "crowd_api_p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
        "crowd_bytes_to_pages": received[0],
        "stream_cap": CAP,
        "refused_beyond_cap": refused,
    }


class OpenPages:
    """``count`` live pages held open and drained as a browser would, on one thread."""

    def __init__(self, host: str, port: int, count: int) -> None:
        self.selector = selectors.DefaultSelector()
        self.pages: list[socket.socket] = []
        for _ in range(count):
            page = socket.create_connection((host, port), timeout=10)
            page.sendall(b"GET /api/stream?after=0&v=2 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            page.setblocking(False)
            self.selector.register(page, selectors.EVENT_READ)
            self.pages.append(page)
        self.stop = threading.Event()
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()

    def _drain(self) -> None:
        while not self.stop.is_set():
            for key, _ in self.selector.select(timeout=0.2):
                try:
                    key.fileobj.recv(65536)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue

    def close(self) -> None:
        self.stop.set()
        self.reader.join(timeout=5)
        for page in self.pages:
            self.selector.unregister(page)
            page.close()
        self.selector.close()


def control_latencies(host: str, port: int, requests: int = CONTROL_REQUESTS) -> list[float]:
    """A tablet's traffic: half state reads, half changes (undo/redo), one at a time."""
    api = http.client.HTTPConnection(host, port, timeout=10)
    api.request("POST", "/api/login", body=json.dumps({"pin": "123456"}),
                headers={"Content-Type": "application/json"})  # fmt: skip
    token = json.loads(api.getresponse().read())["token"]
    headers = {"Content-Type": "application/json", "X-Table-Token": token}
    latencies = []
    for index in range(requests):
        started = time.perf_counter()
        if index % 2:
            api.request("GET", "/api/state")
        else:
            body = json.dumps({"intent": "redo" if index % 4 else "undo"})
            api.request("POST", "/api/intent", body=body, headers=headers)
        response = api.getresponse()
        response.read()
        latencies.append(time.perf_counter() - started)
        assert response.status == 200, response.status
    api.close()
    return latencies


def crowds(host: str, port: int) -> dict[str, float]:
    """The API's p50 and p99 with 0, 50, 200 and 250 live pages open, in one run."""
    figures: dict[str, float] = {}
    for count in CROWDS:
        pages = OpenPages(host, port, count)
        try:
            time.sleep(1.0 + count / 200)  # every page has had its first state
            latencies = control_latencies(host, port)
        finally:
            pages.close()
        figures[f"api_p50_ms_{count}_streams"] = round(statistics.median(latencies) * 1000, 2)
        figures[f"api_p99_ms_{count}_streams"] = round(percentile(latencies, 0.99) * 1000, 2)
    return figures


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU seconds a running process has used so far (Linux's /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_up(host: str = "127.0.0.1") -> tuple[float, float | None]:
    """Seconds from starting ``companion run --simulate --host HOST`` (a fresh data folder)
    until its first page (``GET /`` on 127.0.0.1) answers 200, and the CPU seconds it had
    used by then: on a shared, loaded machine the wall clock mostly measures the queue for
    a core, while the CPU seconds are what the start-up costs. HOST ``0.0.0.0`` (the
    default of ``companion run``) also claims the LAN name."""
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        command = [sys.executable, "-m", "companion", "--data-dir", folder, "run", "--simulate",
                   "--host", host, "--port", str(port)]  # fmt: skip
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while process.poll() is None:
                try:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    connection.request("GET", "/")
                    response = connection.getresponse()
                    response.read()
                    connection.close()
                    if response.status == 200:
                        return time.perf_counter() - started, cpu_seconds(process.pid)
                except OSError:
                    time.sleep(0.005)
            raise RuntimeError(f"companion run ended with {process.returncode} before its page")
        finally:
            process.terminate()
            process.wait(timeout=15)


def start_ups(runs: int = STARTS, host: str = "127.0.0.1") -> dict[str, float]:
    runs_seen = [start_up(host) for _ in range(runs)]
    walls = [wall for wall, _ in runs_seen]
    cpus = [cpu for _, cpu in runs_seen if cpu is not None]
    figures = {"start_up_median_s": round(statistics.median(walls), 3), "start_up_runs": runs}
    if cpus:
        figures["start_up_cpu_median_s"] = round(statistics.median(cpus), 3)
    return figures


def storm(
    host: str, port: int, table: Table, missed: int = 50, *, lean: bool = True
) -> dict[str, float]:
    """The Wi-Fi comes back: 200 pages that each missed ``missed`` changes reconnect at
    once (``Last-Event-ID``); seconds until every one has caught up, and the bytes sent.
    ``lean``: the pages ask as today's scripts do (``v=2``); else as a script from before."""
    for index in range(missed):
        table.submit("redo" if index % 2 else "undo").result(timeout=10)
    last = table.public_state()["seq"]
    wanted = f"id: {last}\n".encode()
    path = "/api/stream?v=2" if lean else "/api/stream"
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: {last - missed}\r\n\r\n"
    ).encode()
    started = time.perf_counter()
    pages = [socket.create_connection((host, port), timeout=30) for _ in range(CROWD)]
    for page in pages:
        page.sendall(request)
    received = 0
    for page in pages:
        tail = b""
        while wanted not in tail:
            chunk = page.recv(1 << 20)
            if not chunk:
                break
            received += len(chunk)
            tail = (tail + chunk)[-len(wanted) * 2 :] if wanted not in chunk else chunk
    seconds = time.perf_counter() - started
    for page in pages:
        page.close()
    key = "storm" if lean else "storm_old_pages"
    return {f"{key}_pages": CROWD, f"{key}_missed": missed, f"{key}_seconds": round(seconds, 2),
            f"{key}_bytes": received}  # fmt: skip


def print_crowds(swept: dict[str, float]) -> None:
    for count in CROWDS:
        print(
            f"API with {count} open live pages: p50 {swept[f'api_p50_ms_{count}_streams']} ms, "
            f"p99 {swept[f'api_p99_ms_{count}_streams']} ms"
        )


def print_start_up(figures: dict[str, float]) -> None:
    cpu = figures.get("start_up_cpu_median_s")
    print(
        f"start-up to the first page: median {figures['start_up_median_s']} s"
        + ("" if cpu is None else f", {cpu} s of CPU")
        + f" ({figures['start_up_runs']} starts)"
    )


def start_up_only(host: str) -> None:
    """``bench/web.py start-up [HOST]``: only the start-up to the first page, on HOST."""
    started = start_ups(host=host)
    print_start_up(started)
    print(json.dumps({"host": host, **started}))


def main() -> None:
    if sys.argv[1:2] == ["start-up"]:  # only the start-up, on HOST (default 0.0.0.0)
        return start_up_only(sys.argv[2] if len(sys.argv) > 2 else "0.0.0.0")
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "bench.sqlite3")
        table = Table(store, GameDefaults(players=PLAYERS))
        table.new_game(GameHeader("run-hamster-run", "v2.1", PLAYERS, 7))
        first = table.public_state()["current"]
        table.submit(Event(MOVE, name="place", seat=first, args={"to": [3, 3]})).result(timeout=10)
        app = create_app(table, "123456", heartbeat_seconds=5)
        streams = live_streams(app, cap=CAP)
        asgi = edge(companion_app(app, streams, threads=16))
        with loopback_server(asgi, max_body=MAX_REQUEST_BYTES, on_stop=streams.close) as port:
            host = "127.0.0.1"
            if sys.argv[1:] == ["storm"]:  # only the reconnect storm, no browser needed
                both = {**storm(host, port, table), **storm(host, port, table, lean=False)}
                print(json.dumps(both))
                return
            if sys.argv[1:] == ["crowds"]:  # the latency sweep and start-up, no browser
                swept = crowds(host, port)
                print_crowds(swept)
                started = start_ups()
                print_start_up(started)
                print(json.dumps({**swept, **started}))
                return
            load = first_load(f"http://{host}:{port}/")
            spread = fan_out(host, port, table)
            rps = state_rps(host, port)
            crowded = crowd(host, port)
            stormed = storm(host, port, table)
            stormed_old = storm(host, port, table, lean=False)
            swept = crowds(host, port)
        table.close()
        store.close()
    figures = {
        **{f"first_load_{k}": v for k, v in load.items()},
        **spread,
        "state_rps": round(rps),
        **crowded,
        **stormed,
        **stormed_old,
        **swept,
        **start_ups(),
    }
    print(f"first page load: {load['requests']} requests, {load['bytes'] / 1024:.1f} KiB")
    p50, p99 = spread["fanout_p50_ms"], spread["fanout_p99_ms"]
    print(
        f"SSE fan-out to {CLIENTS} tablets: p50 {p50} ms, p99 {p99} ms "
        f"({spread['deliveries']} batches delivered)"
    )
    print(f"/api/state (4 clients): {rps:.0f} requests/s")
    print(
        f"{CROWD} open live pages + control traffic: API p50 {crowded['crowd_api_p50_ms']} ms, "
        f"p99 {crowded['crowd_api_p99_ms']} ms; beyond the cap of {CAP}: "
        f"{crowded['refused_beyond_cap']} refused with 503"
    )
    print(
        f"reconnect storm: {CROWD} pages each missing {stormed['storm_missed']} changes caught "
        f"up in {stormed['storm_seconds']} s, {stormed['storm_bytes'] / 1e6:.1f} MB sent; "
        f"pages with a script from before: {stormed_old['storm_old_pages_seconds']} s, "
        f"{stormed_old['storm_old_pages_bytes'] / 1e6:.1f} MB"
    )
    print_crowds(swept)
    print_start_up(figures)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
