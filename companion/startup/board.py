"""This table on the event's MQTT broker (its publisher) and the event's board for the
``/board`` page: both on threads of their own, never failing the start."""

from __future__ import annotations

from companion.config import Config
from companion.mqtt.board import BoardClient
from companion.mqtt.connect import Broker
from companion.mqtt.publisher import TablePublisher
from companion.mqtt.topics import Topics, default_table_name
from companion.table import Table


def start_mqtt(
    config: Config, table: Table, demo: bool = False
) -> tuple[TablePublisher | None, str]:
    """This table on the event's broker (``[mqtt]``), publishing on threads of its own.

    Never fails the start: a broker that is not there yet is waited for in the background
    (the game goes on), and the status line says so.
    """
    settings = config.mqtt
    if not settings.enabled:
        return None, "off (set host in [mqtt] to show this table on an event board)"
    topics = Topics(settings.prefix, settings.table or default_table_name())
    publisher = TablePublisher(table, Broker.from_config(settings), topics, demo=demo)
    publisher.start()
    return publisher, f"{topics.of('…')} on {publisher.broker.address}"


def start_event_board(config: Config) -> BoardClient | None:
    """The whole event's board for this Pi's ``/board`` page, when it is on a broker."""
    if not config.mqtt.enabled:
        return None
    client = BoardClient(Broker.from_config(config.mqtt), config.mqtt.prefix)
    client.start()  # in the background: the page shows whatever has arrived
    return client


def leave_broker(board: BoardClient | None, publisher: TablePublisher | None) -> None:
    """Leave the event's broker: the board hears "offline" now rather than at the keepalive."""
    if board is not None:
        board.stop(timeout=0.2)
    if publisher is not None:
        publisher.stop()
