"""The games file and the table on it, as ``companion run`` opens them: the PIN that
guards the page, the backups and the history summary made as each game ends.

Why apart: these are the parts that outlive a device (the store, the table's worker),
opened first and closed last by ``companion.serve``.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import click

from companion.config import RUN_CONFIG, BackupConfig, Config
from companion.errors import CompanionError
from companion.history import purge_expired, summarize
from companion.listeners import GAME_OVER_CUE
from companion.store import AccessStore, Store, StoreDamagedError, move_aside
from companion.table import Table
from web.auth import generate_pin

log = logging.getLogger("companion")

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
    table.listeners.on_cues(backups.after_cues)
    table.listeners.on_cues(summary_at_the_end(store, table))
    return Games(store, table, pin, backups, damaged)
