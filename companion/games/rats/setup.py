"""A new game of Rats: options, and each player's rat (name and two bonus dice)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.rng import Draws
from companion.engine.state import Ctx
from companion.games.rats.cards import HAND_LIMIT
from companion.games.rats.deck import deal, new_deck
from companion.games.rats.dice import BONUS_DICE, FREE_DICE, SIZES
from companion.games.rats.model import DECK_MODES, DEFAULT_ROUNDS, PHYSICAL, Rat, Rats

MAX_ROUNDS = 30
NAME_LENGTH = 20


def setup(rules: str, players: tuple[str, ...], options: Mapping[str, Any], draws: Draws) -> Rats:
    deck_mode = options.get("deck", PHYSICAL)
    if deck_mode not in DECK_MODES:
        raise IllegalMoveError(
            '\'deck\' is "physical" (your own cards) or "phone" (dealt to each phone).'
        )
    rounds = options.get("rounds", DEFAULT_ROUNDS)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
        raise IllegalMoveError(f"'rounds' is a whole number from 1 to {MAX_ROUNDS}.")
    roll_for_us = options.get("roll_for_us", False)
    if not isinstance(roll_for_us, bool):
        raise IllegalMoveError("'roll_for_us' is true (the companion rolls) or false.")
    rats = tuple(Rat(player=name, pool=FREE_DICE) for name in players)
    game = Rats(rules, rats, deck_mode=deck_mode, rounds=rounds, roll_for_us=roll_for_us)
    return new_deck(game, draws)


def create(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    """Name the rat and add its two bonus dice (any sizes) to the four free ones."""
    rat = game.rats[seat]
    name = args.get("name", rat.player)
    if not isinstance(name, str) or not 0 < len(name.strip()) <= NAME_LENGTH:
        raise IllegalMoveError(f"A rat's name is a word or two (1 to {NAME_LENGTH} letters).")
    bonus = args.get("bonus")
    if (
        not isinstance(bonus, list)
        or len(bonus) != BONUS_DICE
        or not all(isinstance(s, int) and not isinstance(s, bool) and s in SIZES for s in bonus)
    ):
        raise IllegalMoveError("Choose two bonus dice: 'bonus' such as [8, 10] (d4, d6, d8, d10).")
    pool = tuple(sorted((*FREE_DICE, *bonus)))
    rat = replace(rat, name=name.strip(), pool=pool, created=True)
    return game.with_rat(seat, rat)


def waiting_to_create(game: Rats) -> list[str]:
    return [rat.player for rat in game.rats if not rat.created]


def blocker(game: Rats, ctx: Ctx) -> str | None:
    waiting = waiting_to_create(game)
    if waiting:
        return f"Waiting for {', '.join(waiting)} to name a rat and pick two bonus dice."
    return None


def deal_hands(game: Rats, ctx: Ctx, draws: Draws) -> Rats:
    """Everyone draws five tunnel cards (from the real deck, or dealt to their phone)."""
    for _ in range(HAND_LIMIT):
        for seat in range(len(game.rats)):
            game = deal(game, seat, draws, f"{game.title(seat)}'s starting hand")
    return game
