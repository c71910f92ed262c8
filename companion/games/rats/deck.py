"""The tunnel cards: a real deck the players hold, or a deck the companion deals to phones.

With a *physical* deck the companion only counts: cards in each hand, in the draw pile and
in the discard, and which cards are face up in Dominance hands (so a card cannot be
played twice). With a *phone* deck it shuffles a seeded deck, deals from it and knows
every card; a rat's hand is that rat's secret, shown only on its own phone, and a card
dealt is logged for that seat alone.
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine.errors import IllegalMoveError
from companion.engine.rng import Draws
from companion.games.rats.cards import FULL_DECK, HAND_LIMIT, parse, short
from companion.games.rats.model import DRAW_COST, DRAWS_PER_ROUND, PHONE, Rats


def shuffled(draws: Draws, cards: tuple[str, ...]) -> tuple[str, ...]:
    """A seeded shuffle that is *not* written to the public log (the order is a secret:
    the seed in the game's header reproduces it)."""
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        j = draws.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def new_deck(game: Rats, draws: Draws) -> Rats:
    if game.deck_mode == PHONE:
        return replace(game, deck=shuffled(draws, FULL_DECK), deck_count=len(FULL_DECK))
    return replace(game, deck_count=len(FULL_DECK))


def _refill(game: Rats, draws: Draws) -> Rats:
    """Out of cards: the discards are shuffled into a new draw pile."""
    if game.deck_count > 0:
        return game
    if game.discard_count == 0:
        raise IllegalMoveError("No cards are left to draw: the deck and the discards are empty.")
    if game.deck_mode == PHONE:
        pile = shuffled(draws, game.discard)
        return replace(game, deck=pile, deck_count=len(pile), discard=(), discard_count=0)
    return replace(game, deck_count=game.discard_count, discard=(), discard_count=0)


def deal(game: Rats, seat: int, draws: Draws, why: str) -> Rats:
    """One card from the pile to ``seat`` (reshuffling the discards if the pile is empty)."""
    game = _refill(game, draws)
    rat = game.rats[seat]
    if game.deck_mode == PHONE:
        card, rest = game.deck[0], game.deck[1:]
        draws.private(why, card, seat)
        rat = replace(rat, hand=(*rat.hand, card), hand_count=rat.hand_count + 1)
        game = replace(game, deck=rest, deck_count=len(rest))
    else:
        rat = replace(rat, hand_count=rat.hand_count + 1)
        game = replace(game, deck_count=game.deck_count - 1)
    return game.with_rat(seat, rat)


def in_dominance(game: Rats, card: str) -> int | None:
    for seat, rat in enumerate(game.rats):
        if card in rat.dominance:
            return seat
    return None


def take_from_hand(game: Rats, seat: int, card_arg: object) -> tuple[Rats, str]:
    """The rat plays or drops a card from its hand: the card named (the phone deck knows
    the hand; with a physical deck the player says which card it was)."""
    rat = game.rats[seat]
    if rat.hand_count <= 0:
        raise IllegalMoveError(f"{rat.title} has no cards in hand.")
    card = parse(card_arg)
    if game.deck_mode == PHONE:
        if card not in rat.hand:
            raise IllegalMoveError(f"{rat.title} does not hold the {short(card)}.")
        hand = list(rat.hand)
        hand.remove(card)
        rat = replace(rat, hand=tuple(hand), hand_count=rat.hand_count - 1)
    else:
        owner = in_dominance(game, card)
        if owner is not None:
            raise IllegalMoveError(
                f"The {short(card)} lies face up in {game.title(owner)}'s Dominance hand; "
                "check the card and enter it again."
            )
        if card in game.discard:
            raise IllegalMoveError(
                f"The {short(card)} is on the discard pile (until the deck is reshuffled); "
                "check the card and enter it again."
            )
        rat = replace(rat, hand_count=rat.hand_count - 1)
    return game.with_rat(seat, rat), card


def to_discard(game: Rats, card: str | None) -> Rats:
    """A card onto the discard pile (``None``: a physical card nobody named)."""
    if card is None:
        return replace(game, discard_count=game.discard_count + 1)
    return replace(game, discard=(*game.discard, card), discard_count=game.discard_count + 1)


def buy_card(game: Rats, seat: int, draws: Draws) -> Rats:
    """Spend 1 Hate to draw a card (at most five this way per round)."""
    rat = game.rats[seat]
    if rat.hate < DRAW_COST:
        raise IllegalMoveError(f"{rat.title} has no Hate to spend on a card.")
    if rat.draws >= DRAWS_PER_ROUND:
        raise IllegalMoveError(
            f"{rat.title} has already bought {DRAWS_PER_ROUND} cards this round (the most)."
        )
    game = deal(game, seat, draws, f"{rat.title} draws a card")
    rat = game.rats[seat]
    rat = replace(rat, hate=rat.hate - DRAW_COST, draws=rat.draws + 1)
    game = replace(game, hate_spent=game.hate_spent + DRAW_COST)
    return game.with_rat(seat, rat)


def drop(game: Rats, seat: int, card_arg: object) -> Rats:
    """Discard down to five: with a phone deck the rat says which card; with a real deck
    the card goes face down and is only counted."""
    rat = game.rats[seat]
    if rat.hand_count <= HAND_LIMIT:
        raise IllegalMoveError(f"{rat.title} holds {rat.hand_count} cards: no need to discard.")
    if game.deck_mode == PHONE:
        game, card = take_from_hand(game, seat, card_arg)
        return to_discard(game, card)
    game = game.with_rat(seat, replace(rat, hand_count=rat.hand_count - 1))
    return to_discard(game, None)


def over_limit(game: Rats) -> list[int]:
    """Rats holding more than five cards (they discard before play goes on)."""
    return [seat for seat, rat in enumerate(game.rats) if rat.hand_count > HAND_LIMIT]
