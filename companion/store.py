"""The SQLite event store: every event of every game, durable before it is published.

WAL journal with ``synchronous=FULL`` so an acknowledged event survives a power cut on the
Pi's SD card. The schema is versioned with ``PRAGMA user_version`` and migrated forward on
open; a database written by a newer companion is refused with a sentence saying so.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
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
)
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(CompanionError, RuntimeError):
    """The data file cannot be used; the message says why and what to do."""


@dataclass(frozen=True)
class StoredGame:
    id: int
    header: GameHeader
    created: float
    result: str | None


class Store:
    """One SQLite file holding all games. Safe to share between threads (one lock)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as error:
            raise StoreError(
                f"{self.path} is not a companion data file ({error}); move it away and restart."
            ) from None
        self._lock = threading.Lock()
        self._migrate()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

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
            "SELECT id, game, rules, seed, players, options, given, created, result "
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
        return StoredGame(id=row[0], header=header, created=row[7], result=row[8])

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
        return [
            Event(
                seq=row[0],
                kind=row[1],
                name=row[2],
                seat=row[3],
                args=json.loads(row[4]),
                given=tuple(json.loads(row[5])),
                outcome=tuple(json.loads(row[6])),
                source=row[7],
            )
            for row in rows
        ]

    # ------------------------------------------------------------------ settings
    def setting(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM settings WHERE key = ?", (key,))
        return None if not rows else str(rows[0][0])

    def set_setting(self, key: str, value: str) -> None:
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))

    def stats(self) -> dict[str, Any]:
        games = self._read("SELECT COUNT(*) FROM games")[0][0]
        events = self._read("SELECT COUNT(*) FROM events")[0][0]
        return {"games": games, "events": events, "schema": self.version}
