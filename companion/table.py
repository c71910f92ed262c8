"""The table runtime: every input (button, camera, tablet, CLI) applied in order, stored, then
published.

Why one worker thread: buttons fire on gpiozero's threads, the camera on its own, the tablet on
the web server's pool. If each of them changed the game directly, two presses a millisecond
apart could interleave inside the engine. Instead every input becomes a job on one
``queue.Queue`` and a single worker applies the jobs strictly in arrival order. Callers get a
:class:`~concurrent.futures.Future` that resolves to the logged event or raises the
:class:`IllegalMoveError` whose sentence the tablet shows.

Why this order inside a job: the session is bound to the store, so ``dispatch`` writes the
event to SQLite (``synchronous=FULL``) *before* the session's state changes; only then is the
snapshot replaced and the event handed to subscribers. Nobody can ever see a change that a
power cut would take back.

Why subscribers catch up from the table's own published log: the catch-up list and the
registration for live events are taken under one lock, so an event published while a tablet
reconnects lands in exactly one of the two — no gap, no duplicate. That log is loaded from
the store at resume and only ever extended after a successful write, so it equals the stored
events of the current game.

Why the camera's read-only notes (belt check, wheel) also go through the queue: a check is
only meaningful against the game state it was made for, and only the worker knows which
state is current. A check made before the latest event is dropped or hidden; the notes are
never logged and never change the game.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from types import TracebackType
from typing import Any, Self

from companion.camera_notes import BoardCheck, WheelStatus
from companion.config import GameDefaults
from companion.engine.errors import IllegalMoveError
from companion.engine.events import NEXT, REDO, UNDO, Event
from companion.engine.legal import legal_moves
from companion.engine.redact import public_event
from companion.engine.session import GameHeader, Session
from companion.engine.spec import GameSpec
from companion.engine.state import State
from companion.errors import CompanionError
from companion.games import find_game
from companion.saved import resume_game, start_game
from companion.store import Store

log = logging.getLogger(__name__)

BUTTON_INTENTS = ("next", "undo", "redo", "read")
NOTHING_TO_READ = (
    "Nothing to read: the camera has no steady reading waiting; roll under the camera "
    "and wait a moment, or enter the result on the tablet."
)
NO_GAME = "No game is being played: start a new game on the tablet first."


class TableClosedError(CompanionError, RuntimeError):
    """The table has stopped (the companion is shutting down); the input was not applied."""


@dataclass(frozen=True)
class Observation:
    """A reading the camera proposes (a die face, a moved piece), waiting for READ.

    The camera proposes, people dispose: the worker only keeps the latest observation; the
    READ button (or the tablet) turns its ``event`` into a real, logged change.
    """

    event: Event
    summary: str  # one sentence for the tablet, e.g. "The dice show 4 and 6."
    source: str = "camera"


Intent = str | Event


@dataclass(frozen=True)
class Snapshot:
    """What the table looks like after one change; replaced whole, never mutated.

    Readers (web threads) take the current snapshot without a lock and always see a state,
    log and undo marks that belong together.
    """

    game_id: int | None = None
    header: GameHeader | None = None
    spec: GameSpec[Any] | None = None
    state: State[Any] | None = None
    events: Sequence[Event] = ()  # append-only list shared with the hub; read up to count
    count: int = 0
    undone: frozenset[int] = frozenset()
    can_undo: bool = False
    can_redo: bool = False
    pending: Observation | None = None
    put_back: str = ""  # after an undo or redo: what to change on the real table
    board_check: BoardCheck | None = None  # the camera's read-only view of the positions
    wheel: WheelStatus | None = None  # the Hamster Wheel as the camera follows it

    @property
    def log(self) -> list[Event]:
        return list(self.events[: self.count])


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

    def _push(self, event: Event) -> None:
        with self._ready:
            self._items.append(event)
            self._ready.notify()

    def _end(self, reason: str) -> None:
        with self._ready:
            if self.ended is None:
                self.ended = reason
            self._ready.notify_all()

    def get(self, timeout: float | None = None) -> Event | None:
        """The next event; ``None`` on timeout (send a heartbeat) or once the stream ended."""
        with self._ready:
            self._ready.wait_for(lambda: self._items or self.ended is not None, timeout)
            return self._items.popleft() if self._items else None

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
        self._end("closed")

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


class _Hub:
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
                sub._push(event)

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
            sub._end(reason)


@dataclass
class _Job:
    run: Callable[[], Any]
    future: Future[Any] = field(default_factory=Future)


class Table:
    """The one place where the game changes. Thread-safe; see the module docstring for why.

    Typical use: ``table = Table(Store(path), config.game)`` resumes the last game;
    ``TableButtons(pins, table.submit_intent)`` wires the buttons; the web layer calls
    :meth:`submit`, :meth:`public_state` and :meth:`subscribe`; :meth:`close` at shutdown.
    """

    def __init__(
        self,
        store: Store,
        defaults: GameDefaults | None = None,
        *,
        resume: bool = True,
    ) -> None:
        self.store = store
        self.defaults = defaults or GameDefaults()
        #: Why the last game could not be resumed (shown on the tablet), if it could not.
        self.resume_error: str | None = None
        self._session: Session[Any] | None = None
        self._game_id: int | None = None
        self._pending: Observation | None = None
        self._board_check: BoardCheck | None = None
        self._wheel: WheelStatus | None = None
        self._put_back = ""  # after an undo/redo: what to change on the real table
        self._hub = _Hub()
        self._snapshot = Snapshot()
        self._public_cache: dict[tuple[int | None, bool], tuple[Snapshot, dict[str, Any]]] = {}
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._accepting = threading.Lock()
        self._closed = False
        if resume:
            self._resume()
        self._worker = threading.Thread(target=self._work, name="table-worker", daemon=True)
        self._worker.start()

    # ------------------------------------------------------------------ inputs
    def submit(self, intent: Intent, source: str = "") -> Future[Event]:
        """Queue a button name or an event; the future gives the logged event or the error."""
        return self._enqueue(lambda: self._apply(intent, source))

    def submit_intent(self, name: str, source: str = "button") -> Future[Event]:
        """For device callbacks (``TableButtons(config, table.submit_intent)``): never blocks."""
        return self.submit(name, source)

    def observe(self, observation: Observation | None) -> Future[None]:
        """The camera's latest steady reading (``None``: it no longer sees one)."""
        return self._enqueue(lambda: self._set_pending(observation))

    def observe_board(self, check: BoardCheck | None) -> Future[bool]:
        """The camera's comparison of the belt with the game (``None``: no check running).

        Read-only: it is shown beside the game and never applied. The future says whether
        it was kept; a check made against an older game state than the current one is
        dropped, because the move since then may already have settled its differences.
        """
        return self._enqueue(lambda: self._set_board_check(check))

    def observe_wheel(self, wheel: WheelStatus | None) -> Future[None]:
        """The wheel's latest reading (``None``: nobody watches the wheel); read-only."""
        return self._enqueue(lambda: self._set_wheel(wheel))

    def new_game(self, header: GameHeader | None = None, timeout: float | None = 30.0) -> int:
        """Start a game (default: the configured one with a fresh seed); returns its id.

        It goes through the queue, so inputs sent before it apply to the old game.
        """
        chosen = header if header is not None else self.default_header()
        future: Future[int] = self._enqueue(lambda: self._start(chosen))
        return future.result(timeout)

    def default_header(self, seed: int | None = None) -> GameHeader:
        """The configured game, so NEW GAME works before anyone has chosen on the tablet."""
        spec = find_game(self.defaults.game)
        return GameHeader(
            game=spec.name,
            rules=self.defaults.rules or spec.rules_default,
            players=tuple(self.defaults.players[: spec.max_players]),
            seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
        )

    def _enqueue(self, run: Callable[[], Any]) -> Future[Any]:
        job = _Job(run)
        with self._accepting:
            if self._closed:
                job.future.set_exception(TableClosedError("The table is shutting down; try again."))
            else:
                self._queue.put(job)
        return job.future

    # ------------------------------------------------------------------ outputs
    def subscribe(self, after_seq: int = 0) -> Subscription:
        """Events of the current game with ``seq > after_seq`` (stored ones first), then live."""
        sub = self._hub.subscribe(after_seq)
        if self._closed:
            sub._end("closed")
        return sub

    def worker_alive(self) -> bool:
        """For the service watchdog: the one thread that applies every input still runs."""
        return self._worker.is_alive() and not self._closed

    @property
    def snapshot(self) -> Snapshot:
        return self._snapshot

    @property
    def game_id(self) -> int | None:
        return self._snapshot.game_id

    def public_state(self, seat: int | None = None, *, with_log: bool = True) -> dict[str, Any]:
        """Everything the tablet draws, as JSON-ready data; ``seat`` sees its own secrets.

        Live updates leave the log out (``with_log=False``): the page extends its own copy
        from the events it receives, instead of every tablet re-reading the whole log.
        Moves that any seat makes in secret (allocations) show no arguments while their
        phase is still open.
        """
        snap = self._snapshot
        if snap.state is None or snap.spec is None or snap.header is None:
            return {"game": None, "prompt": self.resume_error or NO_GAME, "log": []}
        # Twenty tablets ask for the same snapshot after every change: build it once.
        key = (seat, with_log)
        cached = self._public_cache.get(key)
        if cached is not None and cached[0] is snap:
            return dict(cached[1])
        data = self._public_state(snap, seat, with_log)
        self._public_cache[key] = (snap, data)
        return dict(data)

    def _public_state(self, snap: Snapshot, seat: int | None, with_log: bool) -> dict[str, Any]:
        assert snap.state is not None and snap.spec is not None and snap.header is not None
        spec, state, header = snap.spec, snap.state, snap.header
        ctx = state.ctx
        log_ = snap.log
        return {
            "game_id": snap.game_id,
            "game": header.game,
            "title": spec.title,
            "rules": header.rules,
            "players": list(header.players),
            "phase": ctx.phase,
            "phase_title": spec.phases[ctx.phase].title,
            "phases": [
                {"name": name, "title": phase.title}
                for name, phase in spec.phases.items()
                if name != spec.first_phase or phase.new_round
            ],
            "round": ctx.round,
            "current": ctx.current,
            "prompt": spec.prompt(state.G, ctx),
            "over": ctx.over,
            "result": ctx.result or None,
            "winners": list(ctx.winners),
            "view": spec.view(state.G, ctx, seat),
            "seq": log_[-1].seq if log_ else 0,
            "log": [public_event(spec, state, e, e.seq in snap.undone) for e in log_]
            if with_log
            else None,
            "legal": legal_moves(spec, state),
            "undone": sorted(snap.undone),
            "can_undo": snap.can_undo,
            "can_redo": snap.can_redo,
            "pending": None if snap.pending is None else snap.pending.summary,
            "put_back": snap.put_back or None,
            "board_check": None if snap.board_check is None else snap.board_check.to_json(),
            "wheel": None if snap.wheel is None else snap.wheel.to_json(),
        }

    # ------------------------------------------------------------------ lifecycle
    def close(self, timeout: float | None = 30.0) -> None:
        """Refuse new inputs, apply everything already queued, stop the worker, end streams."""
        with self._accepting:
            if not self._closed:
                self._closed = True
                self._queue.put(None)
        self._worker.join(timeout)
        if self._worker.is_alive():
            raise TableClosedError("The table worker did not stop in time.")
        self._hub.switch(None, [], "closed")

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------------ worker side
    def _work(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            if not job.future.set_running_or_notify_cancel():
                continue
            try:
                result = job.run()
            except Exception as error:  # one bad input must never stop the table
                if not isinstance(error, IllegalMoveError):
                    log.exception("table: input failed")
                job.future.set_exception(error)
            else:
                job.future.set_result(result)

    def _resume(self) -> None:
        try:
            resumed = resume_game(self.store)
        except Exception as error:
            self.resume_error = f"The last game could not be resumed ({error}); start a new game."
            log.exception("table: resume failed")
            return
        if resumed is not None:
            game_id, session = resumed
            self._switch(game_id, session, list(session.log), "resumed")

    def _start(self, header: GameHeader) -> int:
        game_id, session = start_game(self.store, header)
        self._switch(game_id, session, [], "new game")
        self.resume_error = None
        return game_id

    def _switch(self, game_id: int, session: Session[Any], events: list[Event], why: str) -> None:
        self._session, self._game_id, self._pending = session, game_id, None
        self._board_check = None  # it compared another game's positions
        self._hub.switch(game_id, events, why, self._refresh)

    def _set_pending(self, observation: Observation | None) -> None:
        self._pending = observation
        self._refresh()

    def _seq(self) -> int:
        events = self._hub.events
        return events[-1].seq if events else 0

    def _is_current(self, check: BoardCheck) -> bool:
        """Whether a belt check was made against the game state the table is in now."""
        return (check.game_id, check.seq) == (self._game_id, self._seq())

    def _set_board_check(self, check: BoardCheck | None) -> bool:
        if check is not None and not self._is_current(check):
            return False
        self._board_check = check
        self._refresh()
        return True

    def _set_wheel(self, wheel: WheelStatus | None) -> None:
        self._wheel = wheel
        self._refresh()

    def _apply(self, intent: Intent, source: str) -> Event:
        session = self._session
        if session is None:
            raise IllegalMoveError(NO_GAME)
        from_camera = False
        if isinstance(intent, Event):
            event = intent if intent.source or not source else replace(intent, source=source)
        elif intent == "next":
            event = Event(NEXT, source=source)
        elif intent == "undo":
            event = Event(UNDO, source=source)
        elif intent == "redo":
            event = Event(REDO, source=source)
        elif intent == "read":
            if self._pending is None:
                raise IllegalMoveError(NOTHING_TO_READ)
            event = replace(self._pending.event, source=self._pending.source)
            from_camera = True
        else:
            known = ", ".join(BUTTON_INTENTS)
            raise IllegalMoveError(f"Unknown command {intent!r}; the table understands: {known}.")
        before = session.state
        logged = session.dispatch(event)  # stored in SQLite before the state changes
        if from_camera:
            self._pending = None
        self._put_back = ""
        if logged.kind in (UNDO, REDO) and session.spec.table_changes is not None:
            # Undo reverses the log, not the pieces: say what to move on the table.
            self._put_back = session.spec.table_changes(before.G, session.state.G)
        self._hub.publish(logged, self._refresh)
        return logged

    def _refresh(self) -> None:
        session = self._session
        if session is None:
            self._snapshot = Snapshot(pending=self._pending, wheel=self._wheel)
            return
        check = self._board_check
        if check is not None and not self._is_current(check):
            check = None  # made against an older state: hidden until the camera looks again
        self._snapshot = Snapshot(
            game_id=self._game_id,
            header=session.header,
            spec=session.spec,
            state=session.state,
            events=self._hub.events,
            count=len(session.log),
            undone=frozenset(session.undone),
            can_undo=session.can_undo,
            can_redo=session.can_redo,
            pending=self._pending,
            put_back=self._put_back,
            board_check=check,
            wheel=self._wheel,
        )
