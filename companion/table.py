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

Why camera readings go through the queue too: a reading is only meaningful against the game
state that is current when it is judged, and only the worker knows which state that is.
Device threads never decide anything: a watcher posts a :class:`Reading` with :meth:`observe`
and the worker hands it to the rule the current game declares for its kind
(``GameSpec.readings``), which says what it means now: a change applied at once, a change
proposed for READ, and/or a read-only note for the tablet. A reading stamped with an older
state than the current one is dropped (the move since may already have settled it).

Why cues (buzzer, light, voice) are pushed from the worker: the game says which changes
deserve a sound (``GameSpec.cues``), and only the worker sees the state before and after
each change. Listeners must not block; the buzzer plays on its own thread.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from types import TracebackType
from typing import Any, Self

from companion.config import GameDefaults
from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, NEXT, REDO, UNDO, Event
from companion.engine.legal import legal_moves
from companion.engine.passing import passes_itself
from companion.engine.readings import Note, Reading, Verdict
from companion.engine.redact import public_event, secret_choice
from companion.engine.session import GameHeader, Session
from companion.engine.spec import GameSpec
from companion.engine.spoken import spoken_line
from companion.engine.standing import standings_json
from companion.engine.state import State
from companion.errors import CompanionError
from companion.games import find_game
from companion.intents import INTENTS, NEXT_INTENT, READ, REDO_INTENT, UNDO_INTENT
from companion.observations import ROLL_MOVE
from companion.saved import resume_game, start_game
from companion.store import Store, StoreError

log = logging.getLogger(__name__)

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
    kind: str = ""  # the reading kind that proposed it


Intent = str | Event
CueListener = Callable[[tuple[str, ...]], None]
#: Hears the sentence a change deserves aloud (``companion.engine.spoken``); never blocks.
SpeechListener = Callable[[str], None]
# Called with (the dice a person confirmed, the dice the camera had proposed).
RollListener = Callable[[tuple[int, ...], tuple[int, ...]], None]
GAME_OVER_CUE = "game_over"


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
    spoken: str = ""  # what the last change says aloud (the tablet speaks it when asked to)
    notes: Mapping[str, Note] = field(default_factory=dict)  # read-only, by reading kind

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
        self._waker: Callable[[], None] | None = None

    def wake_with(self, waker: Callable[[], None]) -> None:
        """Also call ``waker()`` (from the worker's thread) whenever an event or the end
        arrives: an asyncio stream hands ``loop.call_soon_threadsafe`` here instead of
        blocking a thread in :meth:`get`. It must not block."""
        with self._ready:
            self._waker = waker
            if self._items or self.ended is not None:
                waker()

    def _push(self, event: Event) -> None:
        with self._ready:
            self._items.append(event)
            self._ready.notify()
            if self._waker is not None:
                self._waker()

    def _end(self, reason: str) -> None:
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
        self._pending: Observation | None = None
        # The latest note per reading kind, with the state it was judged against (None:
        # it holds whatever the state, like the wheel's position).
        self._notes: dict[str, tuple[Note, tuple[int | None, int] | None]] = {}
        self._cue_listeners: list[CueListener] = []
        self._speech_listeners: list[SpeechListener] = []
        self._spoken = ""  # the last change's sentence aloud, published with its snapshot
        self._roll_listeners: list[RollListener] = []
        self._put_back = ""  # after an undo/redo: what to change on the real table
        self._hub = _Hub()
        self._snapshot = Snapshot()
        #: The public state (no log) of the last game that was over when the table moved on
        #: to another: a reader that was slow to look (the event broker's publisher) still
        #: sees how it ended, though the table already shows the next game.
        self.last_finished: dict[str, Any] | None = None
        self._public_cache: dict[
            tuple[int | None, bool, bool], tuple[Snapshot, dict[str, Any]]
        ] = {}
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._accepting = threading.Lock()
        self._closed = False
        if resume:
            self._resume()
        self._worker = threading.Thread(target=self._work, name="table-worker", daemon=True)
        self._worker.start()

    # ------------------------------------------------------------------ inputs
    def submit(
        self, intent: Intent, source: str = "", shown: tuple[int | None, int] | None = None
    ) -> Future[Event]:
        """Queue a button name or an event; the future gives the logged event or the error.

        ``shown`` is the (game, change) a tablet showed when NEXT, UNDO, REDO or READ was
        pressed (game None: not said): checked on the worker, in line with every other
        input, so of two presses made at once only the first applies."""
        if shown is None:
            return self._enqueue(lambda: self._apply(intent, source))
        return self._enqueue(lambda: self._apply_if_shown(intent, source, shown))

    def _apply_if_shown(self, intent: Intent, source: str, shown: tuple[int | None, int]) -> Event:
        game_id, seq = self._stamp()
        if shown[1] != seq or shown[0] not in (None, game_id):
            name = intent.upper() if isinstance(intent, str) else (intent.name or intent.kind)
            raise IllegalMoveError(
                f"The game changed just now (another tablet, phone or button), so this "
                f"{name} was not applied: check the board and press again if it is still "
                "needed."
            )
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

    def on_cues(self, listener: CueListener) -> None:
        """Call ``listener(cues)`` on the worker after each change with cues; never block."""
        self._cue_listeners.append(listener)

    def on_speech(self, listener: SpeechListener) -> None:
        """Call ``listener(sentence)`` on the worker after each change worth saying aloud
        (the game's cues in words, the new phase and whose turn it is); never block."""
        self._speech_listeners.append(listener)

    def on_confirmed_roll(self, listener: RollListener) -> None:
        """Call ``listener(confirmed, proposed)`` on the worker when a person confirms the
        camera's proposed roll (READ) or types a roll while one is proposed (a correction):
        the dice teacher's labelled examples. Never block (hand the work to a thread)."""
        self._roll_listeners.append(listener)

    def current_stamp(self) -> tuple[int | None, int]:
        """The game and event number a reading taken now is judged against."""
        snap = self._snapshot
        return snap.game_id, snap.events[snap.count - 1].seq if snap.count else 0

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
        """The one thread that applies every input still runs (it may still be stuck)."""
        return self._worker.is_alive() and not self._closed

    def responsive(self, timeout: float = 5.0) -> bool:
        """For the service watchdog: the worker has just turned a job over, so it is not
        stuck inside one (a thread that is merely alive could be)."""
        try:
            self._enqueue(lambda: None).result(timeout)
        except Exception:  # closed, or no answer in time: not responsive
            return False
        return True

    @property
    def snapshot(self) -> Snapshot:
        return self._snapshot

    @property
    def game_id(self) -> int | None:
        return self._snapshot.game_id

    def public_state(
        self, seat: int | None = None, *, with_log: bool = True, control: bool = False
    ) -> dict[str, Any]:
        """Everything the tablet draws, as JSON-ready data; ``seat`` sees its own secrets.

        Live updates leave the log out (``with_log=False``): the page extends its own copy
        from the events it receives, instead of every tablet re-reading the whole log.
        Secret moves (``MoveSpec.secret``: allocations, dealt specials kept) show no
        arguments while their phase is still open, and their buttons (legal moves) reach
        only the seat they belong to, or a tablet with ``control`` of the whole table (the
        shared tablet where players enter their secrets in turn); a watcher sees neither.
        """
        snap = self._snapshot
        if snap.state is None or snap.spec is None or snap.header is None:
            return {"game": None, "prompt": self.resume_error or NO_GAME, "log": []}
        # Twenty tablets ask for the same snapshot after every change: build it once.
        key = (seat, with_log, control)
        cached = self._public_cache.get(key)
        if cached is not None and cached[0] is snap:
            return dict(cached[1])
        data = self._public_state(snap, seat, with_log, control)
        self._public_cache[key] = (snap, data)
        return dict(data)

    def _public_state(
        self, snap: Snapshot, seat: int | None, with_log: bool, control: bool
    ) -> dict[str, Any]:
        assert snap.state is not None and snap.spec is not None and snap.header is not None
        spec, state, header = snap.spec, snap.state, snap.header
        ctx = state.ctx
        log_ = snap.log
        return {
            "game_id": snap.game_id,
            "game": header.game,
            "title": spec.title,
            "board": spec.board_name,
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
            "spoken": snap.spoken,
            "over": ctx.over,
            "result": ctx.result or None,
            "winners": list(ctx.winners),
            "standings": standings_json(spec, state, header.players),
            "view": spec.view(state.G, ctx, seat),
            "seq": log_[-1].seq if log_ else 0,
            "log": [public_event(spec, state, e, e.seq in snap.undone, seat) for e in log_]
            if with_log
            else None,
            "legal": [
                choice
                for choice in legal_moves(spec, state)
                if control or choice["seat"] == seat or not secret_choice(spec, state, choice)
            ],
            "undone": sorted(snap.undone),
            "can_undo": snap.can_undo,
            "can_redo": snap.can_redo,
            "pending": None if snap.pending is None else snap.pending.summary,
            # the dice the players roll that NEXT takes now (a picker each beside NEXT)
            "next_dice": spec.next_dice(state.G, ctx) if spec.next_dice is not None else [],
            # nobody decides anything in this step: the tablet may press NEXT by itself
            "passes": passes_itself(spec, state),
            "by_hand": list(spec.by_hand),
            "put_back": snap.put_back or None,
            "camera": camera_notes(snap),
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
            self.resume_error = (
                f"The last game could not be rebuilt from its stored events ({error}); it stays "
                "in the games file untouched (`companion export FILE` saves what is readable). "
                "Start a new game on the page when you are ready."
            )
            log.exception("table: resume failed")
            return
        if resumed is not None:
            game_id, session = resumed
            self._switch(game_id, session, list(session.log), "resumed")

    def _start(self, header: GameHeader) -> int:
        if self.refuse_writes:
            raise StoreError(self.refuse_writes)
        game_id, session = start_game(self.store, header)
        self._switch(game_id, session, [], "new game")
        self.resume_error = None
        return game_id

    def _switch(self, game_id: int, session: Session[Any], events: list[Event], why: str) -> None:
        ending = self._snapshot.state
        if ending is not None and ending.ctx.over:
            self.last_finished = self.public_state(None, with_log=False)
        self._session, self._game_id, self._pending = session, game_id, None
        self._spoken = ""  # the old game's last sentence is not this game's
        # Notes judged against the old game mean nothing now; lasting ones stay.
        self._notes = {k: v for k, v in self._notes.items() if v[1] is None}
        self._hub.switch(game_id, events, why, self._refresh)

    def _stamp(self) -> tuple[int | None, int]:
        events = self._hub.events
        return self._game_id, events[-1].seq if events else 0

    def _take_reading(self, reading: Reading) -> bool:
        """Turn a reading into a change, a proposal and/or a note, for the state now."""
        stamp = None if reading.seq is None else (reading.game_id, reading.seq)
        if stamp is not None and stamp != self._stamp():
            return False  # taken against a state that is gone
        if reading.game_id is not None and reading.game_id != self._game_id:
            return False  # taken while another game was on the table
        if reading.data is None:
            self._notes.pop(reading.kind, None)
            self._refresh()
            return True
        session = self._session
        rule = None if session is None else session.spec.readings.get(reading.kind)
        if session is None or rule is None:
            # No game takes this reading: it may still describe itself (the wheel panel).
            describe = getattr(reading.data, "note", None)
            note = describe() if callable(describe) else None
            if not isinstance(note, Note):
                return False
            self._notes[reading.kind] = (note, stamp)
            self._refresh()
            return True
        verdict = self._demo_rule(rule(session.spec, session.state, reading.data), reading)
        if verdict.event is not None and verdict.sure:
            self._apply(verdict.event, reading.source)  # the camera's sure reading
            stamp = None if stamp is None else self._stamp()
        elif verdict.event is not None:
            self._pending = Observation(
                verdict.event, verdict.summary, reading.source, reading.kind
            )
        elif self._pending is not None and self._pending.kind == reading.kind:
            # The camera no longer proposes it (the wheel: a hand reached in, so the pieces
            # on the table belong to a try): READ must not accept what it stopped saying.
            self._pending = None
        if verdict.note is None:
            self._notes.pop(reading.kind, None)
        else:
            self._notes[reading.kind] = (verdict.note, stamp)
        self._refresh()
        return True

    def _demo_rule(self, verdict: Verdict, reading: Reading) -> Verdict:
        """The simulated camera's dice play only in a game started as a demo: there they
        are taken like a real camera's; in a real game they are shown, never applied."""
        if not getattr(reading.data, "demo", False) or verdict.event is None:
            return verdict
        session = self._session
        if session is not None and session.header.options.get("demo") is True:
            return replace(verdict, sure=True)
        line = "Demo dice are only shown in a real game; start a demo game to play with them."
        note = verdict.note or Note("info")
        return Verdict(note=replace(note, lines=(*note.lines, line)))

    def _apply(self, intent: Intent, source: str) -> Event:
        session = self._session
        if session is None:
            raise IllegalMoveError(NO_GAME)
        from_camera = False
        proposal = None if self._pending is None else self._pending.event
        if isinstance(intent, Event):
            event = intent if intent.source or not source else replace(intent, source=source)
        elif intent == NEXT_INTENT:
            event = Event(NEXT, source=source)
        elif intent == UNDO_INTENT:
            event = Event(UNDO, source=source)
        elif intent == REDO_INTENT:
            event = Event(REDO, source=source)
        elif intent == READ:
            if self._pending is None:
                event = self._read_without_proposal(session, source)
            else:
                event = replace(self._pending.event, source=self._pending.source)
                from_camera = True
        else:
            known = ", ".join(INTENTS)
            raise IllegalMoveError(f"Unknown command {intent!r}; the table understands: {known}.")
        before = session.state
        logged = session.dispatch(event)  # stored in SQLite before the state changes
        if from_camera or (
            proposal is not None
            and (logged.kind, logged.name, logged.seat)
            == (proposal.kind, proposal.name, proposal.seat)
        ):
            # Accepted, or the same move made another way (a typed roll while the camera's
            # unsure one waited): the proposal is answered, READ must not log it later.
            self._pending = None
        self._put_back = ""
        if logged.kind in (UNDO, REDO) and session.spec.table_changes is not None:
            # Undo reverses the log, not the pieces: say what to move on the table.
            self._put_back = session.spec.table_changes(before.G, session.state.G)
        cues, self._spoken = self._sounds(session, before, logged)
        self._hub.publish(logged, self._refresh)
        self._cue(session, before, logged, cues)
        self._say(self._spoken)
        if proposal is not None and (from_camera or event.source != "camera"):
            self._confirmed_roll(proposal, logged)
        return logged

    def _confirmed_roll(self, proposal: Event, logged: Event) -> None:
        """Tell the roll listeners a person vouched for these dice (not the camera alone)."""
        rolls = (proposal.kind, proposal.name, logged.kind, logged.name)
        if rolls != (MOVE, ROLL_MOVE, MOVE, ROLL_MOVE) or not logged.given:
            return
        try:
            confirmed = tuple(int(v) for v in logged.given)
            proposed = tuple(int(v) for v in proposal.given)
        except (TypeError, ValueError):
            return  # a game whose roll is not plain die faces
        for listener in self._roll_listeners:
            try:
                listener(confirmed, proposed)
            except Exception:  # keeping examples must never stop the table
                log.exception("table: a roll listener failed")

    def _read_without_proposal(self, session: Session[Any], source: str) -> Event:
        """READ with nothing pending: what the game says READ means now (Hamster Wheel: a
        failed try with what the camera sees on the table), else "nothing to read"."""
        spec, state = session.spec, session.state
        notes = {kind: note.to_json() for kind, (note, _) in self._notes.items()}
        event = None if spec.on_read is None else spec.on_read(state.G, state.ctx, notes)
        if event is None:
            raise IllegalMoveError(NOTHING_TO_READ)
        return replace(event, source=source)

    def _sounds(
        self, session: Session[Any], before: State[Any], logged: Event
    ) -> tuple[tuple[str, ...], str]:
        """The game's own cues for this change (none for undo and redo) and its sentence aloud.

        Worked out before the change is published, after it is stored: a game whose cues or
        prompt fail here must not keep a stored change from reaching the tablets, so a
        failure only silences this one change.
        """
        after = session.state
        try:
            cues: tuple[str, ...] = ()
            if session.spec.cues is not None and logged.kind not in (UNDO, REDO):
                cues = session.spec.cues(before.G, after.G, after.ctx, logged)
            return cues, spoken_line(session.spec, before, after, logged, cues)
        except Exception:
            log.exception("table: the game's cues or spoken line failed")
            return (), ""

    def _cue(
        self, session: Session[Any], before: State[Any], logged: Event, cues: tuple[str, ...]
    ) -> None:
        """Tell the cue listeners what this change deserves (the game's cues, game over)."""
        if not self._cue_listeners or logged.kind in (UNDO, REDO):
            return
        if session.state.ctx.over and not before.ctx.over:
            cues += (GAME_OVER_CUE,)
        if not cues:
            return
        for listener in self._cue_listeners:
            try:
                listener(cues)
            except Exception:  # a broken buzzer must never stop the table
                log.exception("table: a cue listener failed")

    def _say(self, sentence: str) -> None:
        """Hand the sentence to the speech listeners; a broken speaker never stops the table."""
        if not sentence:
            return
        for listener in self._speech_listeners:
            try:
                listener(sentence)
            except Exception:
                log.exception("table: a speech listener failed")

    def _refresh(self) -> None:
        session = self._session
        now = self._stamp()
        # A note judged against an older state is hidden until the camera looks again.
        notes = {k: note for k, (note, made) in self._notes.items() if made in (None, now)}
        if session is None:
            self._snapshot = Snapshot(pending=self._pending, notes=notes)
            return
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
            spoken=self._spoken,
            notes=notes,
        )


def camera_notes(snap: Snapshot) -> dict[str, dict[str, Any]]:
    """The read-only notes the tablet shows beside the game, by reading kind."""
    return {kind: note.to_json() for kind, note in snap.notes.items()}
