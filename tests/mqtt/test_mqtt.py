"""Many tables at one event: three real tables publish to a real mosquitto, the broker is
killed mid-game and comes back, and the event board ends with every table's true state.

The tables are the real runtime (``Table`` over its own SQLite file), played by each game's
own bot; the broker is Debian's mosquitto on a free 127.0.0.1 port; the board is the same
subscriber ``companion board`` uses.
"""

from __future__ import annotations

import contextlib
import json
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from click.testing import CliRunner
from paho.mqtt.enums import CallbackAPIVersion

from companion import history
from companion.commands.doctor import check_event_broker
from companion.config import Config, MqttConfig, load_config
from companion.engine.session import GameHeader
from companion.games import GAMES, find_game
from companion.mqtt.board import BoardClient, tournament
from companion.mqtt.connect import Broker, client_id, make_client
from companion.mqtt.publisher import TablePublisher, table_origin
from companion.mqtt.topics import Topics
from companion.serve import companion_command
from companion.simulate import bot_of, bot_turn
from companion.startup.board import start_mqtt
from companion.startup.games import table_pin
from companion.store import Store
from companion.table import Table
from tests.mqtt.mosquitto import MISSING, MOSQUITTO, Mosquitto
from web.tls import authority_certificate, ensure_certificate

pytestmark = pytest.mark.skipif(not MOSQUITTO.exists(), reason=MISSING)

# Three tables of one evening: a different game at each, shared player names for standings.
SETUPS = (
    ("table-1", "hamsterdam", ("Ann", "Bo", "Cy")),
    ("table-2", "run-hamster-run", ("Dee", "Ann", "Eli")),
    ("table-3", "rats", ("Fay", "Gus", "Bo", "Hal")),
)
PHONE_DECK = {"deck": "phone"}  # Rats with hands dealt to phones: private cards exist


def eventually(check: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Poll until ``check()`` holds (the broker and paho work on their own threads)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


class PlayedTable:
    """A real table played by its game's bot, one legal change at a time."""

    def __init__(self, folder: Path, name: str, game: str, players: tuple[str, ...]) -> None:
        self.name = name
        self.store = Store(folder / f"{name}.sqlite3")
        self.table = Table(self.store)
        spec = find_game(game)
        options = PHONE_DECK if "deck" in spec.options else {}
        self.table.new_game(GameHeader(spec.name, spec.rules_default, players, 7, options))
        self.bot = bot_of(spec)
        self.rng = random.Random(name)

    def play(self, steps: int) -> None:
        for _ in range(steps):
            state = self.table.snapshot.state
            assert state is not None
            if state.ctx.over:
                return
            bot_turn(self.bot, state, self.rng, lambda e: self.table.submit(e).result(10))

    def truth(self) -> dict[str, Any]:
        """What the board must show for this table: its public state now."""
        public = self.table.public_state(None, with_log=False)
        keys = ("game", "round", "phase", "seq", "over", "standings", "players")
        return {key: public[key] for key in keys}

    def close(self) -> None:
        self.table.close()
        self.store.close()


def shown(board: BoardClient, table: PlayedTable) -> dict[str, Any] | None:
    state = board.board.tables().get(table.name)
    return None if state is None else {key: state.get(key) for key in table.truth()}


class Listener:
    """Every message under ``hamster/#``, as an outsider on the event's network sees it."""

    def __init__(self, broker: Broker) -> None:
        self.messages: list[tuple[str, bytes]] = []
        self.lock = threading.Lock()
        self.client = make_client(broker, client_id("listener"))
        self.client.on_connect = lambda c, *_: c.subscribe("hamster/#", qos=1)
        self.client.on_message = self._message
        self.client.connect_async(broker.host, broker.port)
        self.client.loop_start()

    def _message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self.lock:
            self.messages.append((message.topic, bytes(message.payload)))

    def payloads(self) -> list[bytes]:
        with self.lock:
            return [payload for _, payload in self.messages]

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    server = Mosquitto(tmp_path / "broker")
    server.start()
    yield server
    server.stop()


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[list[PlayedTable]]:
    played = [PlayedTable(tmp_path, *setup) for setup in SETUPS]
    yield played
    for table in played:
        table.close()


def board_once(args: list[str], *expected: str) -> Any:
    """``companion board --once``, again until it shows ``expected``: a state handed to paho
    a moment ago may still be on its way to the broker when the board subscribes."""
    found: list[Any] = []

    def shows() -> bool:
        found[:] = [CliRunner().invoke(companion_command, [*args, "--once"])]
        return found[0].exit_code == 0 and all(word in found[0].output for word in expected)

    eventually(shows, timeout=10)
    return found[0]


def publish(tables: list[PlayedTable], broker: Broker) -> list[TablePublisher]:
    publishers = [TablePublisher(t.table, broker, Topics("hamster", t.name)) for t in tables]
    for publisher in publishers:
        publisher.start()
    return publishers


def test_the_board_ends_with_every_tables_true_state_after_the_broker_dies_mid_game(
    broker: Mosquitto, tables: list[PlayedTable]
) -> None:
    address = Broker("127.0.0.1", broker.port)
    publishers = publish(tables, address)
    board = BoardClient(address)
    board.start()
    try:
        for table in tables:
            table.play(12)
        board.wait_caught_up()
        assert eventually(lambda: all(shown(board, t) == t.truth() for t in tables))

        broker.kill()
        assert eventually(lambda: not any(p.connected for p in publishers))
        before = [t.truth()["seq"] for t in tables]
        for table in tables:
            table.play(12)  # the game goes on without the broker
        assert all(t.truth()["seq"] > seq for t, seq in zip(tables, before, strict=True))

        broker.start()  # empty: persistence is off, every retained state was lost
        assert eventually(lambda: all(shown(board, t) == t.truth() for t in tables))
        assert all(board.board.tables()[t.name]["online"] for t in tables)
        latecomer = BoardClient(address)  # the organiser's laptop, opened only now
        latecomer.start()
        latecomer.wait_caught_up()
        assert eventually(lambda: all(shown(latecomer, t) == t.truth() for t in tables))
        latecomer.stop()
    finally:
        board.stop()
        for publisher in publishers:
            publisher.stop()


def test_a_fresh_board_from_the_command_line_shows_every_table_and_the_standings(
    broker: Mosquitto, tables: list[PlayedTable]
) -> None:
    publishers = publish(tables, Broker("127.0.0.1", broker.port))
    try:
        for table in tables:
            table.play(20)
        assert eventually(lambda: all(p.published and p.connected for p in publishers))
        names = [name for name, _, _ in SETUPS]
        result = board_once(["board", "--broker", f"127.0.0.1:{broker.port}"], *names)
        assert result.exit_code == 0, result.output
        for name, game, players in SETUPS:
            assert name in result.output
            assert GAMES[game].title in result.output
            assert all(player in result.output for player in players)
        assert "Standings across tables" in result.output
        # Ann plays at two tables and Bo at two: each is one line of the standings.
        standings = result.output.split("Standings across tables")[1]
        assert standings.count(" Ann ") == 1 and standings.count(" Bo ") == 1
    finally:
        for publisher in publishers:
            publisher.stop()


def test_when_a_table_stops_the_board_says_it_is_offline_and_keeps_its_last_state(
    broker: Mosquitto, tables: list[PlayedTable]
) -> None:
    address = Broker("127.0.0.1", broker.port)
    publishers = publish(tables, address)
    board = BoardClient(address)
    board.start()
    try:
        board.wait_caught_up()
        assert eventually(lambda: len(board.board.tables()) == len(tables))
        publishers[0].stop()
        assert eventually(lambda: not board.board.tables()["table-1"]["online"])
        assert board.board.tables()["table-1"]["game"] == "hamsterdam"
    finally:
        board.stop()
        for publisher in publishers[1:]:
            publisher.stop()


def test_no_secret_is_ever_published(
    broker: Mosquitto, tables: list[PlayedTable], tmp_path: Path
) -> None:
    """Nothing a watcher may not see leaves the table: no PIN, no private Rats hand, no
    secret move's arguments (only the fields the board needs are sent at all)."""
    pin = table_pin(Config(), tables[0].store)
    address = Broker("127.0.0.1", broker.port)
    listener = Listener(address)
    assert eventually(lambda: listener.client.is_connected())
    publishers = publish(tables, address)
    try:
        for table in tables:
            table.play(25)
        rats = tables[2].table.snapshot.state
        assert rats is not None
        in_hands = {card for rat in rats.G.rats for card in rat.hand}
        assert in_hands, "the phone deck deals private hands"
        seqs = [t.truth()["seq"] for t in tables]
        assert eventually(
            lambda: all(
                any(
                    topic == f"hamster/{t.name}/state" and json.loads(p).get("seq") == seq
                    for topic, p in list(listener.messages)
                )
                for t, seq in zip(tables, seqs, strict=True)
            )
        )
    finally:
        for publisher in publishers:
            publisher.stop()
        listener.stop()
    payloads = listener.payloads()
    assert payloads
    text = b"\n".join(payloads).decode()
    for card in in_hands:
        assert f'"{card}"' not in text, f"the private card {card} was published"
    assert pin not in text
    for payload in payloads:
        if payload.startswith(b"{"):
            assert not _keys(json.loads(payload)) & {"hand", "view", "legal", "token", "pin"}


def _keys(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for value in data.values() for k in _keys(value)}
    if isinstance(data, list):
        return {k for value in data for k in _keys(value)}
    return set()


def test_a_broker_with_passwords_takes_the_right_one_and_refuses_a_wrong_one_in_a_sentence(
    tmp_path: Path, tables: list[PlayedTable]
) -> None:
    server = Mosquitto(tmp_path / "locked", users={"table": "s3cret-table", "desk": "d3sk-pass"})
    server.start()
    publishers = publish(tables[:1], Broker("127.0.0.1", server.port, "table", "s3cret-table"))
    try:
        assert eventually(lambda: publishers[0].connected)
        right = tmp_path / "desk.pass"
        right.write_text("d3sk-pass\n", encoding="utf-8")
        wrong = tmp_path / "wrong.pass"
        wrong.write_text("guess\n", encoding="utf-8")
        address = f"127.0.0.1:{server.port}"
        base = ["board", "--broker", address, "--username", "desk"]
        ok = board_once([*base, "--password-file", str(right)], "table-1")
        assert ok.exit_code == 0, ok.output
        assert "table-1" in ok.output and "s3cret" not in ok.output
        refused = CliRunner().invoke(
            companion_command, [*base, "--password-file", str(wrong), "--once"]
        )
        assert refused.exit_code == 2
        lines = refused.output.strip().splitlines()
        assert len(lines) == 1, refused.output
        assert f"The broker at {address} refused user 'desk'" in lines[0]
        assert "check the user name and password" in lines[0]
        bad_table = TablePublisher(
            tables[1].table,
            Broker("127.0.0.1", server.port, "table", "nope"),
            Topics("hamster", "x"),
        )
        bad_table.start()
        assert eventually(lambda: bad_table.status.startswith("refused: The broker"))
        assert tables[1].table.responsive(), "a refused table still plays"
        bad_table.stop()
    finally:
        for publisher in publishers:
            publisher.stop()
        server.stop()


def test_companion_run_puts_the_table_on_the_board_from_its_config(
    broker: Mosquitto, tables: list[PlayedTable], tmp_path: Path
) -> None:
    """The composition root's hook: [mqtt] in the config is all a table needs."""
    config_file = tmp_path / "companion.toml"
    config_file.write_text(
        f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\ntable = "front-desk"\n',
        encoding="utf-8",
    )
    publisher, status = start_mqtt(load_config(config_file), tables[0].table)
    assert publisher is not None and "hamster/front-desk/" in status
    try:
        assert eventually(lambda: publisher.connected)
        assert publisher.status.startswith("publishing hamster/front-desk/")
        result = board_once(["--config", str(config_file), "board"], "front-desk")
        assert result.exit_code == 0, result.output
        assert "front-desk" in result.output and "Hamsterdam" in result.output
    finally:
        publisher.stop()
    off, why = start_mqtt(load_config(None), tables[0].table)
    assert off is None and "set host in [mqtt]" in why


def test_the_live_board_redraws_as_the_games_move_and_stops_on_ctrl_c(
    broker: Mosquitto, tables: list[PlayedTable]
) -> None:
    publishers = publish(tables, Broker("127.0.0.1", broker.port))
    command = [sys.executable, "-m", "companion", "board", "--broker", f"127.0.0.1:{broker.port}"]
    board = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert board.stdout is not None
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(board.stdout or ()), daemon=True)
    reader.start()
    try:
        assert eventually(lambda: any("Standings across tables" in line for line in lines))
        tables[0].play(30)  # after the first board: what follows must be redrawn
        truth = tables[0].truth()
        row = f"{truth['round']:>5}  {truth_phase(tables[0])}"
        assert eventually(
            lambda: any(line.startswith("table-1 ") and row in line for line in list(lines))
        ), "".join(lines[-12:])
        board.send_signal(signal.SIGINT)
        _, err = board.communicate(timeout=30)
        reader.join(10)
    finally:
        if board.poll() is None:
            board.kill()
        for publisher in publishers:
            publisher.stop()
    assert board.returncode == 0, err
    assert sum("Standings across tables" in line for line in lines) >= 2, "redrawn as it goes"


def truth_phase(table: PlayedTable) -> str:
    public = table.table.public_state(None, with_log=False)
    return "game over" if public["over"] else str(public["phase_title"])


def test_changes_made_while_the_broker_is_away_reach_a_listener_in_order_when_it_returns(
    tmp_path: Path, tables: list[PlayedTable]
) -> None:
    """The events topic loses nothing over a short outage: the table keeps its changes and
    sends them when the broker is back (a listener with a lasting session, such as Home
    Assistant's, gets them all, in order)."""
    server = Mosquitto(tmp_path / "kept", persistence=True)
    server.start()
    address = Broker("127.0.0.1", server.port)
    got: list[int] = []
    listener = mqtt.Client(
        CallbackAPIVersion.VERSION2, client_id="home-assistant", clean_session=False
    )
    listener.on_connect = lambda c, *_: c.subscribe("hamster/table-1/events", qos=1)
    listener.on_message = lambda c, u, m: got.append(int(json.loads(m.payload)["seq"]))
    listener.connect_async(address.host, address.port)
    listener.loop_start()
    publishers = publish(tables[:1], address)
    try:
        assert eventually(lambda: publishers[0].connected and listener.is_connected())
        start = tables[0].truth()["seq"]
        tables[0].play(5)
        assert eventually(lambda: bool(got) and got[-1] == tables[0].truth()["seq"])
        server.stop()  # a clean stop: the listener's session is kept on disk
        assert eventually(lambda: not publishers[0].connected)
        tables[0].play(10)  # while the broker is away
        server.start()
        end = tables[0].truth()["seq"]
        assert eventually(lambda: bool(got) and got[-1] == end)
        assert sorted(set(got)) == list(range(start + 1, end + 1))
        assert publishers[0].dropped == 0
    finally:
        listener.disconnect()
        listener.loop_stop()
        for publisher in publishers:
            publisher.stop()
        server.stop()


def test_a_new_game_at_a_table_replaces_the_old_one_on_the_board(
    broker: Mosquitto, tables: list[PlayedTable]
) -> None:
    address = Broker("127.0.0.1", broker.port)
    publishers = publish(tables[:1], address)
    board = BoardClient(address)
    board.start()
    try:
        tables[0].play(10)
        board.wait_caught_up()
        assert eventually(lambda: shown(board, tables[0]) == tables[0].truth())
        header = GameHeader("hamster-wheel", GAMES["hamster-wheel"].rules_default, ("Ann", "Bo"), 3)
        tables[0].table.new_game(header)
        assert eventually(lambda: board.board.tables()["table-1"]["game"] == "hamster-wheel")
        assert eventually(lambda: shown(board, tables[0]) == tables[0].truth())
        tables[0].bot = bot_of(GAMES["hamster-wheel"])
        tables[0].play(5)
        assert eventually(lambda: shown(board, tables[0]) == tables[0].truth())
    finally:
        board.stop()
        for publisher in publishers:
            publisher.stop()


def test_a_broker_that_speaks_tls_carries_the_table_to_the_board(
    tmp_path: Path, tables: list[PlayedTable]
) -> None:
    """tls = true with the event's own certificate authority (made as the page's HTTPS is)."""
    certificates = tmp_path / "tls"
    certificates.mkdir()
    chain, key = ensure_certificate(certificates, "event-pi")
    authority = authority_certificate(certificates)
    assert authority is not None
    server = Mosquitto(tmp_path / "tls-broker", tls=(chain, key))
    server.start()
    config_file = tmp_path / "companion.toml"
    config_file.write_text(
        f'[mqtt]\nhost = "localhost"\nport = {server.port}\ntable = "secure-table"\n'
        f'tls = true\nca_file = "{authority}"\n',
        encoding="utf-8",
    )
    publisher, _ = start_mqtt(load_config(config_file), tables[0].table)
    assert publisher is not None
    try:
        assert eventually(lambda: publisher.connected)
        result = board_once(["--config", str(config_file), "board"], "secure-table")
        assert result.exit_code == 0, result.output
        assert "Hamsterdam" in result.output
    finally:
        publisher.stop()
        server.stop()


def test_the_doctor_says_whether_the_event_broker_takes_this_tables_login(
    tmp_path: Path,
) -> None:
    server = Mosquitto(tmp_path / "locked", users={"tables": "right-one"})
    server.start()
    try:
        good = MqttConfig(
            host="127.0.0.1", port=server.port, username="tables", password="right-one"
        )
        (found,) = check_event_broker(good)
        assert found.ok and "the broker at 127.0.0.1 accepts this table" in found.what
        (refused,) = check_event_broker(replace(good, password="wrong"))
        assert not refused.ok and not refused.optional
        assert "refused user 'tables'" in refused.what and "check the user name" in refused.what
        assert list(check_event_broker(MqttConfig())) == []  # no [mqtt]: nothing to check
    finally:
        server.stop()


def test_a_tournament_keeps_each_finished_game_after_the_table_moves_on(
    broker: Mosquitto, tables: list[PlayedTable]
) -> None:
    """A table finishes a game and starts the next: a board opened afterwards still counts
    the finished game's winner (the broker keeps each result), and only once."""
    address = Broker("127.0.0.1", broker.port)
    publishers = publish(tables[:1], address)
    try:
        tables[0].play(20_000)
        public = tables[0].table.public_state(None, with_log=False)
        assert public["over"]
        winners = [e["name"] for e in public["standings"] if e["leads"]]
        assert winners
        header = GameHeader("hamster-wheel", GAMES["hamster-wheel"].rules_default, ("Ann", "Bo"), 3)
        tables[0].table.new_game(header)
        assert eventually(lambda: publishers[0].published >= 2)
        late = BoardClient(address)
        late.start()
        try:
            late.wait_caught_up()
            assert eventually(lambda: len(late.board.results()) == 1)
            assert eventually(lambda: late.board.tables()["table-1"]["game"] == "hamster-wheel")
            totals = {t.name: t for t in tournament(late.board.tables(), late.board.results())}
            assert all(totals[name].wins == 1 for name in winners)
            assert sum(t.wins for t in totals.values()) == len(winners)
        finally:
            late.stop()
    finally:
        for publisher in publishers:
            publisher.stop()


def test_a_game_that_ends_as_the_next_one_starts_still_reaches_the_tournament(
    broker: Mosquitto, tables: list[PlayedTable]
) -> None:
    """The publisher looked at the table only after the next game had started (a busy
    Pi, or "same players again" tapped at once): the finished game's result was never
    sent, so the tournament lost that win. Seen as a one-off failure of the test above."""
    address = Broker("127.0.0.1", broker.port)
    (publisher,) = publish(tables[:1], address)
    try:
        assert eventually(lambda: publisher.published >= 1)
        with publisher._lock:  # it cannot publish until the table has moved on
            tables[0].play(20_000)
            public = tables[0].table.public_state(None, with_log=False)
            assert public["over"]
            header = GameHeader(
                "hamster-wheel", GAMES["hamster-wheel"].rules_default, ("Ann", "Bo"), 3
            )
            tables[0].table.new_game(header)
            time.sleep(0.5)  # it takes the old game's events and follows the new game
        late = BoardClient(address)
        late.start()
        try:
            late.wait_caught_up()
            assert eventually(lambda: len(late.board.results()) == 1, timeout=10.0)
            (result,) = late.board.results()
            assert result["game_id"] == public["game_id"] and result["over"]
        finally:
            late.stop()
    finally:
        publisher.stop()


def test_no_finished_game_leaves_the_tournament_when_the_broker_restarts_empty(
    broker: Mosquitto, tables: list[PlayedTable]
) -> None:
    """The broker lost its power (nothing kept) after game 1 ended, and two more games
    ended before it came back: a board opened afterwards counts all three. Before, the
    restarted broker had forgotten game 1's result for good, and of the games that ended
    while it was away only the last one was sent."""
    address = Broker("127.0.0.1", broker.port)
    (publisher,) = publish(tables[:1], address)
    wheel = GameHeader("hamster-wheel", GAMES["hamster-wheel"].rules_default, ("Ann", "Bo"), 3)
    try:
        tables[0].play(20_000)  # game 1 ends while the broker is there
        first = tables[0].table.snapshot.game_id
        assert first is not None
        tables[0].table.new_game(wheel)
        tables[0].bot = bot_of(GAMES["hamster-wheel"])
        assert eventually(lambda: publisher.published >= 2)
        broker.kill()
        assert eventually(lambda: not publisher.connected)
        ended: list[int | None] = [first]
        for _ in range(2):  # games 2 and 3 end while it is away
            tables[0].play(20_000)
            ended.append(tables[0].table.snapshot.game_id)
            tables[0].table.new_game(wheel)
        time.sleep(0.5)  # the publisher has taken every change
        broker.start()  # empty: persistence is off
        assert eventually(lambda: publisher.connected)
        late = BoardClient(address)
        late.start()
        try:
            late.wait_caught_up()
            assert eventually(lambda: len(late.board.results()) == 3, timeout=10.0)
            assert sorted(r["game_id"] for r in late.board.results()) == ended
        finally:
            late.stop()
    finally:
        publisher.stop()


def test_a_game_deleted_from_the_history_leaves_the_event_standings_until_undone(
    broker: Mosquitto, tables: list[PlayedTable]
) -> None:
    """Ann's table played a practice game, then deleted it from its History: the event's
    standings stop counting it, whether it is still the table's current game or one it
    has moved on from; the History page's Undo brings the win back."""
    address = Broker("127.0.0.1", broker.port)
    (publisher,) = publish(tables[:1], address)
    wheel = GameHeader("hamster-wheel", GAMES["hamster-wheel"].rules_default, ("Ann", "Bo"), 3)
    store = tables[0].store
    board = BoardClient(address)
    board.start()

    def wins() -> int:
        return sum(t.wins for t in tournament(board.board.tables(), board.board.results()))

    try:
        tables[0].play(20_000)
        practice = tables[0].table.snapshot.game_id
        assert practice is not None
        assert eventually(lambda: wins() >= 1)
        history.delete(store, practice)  # still the table's current game
        assert eventually(lambda: wins() == 0), "a deleted current game still counts"
        history.undelete(store, practice)
        assert eventually(lambda: wins() >= 1)
        tables[0].table.new_game(wheel)  # the table moves on; the result stays on the broker
        assert eventually(lambda: len(board.board.results()) == 1)
        history.delete(store, practice)
        assert eventually(lambda: board.board.results() == [] and wins() == 0)
        history.undelete(store, practice)
        assert eventually(lambda: len(board.board.results()) == 1 and wins() >= 1)
    finally:
        board.stop()
        publisher.stop()


def told_of_a_namesake(publisher: TablePublisher) -> bool:
    return "another table" in publisher.status


def test_two_tables_given_the_same_name_are_told_so_and_a_restart_is_not(
    broker: Mosquitto, tables: list[PlayedTable]
) -> None:
    """Two Pis both still called "raspberrypi" would overwrite each other on the board:
    each one's status says so, naming the fix. The same table started again (its own
    state still kept on the broker) is no namesake."""
    address = Broker("127.0.0.1", broker.port)
    first = TablePublisher(tables[0].table, address, Topics("hamster", "raspberrypi"))
    first.start()
    try:
        assert eventually(lambda: first.published >= 1)
    finally:
        first.stop()
    again = TablePublisher(tables[0].table, address, Topics("hamster", "raspberrypi"))
    second = TablePublisher(tables[1].table, address, Topics("hamster", "raspberrypi"))
    again.start()
    try:
        assert eventually(lambda: again.listening and again.published >= 1)
        tables[0].play(3)  # live changes from the first table
        assert eventually(lambda: again.published >= 2)
        assert "another table" not in again.status
        second.start()
        assert eventually(lambda: second.listening and second.published >= 1)
        tables[1].play(3)
        tables[0].play(3)
        for publisher in (again, second):
            assert eventually(partial(told_of_a_namesake, publisher)), publisher.status
            assert "[mqtt] table" in publisher.status
    finally:
        with contextlib.suppress(RuntimeError):  # never started: an assert above failed
            second.stop()
        again.stop()


def test_a_games_file_that_fails_leaves_the_table_on_the_board(tmp_path: Path) -> None:
    """The publisher reads the games file (which games were deleted, the table's origin):
    a card that fails must neither stop the start nor end the publisher's thread."""
    store = Store(tmp_path / "gone.sqlite3")
    store.close()  # every read and write now fails, as on a card that gave up
    assert len(table_origin(store)) == 16  # a random origin for this run
    table = PlayedTable(tmp_path, "table-x", "hamster-wheel", ("Ann", "Bo"))
    publisher = TablePublisher(table.table, Broker("127.0.0.1", 1), Topics("hamster", "x"))
    try:
        game_id = table.table.snapshot.game_id
        assert game_id is not None
        table.store.close()
        assert publisher._deleted(game_id) is False  # kept on the board, not a traceback
    finally:
        table.table.close()


def test_a_game_deleted_while_the_broker_was_away_counts_again_when_undone(
    broker: Mosquitto, tables: list[PlayedTable]
) -> None:
    """Game 1 ends and is deleted while the broker is away, then the deletion is undone:
    its result reaches the board (it was dropped for good)."""
    address = Broker("127.0.0.1", broker.port)
    (publisher,) = publish(tables[:1], address)
    wheel = GameHeader("hamster-wheel", GAMES["hamster-wheel"].rules_default, ("Ann", "Bo"), 3)
    try:
        assert eventually(lambda: publisher.published >= 1)
        broker.kill()
        assert eventually(lambda: not publisher.connected)
        tables[0].play(20_000)
        first = tables[0].table.snapshot.game_id
        assert first is not None
        tables[0].table.new_game(wheel)
        history.delete(tables[0].store, first)
        time.sleep(0.5)  # the publisher has taken every change
        broker.start()
        assert eventually(lambda: publisher.connected)
        late = BoardClient(address)
        late.start()
        try:
            late.wait_caught_up()
            time.sleep(0.5)
            assert late.board.results() == []
            history.undelete(tables[0].store, first)
            assert eventually(lambda: len(late.board.results()) == 1, timeout=10.0)
        finally:
            late.stop()
    finally:
        publisher.stop()
