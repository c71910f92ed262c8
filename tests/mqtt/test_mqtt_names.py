"""Two tables given one name at an event, on a real mosquitto: the newcomer takes
``NAME-2``, both tables say so, the board never shows one table's state under the
other's name, and a namesake's goodbye never makes the real table look gone."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.commands.doctor import check_event_broker
from companion.config import MqttConfig
from companion.mqtt.board import BoardClient, render
from companion.mqtt.connect import Broker, client_id, make_client
from companion.mqtt.publisher import TablePublisher
from companion.mqtt.topics import Topics
from tests.mqtt.mosquitto import MISSING, MOSQUITTO, Mosquitto
from tests.mqtt.test_mqtt import PlayedTable, eventually

pytestmark = pytest.mark.skipif(not MOSQUITTO.exists(), reason=MISSING)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Mosquitto]:
    broker = Mosquitto(tmp_path / "broker")
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[PlayedTable, PlayedTable]]:
    """Two real tables, each with its own data folder (the first as `companion run` keeps
    it, for the doctor), at different games."""
    first = PlayedTable(tmp_path / "a", "companion", "hamsterdam", ("Ann", "Bo", "Cy"))
    second = PlayedTable(tmp_path / "b", "second", "rats", ("Dee", "Eli", "Fay", "Gus"))
    yield first, second
    first.close()
    second.close()


@pytest.fixture
def board(server: Mosquitto) -> Iterator[BoardClient]:
    client = BoardClient(Broker("127.0.0.1", server.port))
    client.start()
    client.wait_caught_up()
    yield client
    client.stop()


def started(table: PlayedTable, server: Mosquitto, name: str) -> TablePublisher:
    publisher = TablePublisher(
        table.table, Broker("127.0.0.1", server.port), Topics("hamster", name)
    )
    publisher.start()
    return publisher


def game_on_board(board: BoardClient, name: str) -> str | None:
    state = board.board.tables().get(name)
    return None if state is None else state.get("game")


def live(board: BoardClient, name: str) -> bool:
    return bool(board.board.tables().get(name, {}).get("online"))


def test_a_second_table_with_a_taken_name_takes_name_2_and_both_say_so(
    server: Mosquitto, pair: tuple[PlayedTable, PlayedTable], board: BoardClient
) -> None:
    first, second = pair
    holder = started(first, server, "raspberrypi")
    newcomer: TablePublisher | None = None
    try:
        assert eventually(lambda: game_on_board(board, "raspberrypi") == "hamsterdam")
        newcomer = started(second, server, "raspberrypi")
        assert eventually(lambda: game_on_board(board, "raspberrypi-2") == "rats")
        assert newcomer.topics.table == "raspberrypi-2"
        assert "publishes as 'raspberrypi-2'" in newcomer.status
        assert eventually(lambda: "'raspberrypi-2'" in holder.status), holder.status
        for publisher in (holder, newcomer):
            assert '[mqtt] table = "..."' in publisher.status
        second.play(5)
        first.play(5)
        assert eventually(lambda: board.board.tables()["raspberrypi-2"].get("seq", 0) >= 5)
        # The real table's name never carried the newcomer's game, and the board says why
        # the newcomer is called what it is.
        assert game_on_board(board, "raspberrypi") == "hamsterdam"
        assert "asked for raspberrypi" in render(board.board.tables())
    finally:
        if newcomer is not None:
            newcomer.stop()
        holder.stop()


def test_a_namesake_that_stops_never_makes_the_real_table_look_offline(
    server: Mosquitto, pair: tuple[PlayedTable, PlayedTable], board: BoardClient
) -> None:
    first, second = pair
    holder = started(first, server, "table-1")
    try:
        assert eventually(lambda: live(board, "table-1"))
        newcomer = started(second, server, "table-1")
        assert eventually(lambda: live(board, "table-1-2"))
        newcomer.stop()
        assert eventually(lambda: not live(board, "table-1-2"))
        assert live(board, "table-1")
        assert game_on_board(board, "table-1") == "hamsterdam"
    finally:
        holder.stop()


def test_a_namesakes_last_will_is_answered_at_once_and_the_table_stays_live(
    server: Mosquitto, pair: tuple[PlayedTable, PlayedTable], board: BoardClient
) -> None:
    """An older table (or one killed mid-claim) says "offline" under our name: the real
    table answers at once, instead of looking gone until the broker restarts."""
    first, _ = pair
    holder = started(first, server, "table-1")
    stranger = make_client(Broker("127.0.0.1", server.port), client_id("stranger"))
    heard: list[str] = []  # every presence word said under table-1, in order
    stranger.on_connect = lambda client, *_: client.subscribe("hamster/table-1/online", qos=1)
    stranger.on_message = lambda _client, _data, message: heard.append(message.payload.decode())
    stranger.connect("127.0.0.1", server.port)
    stranger.loop_start()
    try:
        assert eventually(lambda: live(board, "table-1") and holder.claimed)
        assert eventually(lambda: heard[-1:] == ["online"])
        stranger.publish("hamster/table-1/online", "offline", qos=1, retain=True).wait_for_publish(
            5
        )
        # The real table answers the stray goodbye at once with its own "online"...
        assert eventually(lambda: heard[-2:] == ["offline", "online"])
        assert eventually(lambda: live(board, "table-1"))
        # ...which the broker keeps for a board that opens only now.
        late = BoardClient(Broker("127.0.0.1", server.port))
        late.start()
        try:
            late.wait_caught_up()
            assert live(late, "table-1")
        finally:
            late.stop()
    finally:
        stranger.disconnect()
        stranger.loop_stop()
        holder.stop()


def rival_state(origin: str, since: float) -> bytes:
    data = {"format": 1, "table": "table-1", "game": "rats", "origin": origin}
    data.update(instance="feedface", since=since, sent=since)
    return json.dumps(data).encode()


@pytest.mark.parametrize("earlier", [True, False])
def test_two_tables_claiming_one_name_at_once_agree_that_the_earlier_keeps_it(
    server: Mosquitto, pair: tuple[PlayedTable, PlayedTable], board: BoardClient, earlier: bool
) -> None:
    """Neither saw the other's retained state: each sees the other's live one, and the
    table that started later steps aside, whichever side of the race it is on."""
    first, _ = pair
    holder = started(first, server, "table-1")
    rival = make_client(Broker("127.0.0.1", server.port), client_id("rival"))
    rival.connect("127.0.0.1", server.port)
    rival.loop_start()
    try:
        assert eventually(lambda: holder.claimed and live(board, "table-1"))
        since = holder.me.since + (-60 if earlier else 60)
        rival.publish("hamster/table-1/state", rival_state("elsewhere", since), qos=1, retain=True)
        if earlier:
            assert eventually(lambda: game_on_board(board, "table-1-2") == "hamsterdam")
            assert holder.topics.table == "table-1-2"
        else:  # the table was there first: its own state is back on the board at once
            assert eventually(lambda: game_on_board(board, "table-1") == "hamsterdam")
            assert holder.topics.table == "table-1"
    finally:
        with contextlib.suppress(RuntimeError):
            rival.disconnect()
            rival.loop_stop()
        holder.stop()


def test_the_doctor_of_either_table_names_the_clash(
    server: Mosquitto, pair: tuple[PlayedTable, PlayedTable], board: BoardClient, tmp_path: Path
) -> None:
    first, second = pair
    holder = started(first, server, "table-1")
    try:
        assert eventually(lambda: live(board, "table-1"))
        settings = MqttConfig(host="127.0.0.1", port=server.port, table="table-1")
        (found,) = check_event_broker(settings, tmp_path / "elsewhere")
        assert not found.ok and "would publish as 'table-1-2'" in found.what
        newcomer = started(second, server, "table-1")
        try:
            assert eventually(lambda: live(board, "table-1-2"))
            (found,) = check_event_broker(settings, first.store.path.parent)
            assert not found.ok and "it publishes as 'table-1-2'" in found.what, found.what
        finally:
            newcomer.stop()
        (found,) = check_event_broker(settings, first.store.path.parent)
        assert found.ok and "accepts this table as 'table-1'" in found.what
    finally:
        holder.stop()


def test_a_broker_that_refuses_the_claims_probe_still_shows_the_table(
    tmp_path: Path, pair: tuple[PlayedTable, PlayedTable]
) -> None:
    """An event's access list that allows only the tables' own topics: the probe that says
    "the broker has told us who holds the name" never returns, and the table goes on the
    board after a short wait instead of never."""
    server = Mosquitto(tmp_path / "strict")
    acl = tmp_path / "strict" / "acl"
    levels = ("+/state", "+/online", "+/events", "+/clash", "+/results/+", ".board/#")
    acl.write_text("".join(f"topic readwrite hamster/{level}\n" for level in levels))
    with server.conf.open("a", encoding="utf-8") as conf:
        conf.write(f"acl_file {acl}\n")
    server.start()
    first, _ = pair
    holder = started(first, server, "table-1")
    board = BoardClient(Broker("127.0.0.1", server.port))
    board.start()
    try:
        board.wait_caught_up()
        assert eventually(lambda: live(board, "table-1"))
        assert game_on_board(board, "table-1") == "hamsterdam"
    finally:
        board.stop()
        holder.stop()
        server.stop()
