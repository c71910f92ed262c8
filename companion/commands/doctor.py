"""``companion doctor``: check this machine for the problems Pi owners actually hit.

Each check prints one line: what was found and, when something is wrong, what to do about
it. Nothing here changes the machine. The command exits 1 if any check failed, so it can
gate ``make install``.

It checks the whole system (devices, calibration, the games file, HTTPS, the event broker),
so it lives with the commands rather than in ``hardware/``. The device and vision modules are
imported inside their checks on purpose: a machine missing OpenCV or gpiozero must still get
its list of findings, and the other commands never load them.
"""

from __future__ import annotations

import contextlib
import grp
import importlib
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import click

from companion.config import MqttConfig
from companion.errors import CompanionError
from companion.mqtt.board import BoardClient
from companion.mqtt.claim import name_check
from companion.mqtt.connect import Broker
from companion.mqtt.topics import default_table_name
from companion.store import Store, StoreError
from hardware.power import describe, read_throttled

MIN_FREE_BYTES = 200 * 1024 * 1024


@dataclass(frozen=True)
class Finding:
    ok: bool
    what: str
    fix: str = ""
    optional: bool = False  # a missing optional device is a warning, not a failure


def _on_a_pi() -> bool:
    model = Path("/proc/device-tree/model")
    return model.exists() and "raspberry pi" in model.read_text(errors="ignore").lower()


def check_numpy_opencv() -> Iterator[Finding]:
    try:
        import numpy

        yield Finding(True, f"numpy {numpy.__version__} imports")
    except ImportError as error:
        yield Finding(
            False, f"numpy does not import ({error})", "run `make run` to reinstall the venv"
        )
        return
    try:
        import cv2

        cv2.cvtColor(numpy.zeros((2, 2, 3), numpy.uint8), cv2.COLOR_BGR2GRAY)
        yield Finding(True, f"OpenCV {cv2.__version__} works with numpy {numpy.__version__}")
    except (ImportError, AttributeError) as error:
        yield Finding(
            False,
            f"OpenCV does not work with this numpy ({error})",
            "an OpenCV built for numpy 2 was installed over Bookworm's numpy 1.24: "
            "`.venv/bin/pip install 'opencv-python-headless<4.12'`",
        )


def check_camera(open_camera: bool) -> Iterator[Finding]:
    try:
        picamera2 = importlib.import_module("picamera2")
    except ImportError as error:
        on_pi = _on_a_pi()
        yield Finding(
            not on_pi,
            f"picamera2 is not importable ({error})",
            "`sudo apt install python3-picamera2` and create the venv with "
            "--system-site-packages (make install does both)"
            if on_pi
            else "only needed on a Raspberry Pi; a USB webcam or the simulator works here",
            optional=not on_pi,
        )
        return
    yield Finding(True, "picamera2 imports (with the system numpy)")
    if not open_camera:
        return
    try:
        camera = picamera2.Picamera2()
        camera.close()
        yield Finding(True, "the camera opens")
    except (RuntimeError, IndexError, OSError) as error:
        yield Finding(
            False,
            f"the camera does not open ({error})",
            "check the ribbon cable (contacts toward the board on a Pi 4), run `rpicam-hello`, "
            "and stop the companion service first: only one process may hold the camera",
        )


def check_cameras(source: str = "auto") -> Iterator[Finding]:
    """Every camera libcamera and the USB bus show, and the one ``source = "auto"`` takes."""
    from hardware.camera_choice import choose_camera

    choice = choose_camera()
    for note in choice.notes:
        yield Finding(True, note, optional=True)
    for camera in choice.seen:
        yield Finding(True, f"camera seen: {camera.describe()}")
    if source != "auto":
        yield Finding(True, f"camera.source = {source!r}, so auto's choice is not used")
        return
    on_pi = _on_a_pi()
    yield Finding(
        choice.kind != "none",
        f"source = auto uses: {choice.why}",
        "connect a camera: `rpicam-hello --list-cameras` lists a ribbon camera, "
        "`v4l2-ctl --list-devices` a USB one"
        if on_pi
        else "no camera here: `make run` shows the simulated dice camera",
        optional=not on_pi,
    )


def check_lan_name(name: str = "hamster-table") -> Iterator[Finding]:
    """Whether ``companion run`` can announce the page as ``<name>.local``."""
    if not name:
        yield Finding(True, "no LAN name announced (web.lan_name is empty)")
        return
    try:
        zeroconf = importlib.import_module("zeroconf")
    except ImportError as error:
        yield Finding(
            False,
            f"{name}.local cannot be announced ({error})",
            "run `make run` or `sudo make install` again to install python-zeroconf; "
            "until then open the page by its address",
            optional=True,
        )
        return
    yield Finding(True, f"python-zeroconf {zeroconf.__version__}: the page is {name}.local")


def check_pins() -> Iterator[Finding]:
    from hardware.pins import choose_pin_factory

    factory, reason = choose_pin_factory()
    mock = type(factory).__name__.startswith("Mock")
    on_pi = _on_a_pi()
    yield Finding(
        not (mock and on_pi),
        f"GPIO: {reason}",
        "on a Pi 5 install lgpio (`sudo apt install python3-lgpio`) and add your user to the "
        "gpio group"
        if mock and on_pi
        else "",
        optional=mock and not on_pi,
    )
    chips = sorted(Path("/dev").glob("gpiochip*"))
    if chips:
        writable = [c for c in chips if os.access(c, os.R_OK | os.W_OK)]
        yield Finding(
            bool(writable),
            f"{len(writable)} of {len(chips)} /dev/gpiochip* usable by this user",
            "" if writable else "`sudo usermod -aG gpio $USER`, then log out and in",
        )


def check_groups(names: tuple[str, ...] = ("gpio", "video")) -> Iterator[Finding]:
    mine = {grp.getgrgid(g).gr_name for g in os.getgroups()}
    on_pi = _on_a_pi()
    for name in names:
        try:
            grp.getgrnam(name)
        except KeyError:
            yield Finding(True, f"no {name!r} group on this machine (not a Pi)", optional=True)
            continue
        yield Finding(
            name in mine or os.geteuid() == 0,
            f"user is {'in' if name in mine else 'not in'} the {name} group",
            f"`sudo usermod -aG {name} $USER` and log in again" if on_pi else "",
            optional=not on_pi,
        )


def check_disk(data_dir: Path) -> Iterator[Finding]:
    probe = data_dir if data_dir.exists() else data_dir.parent
    while not probe.exists():
        probe = probe.parent
    free = shutil.disk_usage(probe).free
    yield Finding(
        free >= MIN_FREE_BYTES,
        f"{free // (1024 * 1024)} MB free for {data_dir}",
        "free some space: the event store needs room to write safely",
    )


def check_store(data_dir: Path) -> Iterator[Finding]:
    path = data_dir / "companion.sqlite3"
    if not path.exists():
        yield Finding(True, f"no games stored yet ({path} will be created)")
        return
    try:
        store = Store(path)
        stats = store.stats()
        store.close()
        yield Finding(
            True,
            f"{stats['games']} games, {stats['events']} events stored (schema {stats['schema']})",
        )
    except StoreError as error:
        yield Finding(False, str(error), "move the file away; the companion starts a fresh one")


def check_calibration(data_dir: Path) -> Iterator[Finding]:
    path = data_dir / "calibration.json"
    if not path.exists():
        yield Finding(
            False,
            "no board calibration yet",
            "print the marker sheets (`companion calibrate markers DIR`) and calibrate from "
            "the tablet page; until then, enter dice and positions by hand",
            optional=True,
        )
        return
    from calibration.geometry import load_calibration

    try:
        load_calibration(path)
        yield Finding(True, f"calibration found at {path}")
    except ValueError as error:
        yield Finding(False, str(error), "calibrate again from the tablet page", optional=True)


def check_https(data_dir: Path) -> Iterator[Finding]:
    """The table's own certificate authority and the page's certificate (HTTPS is optional)."""
    authority, cert = data_dir / "tls-ca.pem", data_dir / "tls-cert.pem"
    if not authority.exists():
        yield Finding(
            False,
            "https: not set up (plain http works; tablets may let the screen sleep)",
            "start with `companion run --https-port 8443` once, then install /ca.crt on "
            "each tablet (the page's *Trust this table* steps)",
            optional=True,
        )
        return
    openssl = shutil.which("openssl")
    if openssl is None or not cert.exists():
        yield Finding(True, f"https: certificate authority at {authority}")
        return
    found = subprocess.run(
        [openssl, "verify", "-CAfile", str(authority), str(cert)],
        capture_output=True,
        text=True,
        check=False,
    )
    fresh = subprocess.run(
        [openssl, "x509", "-in", str(cert), "-noout", "-checkend", str(30 * 24 * 3600)],
        capture_output=True,
        check=False,
    )
    yield Finding(
        found.returncode == 0 and fresh.returncode == 0,
        "https: the page's certificate is signed by the table's authority"
        + ("" if fresh.returncode == 0 else " but expires within 30 days"),
        "restart the companion: it renews the page's certificate at start",
    )
    limits = subprocess.run(
        [openssl, "x509", "-in", str(authority), "-noout", "-ext", "nameConstraints"],
        capture_output=True,
        text=True,
        check=False,
    )
    if "Name Constraints" not in limits.stdout:
        yield Finding(
            False,
            "https: the table's authority has no name constraints (made by an older release): "
            "a copy of its key could sign for any site the tablets visit",
            f"delete tls-ca.pem, tls-ca-key.pem and tls-cert.pem from {data_dir}, restart, "
            "and install the new /ca.crt on each tablet",
            optional=True,
        )


def check_voice() -> Iterator[Finding]:
    """Spoken cues are optional: a missing espeak-ng or speaker is a warning in one line."""
    from hardware.voice import voice_problem

    problem = voice_problem()
    if problem is None:
        yield Finding(True, "voice: espeak-ng and a speaker found ([voice] enabled = true)")
    else:
        yield Finding(False, f"voice: {problem}", optional=True)


def check_event_broker(mqtt: MqttConfig | None, data_dir: Path | None = None) -> Iterator[Finding]:
    """With [mqtt], the event's broker answers and accepts this table's login (before the
    evening, not at the first game nobody sees on the board), and no other table there
    holds or asked for this table's name."""
    if mqtt is None or not mqtt.enabled:
        return
    try:
        board = BoardClient(Broker.from_config(mqtt), mqtt.prefix)
        board.start()
        try:
            board.wait_caught_up(timeout=5.0)
            tables = board.board.tables()
        finally:
            board.stop()
    except CompanionError as error:
        yield Finding(False, f"event board: {error}")
        return
    name = mqtt.table or default_table_name()
    clash = name_check(tables, name, _table_origin(data_dir), board.broker.address)
    if clash:
        yield Finding(False, f"event board: {clash}")
        return
    yield Finding(
        True,
        f"event board: the broker at {mqtt.host} accepts this table as {name!r} "
        f"({len(tables)} tables on it)",
    )


def check_power(read: Callable[[], int | None] = read_throttled) -> Iterator[Finding]:
    """Under-voltage and throttling as the firmware saw them: warnings, since the table
    still works, slower (``read`` stands in for the firmware in tests)."""
    for report in describe(read()):
        yield Finding(report.ok, report.what, report.fix, optional=True)


def _table_origin(data_dir: Path | None) -> str | None:
    """The id this data folder's table publishes with (None: it never ran here)."""
    database = None if data_dir is None else data_dir / "companion.sqlite3"
    if database is None or not database.exists():
        return None
    try:
        with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
            row = db.execute("SELECT value FROM settings WHERE key = 'table_origin'").fetchone()
    except sqlite3.Error:
        return None
    return None if row is None else str(row[0])


def run_checks(
    data_dir: Path,
    open_camera: bool,
    camera_source: str = "auto",
    lan_name: str = "hamster-table",
    mqtt: MqttConfig | None = None,
) -> list[Finding]:
    checks: list[Callable[[], Iterator[Finding]]] = [
        lambda: iter(
            [
                Finding(
                    sys.version_info >= (3, 11),
                    f"Python {sys.version.split()[0]}",
                    "install Python 3.11 or newer",
                )
            ]
        ),
        check_numpy_opencv,
        lambda: check_camera(open_camera),
        lambda: check_cameras(camera_source),
        lambda: check_lan_name(lan_name),
        check_pins,
        check_power,
        check_groups,
        lambda: check_disk(data_dir),
        lambda: check_store(data_dir),
        lambda: check_calibration(data_dir),
        lambda: check_https(data_dir),
        check_voice,
        lambda: check_event_broker(mqtt, data_dir),
    ]
    findings: list[Finding] = []
    for check in checks:
        findings.extend(check())
    return findings


@click.command()
@click.option("--open-camera", is_flag=True, help="Also open the camera (stop the service first).")
@click.pass_obj
def doctor(obj: object, open_camera: bool) -> None:
    """Check this machine: camera, numpy/OpenCV, GPIO, groups, disk, calibration."""
    config = getattr(obj, "config", None)
    data_dir = getattr(config, "data_dir", Path.home())
    source = getattr(getattr(config, "camera", None), "source", "auto")
    lan_name = getattr(getattr(config, "web", None), "lan_name", "hamster-table")
    mqtt = getattr(config, "mqtt", None)
    failed = 0
    for finding in run_checks(Path(data_dir), open_camera, source, lan_name, mqtt):
        mark = "ok  " if finding.ok else ("warn" if finding.optional else "FAIL")
        click.echo(f"[{mark}] {finding.what}")
        if not finding.ok and finding.fix:
            click.echo(f"       fix: {finding.fix}")
        failed += not finding.ok and not finding.optional
    click.echo("All checks passed." if not failed else f"{failed} problem(s) to fix.")
    sys.exit(1 if failed else 0)
