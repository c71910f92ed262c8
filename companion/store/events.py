"""The SQLite event store: every event of every game, durable before it is published.

WAL journal with ``synchronous=FULL`` so an acknowledged event survives a power cut on the
Pi's SD card. The schema is versioned with ``PRAGMA user_version`` and migrated forward on
open; a database written by a newer companion is refused with a sentence saying so.

Damage is never papered over: the file is checked at open (``PRAGMA quick_check``), and a
damaged one is kept exactly as it is and refused with a sentence saying how to recover (the
last backup, or export what is readable); a fresh file is started only on request. A full
SD card or a read-only data folder is named as such. Backups use SQLite's backup API (a
consistent copy even while games are written), at the end of every game and daily.
The file is readable by its owner only: it holds the table PIN and the seat codes shown.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from companion.engine.events import Event
from companion.engine.session import GameHeader
from companion.errors import CompanionError

MIGRATIONS: tuple[str, ...] = (
    # 1: games and their events
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL,
        rules TEXT NOT NULL,
        seed INTEGER NOT NULL,
        players TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        given TEXT NOT NULL DEFAULT '[]',
        created REAL NOT NULL
    );
    CREATE TABLE events (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        seat INTEGER,
        args TEXT NOT NULL DEFAULT '{}',
        given TEXT NOT NULL DEFAULT '[]',
        outcome TEXT NOT NULL DEFAULT '[]',
        at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    """,
    # 2: who sent each event, the finished state of a game, and small settings
    """
    ALTER TABLE events ADD COLUMN source TEXT NOT NULL DEFAULT '';
    ALTER TABLE games ADD COLUMN result TEXT;
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # 3: play history: a deleted game is only marked (undoable) until it is purged, and
    # each game's summary is kept beside it so the history need not replay every game
    """
    ALTER TABLE games ADD COLUMN deleted REAL;
    CREATE TABLE summaries (
        game_id INTEGER PRIMARY KEY REFERENCES games(id),
        events INTEGER NOT NULL,
        data TEXT NOT NULL
    );
    """,
    # 4: who may act, kept across a restart: each live token only as its SHA-256 (with its
    # wall-clock expiry, and the seat and game it joined), and the seat codes the tablet
    # showed (``ended``: "lock all" ended it, so reloading it is no guess)
    """
    CREATE TABLE tokens (
        hash TEXT PRIMARY KEY,
        expires REAL NOT NULL,
        seat INTEGER,
        game_id INTEGER
    );
    CREATE TABLE seat_codes (
        code TEXT PRIMARY KEY,
        game_id INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        ended INTEGER NOT NULL DEFAULT 0
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(CompanionError, RuntimeError):
    """The data file cannot be used; the message says why and what to do."""


class StoreDamagedError(StoreError):
    """The data file is damaged; it was kept as it is and nothing is written into it."""


BACKUP_FOLDER = "backups"
BACKUP_PREFIX = "games-"


def backups(path: Path) -> list[Path]:
    """The backups of the games file at ``path``, oldest first."""
    return sorted((path.parent / BACKUP_FOLDER).glob(f"{BACKUP_PREFIX}*.sqlite3"))


def _write_problem(path: Path, error: sqlite3.Error) -> StoreError:
    """One sentence for a failed write: a full card and a read-only folder say so."""
    text = str(error).lower()
    if "full" in text:
        return StoreError(
            f"The SD card is full, so {path.name} cannot grow: free some space (old backups "
            f"in {path.parent / BACKUP_FOLDER}, other files) and try again; nothing was lost."
        )
    if "readonly" in text or "read-only" in text:
        return read_only_error(path)
    if "malformed" in text or "corrupt" in text or "not a database" in text:
        return StoreDamagedError(damaged_sentence(path, str(error)))
    return StoreError(f"{path.name} could not be written ({error}); nothing was changed.")


def read_only_error(path: Path) -> StoreError:
    return StoreError(
        f"The data folder {path.parent} is read-only, so games cannot be saved: check "
        "the SD card is not locked or mounted read-only, and that the companion may write "
        "there."
    )


def cannot_write(path: Path) -> bool:
    """Whether the games file or its folder refuses writes (a card mounted or locked
    read-only, or a folder the companion may not write in); SQLite then says only "unable
    to open database file", which is no sign of damage."""
    return not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK))


def damaged_sentence(path: Path, why: str) -> str:
    return (
        f"The games file {path} is damaged ({why}); it was kept as it is and nothing more is "
        "written into it. To recover: `companion restore` brings back the last backup, "
        "`companion export FILE` saves what is still readable, and `companion run --fresh` "
        "moves the damaged file aside and starts a new one."
    )


@dataclass(frozen=True)
class TokenRow:
    """A kept token: its SHA-256 (hex, never the token), wall-clock expiry, seat and game."""

    hash: str
    expires: float
    seat: int | None
    game_id: int | None


@dataclass(frozen=True)
class CodeRow:
    """A seat code the tablet showed, for one seat of one game; ``ended`` by "lock all"."""

    code: str
    game_id: int
    seat: int
    ended: bool = False


KEPT_SEAT_CODES = 1000  # a few seats a game: hundreds of games' codes


@dataclass(frozen=True)
class StoredGame:
    id: int
    header: GameHeader
    created: float
    result: str | None
    deleted: float | None = None  # when it was deleted (hidden, restorable until purged)


class Store:
    """One SQLite file holding all games. Safe to share between threads (one lock)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        memory = str(path) == ":memory:"
        if not memory:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StoreError(
                    f"The data folder {self.path.parent} cannot be made ({error.strerror}); "
                    "choose another with --data-dir."
                ) from None
        existed = not memory and self.path.exists()
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            if existed:
                found = self._db.execute("PRAGMA quick_check").fetchone()[0]
                if found != "ok":
                    self._db.close()
                    raise StoreDamagedError(damaged_sentence(self.path, found))
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as error:
            if not memory and cannot_write(self.path):
                raise read_only_error(self.path) from None
            if existed:
                raise StoreDamagedError(damaged_sentence(self.path, str(error))) from None
            raise _write_problem(self.path, error) from None
        if not memory:
            try:
                self.path.chmod(0o600)  # it holds the table PIN
            except OSError:
                self._db.close()
                raise read_only_error(self.path) from None
        self._lock = threading.Lock()
        self._migrate()

    def close(self) -> None:
        """Fold the write-ahead log into the file and close (a clean stop leaves no WAL)."""
        with self._lock:
            # A read-only or full card: the WAL stays, and SQLite replays it next time.
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise _write_problem(self.path, error) from None
            try:
                yield self._db
            except sqlite3.Error as error:
                self._rollback()
                raise _write_problem(self.path, error) from None
            except BaseException:
                self._rollback()
                raise
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                self._rollback()
                raise _write_problem(self.path, error) from None

    def _rollback(self) -> None:
        with contextlib.suppress(sqlite3.Error):  # the transaction may already have ended
            self._db.execute("ROLLBACK")

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """Reads share the writer's lock: on one connection, a read in another thread must
        not see a write that is still inside its transaction."""
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    @property
    def version(self) -> int:
        return int(self._read("PRAGMA user_version")[0][0])

    def _migrate(self) -> None:
        current = self.version
        if current > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer companion (schema {current}, this one "
                f"reads up to {SCHEMA_VERSION}); upgrade the companion."
            )
        for version in range(current, SCHEMA_VERSION):
            with self._transaction() as db:
                for statement in MIGRATIONS[version].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version={version + 1}")

    # ------------------------------------------------------------------ games
    def create_game(self, header: GameHeader) -> int:
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO games (game, rules, seed, players, options, given, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    header.game,
                    header.rules,
                    header.seed,
                    json.dumps(list(header.players)),
                    json.dumps(dict(header.options)),
                    json.dumps(list(header.given)),
                    time.time(),
                ),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            db.execute(
                "INSERT OR REPLACE INTO settings (key, value) VALUES ('current_game', ?)",
                (str(game_id),),
            )
            return game_id

    def game(self, game_id: int) -> StoredGame:
        rows = self._read(
            "SELECT id, game, rules, seed, players, options, given, created, result, deleted "
            "FROM games WHERE id = ?",
            (game_id,),
        )
        if not rows:
            raise StoreError(f"There is no game number {game_id} in {self.path}.")
        row = rows[0]
        header = GameHeader(
            game=row[1],
            rules=row[2],
            seed=row[3],
            players=tuple(json.loads(row[4])),
            options=json.loads(row[5]),
            given=tuple(json.loads(row[6])),
        )
        return StoredGame(id=row[0], header=header, created=row[7], result=row[8], deleted=row[9])

    def games(self) -> list[StoredGame]:
        ids = [r[0] for r in self._read("SELECT id FROM games ORDER BY id")]
        return [self.game(i) for i in ids]

    def current_game(self) -> int | None:
        """The game to resume at start: the one started or chosen last."""
        value = self.setting("current_game")
        return int(value) if value is not None else None

    def set_result(self, game_id: int, result: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE games SET result = ? WHERE id = ?", (result, game_id))

    # ------------------------------------------------------------------ history
    def event_span(self, game_id: int) -> tuple[int, float | None]:
        """How many events a game has and when the last one was stored (None: none yet)."""
        row = self._read("SELECT COUNT(*), MAX(at) FROM events WHERE game_id = ?", (game_id,))[0]
        return int(row[0]), row[1]

    def summary(self, game_id: int) -> tuple[int, str] | None:
        """A game's kept summary and the number of events it was made from."""
        rows = self._read("SELECT events, data FROM summaries WHERE game_id = ?", (game_id,))
        return None if not rows else (int(rows[0][0]), str(rows[0][1]))

    def set_summaries(self, rows: list[tuple[int, int, str]]) -> None:
        """Keep game summaries as (game id, events it was made from, JSON), in one go."""
        with self._transaction() as db:
            db.executemany(
                "INSERT OR REPLACE INTO summaries (game_id, events, data) VALUES (?, ?, ?)", rows
            )

    def mark_deleted(self, game_id: int, when: float | None) -> None:
        """Hide a game from the history (``when``: the time of deletion) or bring it back
        (None); nothing is removed until :meth:`purge_deleted`."""
        self.game(game_id)  # a sentence for a game that does not exist
        with self._transaction() as db:
            db.execute("UPDATE games SET deleted = ? WHERE id = ?", (when, game_id))

    def purge_deleted(self, before: float) -> list[int]:
        """Remove for good every game deleted before ``before``, in one transaction (a
        failure leaves all of them in place); returns their ids. The current game is kept
        (hidden) until another one starts: the table may still hold it."""
        with self._transaction() as db:
            ids = [
                row[0]
                for row in db.execute(
                    "SELECT id FROM games WHERE deleted IS NOT NULL AND deleted < ? AND id "
                    "NOT IN (SELECT CAST(value AS INTEGER) FROM settings "
                    "WHERE key = 'current_game')",
                    (before,),
                ).fetchall()
            ]
            for game_id in ids:
                db.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
                db.execute("DELETE FROM summaries WHERE game_id = ?", (game_id,))
                db.execute("DELETE FROM games WHERE id = ?", (game_id,))
            return ids

    # ------------------------------------------------------------------ events
    def append(self, game_id: int, event: Event) -> None:
        """Persist one event; returns only once it is on disk (synchronous=FULL)."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO events (game_id, seq, kind, name, seat, args, given, outcome, at, "
                "source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    event.seq,
                    event.kind,
                    event.name,
                    event.seat,
                    json.dumps(event.args),
                    json.dumps(list(event.given)),
                    json.dumps(list(event.outcome)),
                    time.time(),
                    event.source,
                ),
            )

    def events(self, game_id: int, after: int = 0) -> list[Event]:
        rows = self._read(
            "SELECT seq, kind, name, seat, args, given, outcome, source FROM events "
            "WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after),
        )
        return [event_from_row(row) for row in rows]

    # ------------------------------------------------------------------ backups
    def backup(self, keep: int = 10, now: datetime | None = None) -> Path:
        """A consistent copy in ``backups/`` beside the file (SQLite's backup API, safe while
        games are written); only the newest ``keep`` are kept."""
        folder = self.path.parent / BACKUP_FOLDER
        folder.mkdir(parents=True, exist_ok=True)
        stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
        target = folder / f"{BACKUP_PREFIX}{stamp}.sqlite3"
        copy = sqlite3.connect(str(target))
        try:
            with self._lock:
                self._db.backup(copy)
        except sqlite3.Error as error:
            copy.close()
            target.unlink(missing_ok=True)
            raise _write_problem(target, error) from None
        copy.close()
        target.chmod(0o600)
        for old in backups(self.path)[:-keep] if keep > 0 else []:
            old.unlink(missing_ok=True)
        return target

    def last_backup_age(self) -> float | None:
        """Seconds since the newest backup was made; None when there is none."""
        found = backups(self.path)
        return None if not found else time.time() - found[-1].stat().st_mtime

    # ------------------------------------------------------------------ settings
    def setting(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM settings WHERE key = ?", (key,))
        return None if not rows else str(rows[0][0])

    def set_setting(self, key: str, value: str) -> None:
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))

    # ------------------------------------------------------------------ access
    def access(self, now: float) -> tuple[list[TokenRow], list[CodeRow]]:
        """The live tokens (oldest first; expired ones are dropped here) and the seat codes
        (the newest ``KEPT_SEAT_CODES``; older ones are dropped)."""
        with self._transaction() as db:
            db.execute("DELETE FROM tokens WHERE expires <= ?", (now,))
            db.execute(
                "DELETE FROM seat_codes WHERE rowid <= (SELECT MAX(rowid) FROM seat_codes) - ?",
                (KEPT_SEAT_CODES,),
            )
            tokens = db.execute(
                "SELECT hash, expires, seat, game_id FROM tokens ORDER BY rowid"
            ).fetchall()
            codes = db.execute(
                "SELECT code, game_id, seat, ended FROM seat_codes ORDER BY rowid"
            ).fetchall()
        return (
            [TokenRow(str(h), float(e), s, g) for h, e, s, g in tokens],
            [CodeRow(str(c), int(g), int(s), bool(e)) for c, g, s, e in codes],
        )

    def add_token(self, row: TokenRow, dropped: Sequence[str] = ()) -> None:
        """Keep a new token's hash (and forget the ``dropped`` hashes) in one go."""
        with self._transaction() as db:
            db.executemany("DELETE FROM tokens WHERE hash = ?", [(h,) for h in dropped])
            db.execute(
                "INSERT OR REPLACE INTO tokens (hash, expires, seat, game_id) VALUES (?, ?, ?, ?)",
                (row.hash, row.expires, row.seat, row.game_id),
            )

    def drop_token(self, token_hash: str) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM tokens WHERE hash = ?", (token_hash,))

    def add_seat_code(self, row: CodeRow) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO seat_codes (code, game_id, seat, ended) "
                "VALUES (?, ?, ?, ?)",
                (row.code, row.game_id, row.seat, int(row.ended)),
            )

    def number_games_after(self, highest: int) -> None:
        """Number the next game after ``highest`` (a number another file gave, as the one
        a restored backup replaced), unless this file has already gone past it."""
        with self._transaction() as db:
            given = db.execute(
                "SELECT MAX(seq) FROM sqlite_sequence WHERE name = 'games'"
            ).fetchone()[0]
            if highest > int(given or 0):
                db.execute("DELETE FROM sqlite_sequence WHERE name = 'games'")
                db.execute(
                    "INSERT INTO sqlite_sequence (name, seq) VALUES ('games', ?)", (highest,)
                )

    def end_access(self) -> None:
        """For "lock all": forget every token and end every seat code, in one transaction."""
        with self._transaction() as db:
            db.execute("DELETE FROM tokens")
            db.execute("UPDATE seat_codes SET ended = 1")

    def stats(self) -> dict[str, Any]:
        games = self._read("SELECT COUNT(*) FROM games")[0][0]
        events = self._read("SELECT COUNT(*) FROM events")[0][0]
        return {"games": games, "events": events, "schema": self.version}


def salvage(path: Path) -> tuple[GameHeader, list[Event]]:
    """The current game of a damaged file, read-only: its header and every event up to the
    first one that cannot be read."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise StoreDamagedError(f"{path} cannot be opened at all ({error}).") from None
    try:
        row = db.execute("SELECT value FROM settings WHERE key = 'current_game'").fetchone()
        game_id = int(row[0])
        game = db.execute(
            "SELECT game, rules, seed, players, options, given FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        header = GameHeader(
            game=game[0],
            rules=game[1],
            seed=game[2],
            players=tuple(json.loads(game[3])),
            options=json.loads(game[4]),
            given=tuple(json.loads(game[5])),
        )
    except (sqlite3.Error, TypeError, ValueError) as error:
        db.close()
        raise StoreDamagedError(
            f"Not even the current game's set-up can be read ({error})."
        ) from None
    events: list[Event] = []
    seq = 0
    while True:
        try:
            found = db.execute(
                "SELECT seq, kind, name, seat, args, given, outcome, source FROM events "
                "WHERE game_id = ? AND seq = ?",
                (game_id, seq + 1),
            ).fetchone()
            if found is None:
                break
            events.append(event_from_row(found))
        except (sqlite3.Error, TypeError, ValueError):
            break
        seq += 1
    db.close()
    return header, events


EVENT_COLUMNS = "seq, kind, name, seat, args, given, outcome, source"


def event_from_row(row: Any) -> Event:
    """One ``events`` row (in ``EVENT_COLUMNS`` order) as an Event."""
    return Event(
        seq=row[0],
        kind=row[1],
        name=row[2],
        seat=row[3],
        args=json.loads(row[4]),
        given=tuple(json.loads(row[5])),
        outcome=tuple(json.loads(row[6])),
        source=row[7],
    )
