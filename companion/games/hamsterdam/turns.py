"""A turn: a new round's start, the roll, and passing the dice.

The two dice are rolled by hand: the camera's or tablet's reading arrives as given
outcomes of ``draws.die`` (the generator stands in for simulations and tests). A roll
that no dam shows (checked on the raw roll, before any special changes it) is rolled
again. Passing the dice counts the turn; a full rotation leads to movement.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import evolve as replace
from companion.engine.rng import Draws
from companion.engine.state import Ctx
from companion.games.hamsterdam.model import (
    Hamsterdam,
    rotation,
    round_length,
)

Args = Mapping[str, Any]


def begin_round(game: Hamsterdam, ctx: Ctx, draws: Draws) -> Hamsterdam:
    return replace(game, turns=0).note(
        f"Round {ctx.round}: {game.players[game.first].name} rolls first."
    )


def begin_roll(game: Hamsterdam, ctx: Ctx, draws: Draws) -> Hamsterdam:
    """The dice are back on the table: forget the last roll and its special effects."""
    players = tuple(replace(p, mob=0, dodged=False) for p in game.players)
    return replace(
        game,
        players=players,
        dice=None,
        dry=False,
        alternative=None,
        pending=(),
        struck=(),
        acted=frozenset(),
    )


def throw(game: Hamsterdam, draws: Draws) -> Hamsterdam:
    roller = game.players[game.roller].name
    why = f"{roller}'s flood roll"
    own = game.roll_for_us
    dice = (draws.hand_die(why, companion_rolls=own), draws.hand_die(why, companion_rolls=own))
    value = dice[0] + dice[1]
    dry = all(value not in p.values() for p in game.players)
    game = replace(game, dice=dice, dry=dry, rerolls=game.rerolls + dry)
    if dry:
        return game.note(f"{roller} rolled {value}: no dam shows it, roll again.")
    return game.note(f"{roller} rolled {dice[0]}+{dice[1]} = {value}.")


def roll(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Enter the roller's two dice (any seat may type them in for the table)."""
    if game.dice is not None and not game.dry:
        raise IllegalMoveError("The dice are already read for this turn; undo to correct them.")
    return throw(game, draws)


def roll_on_next(game: Hamsterdam, ctx: Ctx, draws: Draws) -> Hamsterdam:
    """NEXT while the dice wait: take the dice it carries (the camera's or the pickers');
    without them NEXT waits and says so, unless the table asked the companion to roll."""
    return throw(game, draws)


def roller_until_rolled(game: Hamsterdam, ctx: Ctx) -> int | None:
    """The roller holds the turn until a roll some dam shows is read."""
    return game.roller if game.dice is None or game.dry else None


def roll_blocker(game: Hamsterdam, ctx: Ctx) -> str | None:
    if game.alternative is not None:
        return f"{game.players[game.roller].name} must keep the old or the new roll (Physicster)."
    return None


def pass_dice(game: Hamsterdam, ctx: Ctx, draws: Draws) -> Hamsterdam:
    game = replace(game, turns=game.turns + 1, dice=None, dry=False, pending=())
    return game


def after_dice(game: Hamsterdam) -> str:
    """Every full rotation of the dice (two with two players) is followed by movement."""
    return "movement" if game.turns % rotation(len(game.players)) == 0 else "roll"


def after_movement(game: Hamsterdam) -> str:
    """After the round's last turn (6, 4 or 3 each) comes redeployment."""
    return "redeploy" if game.turns >= round_length(len(game.players)) else "roll"
