"""A real table (SQLite in a temp dir) behind the Flask app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.store import Store
from companion.table import Table
from web import create_app

PIN = "246810"
PLAYERS = ("Alice", "Bob", "Cathleen", "Dave")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=PLAYERS))
    table.new_game(GameHeader("run-hamster-run", "v2.1", PLAYERS, 7, given=([0, 1, 2, 3],)))
    yield table
    table.close()
    store.close()


@pytest.fixture
def app(table: Table) -> Flask:
    return create_app(table, PIN, heartbeat_seconds=0.2, test_config={"TESTING": True})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def token(client: FlaskClient) -> str:
    response = client.post("/api/login", json={"pin": PIN})
    assert response.status_code == 200
    return str(response.get_json()["token"])
