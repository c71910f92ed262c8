"""The end of the game and the standings.

Ruling: the end threshold (tokens in all flood piles together: 10, 15 or 20 for 2, 3 or 4
players) is checked after every step, so the game ends the moment a flood or a breach
reaches it. The least water (flood pile plus tokens on the dam) wins; a tie goes to the
most remaining hamsters, plain and special, on the dam or resting; a tie on both is shared.
"""

from __future__ import annotations

from companion.engine.spec import Outcome, Standing
from companion.engine.standing import ranked
from companion.engine.state import Ctx
from companion.games.hamsterdam.model import Hamsterdam


def standings(game: Hamsterdam) -> list[int]:
    """Seats from the best placed to the worst."""
    return sorted(
        range(len(game.players)),
        key=lambda s: (game.players[s].water, -game.players[s].hamsters, s),
    )


def leaders(game: Hamsterdam) -> tuple[int, ...]:
    best = standings(game)[0]
    key = (game.players[best].water, game.players[best].hamsters)
    return tuple(s for s, p in enumerate(game.players) if (p.water, p.hamsters) == key)


def standing(game: Hamsterdam, ctx: Ctx) -> tuple[Standing, ...]:
    """Least water leads, most hamsters left breaks a tie (as at the end)."""
    ranks = ranked([(p.water, -p.hamsters) for p in game.players])
    return tuple(
        Standing(rank, f"{p.water} water, {p.hamsters} hamsters")
        for rank, p in zip(ranks, game.players, strict=True)
    )


def end_if(game: Hamsterdam, ctx: Ctx) -> Outcome | None:
    if not game.players or game.piles < game.threshold:
        return None
    winners = leaders(game)
    names = " and ".join(game.players[s].name for s in winners)
    best = game.players[winners[0]]
    tied_on_water = sum(1 for p in game.players if p.water == best.water) > 1
    why = f"the least water ({best.water})"
    if tied_on_water:
        why += f" and, on the tie, the most hamsters left ({best.hamsters})"
    verb = "share the win" if len(winners) > 1 else "wins"
    return Outcome(
        winners,
        f"{game.piles} flood tokens have broken through: {names} {verb} with {why}.",
    )


def report_figures(game: Hamsterdam) -> dict[str, float]:
    """The balance report's own figures, all players together: the flood tokens that broke
    through (the flood piles, the figure that ends the game and that its result names),
    the water at the end (those piles plus the tokens still on the dams, the score),
    breaches and hamsters lost."""
    return {
        "flood_tokens_broken_through": game.piles,
        "water_at_end": sum(p.water for p in game.players),
        "breaches": sum(p.breaches for p in game.players),
        "hamsters_lost": sum(p.lost for p in game.players),
    }
