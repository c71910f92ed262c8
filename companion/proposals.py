"""Camera proposals and notes: what the camera says about the game, kept until people answer.

The camera proposes, people dispose. A watcher's steady reading goes to the rule the current
game declares for its kind (``GameSpec.readings``), which returns a :class:`Verdict`: a change
it is sure of (applied at once), a change it proposes (kept here as the one pending
:class:`Observation` that READ accepts) and/or a read-only note for the tablet.

Why apart from the worker: this is bookkeeping over readings and states, not ordering. The
worker calls :meth:`Proposals.take` on its own thread and hands in how to apply a sure change,
so every rule here is tested with a plain session and no thread.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TypeVar

from companion.engine.errors import IllegalMoveError
from companion.engine.events import NEXT, Event
from companion.engine.readings import Note, Reading, Verdict
from companion.engine.session import Session

G = TypeVar("G")  # the game's own state (``State.G``)

#: The game and the event number a reading was judged against (game None: not said).
Stamp = tuple[int | None, int]

NOTHING_TO_READ = (
    "Nothing to read: the camera has no steady reading waiting; roll under the camera "
    "and wait a moment, or enter the result on the tablet."
)
DEMO_ONLY = "Demo dice are only shown in a real game; start a demo game to play with them."


@dataclass(frozen=True)
class Observation:
    """A reading the camera proposes (a die face, a moved piece), waiting for READ.

    The worker only keeps the latest observation; the READ button (or the tablet) turns its
    ``event`` into a real, logged change.
    """

    event: Event
    summary: str  # one sentence for the tablet, e.g. "The dice show 4 and 6."
    source: str = "camera"
    kind: str = ""  # the reading kind that proposed it


class Proposals:
    """The pending proposal and the latest note per reading kind; used by the worker only."""

    def __init__(self) -> None:
        self.pending: Observation | None = None
        # The latest note per reading kind, with the state it was judged against (None:
        # it holds whatever the state, like the wheel's position).
        self._notes: dict[str, tuple[Note, Stamp | None]] = {}

    def new_game(self) -> None:
        """Another game is on the table: its proposal and notes mean nothing now; lasting
        notes (judged against no state) stay."""
        self.pending = None
        self._notes = {k: v for k, v in self._notes.items() if v[1] is None}

    def visible(self, now: Stamp) -> Mapping[str, Note]:
        """The notes to show now: one judged against an older state is hidden until the
        camera looks again."""
        return {k: note for k, (note, made) in self._notes.items() if made in (None, now)}

    def take(
        self,
        reading: Reading,
        session: Session[G] | None,
        now: Stamp,
        apply: Callable[[Event, str], Stamp],
    ) -> bool:
        """Turn a reading into a change, a proposal and/or a note, for the state ``now``.

        ``apply(event, source)`` logs a sure change and returns the new stamp. Returns whether
        the reading was taken: one stamped with an older state, or another game, is not.
        """
        stamp = None if reading.seq is None else (reading.game_id, reading.seq)
        if stamp is not None and stamp != now:
            return False  # taken against a state that is gone
        if reading.game_id is not None and reading.game_id != now[0]:
            return False  # taken while another game was on the table
        if reading.data is None:
            self._notes.pop(reading.kind, None)
            return True
        rule = None if session is None else session.spec.readings.get(reading.kind)
        if session is None or rule is None:
            return self._describe(reading, stamp)
        verdict = demo_rule(session, rule(session.spec, session.state, reading.data), reading)
        if verdict.event is not None and verdict.sure:
            after = apply(verdict.event, reading.source)  # the camera's sure reading
            stamp = None if stamp is None else after
        elif verdict.event is not None:
            self.pending = Observation(verdict.event, verdict.summary, reading.source, reading.kind)
        elif self.pending is not None and self.pending.kind == reading.kind:
            # The camera no longer proposes it (the wheel: a hand reached in, so the pieces
            # on the table belong to a try): READ must not accept what it stopped saying.
            self.pending = None
        if verdict.note is None:
            self._notes.pop(reading.kind, None)
        else:
            self._notes[reading.kind] = (verdict.note, stamp)
        return True

    def _describe(self, reading: Reading, stamp: Stamp | None) -> bool:
        """No game takes this reading: it may still describe itself (the wheel panel)."""
        describe = getattr(reading.data, "note", None)
        note = describe() if callable(describe) else None
        if not isinstance(note, Note):
            return False
        self._notes[reading.kind] = (note, stamp)
        return True

    def read(self, session: Session[G], source: str) -> tuple[Event, bool]:
        """What READ means now, and whether it is the camera's proposal.

        With a proposal pending, that proposal; otherwise what the game says READ means
        (Hamster Wheel: a failed try with what the camera sees on the table), else
        "nothing to read".
        """
        if self.pending is not None:
            return replace(self.pending.event, source=self.pending.source), True
        spec, state = session.spec, session.state
        notes = {kind: note.to_json() for kind, (note, _) in self._notes.items()}
        event = None if spec.on_read is None else spec.on_read(state.G, state.ctx, notes)
        if event is None:
            raise IllegalMoveError(NOTHING_TO_READ)
        return replace(event, source=source), False

    def hand_roll(self) -> Event | None:
        """The camera's reading of the hand-rolled dice a NEXT takes (Rest, Fatigue, the
        roll-off), as that NEXT: pressing NEXT accepts it; None when none is proposed."""
        pending = self.pending
        if pending is None or pending.event.kind != NEXT:
            return None
        return replace(pending.event, source=pending.source)

    def settle(self, proposal: Event | None, logged: Event, from_camera: bool) -> None:
        """After a change: the proposal is answered if it was accepted, or the same move was
        made another way (a typed roll while the camera's unsure one waited), so READ must
        not log it later."""
        if from_camera or (
            proposal is not None
            and (logged.kind, logged.name, logged.seat)
            == (proposal.kind, proposal.name, proposal.seat)
        ):
            self.pending = None


def demo_rule(session: Session[G], verdict: Verdict, reading: Reading) -> Verdict:
    """The simulated camera's dice play only in a game started as a demo: there they are
    taken like a real camera's; in a real game they are shown, never applied."""
    if not getattr(reading.data, "demo", False) or verdict.event is None:
        return verdict
    if session.header.options.get("demo") is True:
        # Taken like a real camera's roll; dice that NEXT takes still wait for NEXT.
        return verdict if verdict.event.kind == NEXT else replace(verdict, sure=True)
    note = verdict.note or Note("info")
    return Verdict(note=replace(note, lines=(*note.lines, DEMO_ONLY)))
