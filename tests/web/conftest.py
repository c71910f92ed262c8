"""A real table (SQLite in a temp dir) behind the Flask app."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from playwright.sync_api import Browser, Page, expect, sync_playwright

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.store import Store
from companion.table import Table
from tests.web.serving import PIN as PIN
from web import create_app

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# As root, in a closed network: no sandbox, and no background calls home to be refused.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PLAYERS = ("Alice", "Bob", "Cathleen", "Dave")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=PLAYERS, every_stop=True))
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


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's headless Chromium, driven by Playwright (no browser download)."""
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True
        )
        yield launched
        launched.close()


def shots(tmp_path: Path) -> Path:
    """Where screenshots go: $SCREENSHOT_DIR (``make screenshots``) or the test's tmp dir."""
    folder = Path(os.environ.get("SCREENSHOT_DIR", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def unlock(page: Page) -> None:
    """Type the table PIN into the page's dialog, as a player does, and wait for control.

    The page's scripts are deferred: a tap that lands after the page is drawn but before
    they ran does nothing (a slow machine showed it), so wait until they have run.
    """
    page.wait_for_load_state("domcontentloaded")
    page.click("#lock")
    page.fill("#pin", PIN)
    page.click("#pin-form button.primary")
    expect(page.locator("#controls")).to_be_visible()
