"""The card data a table can edit: dam card dots, special copies and single-use icons.

The seed says every dam card has zero to three orange and blue dots but does not list
them, and the single-use icon of the special cards is lost from its text. The shipped
``deck.json`` holds documented defaults; a table with different printings passes its own
deck as the game option ``deck`` (same format), which keeps replays exact.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.games.hamsterdam.catalogue import KINDS
from companion.games.hamsterdam.model import DamCard

DAM_VALUES = tuple(range(2, 13))


@dataclass(frozen=True, slots=True)
class Deck:
    dam_cards: tuple[DamCard, ...]
    copies: Mapping[str, int]
    single_use: frozenset[str]
    flood_tokens: int
    classic_hamsters: int
    classic_specials: int


def default_deck_data() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("deck.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _count(value: object, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise IllegalMoveError(f"The deck's {what} must be a whole number from {low} to {high}.")
    return value


def load_deck(data: Mapping[str, Any] | None = None) -> Deck:
    """Check a deck (the default one when ``data`` is None) and turn it into a :class:`Deck`."""
    data = default_deck_data() if data is None else data
    try:
        cards = tuple(
            DamCard(
                value=_count(card["value"], "card value", 2, 12),
                orange=_count(card.get("orange", 0), f"orange dots of card {card['value']}", 0, 3),
                blue=_count(card.get("blue", 0), f"blue dots of card {card['value']}", 0, 3),
            )
            for card in data["dam_cards"]
        )
        specials = data["specials"]
        copies = {name: _count(specials[name]["copies"], f"{name} copies", 0, 9) for name in KINDS}
        single = frozenset(name for name in KINDS if specials[name].get("single_use", False))
        tokens = _count(data.get("flood_tokens", 35), "number of flood tokens", 1, 999)
        classic = data.get("classic", {})
        hamsters = _count(classic.get("hamsters", 14), "classic hamsters", 0, 99)
        kept = _count(classic.get("specials", 2), "classic specials", 0, 9)
    except (KeyError, TypeError, AttributeError) as missing:
        raise IllegalMoveError(
            f"The Hamsterdam deck lacks {missing}; compare with deck.json."
        ) from None
    if tuple(sorted(card.value for card in cards)) != DAM_VALUES:
        raise IllegalMoveError("The deck must list exactly one dam card for each value 2 to 12.")
    return Deck(cards, copies, single, tokens, hamsters, kept)
