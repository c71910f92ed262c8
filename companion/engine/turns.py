"""Stock turn orders, as boardgame.io keeps its own in ``turn-order.ts``.

A phase's turn order says who acts first and who acts after the current seat (``None`` ends
the phase's turns). Most games need one of a few shapes, so a game names the shape and gives
only what is its own (where the table starts, how many seats, in what order):

>>> from companion.engine.state import Ctx
>>> order = round_robin(first=lambda game: 2, seats=lambda game: 3)
>>> order.first(None, Ctx("play")), order.next(None, Ctx("play", current=2))
(2, 0)
>>> order = once_round(first=lambda game: 1, seats=lambda game: 3)
>>> order.next(None, Ctx("play", current=1)), order.next(None, Ctx("play", current=2))
(2, None)
>>> order = in_order(lambda game: (2, 0, 1))
>>> order.first(None, Ctx("play")), order.next(None, Ctx("play", current=2, turn=0))
(2, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from companion.engine.spec import SeatFn, TurnOrder
from companion.engine.state import Ctx

G = TypeVar("G")


def round_robin(first: Callable[[G], int], seats: Callable[[G], int]) -> TurnOrder[G]:
    """From ``first``, each seat in turn round the table, without end: the phase ends by
    its own rule (boardgame.io's ``DEFAULT``)."""

    def following(game: G, ctx: Ctx) -> int | None:
        assert ctx.current is not None
        return (ctx.current + 1) % seats(game)

    return TurnOrder(lambda game, ctx: first(game), following)


def once_round(
    first: Callable[[G], int],
    seats: Callable[[G], int],
    holds: Callable[[G], bool] | None = None,
) -> TurnOrder[G]:
    """From ``first``, each seat once up to the last seat, then the phase's turns end
    (boardgame.io's ``ONCE``). ``holds(game)``: the current seat's turn is not over yet,
    so NEXT gives it a fresh turn instead of passing on."""

    def following(game: G, ctx: Ctx) -> int | None:
        if ctx.current is None or (holds is not None and holds(game)):
            return ctx.current
        after = ctx.current + 1
        return after if after < seats(game) else None

    return TurnOrder(lambda game, ctx: first(game), following)


def in_order(order: Callable[[G], Sequence[int]]) -> TurnOrder[G]:
    """Each seat of ``order(game)`` once, in that order, then the phase's turns end
    (boardgame.io's ``CUSTOM_FROM`` played once): an initiative order, a bidding order."""

    def first(game: G, ctx: Ctx) -> int | None:
        seats = order(game)
        return seats[0] if seats else None

    def following(game: G, ctx: Ctx) -> int | None:
        seats = order(game)
        return seats[ctx.turn + 1] if ctx.turn + 1 < len(seats) else None

    return TurnOrder(first, following)


def whoever(seat: SeatFn[G]) -> TurnOrder[G]:
    """Whoever ``seat`` names, asked afresh at the start and after every turn; ``None``
    ends the phase's turns: the roller until the roll is read, each hamster still to be
    placed, the Dominant Rat until the nest is settled."""
    return TurnOrder(seat, seat)
