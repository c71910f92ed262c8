"""What the camera says beside the game: read-only notes the tablet shows, never moves.

The camera proposes, people dispose. For a die the proposal is an event waiting for READ;
for pieces on the belt the camera only *compares*: where it disagrees with the engine the
tablet lists the differences and the players fix the table or enter the missing move. So
these notes travel through the table's worker like every other input (one order, one
snapshot), but they never touch the event log or the game state.

Plain data only: the table imports this module, and the table must not import OpenCV.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

BoardStatus = Literal["agree", "differ", "blocked"]

AGREE_NOTE = "Camera agrees with the board."
DRIFT_HINT = "Wheel drifted: push it back to the centre."


@dataclass(frozen=True)
class BoardCheck:
    """The camera's steady view of the belt compared with the game's positions.

    ``game_id`` and ``seq`` name the game state the comparison was made against: the table
    drops a check that arrives after the game has moved on, so the tablet never shows a
    difference the last move already settled.
    """

    game_id: int
    seq: int
    status: BoardStatus
    notes: tuple[str, ...] = ()

    @property
    def differences(self) -> tuple[str, ...]:
        """The sentences that say where camera and game disagree (empty unless ``differ``)."""
        return self.notes if self.status == "differ" else ()

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "notes": list(self.notes),
            "differences": list(self.differences),
            "seq": self.seq,
        }


@dataclass(frozen=True)
class WheelStatus:
    """The Hamster Wheel as the camera follows it, ready to be a game's input.

    There is no Hamster Wheel game in the engine yet; this is what one would read: how far
    the wheel has rolled since the game began (``roll_turns``, signed, clockwise positive as
    seen from the camera, and ``rolled_distance`` along the table in belt cells), where it
    points now (``angle_deg``), whether it has wandered off the table's centre, and which
    pieces have fallen out, counted by colour once the count has held for several frames.
    ``blocked`` says the latest frame could not be read (a hand, hidden markers); the other
    fields then keep the last good measurement.
    """

    seen: bool
    blocked: bool = False
    reason: str = ""
    angle_deg: float = 0.0
    roll_turns: float = 0.0
    rolled_distance: float = 0.0
    centre: tuple[float, float] = (0.0, 0.0)
    drift: tuple[float, float] = (0.0, 0.0)
    drifted_far: bool = False
    fallen: dict[str, int] = field(default_factory=dict)

    @property
    def fallen_total(self) -> int:
        return sum(self.fallen.values())

    @property
    def drift_distance(self) -> float:
        return float((self.drift[0] ** 2 + self.drift[1] ** 2) ** 0.5)

    @property
    def hint(self) -> str:
        return DRIFT_HINT if self.drifted_far else ""

    def to_json(self) -> dict[str, Any]:
        return {
            "seen": self.seen,
            "blocked": self.blocked,
            "reason": self.reason,
            "angle_deg": round(self.angle_deg, 1),
            "roll_turns": round(self.roll_turns, 2),
            "rolled_distance": round(self.rolled_distance, 2),
            "centre": [round(v, 2) for v in self.centre],
            "drift": [round(v, 2) for v in self.drift],
            "drift_distance": round(self.drift_distance, 2),
            "drifted_far": self.drifted_far,
            "hint": self.hint,
            "fallen": dict(self.fallen),
            "fallen_total": self.fallen_total,
        }
