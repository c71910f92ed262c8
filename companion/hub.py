"""The live hub: the published log of the game on the table and the streams that follow it.

Why apart from the worker: a tablet that reconnects must get exactly what it missed, no gap
and no duplicate, whatever the worker is doing. The catch-up list and the registration for
live events are therefore taken under the hub's one lock, and the worker only ever calls
:meth:`Hub.publish` (after the event is stored) and :meth:`Hub.switch` (another game). Nothing
here knows a game or a store, so it is tested with plain events and no worker thread.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Self

from companion.engine.events import Event


class Subscription:
    """Events of one game for one listener (an SSE stream): the missed ones, then live ones.

    Each event carries its ``seq`` (the SSE id). The stream ends when the table closes, a new
    game starts or :meth:`close` is called; :attr:`ended` then says why. ``reset`` is true
    when the requested ``after_seq`` was beyond this game's log (a tablet still on a previous
    game): the whole log is delivered and the page should redraw from scratch.
    """

    def __init__(
        self,
        game_id: int | None,
        backlog: Sequence[Event],
        on_close: Callable[[Subscription], None],
    ) -> None:
        self.game_id = game_id
        self.reset = False
        self.ended: str | None = None
        self._items: deque[Event] = deque(backlog)
        self._ready = threading.Condition()
        self._on_close = on_close
        self._waker: Callable[[], None] | None = None

    def wake_with(self, waker: Callable[[], None]) -> None:
        """Also call ``waker()`` (from the worker's thread) whenever an event or the end
        arrives: an asyncio stream hands ``loop.call_soon_threadsafe`` here instead of
        blocking a thread in :meth:`get`. It must not block."""
        with self._ready:
            self._waker = waker
            if self._items or self.ended is not None:
                waker()

    def push(self, event: Event) -> None:
        with self._ready:
            self._items.append(event)
            self._ready.notify()
            if self._waker is not None:
                self._waker()

    def end(self, reason: str) -> None:
        with self._ready:
            if self.ended is None:
                self.ended = reason
            self._ready.notify_all()
            if self._waker is not None:
                self._waker()

    def get(self, timeout: float | None = None) -> Event | None:
        """The next event; ``None`` on timeout (send a heartbeat) or once the stream ended."""
        with self._ready:
            self._ready.wait_for(lambda: self._items or self.ended is not None, timeout)
            return self._items.popleft() if self._items else None

    def waiting(self) -> list[Event]:
        """Every event that has arrived and not been taken yet, at once (none: empty)."""
        with self._ready:
            taken = list(self._items)
            self._items.clear()
            return taken

    def __iter__(self) -> Iterator[Event]:
        while True:
            event = self.get()
            if event is None:
                if self.ended is not None:
                    return
                continue
            yield event

    def close(self) -> None:
        self._on_close(self)
        self.end("closed")

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


class Hub:
    """The published log of the current game and its listeners, behind one lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: set[Subscription] = set()
        self.game_id: int | None = None
        self.events: list[Event] = []

    def subscribe(self, after_seq: int) -> Subscription:
        with self._lock:
            reset = after_seq > len(self.events)
            backlog = [e for e in self.events if reset or e.seq > after_seq]
            sub = Subscription(self.game_id, backlog, self._drop)
            sub.reset = reset
            self._listeners.add(sub)
            return sub

    def _drop(self, sub: Subscription) -> None:
        with self._lock:
            self._listeners.discard(sub)

    def publish(self, event: Event, before_delivery: Callable[[], None]) -> None:
        """Append to the log, let the table refresh its snapshot, then tell every listener.

        The snapshot is refreshed before delivery so that a listener that reacts to event N by
        asking for the state sees at least N.
        """
        with self._lock:
            self.events.append(event)
            before_delivery()
            for sub in self._listeners:
                sub.push(event)

    def switch(
        self,
        game_id: int | None,
        events: list[Event],
        reason: str,
        before_end: Callable[[], None] = lambda: None,
    ) -> None:
        """A different game is now on the table: end every stream of the old one."""
        with self._lock:
            self.game_id, self.events = game_id, events
            before_end()
            listeners, self._listeners = self._listeners, set()
        for sub in listeners:
            sub.end(reason)
