"""A dam card as players name it: by its printed value, with its place on the dam only when
the value repeats. The buttons and what the moves say both name cards so, so "Napster to 4"
is answered by "stepped to card 4", never by a position the page does not show."""

from __future__ import annotations

from companion.games.hamsterdam.model import Player


def card(player: Player, index: int) -> str:
    """The card at ``index`` (0-based) of ``player``'s dam: "9", or "9 (#5)" if two show 9."""
    value = player.dam[index].value
    if sum(1 for spot in player.dam if spot.value == value) == 1:
        return str(value)
    return f"{value} (#{index + 1})"
