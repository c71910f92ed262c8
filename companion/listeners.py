"""Who hears a change besides the page: the buzzer and light (cues), the voice, the dice teacher.

Why pushed from the worker: the game says which changes deserve a sound (``GameSpec.cues``),
and only the worker sees the state before and after each change. Listeners must not block
(the buzzer plays on its own thread), and a broken one never stops the table: its failure is
logged and the change stands.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from companion.engine.events import MOVE, REDO, UNDO, Event
from companion.engine.session import Session
from companion.engine.spoken import spoken_line
from companion.engine.state import State
from companion.observations import ROLL_MOVE

G = TypeVar("G")  # the game's own state (``State.G``)

log = logging.getLogger(__name__)

CueListener = Callable[[tuple[str, ...]], None]
#: Hears the sentence a change deserves aloud (``companion.engine.spoken``); never blocks.
SpeechListener = Callable[[str], None]
# Called with (the dice a person confirmed, the dice the camera had proposed, the sizes of
# the confirmed dice when the move named them: a Rats pool's d4, d8, ...; else empty).
RollListener = Callable[[tuple[int, ...], tuple[int, ...], tuple[int, ...]], None]
GAME_OVER_CUE = "game_over"


def sounds(session: Session[G], before: State[G], logged: Event) -> tuple[tuple[str, ...], str]:
    """The game's own cues for this change (none for undo and redo) and its sentence aloud.

    Worked out before the change is published, after it is stored: a game whose cues or
    prompt fail here must not keep a stored change from reaching the tablets, so a failure
    only silences this one change.
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


class Listeners:
    """The table's listeners, each told on the worker's thread after a change is published."""

    def __init__(self) -> None:
        self.cues: list[CueListener] = []
        self.speech: list[SpeechListener] = []
        self.rolls: list[RollListener] = []

    def on_cues(self, listener: CueListener) -> None:
        """Call ``listener(cues)`` on the worker after each change with cues; never block."""
        self.cues.append(listener)

    def on_speech(self, listener: SpeechListener) -> None:
        """Call ``listener(sentence)`` on the worker after each change worth saying aloud
        (the game's cues in words, the new phase and whose turn it is); never block."""
        self.speech.append(listener)

    def on_confirmed_roll(self, listener: RollListener) -> None:
        """Call ``listener(confirmed, proposed)`` on the worker when a person confirms the
        camera's proposed roll (READ) or types a roll while one is proposed (a correction):
        the dice teacher's labelled examples. Never block (hand the work to a thread)."""
        self.rolls.append(listener)

    def cue(
        self, session: Session[G], before: State[G], logged: Event, cues: tuple[str, ...]
    ) -> None:
        """Tell the cue listeners what this change deserves (the game's cues, game over)."""
        if not self.cues or logged.kind in (UNDO, REDO):
            return
        if session.state.ctx.over and not before.ctx.over:
            cues += (GAME_OVER_CUE,)
        if not cues:
            return
        for listener in self.cues:
            try:
                listener(cues)
            except Exception:  # a broken buzzer must never stop the table
                log.exception("table: a cue listener failed")

    def say(self, sentence: str) -> None:
        """Hand the sentence to the speech listeners; a broken speaker never stops the table."""
        if not sentence:
            return
        for listener in self.speech:
            try:
                listener(sentence)
            except Exception:
                log.exception("table: a speech listener failed")

    def confirmed_roll(self, proposal: Event, logged: Event) -> None:
        """Tell the roll listeners a person vouched for these dice (not the camera alone)."""
        rolls = (proposal.kind, proposal.name, logged.kind, logged.name)
        if rolls != (MOVE, ROLL_MOVE, MOVE, ROLL_MOVE) or not logged.given:
            return
        try:
            confirmed = tuple(int(v) for v in logged.given)
            proposed = tuple(int(v) for v in proposal.given)
            sizes = tuple(int(v) for v in logged.args.get("sizes") or ())
        except (TypeError, ValueError):
            return  # a game whose roll is not plain die faces
        for listener in self.rolls:
            try:
                listener(confirmed, proposed, sizes)
            except Exception:  # keeping examples must never stop the table
                log.exception("table: a roll listener failed")
