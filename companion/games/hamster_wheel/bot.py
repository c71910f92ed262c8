"""A dexterity player for simulations: it places a legal piece and fails with a set chance.

There is no skill to simulate in a dexterity game, so the balance report asks what the rules
do with a given clumsiness: how long games last, how many pieces failures cost, whether the
seat matters. ``bot_with(chance)`` makes a player that fails that often; ``candidates`` is
the default one. Pieces fall from near the bottom of the wheel, as real ones do.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from companion.engine.events import MOVE, NEXT, Event
from companion.engine.state import State
from companion.games.hamster_wheel.model import PIECE_COLOURS, TARGETS, HamsterWheel
from companion.games.hamster_wheel.moves import target_compartment

FAIL_CHANCE = 0.25
HIGHER_POWERS_CHANCE = 0.02  # pieces falling between turns with nobody touching
ROLL_CHANCE = 0.3  # the wheel rolls a compartment after a turn

Bot = Callable[[State[Any], random.Random], Iterator[Event]]


def bot_with(fail_chance: float) -> Bot:
    """A player that fails a try with probability ``fail_chance``."""

    def candidates(state: State[Any], rng: random.Random) -> Iterator[Event]:
        game: HamsterWheel = state.G
        seat = state.ctx.current
        if seat is None:
            yield Event(NEXT, source="bot")
            return
        wheel = game.wheel
        if not game.turn.acted:
            if rng.random() < ROLL_CHANCE:
                step = rng.choice((-1, 1))
                lowest = (wheel.lowest + step) % wheel.sections + 1
                turns = wheel.turns - step / wheel.sections  # rolling back brings the next one down
                yield _move(seat, "turn_wheel", lowest=lowest, turns=turns)
            if rng.random() < HIGHER_POWERS_CHANCE and wheel.pieces:
                yield _move(seat, "higher_powers", fell=_falling(game, rng, 1))
            if rng.random() < fail_chance:
                yield _move(seat, "fail", fell=_falling(game, rng), stayed=rng.random() < 0.5)
            stock = game.players[seat]
            partner = game.partner(seat)
            if stock.pieces == 0 and partner is not None:
                stock = game.players[partner]
            colours = [c for c, n in zip(PIECE_COLOURS, stock.hand, strict=True) if n]
            targets = [t for t in TARGETS if target_compartment(wheel, t) is not None]
            rng.shuffle(colours)
            rng.shuffle(targets)
            for target in targets:
                for colour in colours:
                    yield _move(seat, "place", colour=colour, at=target)
            # No placement possible (every compartment full, every colour already in the
            # last one): the player must still try, and the piece comes back.
            yield _move(seat, "fail", fell=[], stayed=False)
        elif game.turn.placed and rng.random() < fail_chance / 2:
            yield _move(seat, "fail", fell=_falling(game, rng), stayed=rng.random() < 0.7)
        yield Event(NEXT, source="bot")

    return candidates


def _falling(game: HamsterWheel, rng: random.Random, most: int = 2) -> list[str]:
    """Up to ``most`` pieces from the two lowest compartments, which is where pieces fall from."""
    wheel = game.wheel
    near = [colour for c in wheel.lowest_two() for colour in wheel.holds(c)]
    rng.shuffle(near)
    return near[: rng.randint(0, min(most, len(near)))]


def _move(seat: int, name: str, **args: Any) -> Event:
    return Event(MOVE, name=name, seat=seat, args=args, source="bot")


candidates = bot_with(FAIL_CHANCE)
