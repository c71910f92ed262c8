"""What a game asks the camera to read: the one camera seam on a game's spec.

A game lists its camera readings in ``GameSpec.camera``, keyed like the reading kinds of
:mod:`companion.engine.readings` (``DICE``, ``BELT``, ``WHEEL``). Each entry is a
:class:`Watch`: the rule that judges a reading of that kind against the state now, plus
what the watcher, its calibration and its simulated twin need to know of the game (which
dice the players roll, where the pieces are on the belt, how far the wheel has rolled).
The camera rig (``companion.watch.rig``) runs exactly the watchers the game in play
lists, so a new camera feature is a new kind here, a watcher for it, and an entry in the
games that use it; nothing else names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from companion.engine.readings import BELT, DICE, WHEEL, Square, Verdict
from companion.engine.state import State

if TYPE_CHECKING:
    from companion.engine.spec import GameSpec

G = TypeVar("G")

ReadingRule = Callable[["GameSpec[G]", State[G], Any], Verdict]


@dataclass(frozen=True)
class Watch(Generic[G]):
    """One kind of reading a game takes from the camera.

    ``rule`` judges a reading against the state now (a :class:`Verdict`). The hooks below
    are for the camera side, each only where its kind needs it:

    ``dice``: the sides of each die the players roll for the next reading (``(6, 6)`` for
    two six-sided dice; empty while no hand roll is due): the twin renders those dice.
    ``pieces``: the pieces a belt calibration samples, by colour: the (row, lane) where the
    game has each piece, or None while it is not placed yet (pieces out of the race are
    left out).
    ``roll``: how far the game's log says the wheel has rolled, in turns: a wheel watcher
    that starts mid-game (the companion restarted) continues from it.
    """

    rule: ReadingRule[G]
    dice: Callable[[State[G]], tuple[int, ...]] | None = None
    pieces: Callable[[G], Mapping[str, Square | None]] | None = None
    roll: Callable[[G], float] | None = None


def watched(spec: GameSpec[Any] | None) -> frozenset[str]:
    """The reading kinds the camera watches for ``spec`` (none without a game)."""
    return frozenset() if spec is None else frozenset(spec.camera)


def belt_pieces(spec: GameSpec[G] | None, game: G) -> dict[str, Square | None]:
    """Where the game has each belt piece by colour (empty for a game without a belt)."""
    watch = None if spec is None else spec.camera.get(BELT)
    if watch is None or watch.pieces is None:
        return {}
    return dict(watch.pieces(game))


def logged_roll(spec: GameSpec[G] | None, game: G) -> float:
    """How far the game's log says the wheel has rolled, in turns (0 without a wheel)."""
    watch = None if spec is None else spec.camera.get(WHEEL)
    if watch is None or watch.roll is None:
        return 0.0
    return float(watch.roll(game))


def dice_wanted(spec: GameSpec[G] | None, state: State[G] | None) -> tuple[int, ...]:
    """The sides of each die the players roll for the camera now (empty: none due)."""
    watch = None if spec is None or state is None else spec.camera.get(DICE)
    if watch is None or watch.dice is None or state is None or state.ctx.over:
        return ()
    return tuple(watch.dice(state))
