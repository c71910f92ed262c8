"""The event board: every table's last state from the broker, and standings across them.

Why retained states are enough: each table keeps exactly one retained message, its latest
public state, so a board that subscribes (first time, or after the broker came back) gets
every table's truth at once, without asking any Pi. ``online`` tells which tables are
there right now; a table that went offline keeps its last state on the board, marked.

Why a probe message for "caught up": MQTT never says "that was the last retained
message". The board publishes a message to a topic of its own right after its
subscription is acknowledged; the broker queues it behind the retained states it is
already sending, so when the probe comes back every retained state has arrived.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.reasoncodes import ReasonCode

from companion.mqtt.connect import (
    Broker,
    BrokerError,
    client_id,
    close_client,
    make_client,
    refusal,
)
from companion.mqtt.topics import FORMAT, ONLINE, ONLINE_WORD, RESULTS, STATE

log = logging.getLogger(__name__)

PROBE = ".board"  # <prefix>/.board/<client id>: never a table name (they start alphanumeric)


@dataclass(frozen=True)
class PlayerTotal:
    """One player's tournament line across the tables on the board."""

    name: str
    games: int = 0  # games counted: finished ones and the one being played
    wins: int = 0  # finished games this player won (or shared)
    beaten: int = 0  # players placed below them in finished games
    leading: int = 0  # running games this player leads now


class Board:
    """Every table's last known state, fed by :meth:`take` (paho's thread) and read by
    anyone (copies under a lock)."""

    def __init__(self, prefix: str = "hamster") -> None:
        self.prefix = prefix
        self._lock = threading.Lock()
        self._states: dict[str, dict[str, Any]] = {}
        self._online: dict[str, bool] = {}
        self._results: dict[tuple[str, str], dict[str, Any]] = {}  # (table, game id)
        self.changed = threading.Event()

    def take(self, topic: str, payload: bytes) -> None:
        """A message from the broker; anything that is not a table's state or presence
        (or is not this format) is ignored, so a stray publisher cannot break the board."""
        parts = topic.split("/")
        if len(parts) == 4 and parts[0] == self.prefix and parts[2] == RESULTS:
            self._take_result(parts[1], parts[3], payload)
            return
        if len(parts) != 3 or parts[0] != self.prefix:
            return
        _, table, kind = parts
        if kind == ONLINE:
            with self._lock:
                self._online[table] = payload.decode(errors="replace") == ONLINE_WORD
        elif kind == STATE:
            if not payload:  # an emptied retained state: the table was taken off the event
                with self._lock:
                    self._states.pop(table, None)
                self.changed.set()
                return
            try:
                data = json.loads(payload)
            except ValueError:
                log.warning("board: %s sent a state that is not JSON; ignored", table)
                return
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                return
            with self._lock:
                self._states[table] = data
        else:
            return
        self.changed.set()

    def _take_result(self, table: str, game_id: str, payload: bytes) -> None:
        """A finished game kept on the broker (an empty payload: reopened by an undo)."""
        data: Any = None
        if payload:
            try:
                data = json.loads(payload)
            except ValueError:
                log.warning("board: %s sent a result that is not JSON; ignored", table)
                return
            if not isinstance(data, dict) or data.get("format") != FORMAT or not data.get("over"):
                return
        with self._lock:
            if data is None:
                self._results.pop((table, game_id), None)
            else:
                self._results[(table, game_id)] = {**data, "table": table}
        self.changed.set()

    def results(self) -> list[dict[str, Any]]:
        """Every finished game the broker keeps, each with its table's name."""
        with self._lock:
            return [dict(result) for _, result in sorted(self._results.items())]

    def tables(self) -> dict[str, dict[str, Any]]:
        """Each table's last state (with ``online``), by table name, sorted by name."""
        with self._lock:
            return {
                name: {**state, "online": self._online.get(name, False)}
                for name, state in sorted(self._states.items())
            }


def tournament(
    tables: Mapping[str, Mapping[str, Any]], results: Iterable[Mapping[str, Any]] = ()
) -> list[PlayerTotal]:
    """Standings across tables by player name: wins first, then players beaten, then
    games led now. A name at two tables is one person (the café's usual case), whatever
    its capitals or stray spaces: "Ann" typed at one tablet and "ann" at the next are one
    player, as in the history's stats; the line shows the spelling seen first.

    Every finished game counts once: those the broker keeps (``results``) and any table
    whose current state is a finished game not among them; running games count as led.
    A game the players deleted from their table's history does not count, nor does a
    demo table's (``companion run --demo-table``: a bot plays it).
    """
    games: dict[tuple[str, Any], Mapping[str, Any]] = {
        (str(r.get("table")), r.get("game_id")): r for r in results if not r.get("demo")
    }
    for name, state in tables.items():
        if state.get("game") is None or state.get("deleted") or state.get("demo"):
            continue
        if state.get("over"):
            games.setdefault((name, state.get("game_id")), state)
        else:
            games[(name, "playing")] = state
    totals: dict[str, PlayerTotal] = {}
    for state in games.values():
        entries = state.get("standings") or []
        over = bool(state.get("over"))
        for entry in entries:
            name = str(entry.get("name", "?")).strip() or "?"
            key = name.casefold()
            rank = int(entry.get("rank", 1))
            old = totals.get(key, PlayerTotal(name))
            below = sum(1 for other in entries if int(other.get("rank", 1)) > rank)
            totals[key] = PlayerTotal(
                old.name,
                games=old.games + 1,
                wins=old.wins + (1 if over and entry.get("leads") else 0),
                beaten=old.beaten + (below if over else 0),
                leading=old.leading + (1 if not over and entry.get("leads") else 0),
            )
    return sorted(totals.values(), key=lambda t: (-t.wins, -t.beaten, -t.leading, t.name))


def leaders_line(state: Mapping[str, Any]) -> str:
    """Who leads a table, in words: "Ann (2 water, 9 hamsters)", "level", or the result."""
    leading = [e for e in state.get("standings") or [] if e.get("leads")]
    if not leading:
        return "nobody yet" if not state.get("over") else "nobody won"
    return ", ".join(
        f"{e.get('name')} ({e.get('figure')})" if e.get("figure") else str(e.get("name"))
        for e in leading
    )


def table_notes(state: Mapping[str, Any]) -> str:
    """What the board says beside a table's line besides its game: a table that took
    another name because its own was held, a demo table that plays itself."""
    notes = ""
    if state.get("wanted"):
        notes += f"  (asked for {state['wanted']}, which another table holds)"
    if state.get("demo"):
        notes += "  (demo: plays itself, not counted)"
    return notes


def render(
    tables: Mapping[str, Mapping[str, Any]],
    now: float | None = None,
    results: Iterable[Mapping[str, Any]] = (),
) -> str:
    """The board as text: one line per table, then the tournament's standings."""
    now = time.time() if now is None else now
    if not tables:
        return "No table has published yet: start `companion run` with [mqtt] on each table."
    lines = [f"{'table':<16} {'game':<20} {'round':>5}  {'phase':<24} leads"]
    for name, state in tables.items():
        mark = ""
        if not state.get("online"):
            age = max(0, int(now - float(state.get("sent") or now)))
            mark = f"  (offline; this state is {age} s old)"
        mark = f"{table_notes(state)}{mark}"
        if state.get("game") is None:
            lines.append(f"{name:<16} {'(no game)':<20}{mark}")
            continue
        phase = "game over" if state.get("over") else str(state.get("phase_title", ""))
        if state.get("deleted"):
            mark = f"  (deleted from its history: not counted){mark}"
        lines.append(
            f"{name:<16} {str(state.get('title', ''))[:20]:<20} {state.get('round', ''):>5}  "
            f"{phase[:24]:<24} {leaders_line(state)}{mark}"
        )
    lines += ["", "Standings across tables (wins, then players beaten, then games led now):"]
    for place, total in enumerate(tournament(tables, results), 1):
        lines.append(
            f"{place:>3}. {total.name:<16} wins {total.wins}  beaten {total.beaten}  "
            f"leading {total.leading}  games {total.games}"
        )
    return "\n".join(lines)


class BoardClient:
    """A board fed live from the broker; :meth:`start`, :meth:`wait_caught_up`, :meth:`stop`."""

    def __init__(self, broker: Broker, prefix: str = "hamster") -> None:
        self.broker = broker
        self.board = Board(prefix)
        self.prefix = prefix
        identity = client_id("hamster-board")
        self._client = make_client(broker, identity)
        self._probe = f"{prefix}/{PROBE}/{identity}"
        self._client.on_connect = self._connected
        self._client.on_disconnect = self._disconnected
        self._client.on_subscribe = self._subscribed
        self._client.on_message = self._message
        self._caught_up = threading.Event()
        self._answered = threading.Event()
        self.refused = ""
        self._lost_at: float | None = None  # when the broker went away (None: it is here)
        self._stopping = False

    def start(self) -> None:
        """Connect in the background; paho reconnects (and so resubscribes) on its own."""
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=15)
        self._client.loop_start()

    def stop(self, timeout: float = 0.2) -> None:
        """Leave the broker, waiting ``timeout`` seconds at most whatever it does."""
        self._stopping = True
        close_client(self._client, timeout)

    @property
    def away(self) -> str:
        """One sentence while the broker cannot be reached ("": it can).

        Why: without it a board whose broker vanished looks exactly like a quiet evening,
        every table frozen at its last state and still marked online, so the front desk
        would read old standings as live ones.
        """
        lost_at = self._lost_at
        if self.refused or (lost_at is None and self._answered.is_set()):
            return ""
        if lost_at is None:
            return (
                f"No answer yet from the broker at {self.broker.address}: check the address, "
                "that mosquitto runs there and that its port is open; the board keeps trying."
            )
        since = time.strftime("%H:%M:%S", time.localtime(lost_at))
        return (
            f"The broker at {self.broker.address} cannot be reached since {since}: these are "
            "the last states it sent, not live ones; the board reconnects by itself (check "
            "that mosquitto still runs there)."
        )

    def wait_caught_up(self, timeout: float = 10.0) -> None:
        """Block until every retained state has arrived; a refusal or silence is one sentence."""
        if not self._answered.wait(timeout):
            raise BrokerError(
                f"No answer from a broker at {self.broker.address} within {timeout:g} s; "
                "check the address, that mosquitto runs there and that its port is open."
            )
        if self.refused:
            raise BrokerError(self.refused)
        if not self._caught_up.wait(timeout):
            raise BrokerError(
                f"The broker at {self.broker.address} did not send the tables' states "
                f"within {timeout:g} s; it may be overloaded, try again."
            )

    def json(self) -> dict[str, Any]:
        """The board for a page, with the broker's refusal (if any) as ``off``."""
        board = board_json(self.board.tables(), results=self.board.results())
        return {**board, "off": self.refused or self.away or None}

    def _connected(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, props: Any
    ) -> None:
        if reason.is_failure:
            self.refused = refusal(self.broker, reason)
            self._answered.set()
            client.disconnect()  # do not hammer a broker that said no
            return
        self._lost_at = None
        self._answered.set()
        self.board.changed.set()
        client.subscribe(
            [
                (f"{self.prefix}/+/{STATE}", 1),
                (f"{self.prefix}/+/{ONLINE}", 1),
                (f"{self.prefix}/+/{RESULTS}/+", 1),
                (self._probe, 1),
            ]
        )

    def _disconnected(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, props: Any
    ) -> None:
        if not self._stopping and not self.refused:
            self._lost_at = time.time()
            self.board.changed.set()

    def _subscribed(
        self, client: mqtt.Client, userdata: Any, mid: int, reasons: Iterable[Any], props: Any
    ) -> None:
        client.publish(self._probe, b"", qos=1)

    def _message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic == self._probe:
            self._caught_up.set()
            return
        self.board.take(message.topic, bytes(message.payload))


def board_json(
    tables: Mapping[str, Mapping[str, Any]],
    now: float | None = None,
    results: Iterable[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The board for a page (``/api/board``): the same facts as :func:`render`, as data."""
    now = time.time() if now is None else now
    rows = []
    for name, state in tables.items():
        playing = state.get("game") is not None
        rows.append(
            {
                "table": name,
                "online": bool(state.get("online")),
                "age": max(0, int(now - float(state.get("sent") or now))),
                "game": state.get("title") if playing else None,
                "round": state.get("round") if playing else None,
                "phase": ("game over" if state.get("over") else state.get("phase_title"))
                if playing
                else None,
                "leads": leaders_line(state) if playing else "",
                "result": state.get("result") or "",
                "wanted": state.get("wanted") or None,
                "demo": bool(state.get("demo")),
            }
        )
    return {
        "tables": rows,
        "standings": [
            {
                "name": t.name,
                "wins": t.wins,
                "beaten": t.beaten,
                "leading": t.leading,
                "games": t.games,
            }
            for t in tournament(tables, results)
        ],
    }
