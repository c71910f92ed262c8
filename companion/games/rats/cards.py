"""Playing cards as Rats uses them: short codes, what a card means in the tunnels.

A card is written as its rank then its suit letter, "10c", "Qh", "As": short enough for a
replay file and a phone button, unambiguous to parse. Clubs are Fight challenges, spades
Sneak, diamonds Think; hearts are no challenge at all but a chance to burrow.
"""

from __future__ import annotations

from companion.engine.errors import IllegalMoveError

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("c", "s", "d", "h")
SUIT_NAMES = {"c": "clubs", "s": "spades", "d": "diamonds", "h": "hearts"}
SUIT_SYMBOLS = {"c": "♣", "s": "♠", "d": "♦", "h": "♥"}
RANK_NAMES = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}

FIGHT, SNEAK, THINK = "fight", "sneak", "think"
TYPES = (FIGHT, SNEAK, THINK)
CHALLENGE_OF_SUIT = {"c": FIGHT, "s": SNEAK, "d": THINK}
BURROW = "h"

FULL_DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
HAND_LIMIT = 5


def parse(code: object) -> str:
    """The card's canonical code, or one sentence saying how to write a card."""
    if isinstance(code, str):
        text = code.strip()
        rank, suit = text[:-1].upper(), text[-1:].lower()
        if rank == "T":
            rank = "10"
        if rank in RANKS and suit in SUITS:
            return rank + suit
    raise IllegalMoveError(
        f"{code!r} is not a card: write the rank then the suit, such as 10c, Qh or As "
        "(c clubs, s spades, d diamonds, h hearts)."
    )


def rank_of(card: str) -> str:
    return card[:-1]


def suit_of(card: str) -> str:
    return card[-1]


def rank_value(card: str) -> int:
    """2..14, the ace high (poker also lets it be low in the A-2-3-4-5 straight)."""
    return RANKS.index(rank_of(card)) + 2


def difficulty(card: str) -> int:
    """2-4 need two successes, 5-7 three, 8-10 four, a face card or an ace five."""
    value = rank_value(card)
    if value <= 4:
        return 2
    if value <= 7:
        return 3
    if value <= 10:
        return 4
    return 5


def challenge_type(card: str) -> str | None:
    """Fight, sneak or think; ``None`` for a heart (burrow)."""
    return CHALLENGE_OF_SUIT.get(suit_of(card))


def name(card: str) -> str:
    """ "queen of hearts", "10 of clubs": what the tablet says aloud."""
    rank = rank_of(card)
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit_of(card)]}"


def short(card: str) -> str:
    """ "Q♥": for boards and buttons."""
    return rank_of(card) + SUIT_SYMBOLS[suit_of(card)]
