"""Which of a move's details the move looked at, so a detail it never used is refused.

A move's details arrive as free-form names from the page, the command line and the API.
A misspelt optional one (``discrad`` for ``discard``) used to be stored and silently
ignored, so the table did something the player had not asked for. Moves do not declare
their details; instead the engine notes which ones a move read while it was made and
refuses, with the names, any the move never read (it had no effect on the game).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


class ReadArgs(Mapping[str, Any]):
    """A move's details that remembers which ones were looked at (``get``, ``[]``, ``in``);
    walking all of them (``items()``, ``dict(args)``) counts as looking at every one."""

    def __init__(self, args: Mapping[str, Any]) -> None:
        self._args = args
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return self._args[key]

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.read.add(key)
        return key in self._args

    def __iter__(self) -> Iterator[str]:
        self.read.update(self._args)
        return iter(self._args)

    def __len__(self) -> int:
        return len(self._args)

    def unused(self) -> list[str]:
        """The details given that the move never looked at, in the order given."""
        return [key for key in self._args if key not in self.read]


def unused_sentence(move: str, unused: list[str], used: set[str]) -> str:
    """One sentence naming the details a move did not use and the ones it did."""
    names = ", ".join(repr(key) for key in unused)
    noun = "details" if len(unused) > 1 else "detail"
    took = f" (here it reads: {', '.join(sorted(used))})" if used else " (it takes none)"
    return f"'{move}' has no {noun} {names}{took}; check the spelling or leave it out."
