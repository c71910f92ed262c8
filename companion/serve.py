"""``companion run``: the composition root that builds the table, devices, watchers and page.

Why one module: every other part takes what it needs as an argument and knows nothing of
the rest (the web app takes the table and two small callables, watchers take the table and
frames, buttons take a submit function). Only here are the real pieces chosen and wired:
the games file and table, the devices around it, the page (``web.asgi``) and what follows
the network. Each part is started by its own module in ``companion.startup`` (games,
buttons, voice, camera, board, lan, devices, page); this module only composes them, in
:func:`_serve`. It adds ``run``, ``pin`` and ``ca`` to the ``companion`` command
(``companion.commands``), so no other command loads the page or the devices.

Real devices are used when found (gpiozero pins, a camera); each one that falls back to
its simulated twin says why in one line.
"""

from __future__ import annotations

import asyncio
import shutil
import signal
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from companion import logs
from companion.advertise import remember, remembered
from companion.commands.group import EXPECTED, fail
from companion.commands.tree import main as commands
from companion.config import RUN_CONFIG, Config, load_config
from companion.data_lock import hold_data_folder
from companion.joining import page_url, tablet_url, terminal_qr
from companion.mqtt.export import board_export
from companion.network import NetworkWatch
from companion.startup.buttons import Light, follow_with_lights
from companion.startup.devices import Devices, start_devices
from companion.startup.games import Games, open_games, table_pin
from companion.startup.lan import LateLanName, follow_the_network, lan_name_for
from companion.startup.page import (
    allowed_hosts,
    bind_problem,
    check_ports,
    https_listen,
    print_banner,
)
from companion.store import AccessStore, Store
from companion.table import Table
from web import MAX_REQUEST_BYTES, create_app
from web.asgi import ASGIApp, ServerConfig, companion_app, edge, live_streams, secure, server_config
from web.asgi import run as run_server
from web.live import LiveStreams
from web.systemd_notify import notify, watch_the_service
from web.tls import CertificateFollower, authority_certificate, export_authority_key, fingerprint

if TYPE_CHECKING:
    from flask import Flask


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
        camera_height_cm=config.camera.height_cm or None,
        token_hours=config.web.token_hours,
        event_board=None if board is None else board.json,
        event_export=None if board is None else partial(board_export, board.board),
        access=AccessStore(games.store),
    )


async def _serve_until_signal(
    app: ASGIApp,
    http: ServerConfig,
    streams: LiveStreams,
    table: Table,
    lights_stop: threading.Event,
    buttons: Light | None,
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
