"""A random but plausible Hamsterdam player, for balance reports and property tests.

It proposes candidate events, most wanted first; the caller keeps the first one the
engine accepts, and NEXT always comes last (NEXT also does the plain thing: reads the
dice, plugs with plain hamsters, flips the cheaper end, spreads the hamsters). Specials
are tried now and then with random arguments, so every effect gets exercised.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from companion.engine.events import MOVE, NEXT, Event
from companion.engine.state import State
from companion.games.hamsterdam import breach, flood, powers
from companion.games.hamsterdam.catalogue import (
    BOMBSTER,
    CONTRACTSTER,
    COPYCATSTER,
    HUCKSTER,
    KINDS,
    MOBSTER,
    NAPSTER,
    PHYSICSTER,
    SPEEDSTER,
    SPINSTER,
    WHACK_A_MOLE,
)
from companion.games.hamsterdam.layout import default_layout
from companion.games.hamsterdam.model import ARRANGE, PASS, PLACE, READY, Flood, Hamsterdam
from companion.games.hamsterdam.phases import Phase

_NEXT = Event(NEXT)
SPECIAL_CHANCE = 0.35


def candidates(state: State[Hamsterdam], rng: random.Random) -> Iterator[Event]:
    """Events worth trying now, best first; NEXT always comes last."""
    game, ctx = state.G, state.ctx
    phase = ctx.phase
    if phase == Phase.SETUP:
        yield from _setup(game, rng)
        if all(p.stage == READY for p in game.players) and game.first < 0:
            # Leaving set-up: everyone rolls two dice by hand for first (ties roll again).
            yield Event(NEXT, given=_roll_off(len(game.players), rng))
    elif phase == Phase.ROLL and ctx.current is not None:
        # The roller rolls the two dice by hand: NEXT carries what they show.
        yield Event(NEXT, given=(rng.randint(1, 6), rng.randint(1, 6)))
    elif phase == Phase.ROLL and ctx.current is None:
        if game.alternative is not None:
            yield _move(game.roller, "keep_roll", use=rng.choice(["old", "new"]))
        yield from _specials(state, rng)
    elif phase in (Phase.FLOOD, Phase.SKIPS):
        if phase == Phase.SKIPS:
            yield from _specials(state, rng)
        for pending in game.pending:
            yield _resolve(game, pending, rng)
    elif phase == Phase.BREACH:
        for seat, player in enumerate(game.players):
            if breach.due(player):
                yield _move(seat, "flip", end=rng.choice(["left", "right"]))
    elif phase == Phase.MOVEMENT:
        yield from _specials(state, rng)
        for seat in rng.sample(range(len(game.players)), len(game.players)):
            if rng.random() < 0.6 and not game.players[seat].moved:
                yield from _step(game, seat, rng)
    elif phase == Phase.REDEPLOY:
        yield from _specials(state, rng)
        yield from _redeploy(game, rng)
    yield _NEXT


def _roll_off(players: int, rng: random.Random) -> tuple[int, ...]:
    """The dice a roll-off takes, in the order the rules read them, ties rolling again."""
    dice: list[int] = []
    contenders = list(range(players))
    while len(contenders) > 1:
        totals = {}
        for seat in contenders:
            pair = (rng.randint(1, 6), rng.randint(1, 6))
            dice += pair
            totals[seat] = sum(pair)
        best = max(totals.values())
        contenders = [s for s in contenders if totals[s] == best]
    return tuple(dice)


def _move(seat: int, name: str, **args: object) -> Event:
    return Event(MOVE, name=name, seat=seat, args=args)


def _setup(game: Hamsterdam, rng: random.Random) -> Iterator[Event]:
    for seat, player in enumerate(game.players):
        if player.stage == PASS:
            values = rng.sample([c.value for c in player.hand], 2)
            yield _move(seat, "pass_cards", cards=values)
        elif player.stage == ARRANGE:
            order = [c.value for c in player.hand]
            rng.shuffle(order)
            kept = rng.sample([s.id for s in player.dealt], player.keep)
            yield _move(seat, "arrange", order=order, keep=kept)
        elif player.stage == PLACE:
            stacks, specials = default_layout(player)
            yield _move(seat, "place", stacks=stacks, specials=specials)


def _resolve(game: Hamsterdam, pending: Flood, rng: random.Random) -> Event:
    how, special = rng.choice(flood.options(game, pending))
    at = pending.index + 1
    if how == flood.PLUG:
        return _move(pending.seat, "plug", at=at, hamster=special)
    if how == flood.WATER:
        return _move(pending.seat, "water", at=at)
    copycat = how.startswith("copycat")
    name = how.removeprefix("copycat-")
    return _move(pending.seat, name, at=at, copycat=copycat)


def _step(game: Hamsterdam, seat: int, rng: random.Random) -> Iterator[Event]:
    dam = game.players[seat].dam
    stacked = [i for i, spot in enumerate(dam) if spot.hamsters]
    if not stacked or len(dam) < 2:
        return
    source = rng.choice(stacked)
    target = source + rng.choice([-1, 1])
    if 0 <= target < len(dam):
        spot = dam[source]
        hamster = None if spot.plain else spot.specials[-1].id
        yield _move(seat, "move", hamster=hamster, to=target + 1, **{"from": source + 1})


def _specials(state: State[Hamsterdam], rng: random.Random) -> Iterator[Event]:
    game, ctx = state.G, state.ctx
    for seat in range(len(game.players)):
        for offer in powers.usable(game, ctx, seat):
            if rng.random() >= SPECIAL_CHANCE:
                continue
            copycat = offer.startswith(COPYCATSTER + " as ")
            name = offer.removeprefix(COPYCATSTER + " as ")
            actor = COPYCATSTER if copycat else name
            args = _arguments(game, seat, name, actor, rng)
            if args is not None:
                event = _move(seat, KINDS[name].move, copycat=copycat, **args)
                if name in (PHYSICSTER, WHACK_A_MOLE):  # the player rolls two dice by hand
                    event = replace(event, given=(rng.randint(1, 6), rng.randint(1, 6)))
                yield event


def _arguments(
    game: Hamsterdam, seat: int, name: str, actor: str, rng: random.Random
) -> dict[str, object] | None:
    """Plausible random arguments for one special (None when it has nothing to act on)."""
    dam = game.players[seat].dam
    victim = rng.choice([s for s in range(len(game.players)) if s != seat])
    their = game.players[victim].dam
    where = [i for i, spot in enumerate(dam) if any(s.name == actor for s in spot.specials)]
    if name == SPINSTER:
        return {"die": rng.choice([1, 2]), "to": rng.randint(1, 6)}
    if name == MOBSTER:
        return {"by": rng.choice([1, -1])}
    if name in (NAPSTER, SPEEDSTER) and where and len(dam) > 1:
        reach = [i for i in range(len(dam)) if i != where[0]]
        if name == NAPSTER:
            reach = [i for i in reach if abs(i - where[0]) == 1]
        return {"to": rng.choice(reach) + 1}
    if name == BOMBSTER and their:
        return {"target": victim, "at": rng.randint(1, len(their))}
    if name == CONTRACTSTER:
        wet = [i for i, spot in enumerate(dam) if spot.tokens]
        if wet:
            source = rng.choice(wet)
            return {"from": source + 1, "to": source + rng.choice([0, 2])}
        return None
    if name == HUCKSTER:
        stacked = [i for i, spot in enumerate(their) if spot.plain]
        if stacked:
            source = rng.choice(stacked)
            return {"target": victim, "from": source + 1, "to": source + rng.choice([0, 2])}
        return None
    if name in (NAPSTER, SPEEDSTER, BOMBSTER):
        return None
    return {}


def _redeploy(game: Hamsterdam, rng: random.Random) -> Iterator[Event]:
    for seat, player in enumerate(game.players):
        if player.redeployed:
            continue
        wet = [i + 1 for i, spot in enumerate(player.dam) if spot.tokens]
        if wet and player.rest_plain and rng.random() < 0.5:
            yield _move(seat, "clear", at=rng.choice(wet))
        stacks, specials = default_layout(player)
        yield _move(seat, "redeploy", stacks=stacks, specials=specials)
