"""The engine's stock turn orders (``companion.engine.turns``), as the games use them."""

from __future__ import annotations

import doctest

from companion.engine import turns
from companion.engine.spec import TurnOrder
from companion.engine.state import Ctx


def test_the_examples_in_the_module_hold() -> None:
    assert doctest.testmod(turns).failed == 0


def seats_in_turn(order: TurnOrder[int], game: int, limit: int = 10) -> list[int]:
    """The seats a phase gives the turn to, as the engine's flow asks them."""
    ctx = Ctx("play")
    seat = order.first(game, ctx)
    taken: list[int] = []
    while seat is not None and len(taken) < limit:
        taken.append(seat)
        ctx = Ctx("play", current=seat, turn=len(taken) - 1)
        seat = order.next(game, ctx)
    return taken


def test_round_robin_goes_round_the_table_without_end() -> None:
    order = turns.round_robin(first=lambda game: 2, seats=lambda game: game)
    assert seats_in_turn(order, 4, limit=6) == [2, 3, 0, 1, 2, 3]


def test_once_round_gives_each_seat_one_turn_from_the_first() -> None:
    order = turns.once_round(first=lambda game: 0, seats=lambda game: game)
    assert seats_in_turn(order, 3) == [0, 1, 2]


def test_once_round_keeps_the_turn_while_it_holds() -> None:
    order: TurnOrder[int] = turns.once_round(lambda game: 0, lambda game: 3, lambda game: True)
    assert order.next(0, Ctx("play", current=1)) == 1


def test_in_order_follows_the_order_once_and_an_empty_one_gives_no_turn() -> None:
    assert seats_in_turn(turns.in_order(lambda game: (2, 0, 1)), 0) == [2, 0, 1]
    assert seats_in_turn(turns.in_order(lambda game: ()), 0) == []


def test_whoever_asks_afresh_each_time() -> None:
    order: TurnOrder[int] = turns.whoever(lambda game, ctx: game if ctx.turn < 2 else None)
    assert seats_in_turn(order, 1) == [1, 1, 1]
