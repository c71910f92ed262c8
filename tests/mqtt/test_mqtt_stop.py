"""A table stops quickly whatever its broker does (systemd's stop, a Pi being unplugged
at the end of the evening while the event's broker shuts down too).

The one timed check in the MQTT tests, with a wide margin: the stop's budget is 0.6 s
(``publisher.STOP_SECONDS``) and the old stop waited 3 s for an acknowledgement from a
broker that was going away; ``bench/stop_time.py`` measures ``companion run`` itself.
"""

from __future__ import annotations

import time
from pathlib import Path

from companion.mqtt.board import BoardClient
from companion.mqtt.connect import Broker
from companion.mqtt.publisher import STOP_SECONDS, TablePublisher
from companion.mqtt.topics import Topics
from tests.mqtt.mute_broker import MuteBroker
from tests.mqtt.test_mqtt import PlayedTable, eventually


def test_a_table_leaves_a_broker_that_stopped_answering_within_its_budget(
    tmp_path: Path,
) -> None:
    broker = MuteBroker()
    table = PlayedTable(tmp_path, "t", "hamster-wheel", ("Ann", "Bo"))
    address = Broker("127.0.0.1", broker.port)
    publisher = TablePublisher(table.table, address, Topics("hamster", "t"))
    board = BoardClient(address)
    try:
        publisher.start()
        board.start()
        assert eventually(lambda: publisher.claimed and broker.unanswered >= 2)
        began = time.monotonic()
        board.stop()
        publisher.stop()
        took = time.monotonic() - began
    finally:
        table.close()
        broker.close()
    assert took < 2 * STOP_SECONDS + 0.5, f"stopping took {took:.1f} s"
