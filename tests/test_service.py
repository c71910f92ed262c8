"""The service side: sd_notify and watchdog, `companion doctor`, and `companion run` end to end."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.serve import companion_command as main
from web.asgi import loopback_server
from web.live import Receive, Scope, Send
from web.systemd_notify import notify, start_watchdog, watch_the_service


@pytest.fixture
def notify_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> socket.socket:
    path = tmp_path / "notify.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(path))
    server.settimeout(10)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    return server


def test_ready_is_sent_to_systemd(notify_socket: socket.socket) -> None:
    assert notify("READY=1")
    assert notify_socket.recv(64) == b"READY=1"
    notify_socket.close()


def test_watchdog_is_fed_only_while_the_table_is_alive(
    notify_socket: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "20000")
    alive = threading.Event()
    alive.set()
    stop = threading.Event()
    thread = start_watchdog(alive.is_set, stop)
    assert thread is not None
    assert notify_socket.recv(64) == b"WATCHDOG=1"
    alive.clear()
    while True:  # drain pings sent before the table "died"
        notify_socket.settimeout(0.2)
        try:
            notify_socket.recv(64)
        except TimeoutError:
            break
    stop.set()
    thread.join(timeout=5)
    notify_socket.close()


def _pings_stop(notify_socket: socket.socket, silence: float = 1.0, deadline: float = 60) -> bool:
    """Drain pings until none comes for ``silence`` seconds (pings are 10 ms apart)."""
    notify_socket.settimeout(silence)
    give_up = time.monotonic() + deadline
    while time.monotonic() < give_up:
        try:
            notify_socket.recv(64)
        except TimeoutError:
            return True
    return False


def test_watchdog_stops_while_the_page_loop_is_blocked_and_resumes_after(
    notify_socket: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A blocking call stuck on the page's event loop hangs every page while the process
    and the table's worker look fine: systemd must stop hearing from the companion."""
    monkeypatch.setenv("WATCHDOG_USEC", "20000")  # a ping every 10 ms
    inside, release, stop = threading.Event(), threading.Event(), threading.Event()

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        if scope["path"] == "/block":  # test-only: a blocking call on the loop itself
            inside.set()
            release.wait(120)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    feeders: list[threading.Thread | None] = []

    def ready() -> None:  # on the server's loop, as `companion run` calls it
        feeders.append(watch_the_service(lambda: True, stop, timeout=0.2))

    answers: list[int] = []
    with loopback_server(app, max_body=1024, on_ready=ready) as port:
        assert notify_socket.recv(64) == b"WATCHDOG=1"
        url = f"http://127.0.0.1:{port}/block"
        caller = threading.Thread(
            target=lambda: answers.append(urllib.request.urlopen(url, timeout=120).status)
        )
        caller.start()
        assert inside.wait(60)
        assert _pings_stop(notify_socket), "the watchdog kept pinging a blocked loop"
        release.set()
        notify_socket.settimeout(60)
        assert notify_socket.recv(64) == b"WATCHDOG=1"  # the loop runs again: pings resume
        caller.join(60)
    assert answers == [200]
    stop.set()
    (feeder,) = feeders
    assert feeder is not None
    feeder.join(timeout=10)  # no ping may go to the socket once the test closed it
    notify_socket.close()


def test_no_watchdog_outside_systemd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert not notify("READY=1")
    assert start_watchdog(lambda: True, threading.Event()) is None


def test_doctor_reports_this_machine(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "doctor"])
    assert "numpy" in result.output and "OpenCV" in result.output
    assert "no board calibration yet" in result.output
    # docs/camera.md's command, which works wherever `companion` does (a bare `python -m` needs
    # the companion's own venv, which on a Pi is /opt/hamster-companion/.venv)
    assert "`companion calibrate markers DIR`" in result.output
    assert result.exit_code == 0, result.output


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_companion_run_serves_the_page_and_resumes_after_restart(tmp_path: Path) -> None:
    port = _free_port()
    command = [
        sys.executable,
        "-m",
        "companion",
        "--data-dir",
        str(tmp_path),
        "run",
        "--simulate",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}

    def start() -> subprocess.Popen[str]:
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        assert process.stdout is not None
        line = process.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line and "table PIN" in line, line
        return process

    def state() -> dict[str, object]:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/api/state", timeout=5
                ) as answer:
                    return dict(json.load(answer))
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    first = start()
    try:
        before = state()
        assert before["game"] == "run-hamster-run" and "simulated" in str(before["devices"])
    finally:
        first.send_signal(signal.SIGINT)
        first.communicate(timeout=20)
    second = start()
    try:
        assert state()["game_id"] == before["game_id"]
    finally:
        # `systemctl stop` sends SIGTERM: every part stops, the WAL is folded in, exit 0.
        second.send_signal(signal.SIGTERM)
        output, _ = second.communicate(timeout=20)
    assert second.returncode == 0, output
    wal = tmp_path / "companion.sqlite3-wal"
    assert not wal.exists() or wal.stat().st_size == 0


class RecordingLights:
    """Stands in for TableButtons' LED and buzzer to see what the runtime asks of them."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.changed = threading.Condition()

    def set_light(self, mode: str) -> None:
        with self.changed:
            self.calls.append(("light", mode))
            self.changed.notify_all()

    def buzz(self, pattern: str) -> None:
        with self.changed:
            self.calls.append(("buzz", pattern))
            self.changed.notify_all()

    def wait_for(self, call: tuple[str, str]) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: call in self.calls, timeout=10)


def test_lights_blink_while_the_table_must_act(tmp_path: Path) -> None:
    from companion.config import GameDefaults
    from companion.engine.events import MOVE, Event
    from companion.startup.buttons import follow_with_lights
    from companion.store import Store
    from companion.table import Table

    store = Store(tmp_path / "c.sqlite3")
    table = Table(store, GameDefaults(players=("Ann", "Bo")))
    table.new_game()
    lights = RecordingLights()
    stop = threading.Event()
    follower = follow_with_lights(table, lights, stop)
    seat = table.public_state()["current"]
    table.submit(Event(MOVE, name="place", seat=seat, args={"to": [2, 2]})).result(timeout=10)
    assert lights.wait_for(("light", "blink"))
    stop.set()
    table.close()
    follower.join(timeout=10)
    store.close()


def test_companion_pin_prints_the_address_the_pin_and_a_qr_code(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "pin"])
    assert result.exit_code == 0, result.output
    assert "Tablet page: http://" in result.output and "table PIN: " in result.output
    assert "█" in result.output  # the QR code, drawn in blocks
    again = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "pin"])
    assert again.output.split("table PIN: ")[1][:6] == result.output.split("table PIN: ")[1][:6]


def _companion(data_dir: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "companion", "--data-dir", str(data_dir), *args]


def test_a_second_companion_on_the_same_games_is_refused_and_the_first_goes_on(
    tmp_path: Path,
) -> None:
    """Two companions on one games file each kept their own copy of the game, so a press on
    one and a tap on the other were stored on a game the other never saw: the second now
    stops at once, in one sentence, before touching the file, whatever port it was given."""
    port = _free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    first = subprocess.Popen(
        [*_companion(tmp_path, "run", "--simulate", "--host", "127.0.0.1", "--port", str(port))],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        assert first.stdout is not None
        assert "table PIN" in first.stdout.readline()
        other = _free_port()
        second = subprocess.run(
            _companion(tmp_path, "run", "--simulate", "--host", "127.0.0.1", "--port", str(other)),
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert second.returncode == 2, second.stdout
        assert "Tablet page" not in second.stdout
        said = second.stderr.strip()
        assert said.startswith("Error: Another companion is already running on the games in")
        assert f"(process {first.pid})" in said and "\n" not in said
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as answer:
            assert json.load(answer)["game"] == "run-hamster-run"  # the first one goes on
    finally:
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=20)
    assert first.returncode == 0


def test_a_port_in_use_is_said_before_anything_starts(tmp_path: Path) -> None:
    """The port was opened last, after the banner with the address and PIN: a port in use
    read as a started companion followed by an error. Now it is the only line, and the
    data folder is left as it was."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            _companion(tmp_path / "data", "run", "--host", "127.0.0.1", "--port", str(port)),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip() == (
        "Error: Cannot serve the page: the port is already in use (another companion?); "
        "try another --port."
    )
    assert not (tmp_path / "data" / "companion.sqlite3").exists()


ROOT = Path(__file__).resolve().parent.parent


def _unit_values(key: str) -> list[str]:
    lines = (ROOT / "systemd" / "companion.service").read_text(encoding="utf-8").splitlines()
    return [line.split("=", 1)[1] for line in lines if line.startswith(f"{key}=")]


def test_the_service_may_sound_the_voice() -> None:
    """With ``[voice] enabled = true`` espeak-ng opens the sound card itself, as the
    service's user: the unit's closed device list had no ALSA devices and the user was not
    in the audio group, so the service never spoke although ``companion doctor`` (run as
    another user) found espeak-ng and a speaker."""
    assert "audio" in " ".join(_unit_values("SupplementaryGroups")).split()
    assert _unit_values("DevicePolicy") == ["closed"]
    assert "char-alsa rw" in _unit_values("DeviceAllow")
    install = (ROOT / "systemd" / "install.sh").read_text(encoding="utf-8")
    assert 'usermod -aG gpio,video,audio "$user"' in install


def test_the_service_and_the_readme_name_the_same_places() -> None:
    """The Pi steps (README and docs/pi.md) are typed by hand: the program, settings and
    data folder they name must be the ones the service uses (and the installer's last check
    reads the same settings as the service)."""
    command = _unit_values("ExecStart")[0]
    program, config = command.split()[0], command.split("--config ")[1].split()[0]
    data = "/var/lib/hamster-companion"
    assert f"HAMSTER_DATA={data}" in _unit_values("Environment")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pi = (ROOT / "docs" / "pi.md").read_text(encoding="utf-8")
    for page in (readme, pi):
        assert f"HAMSTER_DATA={data} {program} --config {config} pin" in page
    assert f"Settings live in `{config}`, games in\n`{data}`" in pi
    install = (ROOT / "systemd" / "install.sh").read_text(encoding="utf-8")
    assert f"--config {config} doctor" in install
