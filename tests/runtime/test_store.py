"""The SQLite store: durable events, resume, migrations and clear refusals."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.engine.session import GameHeader, Session
from companion.games.run_hamster_run import SPEC
from companion.saved import resume_game, start_game
from companion.store import SCHEMA_VERSION, AccessStore, Store, StoreError

HEADER = GameHeader(SPEC.name, "v2.1", ("Alice", "Bob"), 9)


def current_seat(session: Session[Any]) -> int:
    seat = session.state.ctx.current
    assert seat is not None, "the game is waiting for a seat to act"
    return seat


def test_game_resumes_after_reopening_with_the_same_state(tmp_path: Path) -> None:
    store = Store(tmp_path / "c.sqlite3")
    game_id, session = start_game(store, HEADER)
    session.move(current_seat(session), "place", to=[3, 3])
    session.undo()
    session.redo()
    store.close()
    reopened = Store(tmp_path / "c.sqlite3")
    found = resume_game(reopened)
    assert found is not None and found[0] == game_id
    assert found[1].state == session.state
    assert [e.kind for e in reopened.events(game_id)] == ["move", "undo", "redo"]


def test_wal_and_full_sync_are_on(tmp_path: Path) -> None:
    store = Store(tmp_path / "c.sqlite3")
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_an_illegal_move_writes_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "c.sqlite3")
    game_id, session = start_game(store, HEADER)
    with pytest.raises(ValueError):
        session.move(current_seat(session), "place", to=[9, 9])
    assert store.events(game_id) == []


def test_an_old_schema_is_migrated_forward(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    from companion.store import MIGRATIONS

    db.executescript(MIGRATIONS[0])
    db.execute(
        "INSERT INTO games (game, rules, seed, players, created) VALUES (?, ?, ?, ?, 0)",
        (SPEC.name, "v2.1", 9, '["Alice", "Bob"]'),
    )
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    store = Store(path)
    assert store.version == SCHEMA_VERSION
    assert store.game(1).header.players == ("Alice", "Bob")
    assert AccessStore(store).access(0.0) == (
        [],
        [],
    )  # no tablet or phone kept from before: all unlock


def test_a_newer_schema_is_refused_with_a_sentence(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.close()
    with pytest.raises(StoreError, match="newer companion"):
        Store(path)


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="is damaged"):
        Store(path)


def test_rebuild_from_store_equals_live_session(tmp_path: Path) -> None:
    store = Store(tmp_path / "c.sqlite3")
    game_id, session = start_game(store, HEADER)
    session.move(current_seat(session), "place", to=[3, 3])
    session.move(current_seat(session), "place", to=[3, 4])
    session.next()
    rebuilt = Session.replay(SPEC, store.game(game_id).header, store.events(game_id))
    assert rebuilt.state == session.state
