"""Build Hamsterdam positions directly, for rule-by-rule tests."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from companion.engine.events import MOVE, NEXT, Event
from companion.engine.evolve import evolve
from companion.engine.flow import step
from companion.engine.state import Ctx, State
from companion.games.hamsterdam import SPEC, Hamsterdam
from companion.games.hamsterdam.deck import load_deck
from companion.games.hamsterdam.model import READY, DamCard, Player, Special, Spot

TOKENS = 35
_ids = itertools.count(100)


def piece(name: str, **fields: Any) -> Special:
    return Special(next(_ids), name, **fields)


def spot(value: int, plain: int = 0, *specials: str | Special, tokens: int = 0) -> Spot:
    pieces = tuple(s if isinstance(s, Special) else piece(s) for s in specials)
    return Spot(DamCard(value), plain=plain, specials=pieces, tokens=tokens)


def dam(*values: int, plain: int = 0) -> tuple[Spot, ...]:
    """Cards in this order, each with ``plain`` hamsters."""
    return tuple(spot(v, plain) for v in values)


def player(name: str, spots: Sequence[Spot], **fields: Any) -> Player:
    return Player(name=name, dam=tuple(spots), stage=READY, **fields)


def table(
    players: Sequence[Player], rules: str = "full", first: int = 0, **fields: Any
) -> Hamsterdam:
    """A game whose supply holds whatever tokens the dams and piles do not."""
    game = Hamsterdam(
        rules=rules,
        players=tuple(players),
        single_use=load_deck().single_use,
        supply=0,
        first=first,
        **fields,
    )
    return evolve(game, supply=TOKENS - game.tokens_in_play())


def at(game: Hamsterdam, phase: str, current: int | None = None, rng: int = 7) -> State[Hamsterdam]:
    return State(game, Ctx(phase=phase, round=1, current=current), rng)


def rolling(game: Hamsterdam) -> State[Hamsterdam]:
    """The roll phase as the table enters it: dice waiting, the roller holding the turn."""
    return at(game, "roll", current=game.roller)


def act(state: State[Hamsterdam], seat: int, name: str, **args: Any) -> State[Hamsterdam]:
    return step(SPEC, state, Event(MOVE, name=name, seat=seat, args=args))[0]


def act_rolling(
    state: State[Hamsterdam], seat: int, name: str, dice: Sequence[int], **args: Any
) -> State[Hamsterdam]:
    """A move that rolls dice (Physicster, Whack-a-Mole): ``dice`` as the camera read them."""
    event = Event(MOVE, name=name, seat=seat, args=args, given=tuple(dice))
    return step(SPEC, state, event)[0]


def nxt(state: State[Hamsterdam], given: Sequence[Any] = ()) -> State[Hamsterdam]:
    return step(SPEC, state, Event(NEXT, given=tuple(given)))[0]


def rolled(state: State[Hamsterdam], a: int, b: int) -> State[Hamsterdam]:
    """NEXT with the dice the camera read: the roll is in, specials may act."""
    return nxt(state, given=(a, b))


def names(spot_: Spot) -> list[str]:
    return [s.name for s in spot_.specials]
