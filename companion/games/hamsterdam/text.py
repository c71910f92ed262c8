"""The table as plain text, for the terminal: one line per dam position."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.spec import added
from companion.engine.state import Ctx
from companion.games.hamsterdam.breach import due
from companion.games.hamsterdam.model import CLASSIC, Hamsterdam, Player, tokens_to_next_breach


def breach_words(game: Hamsterdam, player: Player) -> str:
    """The breach countdown, as the page's tallies give it: none in the classic game (it
    has no breaches), "now" while a breach waits to be resolved."""
    if game.rules == CLASSIC:
        return ""
    if due(player):
        return ", breach now"
    return f", breach in {tokens_to_next_breach(player.pile)}"


def render(game: Hamsterdam, ctx: Ctx) -> str:
    dice = f"{game.dice[0]}+{game.dice[1]}={game.roll}" if game.dice else "-"
    lines = [
        f"Hamsterdam ({game.rules}) · round {ctx.round} · turn {game.turns + 1} · "
        f"dice {dice} · piles {game.piles}/{game.threshold}"
    ]
    for seat, player in enumerate(game.players):
        marker = "*" if game.first >= 0 and seat == game.roller else " "
        lines.append(
            f"{marker}{player.name}: pile {player.pile}, on dam {player.tokens_on_dam}, "
            f"total {player.water}{breach_words(game, player)}, "
            f"hamsters {player.hamsters}, resting {player.rest_plain}"
            + "".join(f" +{s.name}" for s in player.rest_specials)
        )
        for i, spot in enumerate(player.dam):
            stack = "h" * spot.plain + "".join(f" [{s.name}]" for s in spot.specials)
            water = " ~" * spot.tokens
            lines.append(f"   {i + 1:>2}: {spot.value:>2}{water:<4} {stack}")
    return "\n".join(lines)


def happened(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """The lines the game logged with a change (its view keeps the last few as "recent")."""
    return [str(line) for line in added(before.get("recent"), after.get("recent"))]
