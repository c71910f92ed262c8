"""The camera is right: put the pieces where it sees them, as one logged, undoable move.

The camera never changes the game by itself. When the belt check disagrees, a person looks
at the table and settles it with one tap: "the board is right" (the tablet forgets the
difference until the next change) or "the camera is right", which is this move. It only
moves pieces (and the asterisk strip); chips, speed and alligators are the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import copier_for
from companion.engine.rng import Draws
from companion.engine.state import Ctx
from companion.games.run_hamster_run.model import (
    ASTERISK_STRIP,
    NOT_PLACED,
    PIT,
    ROWS,
    Belt,
    Hamster,
    on_board,
)

_copy_hamster = copier_for(Hamster)
_copy_belt = copier_for(Belt)


def _where(value: Any, name: str) -> tuple[int, int]:
    if value == "pit":
        return PIT, 0
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        and on_board(value[0], value[1])
    ):
        return value[0], value[1]
    raise IllegalMoveError(f'Say where {name} is: [row, lane] on the belt, or "pit".')


def correct(game: Belt, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Belt:
    """``places`` maps a colour to [row, lane] or "pit"; ``asterisk_row`` moves the strip."""
    places = args.get("places", {})
    if not isinstance(places, dict) or (not places and "asterisk_row" not in args):
        raise IllegalMoveError('Say what the camera saw: places={colour: [row, lane] or "pit"}.')
    by_colour = {h.colour: seat for seat, h in enumerate(game.hamsters) if not h.eaten}
    hamsters = list(game.hamsters)
    moved = []
    for colour, where in places.items():
        if colour not in by_colour:
            raise IllegalMoveError(f"No hamster in play is {colour}.")
        at = by_colour[colour]
        if hamsters[at].row == NOT_PLACED:
            raise IllegalMoveError(f"{hamsters[at].name} is not placed yet: place it first.")
        row, lane = _where(where, hamsters[at].name)
        hamsters[at] = _copy_hamster(hamsters[at], row=row, lane=lane)
        moved.append(
            f"{hamsters[at].name} {'into the Pit' if row == PIT else f'to row {row}, lane {lane}'}"
        )
    squares = [h.square for h in hamsters if h.on_belt]
    if len(squares) != len(set(squares)):
        raise IllegalMoveError("Two hamsters cannot share a square: check the camera's places.")
    strips = game.strips
    star = args.get("asterisk_row")
    if star is not None:
        if isinstance(star, bool) or not isinstance(star, int) or not 1 <= star <= ROWS:
            raise IllegalMoveError(f"The asterisk strip is on a row from 1 to {ROWS}.")
        shift = strips.index(ASTERISK_STRIP) - (star - 1)
        strips = strips[shift:] + strips[:shift]
        moved.append(f"the asterisk strip to row {star}")
    note = "Corrected from the camera: " + ", ".join(moved) + "."
    return _copy_belt(game, hamsters=tuple(hamsters), strips=strips, notes=(note,))
