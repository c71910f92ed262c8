"""Restoring a backup without ever bricking the table.

A backup is checked in full before anything is touched: it is not empty, SQLite finds no
damage in it (``integrity_check``, every page, not the quick check), it was written by a
companion no newer than this one, it has the tables and columns of a games file of that
schema version (not some other program's SQLite file), and it holds at least one game.
A refused backup changes nothing.

Then the swap is made so that a crash (a power cut, a SIGKILL) at any moment leaves a
games file the companion starts with: the backup is first brought up to this schema in a
file of its own beside the games file (``<name>.restoring``); the games file it will
replace is copied whole to ``<name>.replaced-<time>`` (never deleted, the way back); its
write-ahead log is folded in; and only then does one ``rename`` put the new file in place.
Until that rename the table has its old games; after it, the restored ones.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from companion.store.events import (
    BACKUP_FOLDER,
    MIGRATIONS,
    SCHEMA_VERSION,
    Store,
    StoreDamagedError,
    StoreError,
    backups,
)

SQLITE_HEADER = b"SQLite format 3\x00"
RESTORING = ".restoring"  # the backup being made ready, beside the games file


class BackupRefusedError(StoreError):
    """The backup cannot be restored; it was checked before anything changed."""


@dataclass(frozen=True)
class Restored:
    """What a restore did: the backup used, its games, and where the replaced file is kept."""

    backup: Path
    games: int
    kept: Path | None

    def sentence(self) -> str:
        """One sentence for the person who asked: what came back, and the way back."""
        games = f"{self.games} game{'s' if self.games != 1 else ''}"
        if self.kept is None:
            return f"Restored {self.backup.name} ({games}); there was no games file to replace."
        return (
            f"Restored {self.backup.name} ({games}); the games file it replaced is kept as "
            f"{self.kept}: to go back, stop the companion and run `companion restore {self.kept}`."
        )


@dataclass(frozen=True)
class BackupFacts:
    version: int
    games: int


def expected_tables(version: int) -> dict[str, set[str]]:
    """The tables and columns a games file of schema ``version`` has (from the migrations)."""
    db = sqlite3.connect(":memory:")
    try:
        for migration in MIGRATIONS[:version]:
            db.executescript(migration)
        return _tables(db)
    finally:
        db.close()


def _tables(db: sqlite3.Connection) -> dict[str, set[str]]:
    names = [
        row[0]
        for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    return {name: {row[1] for row in db.execute(f'PRAGMA table_info("{name}")')} for name in names}


def check_backup(backup: Path) -> BackupFacts:
    """Everything that must hold before ``backup`` may replace the games file; raises
    ``BackupRefusedError`` with a sentence naming what is wrong and what to do."""
    name = backup.name
    pick = "pick another (`companion backups` lists them)"
    try:
        with backup.open("rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError as error:
        raise BackupRefusedError(
            f"The backup {backup} cannot be read ({error.strerror})."
        ) from None
    if not head:
        raise BackupRefusedError(f"The backup {name} is empty (0 bytes): {pick}.")
    if head != SQLITE_HEADER:
        raise BackupRefusedError(f"{name} is not a games file (not SQLite at all): {pick}.")
    try:
        db = sqlite3.connect(f"{backup.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise BackupRefusedError(f"The backup {name} cannot be opened ({error}): {pick}.") from None
    try:
        return _check_open(db, name, pick)
    except sqlite3.DatabaseError as error:
        raise BackupRefusedError(f"The backup {name} is damaged ({error}): {pick}.") from None
    finally:
        db.close()


def _check_open(db: sqlite3.Connection, name: str, pick: str) -> BackupFacts:
    problems = [row[0] for row in db.execute("PRAGMA integrity_check(5)")]
    if problems != ["ok"]:
        raise BackupRefusedError(f"The backup {name} is damaged ({problems[0]}): {pick}.")
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise BackupRefusedError(
            f"The backup {name} was written by a newer companion (schema {version}; this one "
            f"reads up to {SCHEMA_VERSION}): upgrade the companion first, or {pick}."
        )
    found, wanted = _tables(db), expected_tables(version)
    missing = sorted(t for t, columns in wanted.items() if not columns <= found.get(t, set()))
    if version < 1 or missing:
        what = (
            f"no {', '.join(missing)} table as this companion keeps it" if missing else "no games"
        )
        raise BackupRefusedError(f"{name} is not a games file of this companion ({what}): {pick}.")
    games = int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    if games == 0:
        raise BackupRefusedError(f"The backup {name} holds no games: {pick}.")
    return BackupFacts(version, games)


def restore(path: Path, backup: Path | None = None) -> Restored:
    """Bring back a backup (the newest unless named) as the games file at ``path``.

    Stop the companion first (the command holds the data folder's lock). Nothing is
    changed unless the backup passes :func:`check_backup`; the file it replaces is kept
    beside it as ``<name>.replaced-<time>``, never deleted.
    """
    found = backups(path)
    chosen = backup if backup is not None else (found[-1] if found else None)
    if chosen is None or not chosen.exists():
        raise StoreError(f"There is no backup in {path.parent / BACKUP_FOLDER} to restore.")
    facts = check_backup(chosen)
    numbered = highest_game_number(path)
    ready = _made_ready(chosen, path.with_name(path.name + RESTORING), numbered)
    kept = keep_copy(path, "replaced")
    _fold_log(path)
    os.replace(ready, path)
    _sync_folder(path.parent)
    return Restored(chosen, facts.games, kept)


def _made_ready(backup: Path, ready: Path, numbered: int) -> Path:
    """The backup as a games file of this schema at ``ready``: numbered after every game
    the replaced file gave, with no tablet's or phone's access from its day."""
    _remove(ready)  # what a restore killed half-way left
    source = sqlite3.connect(f"{backup.resolve().as_uri()}?mode=ro", uri=True)
    target = sqlite3.connect(str(ready))
    try:
        source.backup(target)
    except sqlite3.Error as error:
        raise _unwritable(ready, error) from None
    finally:
        target.close()
        source.close()
    try:
        store = Store(ready)  # an older backup is brought up to this schema here
    except StoreDamagedError as error:
        raise BackupRefusedError(str(error)) from None
    try:
        store.number_games_after(numbered)
        # A "lock all" made since the backup must not be undone by it.
        store.end_access()
    finally:
        store.close()
    _sync(ready)
    return ready


def _unwritable(where: Path, error: sqlite3.Error) -> StoreError:
    return StoreError(
        f"The backup could not be made ready beside the games file ({where}: {error}); "
        "nothing was changed: free some space on the card, or check the folder is writable."
    )


def keep_copy(path: Path, why: str) -> Path | None:
    """A whole copy of the games file as ``<name>.<why>-<time>`` (None: there is none).

    Through SQLite's backup API where the file can be read, so the copy is one file with
    its write-ahead log folded in; a file SQLite cannot read (damaged) is copied as it is,
    log and all."""
    if not path.exists():
        return None
    kept = _free_name(path, why)
    try:
        source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        target = sqlite3.connect(str(kept))
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
    except sqlite3.Error:
        _remove(kept)
        try:
            for suffix in ("", "-wal"):
                extra = path.with_name(path.name + suffix)
                if extra.exists():
                    shutil.copyfile(extra, kept.with_name(kept.name + suffix))
        except OSError as error:
            raise StoreError(
                f"The games file could not be kept aside ({error.strerror}); nothing was "
                "changed: free some space on the card and try again."
            ) from None
    kept.chmod(0o600)
    _sync(kept)
    return kept


def _free_name(path: Path, why: str) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"{path.name}.{why}-{stamp}")
    count = 2
    while kept.exists():  # two restores in one second: keep both
        kept = path.with_name(f"{path.name}.{why}-{stamp}-{count}")
        count += 1
    return kept


def _fold_log(path: Path) -> None:
    """Fold the games file's write-ahead log into it, then remove the log: a log left
    beside the file that takes its name would be replayed into the wrong file. Where
    SQLite cannot fold it (a damaged file), the log goes too: its copy is kept."""
    if not path.exists():
        return
    with contextlib.suppress(sqlite3.Error):
        db = sqlite3.connect(str(path))
        try:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            db.close()
    for suffix in ("-wal", "-shm"):
        _remove(path.with_name(path.name + suffix))


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


def _sync(path: Path) -> None:
    """On the card before the rename that relies on it."""
    with contextlib.suppress(OSError):
        descriptor = os.open(path, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def _sync_folder(folder: Path) -> None:
    _sync(folder)


def highest_game_number(path: Path) -> int:
    """The highest game number the games file at ``path`` ever gave (0: none, or unreadable).

    Why it matters: results, exports and the event board name a game by its number, so
    a number given once must never be given again, not even after restoring an older
    backup that had not reached it yet."""
    if not path.exists():
        return 0
    highest = 0
    with contextlib.suppress(sqlite3.Error):  # a damaged file: as much as can be read
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            for sql in (
                "SELECT MAX(seq) FROM sqlite_sequence WHERE name = 'games'",
                "SELECT MAX(id) FROM games",
            ):
                with contextlib.suppress(sqlite3.Error):
                    highest = max(highest, int(db.execute(sql).fetchone()[0] or 0))
        finally:
            db.close()
    return highest


def move_aside(path: Path, why: str) -> Path | None:
    """Move the games file (and its WAL) aside as ``<name>.<why>-<time>``; never deletes."""
    if not path.exists():
        return None
    kept = _free_name(path, why)
    for suffix in ("-wal", "-shm"):
        extra = path.with_name(path.name + suffix)
        if extra.exists():
            os.replace(extra, kept.with_name(kept.name + suffix))
    os.replace(path, kept)
    return kept
