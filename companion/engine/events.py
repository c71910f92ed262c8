"""Events: the single record of a game. Undo and redo are events too."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MOVE = "move"
NEXT = "next"
UNDO = "undo"
REDO = "redo"
KINDS = (MOVE, NEXT, UNDO, REDO)


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the append-only log.

    ``given`` holds outcomes that came from outside the generator (dice rolled by hand,
    draws forced by a scenario); ``outcome`` is what the engine drew, for the log's reader.
    """

    kind: str
    name: str = ""
    seat: int | None = None
    args: dict[str, Any] = field(default_factory=dict)
    given: tuple[Any, ...] = ()
    seq: int = 0
    outcome: tuple[dict[str, Any], ...] = ()
    source: str = ""  # who sent it: button, tablet, camera, cli, bot, test

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seq": self.seq, "kind": self.kind}
        if self.name:
            data["name"] = self.name
        if self.seat is not None:
            data["seat"] = self.seat
        if self.args:
            data["args"] = self.args
        if self.given:
            data["given"] = list(self.given)
        if self.outcome:
            data["outcome"] = list(self.outcome)
        if self.source:
            data["source"] = self.source
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> Event:
        return Event(
            kind=str(data["kind"]),
            name=str(data.get("name", "")),
            seat=data.get("seat"),
            args=dict(data.get("args") or {}),
            given=tuple(data.get("given") or ()),
            seq=int(data.get("seq", 0)),
            outcome=tuple(data.get("outcome") or ()),
            source=str(data.get("source", "")),
        )
