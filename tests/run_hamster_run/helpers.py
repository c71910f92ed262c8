"""Helpers for rule scenarios: start a game, place, allocate and arrange hamsters."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from companion.engine.session import GameHeader, Session
from companion.games.run_hamster_run import SPEC, Belt

NAMES = ("Alice", "Bob", "Cathleen", "Dave", "Eve")


def new_game(
    rules: str,
    places: Sequence[tuple[int, int]],
    allocations: Sequence[tuple[int, int, int]],
    initiative: Sequence[int] | None = None,
    seed: int = 1,
) -> Session[Belt]:
    """A session in phase 3 (Declare) with hamsters placed, allocated and ranked.

    ``initiative`` forces the HAT's draws (highest first), as the rulebook examples state it.
    """
    players = NAMES[: len(places)]
    session = Session(
        SPEC,
        GameHeader(SPEC.name, rules, players, seed, given=(list(range(len(players))),)),
    )
    for seat, square in enumerate(places):
        session.move(seat, "place", to=list(square))
    session.next()
    for seat, (s, m, f) in enumerate(allocations):
        session.move(seat, "allocate", scamper=s, mettle=m, friskiness=f)
    order = list(initiative) if initiative is not None else []
    given = [seat for seat in order if allocations[seat][2] > 0]
    session.next(given=given)  # reveal and draw initiative
    session.next()  # to Declare
    return session


def arrange(session: Session[Any], **squares: tuple[int, int]) -> None:
    """Put hamsters straight onto squares (for examples no placement could reach)."""
    state = session.state
    game: Belt = state.G
    for name, (row, lane) in squares.items():
        seat = NAMES.index(name)
        game = game.with_hamster(seat, replace(game.hamsters[seat], row=row, lane=lane))
    new_state = replace(state, G=game)
    if session._applied:
        event, _ = session._applied[-1]
        session._applied[-1] = (event, new_state)
    else:
        session.initial = new_state


def hamster(session: Session[Belt], name: str) -> Any:
    return session.state.G.hamsters[NAMES.index(name)]


def lost(session: Session[Belt], name: str) -> int:
    """Pluck chips lost so far: the Fatigue pile."""
    return int(hamster(session, name).fatigue)
