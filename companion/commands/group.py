"""The ``companion`` group itself: its options, the context every command shares, and ``fail``.

Every error meant for a person (``EXPECTED``) ends a command as one red sentence and exit
status 2, never a traceback; the group catches one that a command did not.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, NoReturn

import click

from companion.config import Config, load_config
from companion.data_lock import refuse_while_served
from companion.engine.errors import IllegalMoveError
from companion.engine.session import Session
from companion.errors import CompanionError
from companion.saved import resume_game
from companion.store import Store

# The largest seed the games file can store (SQLite's integers are 64-bit).
MAX_SEED = 2**63 - 1
EXPECTED = (CompanionError,)  # every error meant for a person; anything else is a bug


def fail(error: Exception) -> NoReturn:
    click.secho(f"Error: {error}", fg="red", err=True)
    sys.exit(2)


class Context:
    """Settings and the store, opened lazily so `--help` never touches the disk."""

    def __init__(self, config_file: str | None, data_dir: str | None, odds: bool = True) -> None:
        self.config_file = config_file
        self.data_dir = data_dir
        self.odds = odds  # some groups find odds spoilers: --no-odds hides them
        self._config: Config | None = None
        self._store: Store | None = None

    @property
    def config(self) -> Config:
        if self._config is None:
            self._config = load_config(self.config_file, data_dir=self.data_dir)
        return self._config

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store(self.config.database)
        return self._store

    def close(self) -> None:
        """Close the games file when the command ends (click's ``call_on_close``): a command
        run inside another program (a test, a script) must not leave it open behind it."""
        if self._store is not None:
            self._store.close()
            self._store = None

    def changing(self, change: str) -> Store:
        """The games file, for a command that changes it: refused in one sentence while a
        running companion serves it (its table would never see the change)."""
        refuse_while_served(self.config.data_dir, change)
        return self.store

    def current(self, change: str = "") -> tuple[int, Session[Any]]:
        """The current game; ``change`` (what the command will do to it) first checks
        that no running companion serves it."""
        found = resume_game(self.changing(change) if change else self.store)
        if found is None:
            raise IllegalMoveError("There is no game yet: start one with `companion new`.")
        return found


pass_context = click.make_pass_decorator(Context)


#: Commands loaded when asked for, name -> "module:attribute" (``companion.commands.tree``
#: fills it): the dice and calibrate commands bring OpenCV and the dice networks, the event
#: board paho-mqtt, and `companion run` must not wait for them before its first page.
LAZY_COMMANDS: dict[str, str] = {}


class CompanionGroup(click.Group):
    """The command tree: an error meant for a person (a broken config, a damaged games
    file) that a command did not catch itself is still one sentence, never a traceback."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS and cmd_name not in self.commands:
            module, attribute = LAZY_COMMANDS[cmd_name].split(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except EXPECTED as error:
            fail(error)


@click.group(cls=CompanionGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--config", "config_file", type=click.Path(dir_okay=False), help="TOML settings file."
)
@click.option("--data-dir", type=click.Path(file_okay=False), help="Where games are stored.")
@click.option(
    "--odds/--no-odds", default=True, help="Show each game's odds where a decision is made."
)
@click.version_option(package_name="hamster-companion")
@click.pass_context
def main(ctx: click.Context, config_file: str | None, data_dir: str | None, odds: bool) -> None:
    """Companion for hamster board games: rules, buttons, camera and a live scoreboard."""
    ctx.obj = Context(config_file, data_dir, odds)
    ctx.call_on_close(ctx.obj.close)
