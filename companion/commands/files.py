"""``companion replay``, ``export``, ``backups`` and ``restore``: games as files, and the games
file's own backups.
"""

from __future__ import annotations

from pathlib import Path

import click

from companion.commands.group import EXPECTED, Context, fail, pass_context
from companion.commands.table import show_game
from companion.data_lock import hold_data_folder, refuse_while_served
from companion.engine.errors import IllegalMoveError, ScenarioError
from companion.engine.events import Event
from companion.engine.replaying import replaying
from companion.engine.serialize import dumps, loads
from companion.engine.session import GameHeader, Session
from companion.games import find_game
from companion.saved import start_game
from companion.store import StoreDamagedError, backups, restore, salvage


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--save", is_flag=True, help="Also store it as the current game.")
@pass_context
def replay(obj: Context, file: str, save: bool) -> None:
    """Replay a scenario or saved game file and print its final state as JSON."""
    try:
        header, events = loads(Path(file).read_text(encoding="utf-8"))
        spec = find_game(header.game)
        header = GameHeader(
            spec.name,
            header.rules or spec.rules_default,
            header.players,
            header.seed,
            header.options,
            header.given,
        )
        # A recorded game, as a stored one loads: checks added since it was played let
        # its moves stand (companion.engine.replaying).
        with replaying():
            session = Session(spec, header)
            for number, event in enumerate(events, start=1):
                try:
                    session.dispatch(event, strict=False)
                except IllegalMoveError as error:
                    raise ScenarioError(
                        f"Event {number} ({event.name or event.kind}): {error}"
                    ) from None
                except EXPECTED:
                    raise
                except Exception:  # the file's details, not the replay, are wrong
                    raise ScenarioError(
                        f"Event {number} ({event.name or event.kind}): "
                        "the rules cannot read its details; check its values in the file."
                    ) from None
            if save:
                _, stored = start_game(obj.changing("store a game"), header)
                for event in session.log:
                    again = Event(event.kind, event.name, event.seat, event.args, event.given)
                    stored.dispatch(again, strict=False)
    except EXPECTED as error:
        fail(error)
    show_game(session, as_json=True)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@pass_context
def export(obj: Context, file: str) -> None:
    """Save the current game (header and every event) as a replayable file.

    From a damaged games file it saves what can still be read (the events up to the first
    unreadable one), so a game is never lost with the file.
    """
    try:
        try:
            _, session = obj.current()
            header, events = session.header, session.log
        except StoreDamagedError:
            header, events = salvage(obj.config.database)
            click.secho("The games file is damaged: saving what can still be read.", fg="yellow")
        Path(file).write_text(dumps(header, events), encoding="utf-8")
    except EXPECTED as error:
        fail(error)
    except OSError as error:
        fail(OSError(f"Cannot write {file}: {error.strerror}; choose a folder that exists."))
    click.echo(f"Saved {len(events)} events to {file}.")


@click.command(name="backups")
@pass_context
def list_backups(obj: Context) -> None:
    """List the backups of the games file, newest last."""
    found = backups(obj.config.database)
    if not found:
        click.echo(f"No backups yet in {obj.config.database.parent / 'backups'}.")
    for path in found:
        click.echo(f"{path.name}  {path.stat().st_size // 1024} KiB")


@click.command(name="restore")
@click.argument("backup", required=False, type=click.Path(dir_okay=False, exists=True))
@pass_context
def restore_backup(obj: Context, backup: str | None) -> None:
    """Bring back a backup (the newest unless named); stop the companion first.

    The games file it replaces is kept beside it, never deleted.
    """
    try:
        refuse_while_served(obj.config.data_dir, "restore a backup")
        held = hold_data_folder(obj.config.data_dir)  # no `companion run` starts mid-swap
        try:
            done = restore(obj.config.database, Path(backup) if backup else None)
        finally:
            if held is not None:
                held.close()
    except EXPECTED as error:
        fail(error)
    click.echo(done.sentence())
