"""A live game: the event log, undo/redo as events, and the state kept current.

Every change goes through :meth:`Session.dispatch`: the engine checks it first (an illegal
move raises and nothing is recorded), then the ``on_record`` hook persists the logged
event (the SQLite store), and only then does the session's state change. A crash at any
point therefore leaves either the whole event or none of it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, NEXT, REDO, UNDO, Event
from companion.engine.flow import initial_state, step
from companion.engine.replaying import replaying
from companion.engine.spec import GameSpec
from companion.engine.state import State

G = TypeVar("G")


@dataclass(frozen=True)
class GameHeader:
    """What is needed, with the log, to rebuild a game exactly."""

    game: str
    rules: str
    players: tuple[str, ...]
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    given: tuple[Any, ...] = ()  # outcomes forced at set-up (scenario files)


class Session(Generic[G]):
    """One game in progress."""

    def __init__(
        self,
        spec: GameSpec[G],
        header: GameHeader,
        on_record: Callable[[Event], None] | None = None,
    ) -> None:
        self.spec = spec
        self.header = header
        self.on_record = on_record
        self.initial, self.setup_outcome = initial_state(
            spec, header.rules, header.players, header.seed, header.options, header.given
        )
        self.log: list[Event] = []
        self._applied: list[tuple[Event, State[G]]] = []
        self._redo: list[Event] = []

    @property
    def state(self) -> State[G]:
        return self._applied[-1][1] if self._applied else self.initial

    @property
    def applied(self) -> list[Event]:
        """The events in effect, oldest first (undone ones left out)."""
        return [event for event, _ in self._applied]

    @property
    def undone(self) -> set[int]:
        """Sequence numbers of moves that were undone and are not in effect now."""
        live = {event.seq for event, _ in self._applied}
        return {e.seq for e in self.log if e.kind in (MOVE, NEXT) and e.seq not in live}

    @property
    def can_undo(self) -> bool:
        return bool(self._applied)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def dispatch(self, event: Event, *, strict: bool = True) -> Event:
        """Check, record and apply one event; return it as logged (with seq and outcome).

        What is logged is kept for ever, so it must be plain JSON with finite numbers: a
        ``NaN`` once stored made every later reading of the game invalid JSON. ``strict``
        also refuses a move's details it never reads (see ``flow.step``); a game file
        being replayed into a new session passes False, as a stored game loads.
        """
        try:
            json.dumps([event.args, list(event.given)], allow_nan=False)
        except (TypeError, ValueError):
            raise IllegalMoveError(
                "A move's values must be plain text, whole or finite numbers, lists and names."
            ) from None
        logged, change = self._prepare(replace(event, seq=len(self.log) + 1), strict=strict)
        if self.on_record is not None:
            self.on_record(logged)
        self.log.append(logged)
        change()
        return logged

    def move(
        self, seat: int, name: str, source: str = "", given: Sequence[Any] = (), **args: Any
    ) -> Event:
        """Make a move; ``given`` supplies outcomes (dice rolled by hand, forced draws)."""
        event = Event(MOVE, name=name, seat=seat, args=args, given=tuple(given), source=source)
        return self.dispatch(event)

    def next(self, source: str = "", given: Sequence[Any] = ()) -> Event:
        return self.dispatch(Event(NEXT, given=tuple(given), source=source))

    def undo(self, source: str = "") -> Event:
        return self.dispatch(Event(UNDO, source=source))

    def redo(self, source: str = "") -> Event:
        return self.dispatch(Event(REDO, source=source))

    def _prepare(self, event: Event, strict: bool = False) -> tuple[Event, Callable[[], None]]:
        if event.kind in (MOVE, NEXT):
            new_state, outcome = step(self.spec, self.state, event, strict=strict)
            logged = replace(event, outcome=outcome)

            def change() -> None:
                self._applied.append((logged, new_state))
                self._redo.clear()

            return logged, change
        if event.kind == UNDO:
            if not self._applied:
                raise IllegalMoveError("There is nothing to undo: the game is at its start.")
            target = self._applied[-1][0]
            expected = event.args.get("target", target.seq)
            if expected != target.seq:
                raise IllegalMoveError(f"Only the latest change (#{target.seq}) can be undone.")

            def undo() -> None:
                self._applied.pop()
                self._redo.append(target)

            return replace(event, args={"target": target.seq}), undo
        if event.kind == REDO:
            if not self._redo:
                raise IllegalMoveError(
                    "There is nothing to redo: nothing was undone since the last move."
                )
            original = self._redo[-1]
            # Same state, same event: the generator gives the same draws (no free re-roll).
            # A move made before a check was added is redone as it was made.
            with replaying():
                new_state, _ = step(self.spec, self.state, original)

            def redo() -> None:
                self._redo.pop()
                self._applied.append((original, new_state))

            return replace(event, args={"target": original.seq}), redo
        raise IllegalMoveError(f"Unknown kind of event {event.kind!r}.")

    @classmethod
    def replay(
        cls,
        spec: GameSpec[G],
        header: GameHeader,
        events: Iterable[Event],
        on_record: Callable[[Event], None] | None = None,
    ) -> Session[G]:
        """Rebuild a session from its log, checking that every event still applies."""
        session = cls(spec, header)
        with replaying():
            for event in events:
                logged, change = session._prepare(replace(event, seq=len(session.log) + 1))
                session.log.append(logged)
                change()
        session.on_record = on_record
        return session
