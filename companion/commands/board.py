"""``companion board``: every table at the event, live, in a terminal.

Why a terminal board first: the organiser's laptop at the front desk (or any Pi with a
screen) needs nothing but the broker's address; ``--once`` prints the board and exits,
for scripts and tests.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import click

from companion.commands.group import EXPECTED, fail
from companion.config import Config, ConfigError, mqtt_password
from companion.mqtt.board import BoardClient, render
from companion.mqtt.connect import Broker, BrokerError, parse_broker
from companion.mqtt.export import board_export, export_csv

CLEAR = "\x1b[2J\x1b[H"  # clear the terminal and go home: a board that redraws in place
REDRAW = 1.0  # seconds between redraws at most (the "last heard" ages tick too)


def board_broker(
    config: Config,
    address: str | None,
    username: str | None = None,
    password_file: str | None = None,
    tls: bool = False,
) -> Broker:
    """The broker from the command line, each part falling back on the config's [mqtt]."""
    settings = config.mqtt
    tls = tls or settings.tls
    if address is None and not settings.host:
        raise BrokerError(
            "No broker given: use --broker HOST[:PORT], or set host in the [mqtt] section "
            "of the config."
        )
    if address is None:
        host, port = settings.host, settings.broker_port
    else:
        host, port = parse_broker(address, tls)
    if password_file is None:
        password = mqtt_password(settings)
    else:
        try:
            lines = Path(password_file).expanduser().read_text(encoding="utf-8").splitlines()
        except OSError as error:
            raise ConfigError(
                f"Cannot read the password file {password_file!r} ({error.strerror}); "
                "check the path."
            ) from None
        password = lines[0] if lines else ""
    return Broker(
        host=host,
        port=port,
        username=settings.username if username is None else username,
        password=password,
        tls=tls,
        ca_file=settings.ca_file,
    )


@click.command(name="board")
@click.option("--broker", "address", metavar="HOST[:PORT]", help="The event's MQTT broker.")
@click.option("--prefix", default=None, help="Topic prefix the tables share (default hamster).")
@click.option("--username", default=None, help="User name, if the broker asks for one.")
@click.option(
    "--password-file",
    type=click.Path(dir_okay=False),
    default=None,
    help="File whose first line is the password (kept off the command line).",
)
@click.option("--tls", is_flag=True, help="Encrypt the connection (the broker's TLS port).")
@click.option("--once", is_flag=True, help="Print the board once and exit.")
@click.option(
    "--export",
    "export_to",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the event's results (finished games, standings) to FILE.csv or FILE.json and exit.",
)
@click.option("--timeout", type=float, default=10.0, show_default=True, help="Seconds to wait.")
@click.pass_obj
def board(
    obj: Any,
    address: str | None,
    prefix: str | None,
    username: str | None,
    password_file: str | None,
    tls: bool,
    once: bool,
    timeout: float,
    export_to: str | None,
) -> None:
    """Every table at the event, live: game, round, who leads, standings across tables."""
    try:
        config: Config = obj.config
        kind = export_kind(export_to)
        broker = board_broker(config, address, username, password_file, tls)
        client = BoardClient(broker, prefix or config.mqtt.prefix)
        client.start()
        try:
            client.wait_caught_up(timeout)
            if export_to is not None:
                click.echo(write_export(board_export(client.board), Path(export_to), kind))
                return
            if once:
                click.echo(render(client.board.tables(), results=client.board.results()))
                return
            _follow(client)
        finally:
            client.stop()
    except EXPECTED as error:
        fail(error)


def export_kind(path: str | None) -> str:
    """``csv`` or ``json`` from the file's name; anything else is one sentence."""
    if path is None:
        return ""
    kind = Path(path).suffix.lower().lstrip(".")
    if kind not in ("csv", "json"):
        raise BrokerError(
            f"{path!r} is neither a .csv nor a .json file; name the export e.g. results.csv "
            "(a spreadsheet) or results.json (a program)."
        )
    return kind


def write_export(export: dict[str, Any], path: Path, kind: str) -> str:
    """Write the export; the sentence says what went where."""
    text = export_csv(export) if kind == "csv" else json.dumps(export, indent=2) + "\n"
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise BrokerError(
            f"Cannot write {path} ({error.strerror}); choose a file in a folder you can write to."
        ) from None
    games, standings = len(export["games"]), len(export["standings"])
    return (
        f"Wrote {games} finished game{'s' * (games != 1)} from {len(export['tables'])} "
        f"tables and {standings} players' standings to {path}."
    )


def _follow(client: BoardClient) -> None:
    """Redraw on every change until Ctrl-C; in a terminal also each second (the "offline;
    this state is N s old" ages tick), while a log file gets a board per change only.

    Ctrl-C only sets a flag that the loop reads between waits: a KeyboardInterrupt raised
    inside ``Event.wait`` can leave the event's own lock held, and then the network thread
    that sets it, and ``stop()`` joining that thread, hang for ever.
    """
    terminal = sys.stdout.isatty()
    stopping = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: stopping.set())
    try:
        while not stopping.is_set():
            shown = render(client.board.tables(), results=client.board.results())
            click.echo(CLEAR + shown + (f"\n\n{client.away}" if client.away else ""))
            if client.refused:
                raise BrokerError(client.refused)
            while not client.board.changed.wait(REDRAW) and not terminal:
                if stopping.is_set():
                    return
            time.sleep(0.1)  # gather a burst of tables into one redraw
            client.board.changed.clear()
    finally:
        signal.signal(signal.SIGINT, previous)
