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

The worker's neighbours each have a module of their own: the published log and its streams
(:mod:`companion.hub`), the snapshot and the pure public state readers draw from it without
waiting for the worker (:mod:`companion.public`), the camera's proposals and notes, judged on
the worker because only it knows the state a reading meets (:mod:`companion.proposals`), and
who hears a change besides the page (:mod:`companion.listeners`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from types import TracebackType
from typing import Any, Self, TypeVar

from companion.config import GameDefaults
from companion.engine.errors import IllegalMoveError
from companion.engine.events import NEXT, REDO, UNDO, Event
from companion.engine.readings import Reading
from companion.engine.session import GameHeader, Session
from companion.hub import Hub, Subscription
from companion.intents import INTENTS, NEXT_INTENT, READ, REDO_INTENT, UNDO_INTENT
from companion.listeners import Listeners, sounds
from companion.proposals import Proposals, Stamp, refuse_if_stale
from companion.public import NO_GAME, Snapshot, current_stamp, public_state, snapshot_of
from companion.saved import NOT_RESUMED, default_header, resume_game, start_game
from companion.store import Store, StoreError
from companion.table_settings import KEEPS_EVERY_STOP, TableSettings
from companion.worker import Worker

log = logging.getLogger(__name__)

Intent = str | Event
T = TypeVar("T")
_SIMPLE = {NEXT_INTENT: NEXT, UNDO_INTENT: UNDO, REDO_INTENT: REDO}


class Table:
    """The one place where the game changes. Thread-safe; see the module docstring for why.

    Typical use: ``table = Table(Store(path), config.game)`` resumes the last game;
    ``TableButtons(pins, table.submit_intent)`` wires the buttons; the web layer calls
    :meth:`submit` and :meth:`subscribe` and draws ``public_state(table.snapshot, ...)``;
    :meth:`close` at shutdown.
    """

    def __init__(
        self,
        store: Store,
        defaults: GameDefaults | None = None,
        *,
        resume: bool = True,
        refuse_writes: str | None = None,
    ) -> None:
        self.store = store
        self.defaults = defaults or GameDefaults()
        #: Why the last game could not be resumed (shown on the tablet), if it could not.
        self.resume_error: str | None = refuse_writes
        #: Why nothing may be written (a damaged games file kept as it is); None: all is well.
        self.refuse_writes = refuse_writes
        self._session: Session[Any] | None = None
        self._game_id: int | None = None
        self._proposals = Proposals()
        #: Who hears each change besides the page (buzzer, voice, backups, the dice teacher).
        self.listeners = Listeners()
        self._spoken = ""  # the last change's sentence aloud, published with its snapshot
        self._put_back = ""  # after an undo/redo: what to change on the real table
        self._hub = Hub()
        self.settings = TableSettings(
            store, every_stop=self.defaults.every_stop, refuse_writes=refuse_writes
        )
        self._snapshot: Snapshot[Any] = Snapshot(
            no_game=refuse_writes or NO_GAME, every_stop=self.settings.every_stop
        )
        #: The public state (no log) of the last game that was over when the table moved on
        #: to another: a reader that was slow to look (the event broker's publisher) still
        #: sees how it ended, though the table already shows the next game.
        self.last_finished: dict[str, Any] | None = None
        self._worker = Worker("table-worker")
        if resume:
            self._resume()
        self._worker.start()

    # ------------------------------------------------------------------ inputs
    def submit(
        self, intent: Intent, source: str = "", shown: Stamp | None = None, *, auto: bool = False
    ) -> Future[Event]:
        """Queue a button name or an event; the future gives the logged event or the error.

        ``shown`` is the (game, change) a tablet showed when NEXT, UNDO, REDO or READ was
        pressed (game None: not said), and ``auto`` says the page passed a step nobody
        decides in: both checked on the worker, in line with every other input, so of two
        presses made at once only the first applies, and no step passes on its own once
        the table has chosen to keep every stop."""
        return self._enqueue(lambda: self._apply_checked(intent, source, shown, auto))

    def _apply_checked(self, intent: Intent, source: str, shown: Stamp | None, auto: bool) -> Event:
        if auto and self.settings.every_stop:
            raise IllegalMoveError(KEEPS_EVERY_STOP)
        if shown is not None:
            refuse_if_stale(intent, shown, self._stamp())
        return self._apply(intent, source)

    def submit_intent(self, name: str, source: str = "button") -> Future[Event]:
        """For device callbacks (``TableButtons(config, table.submit_intent)``): never blocks."""
        return self.submit(name, source)

    def observe(self, reading: Reading) -> Future[bool]:
        """A watcher's steady reading, judged on the worker by the current game's rule.

        ``reading.data`` of ``None`` withdraws the watcher's note (it stopped looking). The
        future says whether the reading was taken; one stamped with an older game state
        than the current one is dropped, and so is one stamped with another game.
        """
        return self._enqueue(lambda: self._take_reading(reading))

    def keep_every_stop(self, on: bool) -> Future[None]:
        """Keep every stop (no step passes on its own) or not, for every tablet: stored with
        the table, then in the next snapshot each page reads."""
        return self._enqueue(lambda: self._keep_every_stop(on))

    def _keep_every_stop(self, on: bool) -> None:
        self.settings.keep_every_stop(on)
        self._refresh()

    def current_stamp(self) -> Stamp:
        """The game and event number a reading taken now is judged against."""
        return current_stamp(self._snapshot)

    def new_game(self, header: GameHeader | None = None, timeout: float | None = 30.0) -> int:
        """Start a game (default: the configured one with a fresh seed); returns its id.

        It goes through the queue, so inputs sent before it apply to the old game.
        """
        chosen = header if header is not None else self.default_header()
        future: Future[int] = self._enqueue(lambda: self._start(chosen))
        return future.result(timeout)

    def default_header(self, seed: int | None = None) -> GameHeader:
        """The configured game, so NEW GAME works before anyone has chosen on the tablet."""
        return default_header(self.defaults, seed)

    def _enqueue(self, run: Callable[[], T]) -> Future[T]:
        return self._worker.submit(run)

    # ------------------------------------------------------------------ outputs
    def subscribe(self, after_seq: int = 0) -> Subscription:
        """Events of the current game with ``seq > after_seq`` (stored ones first), then live."""
        sub = self._hub.subscribe(after_seq)
        if self._worker.closed:
            sub.end("closed")
        return sub

    def worker_alive(self) -> bool:
        """The one thread that applies every input still runs (it may still be stuck)."""
        return self._worker.alive()

    def responsive(self, timeout: float = 5.0) -> bool:
        """For the service watchdog: the worker has just turned a job over, so it is not
        stuck inside one (a thread that is merely alive could be)."""
        return self._worker.responsive(timeout)

    @property
    def snapshot(self) -> Snapshot[Any]:
        """The table after its latest change: read it without a lock, never wait for the worker."""
        return self._snapshot

    @property
    def game_id(self) -> int | None:
        return self._snapshot.game_id

    def public_state(
        self, seat: int | None = None, *, with_log: bool = True, control: bool = False
    ) -> dict[str, Any]:
        """:func:`companion.public.public_state` of the latest snapshot (see there)."""
        return public_state(self._snapshot, seat, control, with_log=with_log)

    # ------------------------------------------------------------------ lifecycle
    def close(self, timeout: float | None = 30.0) -> None:
        """Refuse new inputs, apply everything already queued, stop the worker, end streams."""
        self._worker.close(timeout)
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
    def _resume(self) -> None:
        try:
            resumed = resume_game(self.store)
        except Exception as error:
            self.resume_error = NOT_RESUMED.format(error=error)
            log.exception("table: resume failed")
            self._refresh()
            return
        if resumed is not None:
            game_id, session = resumed
            self._switch(game_id, session, list(session.log), "resumed")

    def _start(self, header: GameHeader) -> int:
        if self.refuse_writes:
            raise StoreError(self.refuse_writes)
        game_id, session = start_game(self.store, header)
        self.resume_error = None
        self._switch(game_id, session, [], "new game")
        return game_id

    def _switch(self, game_id: int, session: Session[Any], events: list[Event], why: str) -> None:
        ending = self._snapshot.state
        if ending is not None and ending.ctx.over:
            self.last_finished = public_state(self._snapshot, with_log=False)
        self._session, self._game_id = session, game_id
        self._spoken = ""  # the old game's last sentence is not this game's
        self._proposals.new_game()
        self._hub.switch(game_id, events, why, self._refresh)

    def _stamp(self) -> Stamp:
        events = self._hub.events
        return self._game_id, events[-1].seq if events else 0

    def _take_reading(self, reading: Reading) -> bool:
        """Turn a reading into a change, a proposal and/or a note, for the state now."""
        taken = self._proposals.take(reading, self._session, self._stamp(), self._apply_sure)
        if taken:
            self._refresh()
        return taken

    def _apply_sure(self, event: Event, source: str) -> Stamp:
        self._apply(event, source)
        return self._stamp()

    def _apply(self, intent: Intent, source: str) -> Event:
        session = self._session
        if session is None:
            raise IllegalMoveError(NO_GAME)
        from_camera = False
        pending = self._proposals.pending
        proposal = None if pending is None else pending.event
        if isinstance(intent, Event):
            event = intent if intent.source or not source else replace(intent, source=source)
        elif intent == NEXT_INTENT and (read := self._proposals.hand_roll()) is not None:
            event, from_camera = read, True  # the camera read the dice this NEXT takes
        elif intent in _SIMPLE:
            event = Event(_SIMPLE[intent], source=source)
        elif intent == READ:
            event, from_camera = self._proposals.read(session, source)
        else:
            known = ", ".join(INTENTS)
            raise IllegalMoveError(f"Unknown command {intent!r}; the table understands: {known}.")
        before = session.state
        logged = session.dispatch(event)  # stored in SQLite before the state changes
        self._proposals.settle(proposal, logged, from_camera)
        self._put_back = ""
        if logged.kind in (UNDO, REDO) and session.spec.table_changes is not None:
            # Undo reverses the log, not the pieces: say what to move on the table.
            self._put_back = session.spec.table_changes(before.G, session.state.G)
        cues, self._spoken = sounds(session, before, logged)
        self._hub.publish(logged, self._refresh)
        self.listeners.cue(session, before, logged, cues)
        self.listeners.say(self._spoken)
        if proposal is not None and (from_camera or event.source != "camera"):
            self.listeners.confirmed_roll(proposal, logged)
        return logged

    def _refresh(self) -> None:
        self._snapshot = snapshot_of(
            self._game_id,
            self._session,
            self._hub.events,
            pending=self._proposals.pending,
            notes=self._proposals.visible(self._stamp()),
            put_back=self._put_back,
            spoken=self._spoken,
            no_game=self.resume_error or NO_GAME,
            every_stop=self.settings.every_stop,
        )
