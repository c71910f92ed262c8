"""What everyone may see of the log: secret moves keep their arguments to themselves.

Who may make a move (``MoveSpec.any_seat``) and who may see its arguments
(``MoveSpec.secret``) are separate facts, as in boardgame.io: a Pluck allocation is
secret until the phase reveals it, a Hamsterdam plug is made by any seat in the open.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from companion.engine.events import MOVE, Event
from companion.engine.spec import GameSpec
from companion.engine.state import State

G = TypeVar("G")


def is_secret(spec: GameSpec[G], state: State[G], event: Event) -> bool:
    """Whether ``event`` is a secret move whose phase is still open (so still hidden)."""
    if event.kind != MOVE:
        return False
    phase = spec.phases.get(state.ctx.phase)
    move = None if phase is None else phase.moves.get(event.name)
    return move is not None and move.secret


def secret_choice(spec: GameSpec[G], state: State[G], choice: Mapping[str, Any]) -> bool:
    """Whether a legal-move button would tell others a seat's secret ("Ann: keep Buffster")."""
    phase = spec.phases.get(state.ctx.phase)
    move = None if phase is None else phase.moves.get(choice.get("name", ""))
    return move is not None and move.secret


def public_event(
    spec: GameSpec[G], state: State[G], event: Event, undone: bool, seat: int | None = None
) -> dict[str, Any]:
    """An event as ``seat`` may see it (``None``: anyone): others' secrets stay hidden."""
    data = event.to_json()
    data["undone"] = undone
    if "outcome" in data:  # a card dealt to one seat is that seat's alone
        data["outcome"] = [_seen(entry, seat) for entry in data["outcome"]]
    if is_secret(spec, state, event) and (seat is None or seat != event.seat):
        data.pop("args", None)
        data.pop("outcome", None)
        data["secret"] = True
    return data


def _seen(entry: dict[str, Any], seat: int | None) -> dict[str, Any]:
    owner = entry.get("for_seat")
    if owner is None or owner == seat:
        return entry
    return {"kind": entry.get("kind"), "why": entry.get("why"), "for_seat": owner, "secret": True}
