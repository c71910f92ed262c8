"""Small pieces of English the games, the table and the command line share: a count with
its noun ("1 piece", "3 pieces") and a list read out ("Ann, Bo and Cy")."""

from __future__ import annotations

from collections.abc import Sequence


def counted(number: int, one: str, many: str = "") -> str:
    """``number`` with its noun: ``many`` (``one`` + "s" unless given) for any count but 1."""
    return f"{number} {one if number == 1 else (many or one + 's')}"


def listed(parts: Sequence[str]) -> str:
    """The parts as a sentence lists them: "a", "a and b", "a, b and c" ("" for none)."""
    if len(parts) < 2:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} and {parts[-1]}"
