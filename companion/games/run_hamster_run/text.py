"""The board as text, for the terminal: the belt drawn far end first, the Pit at the bottom."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.spec import added
from companion.engine.state import Ctx
from companion.games.run_hamster_run.model import LANES, ROWS, TRAITS, Belt
from companion.games.run_hamster_run.phases import Phase


def render(game: Belt, ctx: Ctx) -> str:
    lines = [
        f"Round {ctx.round} · speed {game.speed} · alligators {game.alligators} · {game.rules}"
    ]
    initials = {(h.row, h.lane): h.name[:2] for h in game.hamsters if h.on_belt}
    for row in range(ROWS, 0, -1):
        cells = " ".join(f"{initials.get((row, lane), '..'):>2}" for lane in range(1, LANES + 1))
        star = "*" if row == game.asterisk_row else " "
        lines.append(f"{row:>2}{star}| {cells} |{star}")
    pit = ", ".join(h.name for h in game.hamsters if h.in_pit) or "empty"
    lines.append(f"PIT: {pit}")
    for seat, h in enumerate(game.hamsters):
        if h.eaten:
            lines.append(f"  {seat}: {h.name:<10} eaten")
            continue
        split = " ".join(f"{t[:1].upper()}{n}" for t, n in zip(TRAITS, h.traits, strict=True))
        if ctx.round == 0 or (ctx.round == 1 and ctx.phase == Phase.ALLOCATE):
            # Nothing revealed yet: the chips still wait in the hand.
            split = f"Pluck {h.pluck}"
        where = "pit" if h.in_pit else f"({h.row},{h.lane})" if h.row > 0 else "not placed"
        extra = f" declared {h.declared}" if h.declared else ""
        lines.append(f"  {seat}: {h.name:<10} {where:<10} {split} fatigue {h.fatigue}{extra}")
    return "\n".join(lines)


def happened(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Each HAT test a change made, as the page says it: "Bob throws Cathleen: Cathleen
    wins (2 against 2 chips)."."""
    return [
        f"{test['why']}: {test['winner']} wins ({test['chips'][0]} against "
        f"{test['chips'][1]} chips)."
        for test in added(before.get("tests"), after.get("tests"))
    ]
