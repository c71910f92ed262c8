"""The public state: what a tablet, phone or event board draws, from one snapshot of the table.

Why a pure function of a :class:`Snapshot`: the worker replaces the snapshot whole after every
change and never mutates it, so a reader (the live stream, the JSON API, the MQTT publisher)
takes the current one without a lock and works out what it may show without ever touching
the worker. The same snapshot, seat and control always give the same answer, so it is
worked out once per snapshot and kept on it: twenty tablets asking after every change cost
one build, not twenty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from companion.engine.events import MOVE, Event
from companion.engine.legal import legal_moves
from companion.engine.passing import passes_itself
from companion.engine.readings import Note
from companion.engine.redact import is_secret, public_event, secret_choice
from companion.engine.session import GameHeader, Session
from companion.engine.spec import GameSpec
from companion.engine.standing import standings_json
from companion.engine.state import State
from companion.proposals import Observation

NO_GAME = "No game is being played: start a new game on the tablet first."

G = TypeVar("G")  # the game's own state (``State.G``), as in ``companion.engine.session``


@dataclass(frozen=True)
class Snapshot(Generic[G]):
    """What the table looks like after one change; replaced whole, never mutated.

    Readers (web threads) take the current snapshot without a lock and always see a state,
    log and undo marks that belong together. Generic in the game's state so a spec and a
    state of two different games cannot be paired; the table, which plays whichever game
    is chosen at run time, holds a ``Snapshot[Any]``.
    """

    game_id: int | None = None
    header: GameHeader | None = None
    spec: GameSpec[G] | None = None
    state: State[G] | None = None
    events: Sequence[Event] = ()  # append-only list shared with the hub; read up to count
    count: int = 0
    undone: frozenset[int] = frozenset()
    can_undo: bool = False
    can_redo: bool = False
    pending: Observation | None = None
    put_back: str = ""  # after an undo or redo: what to change on the real table
    spoken: str = ""  # what the last change says aloud (the tablet speaks it when asked to)
    notes: Mapping[str, Note] = field(default_factory=dict)  # read-only, by reading kind
    no_game: str = NO_GAME  # with no game: why (the last game could not be resumed), or NO_GAME
    every_stop: bool = False  # the table keeps every stop: no step passes on its own
    # The public states already worked out from this snapshot, by (seat, with_log, control).
    built: dict[tuple[int | None, bool, bool], dict[str, Any]] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    @property
    def log(self) -> list[Event]:
        return list(self.events[: self.count])


def snapshot_of(
    game_id: int | None,
    session: Session[G] | None,
    events: Sequence[Event],
    *,
    pending: Observation | None,
    notes: Mapping[str, Note],
    put_back: str,
    spoken: str,
    no_game: str,
    every_stop: bool = False,
) -> Snapshot[G]:
    """The snapshot of a session right after a change (no session: no game, and why)."""
    if session is None:
        return Snapshot(pending=pending, notes=notes, no_game=no_game, every_stop=every_stop)
    return Snapshot(
        game_id=game_id,
        header=session.header,
        spec=session.spec,
        state=session.state,
        events=events,
        count=len(session.log),
        undone=frozenset(session.undone),
        can_undo=session.can_undo,
        can_redo=session.can_redo,
        pending=pending,
        put_back=put_back,
        spoken=spoken,
        notes=notes,
        every_stop=every_stop,
    )


def public_state(
    snap: Snapshot[G], seat: int | None = None, control: bool = False, *, with_log: bool = True
) -> dict[str, Any]:
    """Everything the tablet draws, as JSON-ready data; ``seat`` sees its own secrets.

    Live updates leave the log out (``with_log=False``): the page extends its own copy from
    the events it receives, instead of every tablet re-reading the whole log. Secret moves
    (``MoveSpec.secret``: allocations, dealt specials kept) show no arguments while their
    phase is still open, and their buttons (legal moves) reach only the seat they belong to,
    or a tablet with ``control`` of the whole table (the shared tablet where players enter
    their secrets in turn); a watcher sees neither. Each call returns a dict of its own.
    """
    if snap.state is None or snap.spec is None or snap.header is None:
        return {"game": None, "prompt": snap.no_game, "log": []}
    key = (seat, with_log, control)
    built = snap.built.get(key)
    if built is None:
        built = snap.built[key] = _build(snap, seat, with_log, control)
    return dict(built)


def _pending_move(
    spec: GameSpec[G], state: State[G], pending: Observation | None
) -> dict[str, Any] | None:
    """The camera's proposed move for one seat (name, args, faces), unless it is secret."""
    event = None if pending is None else pending.event
    if event is None or event.kind != MOVE or event.seat is None or is_secret(spec, state, event):
        return None
    given = list(event.given)
    return {"seat": event.seat, "name": event.name, "args": dict(event.args), "given": given}


def _build(snap: Snapshot[G], seat: int | None, with_log: bool, control: bool) -> dict[str, Any]:
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
        "prompt": spec.presentation.prompt(state.G, ctx),
        "spoken": snap.spoken,
        "over": ctx.over,
        "result": ctx.result or None,
        "winners": list(ctx.winners),
        "standings": standings_json(spec, state, header.players),
        "view": spec.presentation.view(state.G, ctx, seat),
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
        # which reading proposed it ("dice": the page offers to fix it on its picture)
        "pending_kind": None if snap.pending is None else snap.pending.kind,
        # the proposed move itself (a Rats pool's sizes and faces), for the seat it is for to
        # confirm on its phone with one tap; never a secret move
        "pending_move": _pending_move(spec, state, snap.pending),
        # the dice the players roll that NEXT takes now (a picker each beside NEXT)
        "next_dice": spec.next_dice(state.G, ctx) if spec.next_dice is not None else [],
        # nobody decides anything in this step: the tablet may press NEXT by itself, unless
        # the table keeps every stop (a table setting, the same on every tablet)
        "passes": passes_itself(spec, state),
        "every_stop": snap.every_stop,
        "by_hand": list(spec.presentation.by_hand),
        "put_back": snap.put_back or None,
        "camera": camera_notes(snap),
    }


def camera_notes(snap: Snapshot[G]) -> dict[str, dict[str, Any]]:
    """The read-only notes the tablet shows beside the game, by reading kind."""
    return {kind: note.to_json() for kind, note in snap.notes.items()}


def current_stamp(snap: Snapshot[G]) -> tuple[int | None, int]:
    """The game and event number a reading taken now is judged against."""
    return snap.game_id, snap.events[snap.count - 1].seq if snap.count else 0
