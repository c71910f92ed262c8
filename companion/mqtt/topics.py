"""What a table says on the broker, and under which topics.

Why a whitelist instead of the tablet's whole public state: everything published here may
reach anyone on the event's network (and Home Assistant's history), so the payload names
each field it carries, all of them facts a watching tablet already shows: the game, its
round and phase, the players' standings, the result. Seat tokens, the PIN, private cards
and secret moves' arguments are never in the table's public state to begin with (the
engine's redaction), and this module could not pass them on even if they were.

Topics (``prefix`` defaults to ``hamster``):

``<prefix>/<table>/state``
    retained, QoS 1: the latest :func:`state_payload` (a new subscriber gets it at once).
``<prefix>/<table>/events``
    QoS 1, not retained: each change as a watching tablet sees it (:func:`event_payload`).
``<prefix>/<table>/online``
    retained, QoS 1: ``online`` while the table is connected, ``offline`` (its Last Will,
    sent by the broker when the Pi vanishes, or by the table when it stops).
``<prefix>/<table>/clash``
    QoS 1, not retained: a newcomer that wanted this table's name tells it which name it
    took instead (:mod:`companion.mqtt.claim`).
``<prefix>/<table>/results/<game id>``
    retained, QoS 1: the final state of each game finished at the table (emptied again if
    an undo reopens it), so a tournament's standings count every game of the evening, not
    only the one each table is playing now, and a board opened late still sees them all.
"""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

STATE, EVENTS, ONLINE, RESULTS = "state", "events", "online", "results"
ONLINE_WORD, OFFLINE_WORD = "online", "offline"
FORMAT = 1  # bumped if a field changes meaning; boards ignore payloads of another format

#: The fields of the table's public state that the board is allowed to see.
PUBLIC_FIELDS = (
    "game_id",
    "game",
    "title",
    "rules",
    "players",
    "round",
    "phase",
    "phase_title",
    "current",
    "prompt",
    "over",
    "result",
    "winners",
    "standings",
    "seq",
)
#: The fields of a public event the events topic carries (a secret's arguments are already
#: gone from it; this keeps out whatever a future event might add).
EVENT_FIELDS = ("seq", "kind", "seat", "name", "args", "outcome", "secret", "source")


@dataclass(frozen=True)
class Topics:
    """The three topics of one table."""

    prefix: str
    table: str

    def of(self, kind: str) -> str:
        return f"{self.prefix}/{self.table}/{kind}"

    @property
    def state(self) -> str:
        return self.of(STATE)

    @property
    def events(self) -> str:
        return self.of(EVENTS)

    @property
    def online(self) -> str:
        return self.of(ONLINE)

    def result(self, game_id: int) -> str:
        return self.of(f"{RESULTS}/{game_id}")


def default_table_name() -> str:
    """The Pi's own host name as a topic level ("hamster-table-3"), when none is configured."""
    name = re.sub(r"[^A-Za-z0-9_.-]", "-", socket.gethostname().split(".")[0]).strip("-.")
    return name[:64] or "table"


def state_payload(
    table: str,
    public: dict[str, Any],
    now: float | None = None,
    deleted: bool = False,
    who: Mapping[str, Any] | None = None,
) -> bytes:
    """The retained state: the whitelisted public fields, the table's name and when.

    ``deleted``: the players deleted this game from the table's history, so the event's
    standings leave it out (the board still shows what the table is doing). ``who``: which
    table sent it (its data folder's ``origin``, this run's ``instance`` and ``since``,
    and ``wanted``, the name it asked for if another table held it), which tells two tables
    given the same name apart (:mod:`companion.mqtt.claim`)."""
    data: dict[str, Any] = {"format": FORMAT, "table": table}
    data.update({key: value for key, value in (who or {}).items() if value})
    if public.get("game") is None:
        data.update(game=None, prompt=public.get("prompt", ""))
    else:
        data.update({key: public.get(key) for key in PUBLIC_FIELDS})
        if deleted:
            data["deleted"] = True
    data["sent"] = time.time() if now is None else now
    return json.dumps(data, separators=(",", ":")).encode()


def event_payload(table: str, game_id: int | None, event: dict[str, Any]) -> bytes:
    """One change as a watching tablet sees it, with the table and game it belongs to."""
    data = {key: event[key] for key in EVENT_FIELDS if key in event}
    data.update(table=table, game_id=game_id, sent=time.time())
    return json.dumps(data, separators=(",", ":")).encode()
