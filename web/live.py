"""Live updates by Server-Sent Events, served on the event loop rather than on threads.

Why on the loop: a live page holds its connection open for the whole evening. Served by a
WSGI thread, each one held a thread, and 32 open tabs (eight phones with four tabs each)
left no thread for NEXT. Here an open stream is a coroutine waiting on an ``asyncio.Event``
that the table's worker sets through ``loop.call_soon_threadsafe``; hundreds cost a few
kilobytes each and no thread. Streams beyond ``cap`` get a clear 503, so even a flood of
tabs can never take the API's threads.

Each event's id is its sequence number: a tablet that slept reconnects with
``Last-Event-ID`` and receives exactly the events it missed, then live ones. A ping every
few seconds lets both ends notice a dead connection. ``HEAD`` answers the headers and
opens nothing.

Two ways of sending a change. A page that asks with ``?v=2`` (today's scripts) gets the
public state once per batch: when several events go out in one go (the catch-up after a
reconnect, a burst of changes), only the last carries the state and its id; the others
carry the log entry alone, and no id, so a page cut off mid-batch resumes before them and
never loses the state. A page without it (a script from before, still open or cached)
gets the whole state with every event, as it always did. With ``?game=<id>`` the page says
which game it shows: a different game on the table is a ``reset`` even when the change
numbers agree.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

from companion.engine.redact import public_event
from companion.hub import Subscription
from companion.public import public_state
from companion.table import Table
from web.auth import Grant

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

MAX_ID_DIGITS = 18  # sequence numbers of any real game fit; longer is not an id
LEAN = "2"  # ``?v=2``: the page draws once per batch from the state that ends it
BATCH_BYTES = 32 * 1024  # a long catch-up goes out in writes of about this size
STREAM_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
]


class BadStreamRequestError(ValueError):
    """The request cannot open a stream; the message says why, for the 400 answer."""


def _query(scope: Scope, name: str) -> str | None:
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(name)
    return values[0] if values else None


def resume_point(scope: Scope) -> int:
    """The last sequence number the page has (``Last-Event-ID`` or ``?after=``), else 0."""
    headers = dict(scope.get("headers") or [])
    raw = headers.get(b"last-event-id")
    text = (_query(scope, "after") or "0") if raw is None else raw.decode("latin-1")
    text = text.strip() or "0"
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_ID_DIGITS:
        raise BadStreamRequestError(
            "Last-Event-ID and 'after' must be the whole number of the last event seen."
        )
    return int(text)


def shown_game(scope: Scope) -> int | None:
    """The game the page shows (``?game=``), if it said."""
    text = (_query(scope, "game") or "").strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_ID_DIGITS:
        raise BadStreamRequestError("'game' must be the whole number of the game shown.")
    return int(text)


async def answer_json(send: Send, status: int, message: str, extra: Any = ()) -> None:
    """A short JSON answer with one sentence, like every other API error."""
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": [*headers, *extra]})
    await send({"type": "http.response.body", "body": body})


class LiveStreams:
    """The ``/api/stream`` endpoint as an ASGI app, with at most ``cap`` open at once."""

    def __init__(
        self,
        table: Table,
        *,
        heartbeat: float = 10.0,
        cap: int = 256,
        grant: Callable[[str | None], Grant | None] = lambda token: None,
    ) -> None:
        self.table = table
        self.grant = grant  # a ``?token=`` sees what it unlocks (a seat, or the table)
        self.heartbeat = heartbeat
        # A page that has taken nothing for this long (a phone gone from the Wi-Fi, a tab
        # frozen, a client that reads nothing) loses its stream: it would hold one of the
        # ``cap`` places all evening. A live page reconnects and resumes where it stopped.
        self.stall = 3 * heartbeat
        self.cap = cap
        self.open = 0
        self._closing = False
        self._wakers: set[asyncio.Event] = set()
        # Texts every page seeing the same gets, for one snapshot (``_shared_text``).
        self._texts_of: object = None
        self._texts: dict[tuple[Any, ...], str] = {}

    def close(self) -> None:
        """On the loop: end every open stream (the server is stopping)."""
        self._closing = True
        for wake in self._wakers:
            wake.set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        method = scope.get("method", "GET")
        if method not in ("GET", "HEAD"):
            await answer_json(
                send, 405, "The live stream is read with GET.", [(b"allow", b"GET, HEAD")]
            )
            return
        try:
            after = resume_point(scope)
            game = shown_game(scope)
        except BadStreamRequestError as error:
            await answer_json(send, 400, str(error))
            return
        if method == "HEAD":
            await send({"type": "http.response.start", "status": 200, "headers": STREAM_HEADERS})
            await send({"type": "http.response.body", "body": b""})
            return
        if self.open >= self.cap or self._closing:
            await answer_json(
                send,
                503,
                f"Too many live pages are open ({self.cap}); close a tab on another phone or "
                "tablet and reload.",
                [(b"retry-after", b"10")],
            )
            return
        grant = self.grant(_query(scope, "token"))
        lean = _query(scope, "v") == LEAN
        self.open += 1
        try:
            await self._stream(after, game, lean, receive, send, grant)
        finally:
            self.open -= 1

    async def _stream(
        self,
        after: int,
        game: int | None,
        lean: bool,
        receive: Receive,
        send: Send,
        grant: Grant | None,
    ) -> None:
        seat = None if grant is None else grant.seat
        control = grant is not None and grant.table
        loop = asyncio.get_running_loop()
        wake = asyncio.Event()
        subscription = self.table.subscribe(after)
        if game is not None and subscription.game_id != game:
            # The page shows another game (its change number may well exist in this one):
            # start it again from this game's beginning.
            subscription.close()
            subscription = self.table.subscribe(0)
            subscription.reset = True
        subscription.wake_with(lambda: _wake(loop, wake))
        self._wakers.add(wake)
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": STREAM_HEADERS})
            await self._body(send, "retry: 1000\n\n")
            if subscription.reset:
                await self._body(send, "event: reset\ndata: {}\n\n")
                if lean:  # the page reloads the whole state; the old log is not sent again
                    subscription.waiting()
            while not gone.done():
                if self._closing:
                    await self._body(send, 'event: end\ndata: {"reason": "closed"}\n\n')
                    return
                if lean:
                    batch = subscription.waiting()
                    if batch:
                        for text in self._batch(batch, seat, control):
                            await self._body(send, text)
                        continue
                else:
                    event = subscription.get(timeout=0)
                    if event is not None:
                        await self._body(send, self._change(event, seat, control))
                        continue
                if subscription.ended is not None:
                    ended = json.dumps({"reason": subscription.ended})
                    await self._body(send, f"event: end\ndata: {ended}\n\n")
                    return
                wake.clear()
                waiting = asyncio.ensure_future(wake.wait())
                done, _ = await asyncio.wait(
                    {waiting, gone}, timeout=self.heartbeat, return_when=asyncio.FIRST_COMPLETED
                )
                waiting.cancel()
                if not done:
                    await self._body(send, "event: ping\ndata: {}\n\n")
        except (OSError, TimeoutError):
            pass  # the page went away mid-write, or stopped reading: nothing to tell anyone
        finally:
            gone.cancel()
            self._wakers.discard(wake)
            subscription.close()

    def _entry(self, event: Any, seat: int | None) -> Any:
        """The event as this page may see it (a secret move's arguments hidden)."""
        snapshot = self.table.snapshot
        if snapshot.spec is not None and snapshot.state is not None:
            return public_event(snapshot.spec, snapshot.state, event, False, seat)
        return event.to_json()

    def _shared_text(self, key: tuple[Any, ...], make: Callable[[], str]) -> str:
        """The text ``make`` gives, made once per snapshot of the table for every page that
        sees the same (the watchers all do): 200 pages each serialising the same state
        after every change kept the loop busy, and the API's p99 waited on it."""
        snapshot = self.table.snapshot
        if self._texts_of is not snapshot:
            self._texts_of, self._texts = snapshot, {}
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = make()
        return text

    def _change(self, event: Any, seat: int | None, control: bool) -> str:
        """One event with the whole public state: the format of pages that did not ask."""

        def make() -> str:
            state = public_state(self.table.snapshot, seat, control, with_log=False)
            data = json.dumps({"event": self._entry(event, seat), "state": state})
            return f"id: {event.seq}\nevent: change\ndata: {data}\n\n"

        return self._shared_text(("change", event.seq, seat, control), make)

    def _log_entry(self, event: Any, seat: int | None) -> str:
        """One event's log entry alone (an event in a batch before its last)."""

        def make() -> str:
            return f"event: change\ndata: {json.dumps({'event': self._entry(event, seat)})}\n\n"

        return self._shared_text(("entry", event.seq, seat), make)

    def _batch(self, events: list[Any], seat: int | None, control: bool) -> list[str]:
        """Events sent in one go to a ``?v=2`` page: each log entry, and the state once, with
        the last (which alone has an id). Returned as writes of about ``BATCH_BYTES``."""
        texts = [self._log_entry(event, seat) for event in events[:-1]]
        texts.append(self._change(events[-1], seat, control))
        writes: list[str] = []
        for text in texts:
            if writes and len(writes[-1]) + len(text) <= BATCH_BYTES:
                writes[-1] += text
            else:
                writes.append(text)
        return writes

    async def _body(self, send: Send, text: str) -> None:
        message = {"type": "http.response.body", "body": text.encode(), "more_body": True}
        # asyncio.timeout, not wait_for: wait_for makes a task per write, which with 200
        # pages open made the API's p99 five times slower (bench/web.py).
        async with asyncio.timeout(self.stall):
            await send(message)


def _wake(loop: asyncio.AbstractEventLoop, wake: asyncio.Event) -> None:
    """From the table's worker thread: wake the stream's coroutine on its loop."""
    if not loop.is_closed():
        loop.call_soon_threadsafe(wake.set)


async def _disconnected(receive: Receive) -> None:
    """Returns once the page closed the connection (or sent something it should not)."""
    while True:
        message = await receive()
        if message.get("type") == "http.disconnect":
            return


__all__ = ["LiveStreams", "Subscription", "resume_point", "shown_game"]
