"""The sentence a change deserves aloud: the game's cues in words, then the phase and whose
turn it is when the flow moved on.

Why a sentence derived here and not by each listener: the Pi's speaker and the tablet's speech
synthesis must say the same thing, and only the engine's view of the game (its prompt, its
phase titles, its ``cue_words``) knows it without naming a game. Everything said comes from
what the page already shows to everyone (the prompt, phase titles, fixed cue words), so
speaking never reveals a secret.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

from companion.engine.events import NEXT, REDO, UNDO, Event
from companion.engine.spec import GameSpec
from companion.engine.state import State

G = TypeVar("G")


def cue_sentence(spec: GameSpec[G], cue: str) -> str:
    """What one cue says aloud: the game's own words, else its name as a short sentence
    ("big_wave" -> "Big wave."), so a new cue is never silent on the speaker."""
    words = spec.cue_words.get(cue)
    if words:
        return words
    return cue.replace("_", " ").capitalize() + "."


def spoken_line(
    spec: GameSpec[G],
    before: State[G],
    after: State[G],
    event: Event,
    cues: Sequence[str],
) -> str:
    """The sentence to say after ``event`` moved ``before`` to ``after`` ("" : say nothing).

    NEXT, a new phase or a new player's turn says the phase (when it changed) and the prompt,
    which names whose turn it is; the game's cues come first, as they are what just happened.
    Undo and redo stay silent: the tablet shows what to put back.
    """
    if event.kind in (UNDO, REDO):
        return ""
    old, new = before.ctx, after.ctx
    parts = [cue_sentence(spec, cue) for cue in cues]
    if new.over and not old.over:
        parts.append(new.result or "Game over.")
    elif event.kind == NEXT or new.phase != old.phase or new.current != old.current:
        phase = spec.phases.get(new.phase)
        if new.phase != old.phase and phase is not None and phase.title:
            parts.append(phase_sentence(phase.title))
        parts.append(spec.presentation.prompt(after.G, new))
    return " ".join(part.strip() for part in parts if part.strip())


def phase_sentence(title: str) -> str:
    """A phase title as it sounds: "3 Declare Actions" -> "Phase 3, Declare Actions."

    A bare leading number read aloud sounds like a count, so it is named as the phase's.
    """
    numbered = re.fullmatch(r"(\d+)\s+(.+)", title.strip())
    if numbered:
        return f"Phase {numbered[1]}, {numbered[2]}."
    return f"{title.strip()}."
