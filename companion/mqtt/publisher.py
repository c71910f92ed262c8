"""A table's voice on the event's broker: its public state, retained, and each change.

Why its own thread: the table's worker must never wait on a network. The worker only
wakes this thread (``Subscription.wake_with``, which never blocks); this thread reads the
new events, builds the payloads from the table's public state and hands them to paho,
whose own thread talks to the broker.

What happens while the broker is away: the game goes on untouched. Changes are noted
here, and when paho reconnects this thread republishes ``online`` and the *latest* state
(retained), which is all a board needs to be right again. Events that happen during the
outage are kept in a bounded queue (:data:`EVENTS_KEPT`, the oldest dropped beyond it) and
sent in order on reconnect, so a short outage loses no event and a long one loses only
the oldest; :attr:`TablePublisher.dropped` counts them. Every game that ended meanwhile,
and every result sent before (a restarted broker may have forgotten it), goes out again.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import sqlite3
import threading
import time
from collections import deque
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.reasoncodes import ReasonCode

from companion.engine.events import Event
from companion.engine.redact import public_event
from companion.hub import Subscription
from companion.mqtt.claim import (
    CLASH,
    Claimant,
    claimant,
    clash_payload,
    kept_name,
    next_name,
    stepped_aside,
)
from companion.mqtt.connect import Broker, client_id, close_client, make_client, refusal
from companion.mqtt.topics import (
    OFFLINE_WORD,
    ONLINE_WORD,
    Topics,
    event_payload,
    state_payload,
)
from companion.public import public_state
from companion.store import Store, StoreError
from companion.table import Table

log = logging.getLogger(__name__)

QOS = 1
EVENTS_KEPT = 500  # events held while the broker is away (a long evening's worth)
KEEPALIVE = 15  # seconds: the broker declares us offline (the Last Will) after ~1.5x this
STOP_SECONDS = 0.6  # the most a stop waits on the broker (systemd's stop must stay quick)
PROBE = ".claim"  # <prefix>/.claim/<instance>: never a table name (they start alphanumeric)
# Seconds to wait for the probe after the broker took our subscriptions: a broker whose
# access list refuses the probe's topic must not keep the table off the board for good.
CLAIM_WAIT = 3.0


class TablePublisher:
    """Publishes one table's public state and events; :meth:`start`, then :meth:`stop`.

    ``topics.table`` is the name the table asks for; :attr:`topics` is the one it got (the
    same, unless another running table held it: :mod:`companion.mqtt.claim`)."""

    def __init__(self, table: Table, broker: Broker, topics: Topics, demo: bool = False) -> None:
        self.table = table
        self.demo = demo  # a table that plays itself: the board leaves it out of the standings
        self.broker = broker
        self.topics = topics
        self.wanted = topics.table
        self.dropped = 0  # events lost because the broker was away for too long
        self.published = 0  # state payloads handed to the broker
        # Finished games kept on the broker, with their payloads: sent again after every
        # reconnect, since a broker that restarted (power lost, no persistence) forgot them.
        self._results_sent: dict[int, bytes] = {}
        # Results taken back because the game was deleted from the history, with their
        # payloads: sent again if the deletion is undone (the History page's Undo).
        self._withdrawn: dict[int, bytes] = {}
        self._current_deleted = False  # the table's own game was deleted from the history
        self._events: deque[bytes] = deque(maxlen=EVENTS_KEPT)
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._lock = threading.Lock()  # guards the flags paho's thread sets
        self._connected_now = False
        self._announce = False  # (re)connected: say online and send the latest state
        self._state_dirty = True
        # Games that ended as the table moved on, by id, until they reach the broker: all of
        # them, since a broker away for a while may miss several games ending.
        self._finished: dict[int, dict[str, Any]] = {}
        self._refused = ""
        # Which table this is, whatever it is called: its data folder's origin (the same
        # across restarts) and this run's instance, so a state under our name from another
        # table is never taken for our own (companion.mqtt.claim).
        self.me = Claimant(table_origin(table.store), secrets.token_hex(6), time.time())
        self._caught_up = False  # the broker has sent all it keeps under our name
        self._subscribed_at: float | None = None  # when the broker took our subscriptions
        self._claimed = False  # the name is ours: publishing under it
        self._holder: Claimant | None = None  # another table's retained state there
        self._holder_online = False  # ... and whether the name is online
        self._rival: Claimant | None = None  # another table's live state under our name
        self._clash = ""  # the sentence about a namesake, for the page and doctor
        self._listening = threading.Event()  # the broker took our subscriptions (SUBACK)
        self._client = self._make_client()
        self._thread = threading.Thread(target=self._run, name="mqtt-publisher", daemon=True)

    def _make_client(self) -> mqtt.Client:
        client = make_client(self.broker, client_id(f"hamster-{self.topics.table}"))
        client.will_set(self.topics.online, OFFLINE_WORD, qos=QOS, retain=True)
        client.on_connect = self._connected
        client.on_disconnect = self._disconnected
        client.on_message = self._message
        client.on_subscribe = self._subscribed
        return client

    @property
    def _probe(self) -> str:
        return f"{self.topics.prefix}/{PROBE}/{self.me.instance}"

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        """Connect in the background (never blocks, even with no broker) and follow the table."""
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=KEEPALIVE)
        self._client.loop_start()
        self._thread.start()

    def stop(self, timeout: float = STOP_SECONDS) -> None:
        """Say ``offline`` (retained) if the broker is there, then disconnect, all within
        ``timeout`` seconds whatever the broker does (a broker stopping at the same moment
        must not hold up ``systemctl stop``: its Last Will says offline for us then)."""
        deadline = time.monotonic() + timeout
        self._stopping.set()
        self._wake.set()
        self._thread.join(timeout / 3)
        with self._lock:
            claimed = self._claimed
        if self.connected and claimed:
            info = self._client.publish(self.topics.online, OFFLINE_WORD, qos=QOS, retain=True)
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(max(0.0, deadline - time.monotonic()) / 2)
        # paho's thread is a daemon that ends by itself once told to: a moment for a clean
        # goodbye, never its reconnect wait (up to 1 s) or a connection attempt.
        close_client(self._client, max(0.0, deadline - time.monotonic()))

    @property
    def connected(self) -> bool:
        with self._lock:
            return self._connected_now

    @property
    def claimed(self) -> bool:
        """Whether the table publishes under :attr:`topics` (the broker said who held it)."""
        with self._lock:
            return self._claimed

    @property
    def clash(self) -> str:
        """The sentence about a namesake on the broker ("": none), for the table's page."""
        return self._clash

    @property
    def status(self) -> str:
        """One line for `companion run` and the status page."""
        where = f"{self.topics.of('…')} on {self.broker.address}"
        if self._refused:
            return f"refused: {self._refused}"
        if self._clash:
            return self._clash
        if self.connected:
            return f"publishing {where}"
        return f"waiting for the broker ({where}); the game goes on meanwhile"

    # ------------------------------------------------------------------ paho's thread
    def _connected(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, props: Any
    ) -> None:
        if reason.is_failure:
            message = refusal(self.broker, reason)
            if message != self._refused:
                log.error("mqtt: %s", message)
            self._refused = message
            return
        with self._lock:
            self._connected_now, self._refused = True, ""
            # Claimed again after every reconnect: a broker that restarted empty may have
            # let a namesake in meanwhile.
            self._caught_up, self._claimed, self._subscribed_at = False, False, None
            self._holder, self._holder_online, self._rival = None, False, None
        topics = self.topics
        client.subscribe(
            [(topics.state, QOS), (topics.online, QOS), (topics.of(CLASH), QOS), (self._probe, QOS)]
        )

    def _subscribed(
        self, client: mqtt.Client, userdata: Any, mid: int, reasons: Any, props: Any
    ) -> None:
        # Queued behind the retained messages the broker is sending: when it comes back,
        # we have seen what the broker keeps under our name (as the board's probe).
        client.publish(self._probe, b"", qos=QOS)
        with self._lock:
            self._subscribed_at = time.monotonic()
        self._listening.set()

    @property
    def listening(self) -> bool:
        """Whether the broker has taken this table's subscription to its own state (from
        then on a namesake's state reaches it live)."""
        return self._listening.is_set()

    def _disconnected(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, props: Any
    ) -> None:
        if client is not self._client:
            return  # the client of a name this table has left
        with self._lock:
            self._connected_now = False
        self._listening.clear()

    def _message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        """What the broker says under this table's name: the retained state and presence
        (who holds the name), a namesake's live state, a stray "offline", a clash notice."""
        topics, payload = self.topics, bytes(message.payload)
        if client is not self._client:
            return
        if message.topic == self._probe:
            with self._lock:
                self._caught_up = True
        elif message.topic == topics.state:
            other = claimant(payload)
            if other is None or other.origin == self.me.origin:
                return  # our own (this run's or an earlier one's)
            with self._lock:
                if message.retain:
                    self._holder = other
                else:
                    self._rival = other
        elif message.topic == topics.online:
            word = payload.decode(errors="replace")
            with self._lock:
                if message.retain:
                    self._holder_online = word == ONLINE_WORD
                elif word != ONLINE_WORD and self._claimed and not self._stopping.is_set():
                    # Someone else's goodbye under our name (a namesake's Last Will): we
                    # are still here, so say so at once rather than at the next reconnect.
                    self._announce = True
        elif message.topic == topics.of(CLASH):
            self._heard_of_namesake(payload)
        self._wake.set()

    def _heard_of_namesake(self, payload: bytes) -> None:
        try:
            data: Any = json.loads(payload)
        except ValueError:
            return
        if not isinstance(data, dict) or data.get("origin") == self.me.origin:
            return
        self._clash = kept_name(self.wanted, str(data.get("table")), self.broker.address)
        log.error("mqtt: %s", self._clash)

    # ------------------------------------------------------------------ our thread
    def _run(self) -> None:
        sub = self._follow(after=self.table.current_stamp()[1])
        while True:
            self._wake.wait(timeout=1.0)
            self._wake.clear()
            sub = self._take(sub)
            self._flush()
            if self._stopping.is_set():
                sub.close()
                return

    def _follow(self, after: int) -> Subscription:
        sub = self.table.subscribe(after)
        if sub.reset:  # the game changed under us: the state says it all
            sub.waiting()
        sub.wake_with(self._wake.set)
        self._state_dirty = True
        return sub

    def _take(self, sub: Subscription) -> Subscription:
        """Turn the table's new events into payloads; follow the next game when one starts."""
        for event in sub.waiting():
            if len(self._events) == EVENTS_KEPT:
                self.dropped += 1  # the deque lets the oldest go
            self._events.append(self._event(event))
            self._state_dirty = True
        if sub.ended is not None and sub.ended != "closed" and not self._stopping.is_set():
            # The table moved on: if the game it left had ended, its result goes out even
            # when this thread never saw its final state (a new game started at once).
            ended = self.table.last_finished
            if ended is not None and isinstance(ended.get("game_id"), int):
                self._finished[ended["game_id"]] = ended
            sub.close()
            return self._follow(after=0)
        return sub

    def _event(self, event: Event) -> bytes:
        snap = self.table.snapshot
        if snap.spec is None or snap.state is None:
            return event_payload(self.topics.table, snap.game_id, {"seq": event.seq})
        entry = public_event(snap.spec, snap.state, event, False, None)
        return event_payload(self.topics.table, snap.game_id, entry)

    def _settle_name(self) -> bool:
        """Whether the name is ours to publish under now; moves to the next free name when
        another table holds it (the earlier claim wins, :mod:`companion.mqtt.claim`)."""
        with self._lock:
            waited = self._subscribed_at is not None and (
                time.monotonic() - self._subscribed_at > CLAIM_WAIT
            )
            if not self._connected_now or not (self._caught_up or waited):
                return False
            other = self._rival
            if not self._claimed and self._holder_online:
                other = other or self._holder
            self._rival = None
            if other is None or not self.me.yields_to(other):
                if other is not None:  # a namesake started after us: our state again
                    self._announce = True
                self._announce |= not self._claimed
                self._claimed = True
                return True
        self._rename()
        return False

    def _rename(self) -> None:
        """Leave the name to the table that held it first, tell it so, and claim the next."""
        old = self.topics
        taken = next_name(self.wanted, old.table)
        notice = clash_payload(self.wanted, taken, self.me.origin, self.me.instance)
        info = self._client.publish(old.of(CLASH), notice, qos=QOS)
        with contextlib.suppress(RuntimeError, ValueError):
            info.wait_for_publish(1.0)
        close_client(self._client, 1.0)  # a clean goodbye: no Last Will under the old name
        self.topics = Topics(old.prefix, taken)
        self._clash = stepped_aside(self.wanted, taken, self.broker.address)
        log.error("mqtt: %s", self._clash)
        self._results_sent = {g: renamed(p, taken) for g, p in self._results_sent.items()}
        self._withdrawn = {g: renamed(p, taken) for g, p in self._withdrawn.items()}
        with self._lock:
            self._connected_now, self._claimed, self._state_dirty = False, False, True
        self._listening.clear()
        self._client = self._make_client()
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=KEEPALIVE)
        self._client.loop_start()

    def _who(self) -> dict[str, Any]:
        wanted = self.wanted if self.topics.table != self.wanted else ""
        me = self.me
        return {
            "origin": me.origin,
            "instance": me.instance,
            "since": me.since,
            "wanted": wanted,
            "demo": self.demo,
        }

    def _flush(self) -> None:
        if not self._settle_name():
            return
        with self._lock:
            announce, self._announce = self._announce, False
        client = self._client
        if announce:
            client.publish(self.topics.online, ONLINE_WORD, qos=QOS, retain=True)
            for game_id, kept in self._results_sent.items():
                client.publish(self.topics.result(game_id), kept, qos=QOS, retain=True)
            self._state_dirty = True
        while self._events:
            client.publish(self.topics.events, self._events.popleft(), qos=QOS)
        finished, self._finished = self._finished, {}
        who = self._who()
        for game_id, ended in finished.items():
            if game_id in self._results_sent:
                continue
            if self._deleted(game_id):  # deleted while the broker was away: kept for an undo
                self._withdrawn[game_id] = state_payload(self.topics.table, ended, who=who)
            else:
                self._result(ended, state_payload(self.topics.table, ended, who=who))
        self._follow_deletions()
        if self._state_dirty:
            self._state_dirty = False
            public = public_state(self.table.snapshot, with_log=False)
            payload = state_payload(
                self.topics.table, public, deleted=self._current_deleted, who=who
            )
            client.publish(self.topics.state, payload, qos=QOS, retain=True)
            self.published += 1
            self._result(public, payload)

    def _deleted(self, game_id: int) -> bool:
        """Whether the game was deleted from the history (or purged since): a game the
        players deleted should not count at the event either."""
        try:
            return self.table.store.game(game_id).deleted is not None
        except StoreError:  # purged for good since
            return True
        except sqlite3.Error:  # a failing card: the evening's board keeps what it has
            return False

    def _follow_deletions(self) -> None:
        """Take back the result of a game deleted from the history since it was sent (from
        the page or the command line), and send it again if the deletion is undone."""
        for game_id in [g for g in self._results_sent if self._deleted(g)]:
            self._client.publish(self.topics.result(game_id), b"", qos=QOS, retain=True)
            self._withdrawn[game_id] = self._results_sent.pop(game_id)
        for game_id in [g for g in self._withdrawn if not self._deleted(g)]:
            payload = self._withdrawn.pop(game_id)
            self._client.publish(self.topics.result(game_id), payload, qos=QOS, retain=True)
            self._results_sent[game_id] = payload
        current = self.table.snapshot.game_id
        deleted = current is not None and self._deleted(current)
        if deleted != self._current_deleted:
            self._current_deleted, self._state_dirty = deleted, True

    def _result(self, public: dict[str, Any], payload: bytes) -> None:
        """Keep a finished game's final state on the broker for the tournament; take it
        back if an undo reopens the game."""
        game_id = public.get("game_id")
        if not isinstance(game_id, int):
            return
        if public.get("over"):
            if game_id in self._withdrawn or self._deleted(game_id):
                return
            self._client.publish(self.topics.result(game_id), payload, qos=QOS, retain=True)
            self._results_sent[game_id] = payload
        elif game_id in self._results_sent:
            self._client.publish(self.topics.result(game_id), b"", qos=QOS, retain=True)
            del self._results_sent[game_id]


def renamed(payload: bytes, table: str) -> bytes:
    """A result payload kept for the broker, under the table's new name."""
    data = json.loads(payload)
    data["table"] = table
    return json.dumps(data, separators=(",", ":")).encode()


def table_origin(store: Store) -> str:
    """A random name for this table's data folder, made once and kept with its games: it
    tells this table's messages from a namesake's, and stays the same across restarts."""
    try:
        origin = store.setting("table_origin")
        if origin is None:
            origin = secrets.token_hex(8)
            store.set_setting("table_origin", origin)
    except (StoreError, sqlite3.Error):  # a full or failing card: for this run only
        return secrets.token_hex(8)
    return origin
