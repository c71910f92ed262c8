"""Report a roll only once the dice have stopped moving.

Tumbling dice flash through several faces, and a single frame can misread a die caught
mid-turn. The stabiliser therefore waits until the same reading (the multiset of values,
with every die roughly where it was) has held for N consecutive frames, reports that roll
once, and stays quiet until the dice move again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.vision.dice import Die

# A die counts as "in the same place" if its centre moved less than this share of its size
# between frames: camera noise moves centres ~1 px, a rolling die moves a whole size.
MOVE_TOLERANCE = 0.35


class DiceStabiliser:
    """Feed readings frame by frame; ``update`` returns the roll once it is stable."""

    def __init__(self, frames_required: int) -> None:
        if frames_required < 1:
            raise ValueError("frames_required must be at least 1")
        self.frames_required = frames_required
        self._previous: list[Die] | None = None
        self._streak = 0
        self._reported = False

    def reset(self) -> None:
        """Forget everything, e.g. when a new turn starts."""
        self._previous = None
        self._streak = 0
        self._reported = False

    def update(self, dice: Sequence[Die]) -> list[int | None] | None:
        """Take one frame's reading; return the sorted values once, when they settle."""
        current = list(dice)
        if self._previous is not None and _same_reading(self._previous, current):
            self._streak += 1
        else:
            self._streak = 1
            self._reported = False
        self._previous = current
        if self._streak >= self.frames_required and not self._reported and current:
            self._reported = True
            return sorted(current_values(current), key=lambda v: (v is None, v or 0))
        return None


def current_values(dice: Sequence[Die]) -> list[int | None]:
    """Face values of a reading, in no particular order."""
    return [die.value for die in dice]


def _same_reading(before: Sequence[Die], after: Sequence[Die]) -> bool:
    """Same multiset of values and every die matched to one that barely moved."""
    if len(before) != len(after):
        return False
    if Counter(current_values(before)) != Counter(current_values(after)):
        return False
    unused = list(after)
    for die in before:
        limit = MOVE_TOLERANCE * max(die.size, 1.0)
        match = next(
            (
                other
                for other in unused
                if other.value == die.value
                and abs(other.centre[0] - die.centre[0]) <= limit
                and abs(other.centre[1] - die.centre[1]) <= limit
            ),
            None,
        )
        if match is None:
            return False
        unused.remove(match)
    return True
