"""Who leads a game, in one shape every game can give: a rank and a figure per seat.

Why this exists: an event board compares tables playing different games (a café runs Rats
at one table and Hamsterdam at the next), and a tournament adds up placings by player name.
Neither may know a game's rules, so each game says who stands where through its optional
``GameSpec.standing``; a game that does not gets the generic answer (level until the end,
then the winners first). Standings must use public facts only: they are shown to everyone.

>>> ranked([3, 1, 3, 0])
(3, 2, 3, 1)
>>> ranked([3, 1, 3, 0], highest_leads=True)
(1, 3, 1, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from companion.engine.spec import GameSpec, Standing
from companion.engine.state import State

G = TypeVar("G")

__all__ = ["Standing", "leaders", "ranked", "standings", "standings_json"]


def ranked(keys: Sequence[Any], *, highest_leads: bool = False) -> tuple[int, ...]:
    """Competition ranks from sort keys (smaller leads, or larger with ``highest_leads``;
    equal keys share a rank: 1, 1, 3)."""
    if highest_leads:
        return tuple(1 + sum(1 for other in keys if other > key) for key in keys)
    return tuple(1 + sum(1 for other in keys if other < key) for key in keys)


def standings(spec: GameSpec[G], state: State[G], seats: int) -> tuple[Standing, ...]:
    """Each seat's standing now; once the game is over its winners come first, whatever
    the game's own figures say (the result is the rules' last word)."""
    ctx = state.ctx
    level = tuple(Standing(1) for _ in range(seats))  # the generic answer: nobody leads yet
    own = level if spec.standing is None else spec.standing(state.G, ctx)
    if len(own) != seats:
        own = level
    if not ctx.over:
        return own
    return tuple(
        Standing(1 if seat in ctx.winners else max(2, place.rank), place.figure)
        for seat, place in enumerate(own)
    )


def leaders(places: Sequence[Standing], over: bool) -> tuple[int, ...]:
    """The seats that lead: rank 1, unless everyone is level while the game still runs
    (then nobody leads yet)."""
    first = tuple(seat for seat, place in enumerate(places) if place.rank == 1)
    return first if over or len(first) < len(places) else ()


def standings_json(
    spec: GameSpec[G], state: State[G], players: Sequence[str]
) -> list[dict[str, Any]]:
    """The standings as the page and the event board read them, one entry per seat."""
    places = standings(spec, state, len(players))
    leading = leaders(places, state.ctx.over)
    return [
        {
            "seat": seat,
            "name": name,
            "rank": place.rank,
            "figure": place.figure,
            "leads": seat in leading,
        }
        for seat, (name, place) in enumerate(zip(players, places, strict=True))
    ]
