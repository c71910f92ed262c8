"""What a settled roll of dice means for the game in play (the shared ``dice`` rule).

The camera proposes, people dispose: a stable dice reading becomes an event only if the
current phase takes a roll (a move named ``roll``, as Hamsterdam's does), or the next NEXT
carries hand-rolled dice (``GameSpec.next_dice``: then it waits for NEXT or READ); the dice
are the move's *given* outcomes, exactly as if they had been typed on the tablet. A game
lists :func:`roll_from_dice` as the rule of its ``DICE`` entry in ``GameSpec.camera`` to
take rolls this way; the table's worker calls it, so the roll is judged against the state
that is current.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from companion.engine.events import MOVE, NEXT, Event
from companion.engine.legal import legal_moves
from companion.engine.readings import DiceSeen, Note, Verdict
from companion.engine.spec import GameSpec
from companion.engine.state import State
from companion.engine.words import listed

ROLL_MOVE = "roll"
G = TypeVar("G")  # the game's own state (``State.G``)


def dice_event(spec: GameSpec[G], state: State[G], values: Sequence[int]) -> Event | None:
    """The move these dice stand for now, or None when the game is not waiting for a roll:
    a ``roll`` move, or the hand-rolled dice the next NEXT takes (``GameSpec.next_dice``)."""
    ctx = state.ctx
    if ctx.over:
        return None
    if ROLL_MOVE not in spec.phases[ctx.phase].moves:
        if hand_dice(spec, state):
            return Event(NEXT, given=tuple(values), source="camera")
        return None
    seat = ctx.current if ctx.current is not None else 0
    return Event(MOVE, name=ROLL_MOVE, seat=seat, given=tuple(values), source="camera")


def hand_dice(spec: GameSpec[G], state: State[G]) -> list[str]:
    """The dice the next NEXT takes, by label (none: NEXT takes no dice now)."""
    return [] if spec.next_dice is None else spec.next_dice(state.G, state.ctx)


def dice_needed(spec: GameSpec[G], state: State[G]) -> int | None:
    """How many dice the roll the game waits for takes (None: it names no number)."""
    if ROLL_MOVE not in spec.phases[state.ctx.phase].moves and hand_dice(spec, state):
        return len(hand_dice(spec, state))
    for choice in legal_moves(spec, state):
        if choice["name"] == ROLL_MOVE and choice.get("dice"):
            return int(choice["dice"])
    return None


def describe_dice(values: Sequence[int | None]) -> str:
    """ "The dice show 3 and 5." — one sentence for the tablet and the log."""
    shown = [str(v) if v is not None else "?" for v in values]
    if not shown:
        return "The camera sees no dice."
    return f"The dice show {listed(shown)}."


def roll_from_dice(spec: GameSpec[G], state: State[G], seen: DiceSeen) -> Verdict:
    """A settled roll: apply it (every die sure), propose it (READ accepts), or say why not.

    A die that cannot be read is never guessed, and a roll with more or fewer dice than
    the game rolls now (a stray die, or something taken for one) is never applied.
    """
    said = describe_dice(seen.values)
    if seen.demo:  # the simulated camera: shown as a demo, applied only if a person accepts
        said = f"Demo camera (simulated dice, not the real table): {said}"
    if any(value is None for value in seen.values):
        return Verdict(
            note=Note(
                "info", (f"{said} Check the die marked ?; type the roll if it stays unreadable.",)
            )
        )
    values = [int(v) for v in seen.values if v is not None]
    event = dice_event(spec, state, values)
    if event is None:
        return Verdict(note=Note("info", (said,)))
    needed = dice_needed(spec, state)
    if needed is not None and needed != len(values):
        return Verdict(
            note=Note(
                "differ",
                (
                    f"{said} The roll takes {needed} dice but the camera sees {len(values)}:"
                    " move other dice out of view, or type the roll.",
                ),
            )
        )
    if event.kind == NEXT:  # the dice wait for NEXT (or READ): a person ends the step
        if not (seen.sure or seen.demo):
            return Verdict(note=Note("info", (f"{said} Check them, or pick them beside NEXT.",)))
        summary = f"{said} NEXT (or READ) takes them."
        return Verdict(event, summary=summary, note=Note("info", (said,)))
    if seen.sure:
        return Verdict(event, sure=True, note=Note("info", (said,)))
    return Verdict(event, summary=f"{said} Press READ to accept.", note=Note("info", (said,)))
