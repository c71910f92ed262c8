"""The /board page on any one Pi: every table at the event, live, from a real broker.

Two tables publish to Debian's mosquitto; the page's Pi follows the broker as
``companion run`` does with [mqtt], and Chromium shows the board as people see it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from playwright.sync_api import Browser, expect

from companion.demo_table import DEMO_NOTE
from companion.mqtt.board import BoardClient, board_json
from companion.mqtt.claim import kept_name
from companion.mqtt.connect import Broker, client_id, make_client
from companion.table import Table
from tests.mqtt.mosquitto import MISSING, MOSQUITTO, Mosquitto
from tests.mqtt.test_mqtt import PlayedTable, publish
from tests.web.conftest import PIN
from tests.web.serving import serving
from web import create_app

ROOT = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("AXE_JS", ROOT / ".cache/axe/node_modules/axe-core/axe.min.js"))
needs_broker = pytest.mark.skipif(not MOSQUITTO.exists(), reason=MISSING)


def test_a_pi_on_no_broker_says_how_to_put_it_on_one(client: FlaskClient) -> None:
    data = client.get("/api/board").get_json()
    assert data["tables"] == [] and "set host in the [mqtt] section" in data["off"]
    assert client.get("/board").status_code == 200


@pytest.fixture
def event(tmp_path: Path) -> Iterator[tuple[Broker, list[PlayedTable]]]:
    server = Mosquitto(tmp_path / "broker")
    server.start()
    broker = Broker("127.0.0.1", server.port)
    tables = [
        PlayedTable(tmp_path, "table-1", "hamsterdam", ("Ann", "Bo", "Cy")),
        PlayedTable(tmp_path, "table-2", "rats", ("Ann", "Dee", "Eli", "Fay")),
    ]
    publishers = publish(tables, broker)
    for table in tables:
        table.play(10)
    yield broker, tables
    for publisher in publishers:
        publisher.stop()
    for table in tables:
        table.close()
    server.stop()


@needs_broker
@pytest.mark.browser
def test_the_page_shows_every_table_and_the_standings_live(
    event: tuple[Broker, list[PlayedTable]], table: Table, browser: Browser
) -> None:
    broker, tables = event
    board = BoardClient(broker)
    board.start()
    # A stranger on the event's network publishes a name made to look like markup (a topic
    # level cannot hold a "/", so an unclosed tag).
    stranger = make_client(broker, client_id("stranger"))
    stranger.connect(broker.host, broker.port)
    stranger.loop_start()
    fake = {"format": 1, "table": "x", "game": None, "sent": 0}
    stranger.publish(
        "hamster/<em>bold/state", json.dumps(fake), qos=1, retain=True
    ).wait_for_publish(5)
    # Own set-up: the page's event board is a live BoardClient on a real broker.
    app = create_app(table, PIN, heartbeat_seconds=0.2, event_board=board.json)
    try:
        with serving(app, table) as port:
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/board")
            rows = page.locator("#tables tbody tr")
            expect(rows.filter(has_text="table-1")).to_contain_text("Hamsterdam")
            expect(rows.filter(has_text="table-2")).to_contain_text("Rats")
            expect(page.locator("#standings tbody")).to_contain_text("Ann")
            expect(rows.filter(has_text="<em>bold")).to_have_count(1)  # shown as text
            assert page.locator("#tables em").count() == 0
            tables[0].play(40)  # the game moves on: the page follows without a reload
            after = tables[0].truth()
            row = rows.filter(has_text="table-1")
            expect(row.locator("td").nth(2)).to_have_text(str(after["round"]))
            leader = (
                next(e for e in after["standings"] if e["leads"])["name"]
                if any(e["leads"] for e in after["standings"])
                else "nobody yet"
            )
            expect(row.locator("td").nth(4)).to_contain_text(leader)
            if AXE.exists():
                context = browser.new_context(bypass_csp=True)
                checked = context.new_page()
                checked.goto(f"http://127.0.0.1:{port}/board")
                expect(checked.locator("#tables tbody tr").first).to_be_visible()
                checked.add_script_tag(path=str(AXE))
                found = checked.evaluate(
                    "async () => (await axe.run()).violations.map("
                    "(v) => `${v.id}: ${v.nodes.map((n) => n.target + n.failureSummary).join()}`)"
                )
                assert found == []
                context.close()
            page.close()
    finally:
        stranger.publish("hamster/<em>bold/state", b"", qos=1, retain=True)
        stranger.disconnect()
        stranger.loop_stop()
        board.stop()


@needs_broker
@pytest.mark.browser
def test_the_page_says_when_the_broker_is_gone_instead_of_showing_old_standings_as_live(
    tmp_path: Path, table: Table, browser: Browser
) -> None:
    """The broker's Pi lost its power: the page kept every table and the standings as they
    were, still marked online and "live", so the front desk read old figures as news. Now
    it says the broker cannot be reached, and goes back to live when it returns."""
    server = Mosquitto(tmp_path / "broker")
    server.start()
    broker = Broker("127.0.0.1", server.port)
    played = PlayedTable(tmp_path, "table-1", "hamsterdam", ("Ann", "Bo", "Cy"))
    (publisher,) = publish([played], broker)
    board = BoardClient(broker)
    board.start()
    # Own set-up: the page's event board is a live BoardClient on a real broker.
    app = create_app(table, PIN, heartbeat_seconds=0.2, event_board=board.json)
    try:
        with serving(app, table) as port:
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/board")
            note, live = page.locator("#board-note"), page.locator("#board-live")
            expect(page.locator("#tables tbody tr")).to_contain_text("table-1")
            expect(note).to_have_text("1 table")
            expect(live).to_have_class("dot on")
            server.kill()
            expect(note).to_contain_text("cannot be reached", timeout=15_000)
            expect(note).to_contain_text(f"127.0.0.1:{server.port}")
            expect(live).not_to_have_class("dot on")
            expect(page.locator("#tables tbody tr")).to_contain_text("table-1")  # still there
            server.start()
            expect(note).to_have_text("1 table", timeout=20_000)
            expect(live).to_have_class("dot on")
            page.close()
    finally:
        board.stop()
        publisher.stop()
        played.close()
        server.stop()


def board_of(*names: str) -> dict[str, Any]:
    """A board with one finished game per name, won by the first player."""
    states = {
        name: {
            "table": name,
            "game": "rats",
            "title": "Rats",
            "over": True,
            "online": True,
            "sent": 0,
            "standings": [
                {"name": "Ann", "rank": 1, "figure": "a pair", "leads": True},
                {"name": "Bo", "rank": 2, "figure": "no cards", "leads": False},
            ],
        }
        for name in names
    }
    states[names[-1]] |= {"demo": True}
    return {**board_json(states), "off": None}


@pytest.mark.browser
def test_a_tv_shows_the_standings_alone_and_the_tables_page_says_it_is_a_demo(
    table: Table, browser: Browser
) -> None:
    notice = f"{DEMO_NOTE} Event board: {kept_name('table-1', 'table-1-2', 'pi:1883')}."
    # Own set-up: the /board page (TV view) over a made-up board and a device notice.
    app = create_app(
        table,
        PIN,
        heartbeat_seconds=0.2,
        event_board=lambda: board_of("table-1", "shop-window"),
        device_status=lambda: {"notice": notice},
    )
    with serving(app, table) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}/board?view=tv")
        standings = page.locator("#standings tbody tr")
        expect(standings.first).to_contain_text("Ann")
        expect(standings).to_have_count(2)  # the demo table's game is not counted
        expect(page.locator("#tables")).to_be_hidden()
        expect(page.locator("h1")).to_have_text("Standings")
        page.goto(f"http://127.0.0.1:{port}/board")
        demo = page.locator("#tables tbody tr").filter(has_text="shop-window")
        expect(demo).to_contain_text("demo: plays itself, not counted")
        expect(page.locator("a[href='/api/board/export.csv']")).to_be_visible()
        page.goto(f"http://127.0.0.1:{port}/")
        banner = page.locator("#table-note")
        expect(banner).to_contain_text("Demo table")
        expect(banner).to_contain_text("it publishes as 'table-1-2'")
        page.close()
        if AXE.exists():  # the banner and the TV view are readable by everyone
            context = browser.new_context(bypass_csp=True)
            checked = context.new_page()
            for path, shown in (("/", "#table-note"), ("/board?view=tv", "#standings tbody tr")):
                checked.goto(f"http://127.0.0.1:{port}{path}")
                expect(checked.locator(shown).first).to_be_visible()
                checked.add_script_tag(path=str(AXE))
                found = checked.evaluate(
                    "async () => (await axe.run()).violations.map("
                    "(v) => `${v.id}: ${v.nodes.map((n) => n.target + n.failureSummary).join()}`)"
                )
                assert found == [], path
            context.close()
