"""``companion run``: the composition root that builds the table, devices, watchers and page.

Why one module: every other part takes what it needs as an argument and knows nothing of
the rest (the web app takes the table and two small callables, watchers take the table and
frames, buttons take a submit function). Only here are the real pieces chosen and wired:
the store, the table, the buttons (or their twin), the camera (or its twin), the camera
watchers, the lights and buzzer following the game's cues, and the page (``web.asgi``).
It is the only module that imports both ``web`` and ``hardware``; it adds ``run`` and
``pin`` to the ``companion`` command (``companion.commands``), so no other command loads the
page or the devices.

Real devices are used when found (gpiozero pins, a camera); each one that falls back to
its simulated twin says why in one line.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import shutil
import signal
import socket
import sqlite3
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from companion import logs
from companion.advertise import LanName, remember, remembered
from companion.commands.group import EXPECTED, fail
from companion.commands.tree import main as commands
from companion.config import RUN_CONFIG, BackupConfig, Config, load_config
from companion.data_lock import hold_data_folder
from companion.demo_table import DEMO_NOTE, DemoPlayer
from companion.engine.camera import dice_wanted, watched
from companion.engine.readings import BELT
from companion.errors import CompanionError
from companion.history import purge_expired, summarize
from companion.joining import page_url, tablet_url, terminal_qr
from companion.listeners import GAME_OVER_CUE
from companion.mqtt.board import BoardClient
from companion.mqtt.connect import Broker
from companion.mqtt.export import board_export
from companion.mqtt.publisher import TablePublisher
from companion.mqtt.topics import Topics, default_table_name
from companion.network import NetworkWatch, machine_addresses
from companion.store import AccessStore, Store, StoreDamagedError, move_aside
from companion.table import Table
from hardware.power_watch import power_lines
from web import MAX_REQUEST_BYTES, create_app
from web.asgi import (
    AllowedHosts,
    ASGIApp,
    Listen,
    ServerConfig,
    companion_app,
    edge,
    live_streams,
    machine_names,
    secure,
    server_config,
)
from web.asgi import run as run_server
from web.auth import generate_pin
from web.live import LiveStreams
from web.systemd_notify import notify, watch_the_service
from web.tls import (
    CertificateFollower,
    TlsError,
    authority_certificate,
    ensure_certificate,
    export_authority_key,
    fingerprint,
)

if TYPE_CHECKING:
    from flask import Flask

    from companion.watch.rig import CameraRig
    from hardware.camera import CameraSettings
    from hardware.camera_choice import CameraChoice

log = logging.getLogger("companion")

# The camera: the same picture for this long means a frozen pipeline (hardware/camera.py
# FreezeCheck); no new picture at all for this long means the reader hung in the driver.
FROZEN_AFTER = 10.0
STALE_AFTER = 15.0
HOUR = 3600.0
DAY = 24 * HOUR


def table_pin(config: Config, store: Store) -> str:
    """The configured PIN, else the one generated at first start and kept in the store."""
    if config.web.pin:
        return config.web.pin
    access = AccessStore(store)
    pin = access.kept_pin()
    if pin is None:
        pin = generate_pin()
        access.keep_pin(pin)
    return pin


def remember_config(store: Store, config_file: str | None) -> None:
    """Keep which config file the table runs with, so a command given without --config
    (``companion pin``, ``history delete``) finds the PIN set there, as the page does."""
    kept = str(Path(config_file).resolve()) if config_file else ""
    with contextlib.suppress(CompanionError, sqlite3.Error):  # a full card: not worth a stop
        store.set_setting(RUN_CONFIG, kept)


def start_buttons(config: Config, table: Table, simulate: bool) -> tuple[Any | None, str]:
    """gpiozero buttons on the configured pins (MockFactory twin when no GPIO is found)."""
    from hardware.buttons import TableButtons
    from hardware.pins import choose_pin_factory

    factory, reason = choose_pin_factory(simulate=simulate, work_dir=config.data_dir)
    try:
        buttons = TableButtons(
            config.buttons, lambda name: _press(table, name), pin_factory=factory
        )
        table.on_cues(buttons.cue)
    except (ValueError, OSError, RuntimeError) as error:
        return None, f"buttons off: {error}"
    except Exception as error:  # e.g. lgpio.error('GPIO busy'), an Exception of its own
        # Buttons are one device among several: pins another program holds must leave the
        # table running on the page and keyboard, not stop the start with a traceback.
        return None, (
            f"buttons off: the GPIO pins could not be claimed ({error}); if another program "
            "holds them (the service: sudo systemctl stop companion), stop it and start again"
        )
    return buttons, reason


def start_voice(config: Config, table: Table, wanted: bool) -> tuple[Any | None, str]:
    """espeak-ng saying each change's sentence (``Table.on_speech``), if asked for and able.

    Off by default; a missing espeak-ng or speaker is the one-line status, never an error
    (the tablet's own speech can stand in).
    """
    if not (wanted or config.voice.enabled):
        return None, "off (turn on with [voice] enabled = true or companion run --voice)"
    from hardware.voice import Speaker, voice_problem

    problem = voice_problem()
    if problem is not None:
        return None, problem
    speaker = Speaker(voice=config.voice.voice, speed=config.voice.speed)
    table.on_speech(speaker.say)
    return speaker, f"espeak-ng ({config.voice.voice}, {config.voice.speed} words a minute)"


def start_mqtt(
    config: Config, table: Table, demo: bool = False
) -> tuple[TablePublisher | None, str]:
    """This table on the event's broker (``[mqtt]``), publishing on threads of its own.

    Never fails the start: a broker that is not there yet is waited for in the background
    (the game goes on), and the status line says so.
    """
    settings = config.mqtt
    if not settings.enabled:
        return None, "off (set host in [mqtt] to show this table on an event board)"
    topics = Topics(settings.prefix, settings.table or default_table_name())
    publisher = TablePublisher(table, Broker.from_config(settings), topics, demo=demo)
    publisher.start()
    return publisher, f"{topics.of('…')} on {publisher.broker.address}"


def start_event_board(config: Config) -> BoardClient | None:
    """The whole event's board for this Pi's ``/board`` page, when it is on a broker."""
    if not config.mqtt.enabled:
        return None
    client = BoardClient(Broker.from_config(config.mqtt), config.mqtt.prefix)
    client.start()  # in the background: the page shows whatever has arrived
    return client


def start_keyboard(table: Table) -> str:
    """Keys in the terminal stand in for the buttons: n next, b undo, r redo, space read."""
    if not sys.stdin.isatty():
        return "off (not a terminal)"
    from hardware.keyboard import intent_for_key, terminal_keys

    def read_keys() -> None:
        for key in terminal_keys():
            intent = intent_for_key(key)
            if intent is not None:
                table.submit_intent(intent, source="keyboard").add_done_callback(_report)

    threading.Thread(target=read_keys, name="keyboard", daemon=True).start()
    return "n = NEXT, b = BACK (undo), r = redo, space = READ"


class LateCamera:
    """The camera rig, started on a thread of its own once the page is served.

    Why: the camera brings OpenCV, numpy and the dice networks, and starting it took most
    of `companion run`'s time to its first page; the page needs none of it to show the
    game. Until the rig is up the camera line says it is starting and there is no picture
    (404, as for a camera still warming up). Stands in for the rig as the page's camera
    view (``web.context.CameraView``) and its exposure lock.
    """

    def __init__(self, begin: Callable[[], tuple[CameraRig | None, str]]) -> None:
        self._begin = begin
        self.rig: CameraRig | None = None
        self.line = "camera starting (once the page is served)"
        self._stopped = False
        self._lock = threading.Lock()

    def start(self) -> None:
        """On the server's loop once it serves: start the camera on a thread of its own."""
        threading.Thread(target=self._run, name="camera-start", daemon=True).start()

    def _run(self) -> None:
        try:
            rig, line = self._begin()
        except Exception:  # a bug: logged, and the page works on without a camera
            log.exception("the camera could not be started")
            rig, line = None, "camera failed to start (see the log): enter dice on the page"
        with self._lock:
            self.rig, self.line = rig, line
            if self._stopped and rig is not None:  # stopped while it was starting
                rig.stop()
        click.echo(f"  camera: {line}")

    @property
    def status(self) -> str:
        rig = self.rig
        return rig.status if rig is not None else self.line

    def lines(self) -> dict[str, str]:
        rig = self.rig
        return rig.lines() if rig is not None else {}

    def latest_frame(self) -> Any | None:
        rig = self.rig
        return rig.latest_frame() if rig is not None else None

    def jpeg(self, width: int = 640) -> bytes | None:
        rig = self.rig
        return rig.jpeg(width) if rig is not None else None

    def offline(self) -> str | None:
        rig = self.rig
        return rig.offline() if rig is not None else None

    def lock_exposure(self) -> dict[str, Any] | None:
        rig = self.rig
        return rig.lock_exposure() if rig is not None else None

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            rig = self.rig
        if rig is not None:
            rig.stop()


def start_camera(
    config: Config,
    table: Table,
    simulate: bool,
    on_pi: bool | None = None,
    choose: Callable[[], CameraChoice] | None = None,
) -> tuple[CameraRig | None, str]:
    """The camera (``hardware.camera_source``) delivering frames to the camera rig, which
    runs the watchers the game in play declares (``companion.watch.rig``).

    Wherever the simulated camera runs, the belt check watches a simulated belt of its own
    (the dice twin's frames show no belt), so a laptop shows it working too.
    """
    from calibration.watched import WatchedCalibration
    from companion.watch.rig import build_rig
    from hardware.camera import CameraSupervisor, OpenCVSource, Picamera2Source, SimulatedSource
    from hardware.camera_source import open_source
    from hardware.table_twin import TableTwin

    source, why = open_source(
        config.camera,
        simulate=simulate,
        twin=TableTwin(table_now(table)),
        twin_name="simulated camera (dice and wheel twins)",
        settings=lambda: locked_settings(config),
        on_pi=on_pi,
        choose=choose,
        data_dir=config.data_dir,  # where a webcam's calibration lock is kept
    )
    if source is None:
        return None, why
    demo = isinstance(source, SimulatedSource)
    belt_file = demo_belt_file(config) if demo else config.calibration_file
    rig = build_rig(config, table, demo=demo, belt_calibration=WatchedCalibration(belt_file))
    real = isinstance(source, (Picamera2Source, OpenCVSource))
    supervisor = CameraSupervisor(
        source,
        rig.deliver,
        # A real sensor's picture always changes a little: the same one for this long is a
        # frozen pipeline (files and the simulator may repeat a picture on purpose).
        frozen_after=FROZEN_AFTER if real else None,
        stale_after=STALE_AFTER,
    )
    status = f"{source.name}: dice read after {config.camera.stable_frames} steady frames"
    rig.attach(supervisor, f"{status}. {rig.note}" if rig.note else status)
    if demo and BELT in rig.watchers:
        rig.add_device(BELT, demo_belt(table, rig))
    rig.start()
    return rig, rig.status_line


def table_now(table: Table) -> Callable[[], Any]:
    """What the table twin draws, as plain data: the kinds the game in play reads with the
    camera, the dice it waits for, its public view, and which game and moment it is."""
    from hardware.table_twin import Table as OnTheTable

    def look() -> OnTheTable:
        snap = table.snapshot
        if snap.state is None:
            return OnTheTable()
        return OnTheTable(
            kinds=watched(snap.spec),
            dice=dice_wanted(snap.spec, snap.state),
            view=table.public_state(with_log=False)["view"],
            game=snap.game_id,
            moment=table.current_stamp(),
        )

    return look


def demo_belt_file(config: Config) -> Path:
    """The belt twin's calibration, made as a player makes one, in a demo folder of its own
    (never over the players' calibration file)."""
    from calibration.geometry import calibrate_board, save_calibration
    from hardware.demo_board import CALIBRATION_CELLS, BeltCamera, demo_calibration_path

    path = demo_calibration_path(config.data_dir)
    try:
        save_calibration(calibrate_board(BeltCamera().calibration_frame, CALIBRATION_CELLS), path)
    except OSError as error:  # the watcher's status then says the calibration is missing
        log.warning("simulated belt camera: cannot save its calibration: %s", error)
    return path


def demo_belt(table: Table, rig: CameraRig) -> Any:
    """The belt twin: draws the game's belt and hands each picture to the belt watcher."""
    from hardware.demo_board import DemoBelt

    def view() -> dict[str, Any] | None:
        if BELT not in watched(table.snapshot.spec):
            return None
        view: dict[str, Any] = table.public_state(with_log=False)["view"]
        return view

    return DemoBelt(view, table.current_stamp, rig.feed(BELT))


def lan_name_for(config: Config, host: str, port: int) -> tuple[LanName | None, str]:
    """The LAN name to claim once the page is served, or None and the line saying why not."""
    if host.startswith("127.") or host in ("localhost", "::1"):
        return None, f"  {config.web.lan_name or 'LAN name'}: off (listening on {host} only)"
    if not config.web.lan_name:
        return None, "  LAN name: off (web.lan_name is empty)"
    return LanName(config.web.lan_name, port), ""


def claim(lan: LanName, host: str, addresses: Iterable[str] | None = None) -> str:
    """Ask the LAN who has the name (~2 s) and announce the free one; the console line.
    The name goes at the first of ``addresses``, the machine's, when the page listens on
    all of them, else at ``host``."""
    if host not in ("0.0.0.0", "::", ""):
        addresses = [host]
    line = lan.follow(machine_addresses() if addresses is None else addresses)
    line = line or f"{lan.wanted}.local: off (no network address yet)"
    return ("" if lan.advert is not None else "  ") + line


def announce(
    config: Config, host: str, port: int, addresses: Iterable[str] | None = None
) -> tuple[LanName | None, str]:
    """The page as ``http://hamster-table.local:PORT/`` on the LAN, when it listens there
    (at the first of ``addresses``, the machine's, when it listens on all of them)."""
    lan, off = lan_name_for(config, host, port)
    return (lan, claim(lan, host, addresses)) if lan is not None else (None, off)


@dataclass
class LateLanName:
    """The LAN name claimed once the page is served. Asking the LAN who has NAME.local
    takes ~2 s, which the first page must not wait for (issue 28); until the answer the
    page works by address. Once the name is known the Host check, the certificate (with
    HTTPS), the console, the note for ``companion pin`` and the network watch follow it."""

    lan: LanName
    host: str
    network: NetworkWatch
    hosts: AllowedHosts | None
    certificate: CertificateFollower | None
    folder: Path

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self.claim, name="lan-name", daemon=True)
        thread.start()
        return thread

    def claim(self) -> None:
        line = claim(self.lan, self.host, self.network.addresses)
        if self.lan.advert is not None:
            self._answer_to(self.lan.name)
        click.secho(line, bold=self.lan.advert is not None)
        remember(self.folder, self.lan)
        if self.host in ("0.0.0.0", "::", ""):
            follow_the_network(self.network, None, self.lan, None, self.folder)

    def _answer_to(self, name: str) -> None:
        """The page answers to the name it got (``NAME-2`` after a clash), over HTTPS too."""
        if self.hosts is not None:
            self.hosts.allow(f"{name}.local")
        if self.certificate is not None and name != self.certificate.lan_name:
            self.certificate.lan_name = name
            self.certificate(self.network.addresses)


def follow_the_network(
    network: NetworkWatch,
    hosts: AllowedHosts | None,
    lan: LanName | None,
    certificate: CertificateFollower | None,
    folder: Path,
) -> None:
    """What follows the machine's addresses when they change, in this order: the names
    the page answers to, the certificate naming them, then the LAN name's record (and
    the note of it in ``folder`` that ``companion pin`` reads)."""
    if hosts is not None:
        network.on_change(hosts.follow)
    if certificate is not None:
        network.on_change(certificate)
    if lan is not None:
        network.on_change(lan.follow)
        network.on_change(lambda _: remember(folder, lan))  # for `companion pin`


def locked_settings(config: Config) -> CameraSettings:
    """The Pi camera's settings: the configured size, and the exposure, white balance and
    focus the camera chose at calibration (saved with it), held from the first frame.

    Without a calibration, or one whose values were never read from a camera, the camera
    stays on automatic.
    """
    from calibration.geometry import CalibrationError, load_calibration
    from hardware.camera import CameraSettings

    size = (config.camera.width, config.camera.height)
    try:
        saved = load_calibration(config.calibration_file).camera
    except CalibrationError:
        return CameraSettings(size=size)
    if not saved.measured:
        return CameraSettings(size=size)
    return CameraSettings(
        size=size,
        exposure_time_us=saved.exposure_time_us,
        analogue_gain=saved.analogue_gain if saved.analogue_gain is not None else 1.0,
        colour_gains=saved.colour_gains,
        lens_position=saved.lens_position,
    )


def light_mode(state: dict[str, Any]) -> str:
    """Off when the game is over; steady while something waits for a person; else blink."""
    if state.get("over"):
        return "off"
    camera = state.get("camera") or {}
    disagrees = any(note.get("status") == "differ" for note in camera.values())
    return "steady" if state.get("pending") or disagrees else "blink"


def follow_with_lights(table: Table, buttons: Any, stop: threading.Event) -> threading.Thread:
    """The LED follows the game: blink while the table must act, steady while something
    waits for a person. Runs on its own subscription so the worker never waits for it; the
    buzzer's sounds come from the game's cues (``Table.on_cues``)."""
    subscription = table.subscribe(table.public_state(with_log=False).get("seq") or 0)

    def follow() -> None:
        while not stop.is_set():
            event = subscription.get(timeout=1.0)
            if event is None:
                if subscription.ended:
                    return
                continue
            buttons.set_light(light_mode(table.public_state(with_log=False)))

    thread = threading.Thread(target=follow, name="lights", daemon=True)
    thread.start()
    return thread


def _press(table: Table, intent: str) -> None:
    """A button press only enqueues; a refusal is printed, never raised on gpiozero's thread."""
    table.submit_intent(intent, source="button").add_done_callback(_report)


def _report(future: Any) -> None:
    error = future.exception()
    if error is not None:
        click.secho(str(error), fg="red")


def open_store(config: Config, *, fresh: bool = False) -> tuple[Store, str | None]:
    """The games file, or (damaged) an empty stand-in and the sentence saying what to do.

    A damaged file is kept exactly as it is: the page still starts, shows the sentence and
    refuses to write, until the players restore a backup or ask for a fresh file
    (``--fresh`` moves the damaged one aside, never deletes it).
    """
    if fresh:
        kept = move_aside(config.database, "set-aside")
        if kept is not None:
            click.echo(f"  the previous games file was kept as {kept}")
    try:
        return Store(config.database), None
    except StoreDamagedError as error:
        return Store(":memory:"), str(error)


class Backups:
    """A consistent copy of the games file at every game's end and once a day."""

    def __init__(self, store: Store, config: BackupConfig) -> None:
        self.store = store
        self.keep = config.keep

    def after_cues(self, cues: tuple[str, ...]) -> None:
        """On the table's worker: a finished game is backed up (on a thread of its own)."""
        if GAME_OVER_CUE in cues:
            threading.Thread(target=self.make, name="backup", daemon=True).start()

    def make(self) -> None:
        try:
            made = self.store.backup(self.keep)
        except CompanionError as error:
            click.secho(f"  backup: {error}", fg="yellow")
        else:
            log.info("backup: %s", made)

    def daily(self, stop: threading.Event) -> threading.Thread:
        def run() -> None:
            while True:
                age = self.store.last_backup_age()
                if age is None or age >= DAY:
                    self.make()
                if stop.wait(HOUR):
                    return

        thread = threading.Thread(target=run, name="daily-backup", daemon=True)
        thread.start()
        return thread


def summary_at_the_end(store: Store, table: Table) -> Callable[[tuple[str, ...]], None]:
    """A cue listener that summarises a game for the history as it ends (on a thread of
    its own), so the History page never has to replay it."""

    def listen(cues: tuple[str, ...]) -> None:
        game_id = table.game_id
        if GAME_OVER_CUE not in cues or game_id is None:
            return

        def keep() -> None:
            try:
                summarize(store, store.game(game_id))
            except Exception:  # the history replays it later instead
                log.exception("history: game %s was not summarised at its end", game_id)

        threading.Thread(target=keep, name="history-summary", daemon=True).start()

    return listen


def https_listen(
    config: Config, host: str, port: int, https_port: int | None, lan_name: str | None = None
) -> tuple[Listen, str]:
    """Where to listen, with HTTPS beside HTTP when asked (needed for the Screen Wake Lock).

    The certificate is made once on the Pi with ``openssl``; without it, HTTPS is off and
    the second value says why in one line.
    """
    wanted = https_port if https_port is not None else config.web.https_port
    if not wanted:
        return Listen(host, port), ""
    try:
        names = config.web.lan_name if lan_name is None else lan_name
        cert, key = ensure_certificate(config.data_dir, lan_name=names)
    except TlsError as error:
        return Listen(host, port), f"https: off ({error})"
    return Listen(host, port, wanted, cert, key), ""


def check_ports(host: str, ports: Iterable[int]) -> None:
    """Raise the OSError that serving would, before anything starts or is printed.

    Why: the page's port is opened last, after the banner with the address and PIN, so
    a port in use (a companion already running) read as a started companion followed
    by an error. Binding a probe first says it at once;
    the real server still reports the rare port taken in between.
    """
    for port in ports:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as hypercorn does
            probe.bind((host, port))


def serve(
    config: Config,
    *,
    simulate: bool,
    host: str | None,
    port: int | None,
    https_port: int | None = None,
    fresh: bool = False,
    voice: bool = False,
    demo_pace: float | None = None,
    config_file: str | None = None,
) -> None:
    """Claim the data folder and check the ports, then build everything and serve until
    SIGTERM or Ctrl-C, then stop every part cleanly."""
    folder = hold_data_folder(config.data_dir)
    try:
        host = host or config.web.host
        port = port or config.web.port
        wanted = https_port if https_port is not None else config.web.https_port
        check_ports(host, [port, wanted] if wanted else [port])
        _serve(
            config,
            simulate=simulate,
            host=host,
            port=port,
            https_port=https_port,
            fresh=fresh,
            voice=voice,
            demo_pace=demo_pace,
            config_file=config_file,
        )
    finally:
        if folder is not None:
            folder.close()


def _serve(
    config: Config,
    *,
    simulate: bool,
    host: str,
    port: int,
    https_port: int | None,
    fresh: bool,
    voice: bool,
    demo_pace: float | None = None,
    config_file: str | None = None,
) -> None:
    games = open_games(config, fresh=fresh, config_file=config_file)
    table = games.table
    devices = start_devices(config, table, simulate=simulate, voice=voice, demo_pace=demo_pace)
    app = build_app(config, games, devices)
    streams = live_streams(app, cap=config.web.max_streams)
    network = NetworkWatch()
    devices.lan, lan_off = lan_name_for(config, host, port)
    listen, https_note = https_listen(config, host, port, https_port)
    http = server_config(listen, max_body=MAX_REQUEST_BYTES)
    app.config["LAN_NAME_NOTE"] = devices.lan.page_note if devices.lan is not None else None
    remember(config.data_dir, None)  # a name left by a companion that did not stop cleanly
    print_banner(config, host, port, games, devices, listen, https_note or "", lan_off)
    hosts = allowed_hosts(config, network)
    asgi = edge(secure(companion_app(app, streams, threads=config.web.threads), listen), hosts)
    lights_stop = threading.Event()
    renew = CertificateFollower(config.data_dir, config.web.lan_name, http.reload_certificate)
    certificate = renew if listen.https_port else None
    follow_the_network(network, hosts, None, certificate, config.data_dir)
    network.start(lights_stop)
    if devices.demo is not None:
        devices.demo.start()
    if config.backups.daily and games.damaged is None:
        games.backups.daily(lights_stop)

    def served() -> None:
        devices.camera.start()
        if devices.lan is not None:
            LateLanName(devices.lan, host, network, hosts, certificate, config.data_dir).start()

    buttons = devices.buttons
    try:
        asyncio.run(_serve_until_signal(asgi, http, streams, table, lights_stop, buttons, served))
    finally:
        lights_stop.set()
        notify("STOPPING=1")
        devices.close(config.data_dir)
        games.close()


@dataclass
class Games:
    """The games file and the table playing on it, with the PIN that guards its page."""

    store: Store
    table: Table
    pin: str
    backups: Backups
    damaged: str | None  # the sentence saying what to do with a damaged games file

    def close(self) -> None:
        """After every device: the table's worker ends, then the file is folded and shut."""
        self.table.close()
        self.store.close()


def open_games(config: Config, *, fresh: bool, config_file: str | None) -> Games:
    """The games file, the table resumed on it (or a new game), and its cue listeners."""
    store, damaged = open_store(config, fresh=fresh)
    if damaged is None:
        with contextlib.suppress(CompanionError):  # a full card: purged another time
            purge_expired(store)
    table = Table(store, config.game, refuse_writes=damaged)
    if table.game_id is None and table.resume_error is None:
        table.new_game()
    pin = table_pin(config, store)
    remember_config(store, config_file)
    backups = Backups(store, config.backups)
    table.on_cues(backups.after_cues)
    table.on_cues(summary_at_the_end(store, table))
    return Games(store, table, pin, backups, damaged)


@dataclass
class Devices:
    """The parts started around the table, each with the line the page shows about it,
    and one :meth:`close` that stops them in the right order."""

    buttons: Any | None
    button_status: str
    keyboard_status: str
    speaker: Any | None
    voice_status: str
    publisher: TablePublisher | None
    mqtt_status: str
    demo: DemoPlayer | None
    event_board: BoardClient | None
    camera: LateCamera
    lan: LanName | None = None  # claimed once the page is served

    def status(self) -> dict[str, str]:
        """Each device's line for the page and the console, then any banner notice."""
        publisher = self.publisher
        return {
            "buttons": self.button_status,
            "camera": self.camera.status,
            "keyboard": self.keyboard_status,
            "voice": self.voice_status,
            "event board": publisher.status if publisher is not None else self.mqtt_status,
            **self.camera.lines(),
            **power_lines(),  # the firmware's under-voltage / throttling flags
            **notice(self.demo is not None, publisher),
        }

    def close(self, folder: Path) -> None:
        """Stop every part; ``folder`` loses the LAN name note ``companion pin`` reads."""
        if self.demo is not None:
            self.demo.stop()
        # The broker is left alongside the rest (each MQTT stop waits 1 s at most, whatever
        # the broker does), so SIGTERM ends well within systemd's patience.
        leaving = threading.Thread(target=leave_broker, args=(self.event_board, self.publisher))
        leaving.start()
        if self.lan is not None:
            self.lan.close()
            remember(folder, None)
        if self.buttons is not None:
            self.buttons.set_light("off")
            self.buttons.close()
        self.camera.stop()
        if self.speaker is not None:
            self.speaker.close()
        leaving.join()


def start_devices(
    config: Config, table: Table, *, simulate: bool, voice: bool, demo_pace: float | None
) -> Devices:
    """Buttons, keyboard, voice, the event's broker and the demo bot; the camera is only
    prepared here (it starts once the page is served)."""
    buttons, button_status = start_buttons(config, table, simulate)
    keyboard_status = start_keyboard(table)
    speaker, voice_status = start_voice(config, table, voice)
    publisher, mqtt_status = start_mqtt(config, table, demo=demo_pace is not None)
    demo = None if demo_pace is None else DemoPlayer(table, demo_pace)
    event_board = start_event_board(config)
    camera = LateCamera(lambda: start_camera(config, table, simulate))
    return Devices(
        buttons,
        button_status,
        keyboard_status,
        speaker,
        voice_status,
        publisher,
        mqtt_status,
        demo,
        event_board,
        camera,
    )


def build_app(config: Config, games: Games, devices: Devices) -> Flask:
    """The page's Flask app over the table, its devices and the event board."""
    board, camera = devices.event_board, devices.camera
    return create_app(
        games.table,
        games.pin,
        device_status=devices.status,
        camera=camera,
        data_dir=config.data_dir,
        lock_camera=camera.lock_exposure,
        token_hours=config.web.token_hours,
        event_board=None if board is None else board.json,
        event_export=None if board is None else partial(board_export, board.board),
        access=AccessStore(games.store),
    )


def print_banner(
    config: Config,
    host: str,
    port: int,
    games: Games,
    devices: Devices,
    listen: Listen,
    https_note: str,
    lan_off: str,
) -> None:
    """The start-up lines: the page's address and PIN (and QR on a terminal), HTTPS, the
    LAN name when it is off, each device, and where the games are kept."""
    # The journal keeps every start for months: the PIN is shown by `companion pin` instead.
    shown = "shown by `companion pin`" if logs.under_journal() else games.pin
    url = tablet_url(host, port, listen.https_port)
    click.secho(f"Tablet page: {url}   table PIN: {shown}", bold=True)
    if sys.stdout.isatty():  # a tablet's camera opens the page from this
        click.echo(terminal_qr(url))
    if listen.https_port:
        click.echo(f"  first trust the table's certificate: {page_url(host, port)}ca.crt")
    elif https_note:
        click.secho(f"  {https_note}", fg="yellow")
    if devices.lan is None:
        click.secho(lan_off)
    for name, status in devices.status().items():
        click.echo(f"  {name}: {status}")
    click.echo(f"  games are stored in {config.database}")
    if games.damaged:
        click.secho(f"  {games.damaged}", fg="red")


def allowed_hosts(config: Config, network: NetworkWatch) -> AllowedHosts | None:
    """The Host names the page answers to (None: any, ``web.any_host``); the LAN name
    after a clash (``NAME-2``) is added once it is known."""
    if config.web.any_host:
        return None
    named = {f"{config.web.lan_name}.local"} if config.web.lan_name else set()
    return AllowedHosts(machine_names() | set(config.web.hosts) | named, network.addresses)


def notice(demo: bool, publisher: TablePublisher | None) -> dict[str, str]:
    """The banner at the top of the table's page, when there is one: a demo table, a name
    another table holds (the page is where the players look, not the log)."""
    notes = [DEMO_NOTE] if demo else []
    if publisher is not None and publisher.clash:
        notes.append(f"Event board: {publisher.clash}.")
    return {"notice": " ".join(notes)} if notes else {}


def leave_broker(board: BoardClient | None, publisher: TablePublisher | None) -> None:
    """Leave the event's broker: the board hears "offline" now rather than at the keepalive."""
    if board is not None:
        board.stop(timeout=0.2)
    if publisher is not None:
        publisher.stop()


async def _serve_until_signal(
    app: ASGIApp,
    http: ServerConfig,
    streams: LiveStreams,
    table: Table,
    lights_stop: threading.Event,
    buttons: Any,
    then: Callable[[], None] = lambda: None,
) -> None:
    """Serve until SIGTERM (``systemctl stop``) or SIGINT; streams end first, then the rest.
    ``then`` runs once the page is served (the camera starts there)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()

    def stopping() -> None:
        streams.close()  # open pages hear "end" at once instead of holding the shutdown
        stop.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopping)

    def ready() -> None:
        notify("READY=1")
        watch_the_service(table.responsive, lights_stop)
        if buttons is not None:
            follow_with_lights(table, buttons, lights_stop)
        then()

    await run_server(app, http, stop, ready)


@click.command()
@click.option("--simulate", is_flag=True, help="Use every device's simulated twin.")
@click.option("--host", default=None, help="Address to serve the page on (default from config).")
@click.option(
    "--port", type=click.IntRange(1, 65535), default=None, help="Port for the page (default 8080)."
)
@click.option(
    "--https-port",
    type=click.IntRange(1, 65535),
    default=None,
    help="Also serve HTTPS here (e.g. 8443).",
)
@click.option("--fresh", is_flag=True, help="Move the games file aside and start a new one.")
@click.option("--voice", is_flag=True, help="Say each phase and turn aloud (espeak-ng).")
@click.option(
    "--demo-table",
    "demo_table",
    is_flag=True,
    help="Let the game's own bot play this table by itself (a rehearsal or a shop window); "
    "its games stay out of the history and the event's standings.",
)
@click.option(
    "--demo-pace",
    type=click.FloatRange(min=0.05),
    default=1.0,
    show_default=True,
    help="Seconds between the demo bot's moves.",
)
@click.pass_obj
def run(
    obj: Any,
    simulate: bool,
    host: str | None,
    port: int | None,
    https_port: int | None,
    fresh: bool,
    voice: bool,
    demo_table: bool,
    demo_pace: float,
) -> None:
    """Start the companion: table runtime, buttons and the tablet page."""
    try:
        config: Config = obj.config
        logs.configure(config.log_level)
        serve(
            config,
            simulate=simulate,
            host=host,
            port=port,
            https_port=https_port,
            fresh=fresh,
            voice=voice,
            demo_pace=demo_pace if demo_table else None,
            config_file=obj.config_file,
        )
    except EXPECTED as error:
        fail(error)
    except OSError as error:
        fail(OSError(f"Cannot serve the page: {bind_problem(error)}"))


def bind_problem(error: OSError) -> str:
    """Why the page's port could not be opened, and the option that fixes it."""
    if isinstance(error, socket.gaierror):
        return f"no such host or address ({error.strerror}); check --host or web.host."
    if error.errno == errno.EADDRINUSE:
        return "the port is already in use (another companion?); try another --port."
    if error.errno == errno.EACCES:
        return "ports below 1024 need root; use a --port from 1024 up (8080 is the default)."
    if error.errno == errno.EADDRNOTAVAIL:
        return "this machine has no such address; check --host or web.host."
    return f"{error.strerror or error}; check --host and --port."


def trust_note(config: Config) -> None:
    """Where a new tablet gets the table's authority (plain HTTP serves it) and the
    fingerprint to check it against."""
    plain = page_url(config.web.host, config.web.port)
    found = authority_certificate(config.data_dir)
    check = f" (SHA-256 {fingerprint(found)})" if found is not None else ""
    click.echo(f"First trust the table's certificate: {plain}ca.crt{check}")


@click.command(name="pin")
@click.pass_obj
def pin_command(obj: Any) -> None:
    """Print the page's address, the table PIN and a QR code a tablet can scan."""
    try:
        config: Config = obj.config
        store = Store(config.database)
        try:
            used = None if obj.config_file else store.setting(RUN_CONFIG)
            started_with = load_config(used).web.pin if used else ""
            pin = started_with or table_pin(config, store)
        finally:
            store.close()
    except EXPECTED as error:
        fail(error)
    secure = config.web.https_port if shutil.which("openssl") else 0  # as `run` will
    url = tablet_url(config.web.host, config.web.port, secure)
    click.echo(f"Tablet page: {url}   table PIN: {pin}")
    if secure:
        trust_note(config)
    lan_url = remembered(config.data_dir)
    if lan_url is not None:  # the name the running companion got (NAME-2 after a clash)
        click.echo(f"Also at: {lan_url} (announced on the LAN)")
    click.echo(terminal_qr(url))


# ``companion ca``: the table's own certificate authority, for HTTPS the tablets trust.
# Here beside ``pin`` because it works on the page's TLS files (web.tls), which no command
# module may import. Why a command: the authority's key signs the page's certificate, and
# a copy of the Pi's card must not be able to sign anything else; ``export`` moves the key
# off the Pi, which then keeps serving the certificate it has and refuses to sign one for
# a new address with one sentence saying where to put the key back.
@click.group(name="ca")
def ca() -> None:
    """The table's certificate authority (HTTPS)."""


@ca.command(name="export")
@click.argument("to", type=click.Path(path_type=Path))
@click.pass_obj
def export_command(obj: Any, to: Path) -> None:
    """Move the authority's key to TO (a file or folder off the Pi) and delete it here."""
    folder = obj.config.data_dir
    where = export_authority_key(folder, to)
    click.echo(f"The authority's key is now only at {where}; keep it safe and off the Pi.")
    click.echo(
        "Certificates for new addresses are refused until it is copied back to "
        f"{folder / 'tls-ca-key.pem'} (chmod 600)."
    )


@ca.command(name="fingerprint")
@click.pass_obj
def fingerprint_command(obj: Any) -> None:
    """Print the authority's SHA-256 fingerprint, to check the one a tablet shows."""
    found = authority_certificate(obj.config.data_dir)
    if found is None:
        raise click.ClickException("HTTPS was never set up: start the companion with HTTPS on.")
    click.echo(fingerprint(found))


for command in (run, pin_command, ca):
    commands.add_command(command)

#: The whole ``companion`` command: every family's commands plus run and pin.
companion_command = commands


def main() -> None:
    """The installed ``companion`` command."""
    companion_command()
