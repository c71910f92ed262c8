"""Seeded randomness whose whole state is one integer kept inside the game state.

Why not :mod:`random`: its state is large and awkward to store per event, and undo must
restore the generator together with the game so that undoing and redoing a move draws the
same outcome (undo is never a free re-roll). SplitMix64 is tiny, fast and well tested.

Outcomes can also be *given* from outside, in order, before the generator is asked:
a die a player rolled by hand (read by the camera or typed on the tablet), or a draw a
test or scenario file forces. Given outcomes do not advance the generator.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, TypeVar

from companion.engine.errors import IllegalMoveError

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


def seed_state(seed: int) -> int:
    """Turn any integer seed into a generator state."""
    return seed & _MASK


def _splitmix64(state: int) -> tuple[int, int]:
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), state


class Draws:
    """The random source for one engine step: given outcomes first, then the generator.

    Every outcome is recorded (``outcome``) so the event log shows what was drawn and why.
    """

    __slots__ = ("_given", "_next_given", "outcome", "record", "state")

    def __init__(self, state: int, given: Sequence[Any] = (), *, record: bool = True) -> None:
        self.state = state
        self._given = given
        self._next_given = 0
        self.record = record
        self.outcome: list[dict[str, Any]] = []

    @property
    def unused_given(self) -> int:
        """How many given outcomes were never consumed (a scenario file error)."""
        return len(self._given) - self._next_given

    def _take_given(self) -> tuple[bool, Any]:
        if self._next_given < len(self._given):
            value = self._given[self._next_given]
            self._next_given += 1
            return True, value
        return False, None

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` from the generator (never from given outcomes)."""
        value, self.state = _splitmix64(self.state)
        return value % n

    def _note(self, kind: str, why: str, value: Any, **extra: Any) -> None:
        if self.record:
            entry: dict[str, Any] = {"kind": kind, "why": why, "value": value}
            entry.update(extra)
            self.outcome.append(entry)

    def private(self, why: str, value: Any, seat: int) -> None:
        """Log an outcome only ``seat`` may see (a card dealt to a phone): the public log
        shows that something was drawn, never what (see ``companion.engine.redact``)."""
        self._note("private", why, value, for_seat=seat)

    def die(self, why: str, sides: int = 6) -> int:
        """Roll one die with ``sides`` faces."""
        found, value = self._take_given()
        if found:
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= sides:
                raise IllegalMoveError(f"A d{sides} shows 1 to {sides}, not {value!r} ({why}).")
        else:
            value = self.below(sides) + 1
        self._note("die", why, value)
        return int(value)

    def hand_die(self, why: str, sides: int = 6, *, companion_rolls: bool = False) -> int:
        """A die the players roll by hand: it must come as a given outcome (the camera's or
        the page's reading). Only a table that asked the companion to roll for it
        (``companion_rolls``) gets one from the generator, logged like any draw."""
        if self._next_given < len(self._given) or companion_rolls:
            return self.die(why, sides)
        raise IllegalMoveError(
            f"{why[:1].upper()}{why[1:]}: roll the dice and let the camera read them, or "
            "enter them on the page (in the terminal: `companion next --dice 4,2`, or "
            "dice=4,2 after a move); the companion does not make up a roll."
        )

    def hat(self, chips: Mapping[K, int], why: str, **extra: Any) -> K:
        """Draw one chip from a bag holding ``chips[key]`` chips per key; return its key."""
        total = 0
        for count in chips.values():
            total += count
        if total <= 0:
            raise ValueError("cannot draw from an empty HAT")
        found, value = self._take_given()
        if found:
            matches = [key for key in chips if key == value or str(key) == str(value)]
            if not matches or chips[matches[0]] <= 0:
                raise IllegalMoveError(
                    f"The HAT cannot give {value!r} ({why}): that owner has no chips in it."
                )
            winner = matches[0]
        else:
            pick = self.below(total)
            winner = next(iter(chips))
            for key, count in chips.items():
                if pick < count:
                    winner = key
                    break
                pick -= count
        if self.record:
            self._note("hat", why, winner, chips={str(k): v for k, v in chips.items()}, **extra)
        return winner

    def shuffle(self, items: Sequence[T], why: str) -> list[T]:
        """A random order of ``items``; a given outcome is the whole order, as a list."""
        found, value = self._take_given()
        if found:
            if not isinstance(value, list) or sorted(map(str, value)) != sorted(map(str, items)):
                raise IllegalMoveError(f"A given order must list exactly {list(items)!r} ({why}).")
            by_name = {str(item): item for item in items}
            order = [by_name[str(v)] for v in value]
        else:
            order = list(items)
            for i in range(len(order) - 1, 0, -1):
                j = self.below(i + 1)
                order[i], order[j] = order[j], order[i]
        self._note("order", why, list(order))
        return order

    def pick(self, items: Sequence[T], why: str) -> T:
        """One of ``items`` uniformly (for example which Pit hamster a Chomp! hits)."""
        found, value = self._take_given()
        if found:
            matches = [item for item in items if item == value or str(item) == str(value)]
            if not matches:
                raise IllegalMoveError(f"{value!r} is not one of {list(items)!r} ({why}).")
            chosen = matches[0]
        else:
            chosen = items[self.below(len(items))]
        self._note("pick", why, chosen)
        return chosen
