"""``companion history``: the finished games, per-player stats, exports, delete and undelete.

The same store and the same summaries as the page's History, so the two always agree.
Deleting asks for the table PIN (as the page does): the history is the whole table's.
"""

from __future__ import annotations

import hmac
import json
from datetime import datetime
from pathlib import Path

import click

from companion import history
from companion.commands.group import Context, fail
from companion.config import RUN_CONFIG, ConfigError, load_config
from companion.engine.words import counted
from companion.errors import CompanionError
from companion.history_export import bgstats_file, figures_text, to_csv
from companion.store import AccessStore


def _line(play: history.Play) -> str:
    date = datetime.fromtimestamp(play.started).strftime("%Y-%m-%d %H:%M")
    winners = ", ".join(play.winner_names) or f"nobody ({play.result})"
    figures = figures_text(play.figures)
    line = (
        f"#{play.id:<4} {date}  {play.title} ({play.rules})  {', '.join(play.players)}  "
        f"won: {winners}  {history.length_text(play.seconds)}"
    )
    return f"{line}\n       {figures}" if figures else line


@click.group(invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable list.")
@click.pass_context
def history_command(ctx: click.Context, as_json: bool) -> None:
    """The finished games, newest first (subcommands: list, stats, export, delete,
    undelete)."""
    if ctx.invoked_subcommand is None:
        _list(ctx.obj, as_json)


@history_command.command(name="list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable list.")
@click.pass_obj
def list_command(obj: Context, as_json: bool) -> None:
    """The finished games, newest first (the same as `companion history`)."""
    _list(obj, as_json)


def _list(obj: Context, as_json: bool) -> None:
    try:
        found = history.plays(obj.store)
    except CompanionError as error:
        fail(error)
    if as_json:
        click.echo(json.dumps([p.to_json() for p in found], indent=1))
        return
    if not found:
        click.echo("No finished game yet: the history fills as games end.")
    for play in found:
        click.echo(_line(play))


@history_command.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable stats.")
@click.pass_obj
def stats(obj: Context, as_json: bool) -> None:
    """Plays and wins per player: in all, by game and by seat."""
    try:
        found = history.player_stats(history.plays(obj.store))
    except CompanionError as error:
        fail(error)
    if as_json:
        click.echo(json.dumps([s.to_json() for s in found], indent=1))
        return
    if not found:
        click.echo("No finished game yet: the history fills as games end.")
    for entry in found:
        total = entry.total
        wins, plays = counted(total.wins, "win"), counted(total.plays, "play")
        click.secho(f"{entry.name}: {wins} in {plays}", bold=True)
        for title, tally in entry.by_game.items():
            click.echo(f"  {title}: {tally.wins} of {tally.plays}")
        seats = ", ".join(f"seat {s}: {t.wins} of {t.plays}" for s, t in entry.by_seat.items())
        click.echo(f"  {seats}")


@history_command.command()
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False), help="CSV file to write.")
@click.option(
    "--bgstats", "bgstats", type=click.Path(dir_okay=False), help="BG Stats JSON to write."
)
@click.pass_obj
def export(obj: Context, csv_file: str | None, bgstats: str | None) -> None:
    """Write the finished games to a CSV file and/or a BG Stats file."""
    if not csv_file and not bgstats:
        fail(ValueError("Say where to write: --csv FILE, --bgstats FILE, or both."))
    try:
        found = history.plays(obj.store)
        if csv_file:
            _write(Path(csv_file), to_csv(found))
            click.echo(f"{counted(len(found), 'game')} written to {csv_file}.")
        if bgstats:
            text = json.dumps(bgstats_file(found), indent=1, ensure_ascii=False)
            _write(Path(bgstats), text)
            where = f"{bgstats} (BG Stats plays and links)"
            click.echo(f"{counted(len(found), 'game')} written to {where}.")
    except CompanionError as error:
        fail(error)


def _write(path: Path, text: str) -> None:
    """Write one export, or say which file could not be written and what to do.

    Why its own sentence: with both --csv and --bgstats given, "No such file or directory"
    alone named neither the file nor that its folder is what is missing.
    """
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        if not path.parent.is_dir():
            why = f"there is no folder {path.parent}"
        else:
            why = (error.strerror or str(error)).lower()
        raise history.HistoryError(
            f"Cannot write {path}: {why}; choose a file in a folder you can write to."
        ) from None


def known_pin(obj: Context) -> tuple[str | None, str]:
    """The table PIN as `companion run` uses it, and where it was read (for the sentence).

    Without ``--config`` the config file the table was last started with counts (``run``
    keeps its path in the games file), so a PIN set there is found as the page finds it,
    never mistaken for "no PIN yet" (which would have sent people to make a second one).
    """
    if obj.config.web.pin:
        return obj.config.web.pin, f"the config file {obj.config_file}"
    used = None if obj.config_file else obj.store.setting(RUN_CONFIG)
    if used:
        try:
            pin = load_config(used).web.pin
        except ConfigError as error:
            raise history.HistoryError(
                f"The table was started with the config file {used}, which cannot be read "
                f"now ({error}); give the right one with --config FILE."
            ) from None
        if pin:
            return pin, f"the config file {used} (the one the table was started with)"
    read = f"the config file {obj.config_file}" if obj.config_file else "no config file"
    kept = AccessStore(obj.store).kept_pin()
    return kept, f"{read} and the games file {obj.store.path}"


@history_command.command()
@click.argument("game_id", type=int)
@click.option("--pin", default=None, help="The table PIN (asked for when left out).")
@click.pass_obj
def delete(obj: Context, game_id: int, pin: str | None) -> None:
    """Delete a game from the history (needs the table PIN; `undelete` brings it back)."""
    try:
        expected, source = known_pin(obj)
        if expected is None:
            raise history.HistoryError(
                f"No table PIN was found (read: {source}): if the table runs with a config "
                "file that sets one, name it with --config FILE; otherwise `companion pin` "
                "makes one. Nothing was deleted."
            )
        given = pin if pin is not None else click.prompt("Table PIN", hide_input=True)
        if not hmac.compare_digest(str(given).strip().encode(), expected.encode()):
            raise history.HistoryError(
                f"That PIN is not right (it was checked against {source}); `companion pin` "
                "shows it. Nothing was deleted."
            )
        history.delete(obj.store, game_id)
    except CompanionError as error:
        fail(error)
    minutes = round(history.UNDO_SECONDS / 60)
    click.echo(
        f"Game {game_id} deleted; `companion history undelete {game_id}` brings it back "
        f"(kept for {minutes} minutes at least)."
    )


@history_command.command()
@click.argument("game_id", type=int)
@click.pass_obj
def undelete(obj: Context, game_id: int) -> None:
    """Bring a deleted game back into the history."""
    try:
        history.undelete(obj.store, game_id)
    except CompanionError as error:
        fail(error)
    click.echo(f"Game {game_id} is back in the history.")
