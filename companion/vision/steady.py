"""Trust a camera reading only once it has held for several frames in a row.

A piece being carried across the belt, a hand sweeping past or a die caught mid-tumble is
seen for a frame or two; what the players have actually put down stays put. So a reading
counts only when the same value came out of N consecutive frames, and it keeps counting for
as long as it holds. Values are compared with ``==`` (readings are frozen dataclasses).
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Steady(Generic[T]):
    """Feed one reading per frame; :meth:`update` returns it while it has been steady."""

    def __init__(self, frames_required: int) -> None:
        if frames_required < 1:
            raise ValueError(f"frames_required must be at least 1, not {frames_required!r}.")
        self.frames_required = frames_required
        self._last: T | None = None
        self._streak = 0

    def reset(self) -> None:
        """Forget the streak, e.g. when the game on the table changes."""
        self._last = None
        self._streak = 0

    def update(self, value: T) -> T | None:
        """The value if the last ``frames_required`` frames all gave it, else None."""
        if self._streak and self._last == value:
            self._streak += 1
        else:
            self._last, self._streak = value, 1
        return value if self._streak >= self.frames_required else None
