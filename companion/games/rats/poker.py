"""Poker hand ranking for Dominance hands: the best five of however many cards a rat holds.

Rats decides the Dominant Rat by standard poker rankings. A rat may hold fewer than five
cards (the ruling: rank them as a partial hand with the usual high-card and pair rules, so
a lone pair of kings beats three unrelated aces-high) or more than five (the best five
count). Straights and flushes need five cards. The ace is high, and low only in the
A-2-3-4-5 straight (the "wheel"), whose top card is the five.

A hand's strength is a tuple that compares the way poker does: category first, then the
ranks that decide within it (pairs before kickers).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from companion.games.rats.cards import rank_value, suit_of

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
Strength = tuple[int, ...]
NO_HAND: Strength = (-1,)  # a rat with no Dominance card at all

_PLURAL = {
    2: "twos",
    3: "threes",
    4: "fours",
    5: "fives",
    6: "sixes",
    7: "sevens",
    8: "eights",
    9: "nines",
    10: "tens",
    11: "jacks",
    12: "queens",
    13: "kings",
    14: "aces",
}
_SINGLE = {11: "jack", 12: "queen", 13: "king", 14: "ace"}


def _straight_top(values: Sequence[int]) -> int | None:
    """The top card of a straight made by five distinct values, if they make one."""
    distinct = sorted(set(values))
    if len(distinct) != 5:
        return None
    if distinct[-1] - distinct[0] == 4:
        return distinct[-1]
    if distinct == [2, 3, 4, 5, 14]:
        return 5  # the wheel: the ace plays low
    return None


def strength(cards: Sequence[str]) -> Strength:
    """The strength of exactly these cards (five or fewer), as comparable ranks."""
    if not cards:
        return NO_HAND
    values = [rank_value(card) for card in cards]
    counts = Counter(values)
    # ranks ordered by how many of each, then by rank: pairs before kickers
    grouped = sorted(counts, key=lambda v: (counts[v], v), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if len(cards) == 5:
        top = _straight_top(values)
        flush = len({suit_of(card) for card in cards}) == 1
        if top is not None and flush:
            return (STRAIGHT_FLUSH, top)
        if shape[0] == 4:
            return (QUADS, *grouped)
        if shape == [3, 2]:
            return (FULL_HOUSE, *grouped)
        if flush:
            return (FLUSH, *sorted(values, reverse=True))
        if top is not None:
            return (STRAIGHT, top)
    if shape[0] == 4:
        return (QUADS, *grouped)
    if shape[0] == 3:
        return (TRIPS, *grouped)
    if shape[:2] == [2, 2]:
        return (TWO_PAIR, *grouped)
    if shape[0] == 2:
        return (PAIR, *grouped)
    return (HIGH_CARD, *grouped)


def best(cards: Iterable[str]) -> tuple[Strength, tuple[str, ...]]:
    """The best five (or all, if fewer) of ``cards`` and their strength."""
    held = tuple(cards)
    if len(held) <= 5:
        return strength(held), held
    return max(((strength(five), five) for five in combinations(held, 5)), key=lambda x: x[0])


def describe(found: Strength) -> str:
    """ "two pair, kings and fives", "straight, nine high", "pair of aces"."""
    if found == NO_HAND:
        return "no cards"
    category, ranks = found[0], found[1:]
    if category == HIGH_CARD:
        return f"high card, {_SINGLE.get(ranks[0], str(ranks[0]))}"
    if category == PAIR:
        return f"pair of {_PLURAL[ranks[0]]}"
    if category == TWO_PAIR:
        return f"two pair, {_PLURAL[ranks[0]]} and {_PLURAL[ranks[1]]}"
    if category == TRIPS:
        return f"three {_PLURAL[ranks[0]]}"
    if category == QUADS:
        return f"four {_PLURAL[ranks[0]]}"
    if category == FULL_HOUSE:
        return f"full house, {_PLURAL[ranks[0]]} over {_PLURAL[ranks[1]]}"
    if category == FLUSH:
        return f"flush, {_SINGLE.get(ranks[0], str(ranks[0]))} high"
    top = _SINGLE.get(ranks[0], str(ranks[0]))
    if category == STRAIGHT:
        return f"straight, {top} high"
    return "royal flush" if ranks[0] == 14 else f"straight flush, {top} high"


def hand_name(cards: Iterable[str]) -> str:
    return describe(best(cards)[0])
