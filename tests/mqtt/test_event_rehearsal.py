"""The event day rehearsed end to end on a real mosquitto: four real tables (two of them
started with the same name, as two Pis still set up alike) play whole games with their
games' own bots, and the organiser's board follows them.

What the organiser must be able to trust, checked throughout: every table has its own
name, the board shows each table live with its own game as it is now, stopping a table
never makes another look offline, and the day's export lists every finished game and
every player's standing.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.engine.session import GameHeader
from companion.games import GAMES
from companion.mqtt.board import BoardClient
from companion.mqtt.connect import Broker
from companion.mqtt.export import board_export
from companion.mqtt.publisher import TablePublisher
from companion.mqtt.topics import Topics
from companion.serve import companion_command
from tests.mqtt.mosquitto import MISSING, MOSQUITTO, Mosquitto
from tests.mqtt.test_mqtt import PlayedTable, eventually
from web import create_app

pytestmark = pytest.mark.skipif(not MOSQUITTO.exists(), reason=MISSING)

# (the name each table is given, its game, its players): the second "table-1" is the
# namesake, started after the first; players meet again at other tables.
EVENING = (
    ("table-1", "hamsterdam", ("Ann", "Bo", "Cy")),
    ("table-1", "rats", ("Dee", "Ann", "Eli", "Fay")),
    ("table-2", "run-hamster-run", ("Gus", "Bo", "Hal")),
    ("table-3", "hamster-wheel", ("Ivy", "Cy")),
)


def settled(publisher: TablePublisher) -> bool:
    return publisher.claimed and publisher.published >= 1


def all_over(tables: list[PlayedTable]) -> bool:
    return all(
        t.table.snapshot.state is not None and t.table.snapshot.state.ctx.over for t in tables
    )


class Rehearsal:
    """The evening's tables, each publishing under the name it got."""

    def __init__(self, folder: Path, broker: Broker) -> None:
        self.tables: list[PlayedTable] = []
        self.publishers: list[TablePublisher] = []
        for number, (name, game, players) in enumerate(EVENING):
            table = PlayedTable(folder / f"pi-{number}", name, game, players)
            publisher = TablePublisher(table.table, broker, Topics("hamster", name))
            publisher.start()
            # One Pi after the other, as they are switched on at a venue.
            assert eventually(partial(settled, publisher))
            self.tables.append(table)
            self.publishers.append(publisher)
        self.stopped: set[int] = set()

    def names(self) -> list[str]:
        return [p.topics.table for p in self.publishers]

    def running(self) -> Iterator[tuple[PlayedTable, TablePublisher]]:
        for index, pair in enumerate(zip(self.tables, self.publishers, strict=True)):
            if index not in self.stopped:
                yield pair

    def right(self, board: BoardClient) -> bool:
        """The board shows every running table live, with its own game as it is now."""
        shown = board.board.tables()
        for table, publisher in self.running():
            state = shown.get(publisher.topics.table)
            truth = table.truth()
            if state is None or not state.get("online"):
                return False
            if any(state.get(key) != truth[key] for key in ("game", "seq", "over")):
                return False
        return True

    def stop(self, index: int) -> None:
        self.publishers[index].stop()
        self.stopped.add(index)

    def close(self) -> None:
        for index in range(len(self.tables)):
            if index not in self.stopped:
                self.publishers[index].stop()
        for table in self.tables:
            table.close()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    server = Mosquitto(tmp_path / "broker")
    server.start()
    yield server
    server.stop()


def test_an_event_day_rehearsed_with_bots_on_four_tables(broker: Mosquitto, tmp_path: Path) -> None:
    address = Broker("127.0.0.1", broker.port)
    board = BoardClient(address)
    board.start()
    board.wait_caught_up()
    evening = Rehearsal(tmp_path, address)
    try:
        # Names nobody else has: the namesake took table-1-2, and both were told.
        assert evening.names() == ["table-1", "table-1-2", "table-2", "table-3"]
        assert "publishes as 'table-1-2'" in evening.publishers[1].status
        assert eventually(lambda: "'table-1-2'" in evening.publishers[0].status)

        # Every table plays its game to the end, a few changes at a time, and the board
        # is right after every round of changes.
        while not all_over(evening.tables):
            for table in evening.tables:
                table.play(25)
            assert eventually(lambda: evening.right(board)), board.board.tables()

        # A second game at table-3, while table-1's namesake goes home: table-1 never
        # looks offline, and neither does anyone else.
        wheel = evening.tables[3]
        spec = GAMES["hamster-wheel"]
        wheel.table.new_game(GameHeader(spec.name, spec.rules_default, ("Ivy", "Bo"), 9))
        evening.stop(1)
        assert eventually(lambda: not board.board.tables()["table-1-2"]["online"])
        wheel.play(20_000)
        assert eventually(lambda: evening.right(board)), board.board.tables()
        assert board.board.tables()["table-1"]["online"]

        # The day's results in one file, from the command line and from the page.
        export = tmp_path / "day.json"
        runner = CliRunner()
        args = ["board", "--broker", f"127.0.0.1:{broker.port}", "--export", str(export)]
        done = runner.invoke(companion_command, args)
        assert done.exit_code == 0, done.output
        assert "Wrote 5 finished games" in done.output
        data = json.loads(export.read_text(encoding="utf-8"))
        listed = {(g["table"], g["game"]) for g in data["games"]}
        assert listed == {
            ("table-1", "Hamsterdam"),
            ("table-1-2", "Rats"),
            ("table-2", "Run, Hamster, Run!"),
            ("table-3", "Hamster Wheel"),
        }
        assert len(data["games"]) == 5
        everyone = {p.casefold() for _, _, players in EVENING for p in players}
        assert {s["player"].casefold() for s in data["standings"]} == everyone
        wins = sum(s["wins"] for s in data["standings"])
        assert wins == sum(len(g["winners"]) for g in data["games"])
        ann = next(p for p in data["players"] if p["player"] == "Ann")
        assert {g["table"] for g in ann["games"]} == {"table-1", "table-1-2"}

        app = create_app(
            evening.tables[0].table, "246810", event_export=partial(board_export, board.board)
        )
        response = app.test_client().get("/api/board/export.csv")
        assert response.status_code == 200
        assert "attachment" in response.headers["Content-Disposition"]
        rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
        games = {(r["table"], r["game_id"]) for r in rows if r["kind"] == "game"}
        assert len(games) == 5
        assert {r["player"] for r in rows if r["kind"] == "standing"} == {
            s["player"] for s in data["standings"]
        }
    finally:
        evening.close()
        board.stop()
