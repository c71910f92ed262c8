"""The dice Run, Hamster, Run! players roll by hand, which NEXT carries (classic only).

Classic Rest gives a chip back on an even die, and classic Fatigue costs a chip on an even
die: the players roll those dice. The companion never makes them up; it asks for them
beside NEXT, unless the table chose to let it roll (``roll_for_us``, logged and shown).
"""

from __future__ import annotations

from companion.engine.state import Ctx
from companion.games.run_hamster_run import actions, rounds
from companion.games.run_hamster_run.model import Belt
from companion.games.run_hamster_run.phases import Phase


def next_dice(game: Belt, ctx: Ctx) -> list[str]:
    """Classic's hand rolls that NEXT carries: the Rest die of a hamster whose turn NEXT ends,
    and the Fatigue dice as the round enters Fatigue (none when the companion rolls)."""
    if game.roll_for_us or ctx.over:
        return []
    if ctx.phase == Phase.RESOLVE and ctx.current is not None:
        if actions.rest_die_due(game, ctx.current):
            return [f"{game.hamsters[ctx.current].name}'s rest die"]
        return []
    if ctx.phase == Phase.ALLIGATORS:
        return rounds.fatigue_dice(game)
    return []
