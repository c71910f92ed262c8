"""A random but plausible rat player, for ``companion simulate`` and the property tests.

It rolls real-looking dice (given faces, as players' dice arrive), spends Hate now and
then, loots and wounds at random, scraps, challenges and mates at random. NEXT comes
last, so the table only moves on once nothing the bot wants to do is left.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from companion.engine.events import MOVE, NEXT, Event
from companion.engine.state import State
from companion.games.rats.cards import FULL_DECK
from companion.games.rats.deck import over_limit
from companion.games.rats.dice import SIZES
from companion.games.rats.model import (
    BURROW,
    CARD,
    CHALLENGES,
    HATE,
    MATE,
    PHONE,
    ROLL,
    SCRAP,
    SETTLE,
    STEAL,
    Contest,
    Rats,
)
from companion.games.rats.nest import most_hate
from companion.games.rats.phases import Phase

REROLL_CHANCE = 0.15
DRAW_CHANCE = 0.05
CHALLENGE_CHANCE = 0.3
MATE_CHANCE = 0.6


def _move(seat: int, move: str, given: tuple[int, ...] = (), **args: Any) -> Event:
    return Event(MOVE, name=move, seat=seat, args=args, given=given, source="bot")


def _rolls(contest: Contest, rng: random.Random) -> Iterator[Event]:
    for seat in contest.rollers:
        roll = contest.roll(seat)
        if not roll.complete:
            faces = tuple(
                rng.randint(1, s) for s, f in zip(roll.sizes, roll.faces, strict=True) if f is None
            )
            yield _move(seat, "roll", faces)


def _spending(game: Rats, contest: Contest, rng: random.Random) -> Iterator[Event]:
    if not contest.all_in:
        return
    payers = [s for s, r in enumerate(game.rats) if r.hate >= 2 and s not in contest.done_spending]
    if payers and rng.random() < REROLL_CHANCE:
        payer = rng.choice(payers)
        owner = rng.choice(contest.rollers)
        roll = contest.roll(owner)
        if roll.sizes:
            die = rng.randrange(len(roll.sizes))
            yield _move(payer, "reroll", (rng.randint(1, roll.sizes[die]),), owner=owner, die=die)
    for seat in range(len(game.rats)):
        if seat not in contest.done_spending:
            yield _move(seat, "enough")


def candidates(state: State[Any], rng: random.Random) -> Iterator[Event]:
    game: Rats = state.G
    ctx = state.ctx
    n = len(game.rats)
    if ctx.phase == Phase.CREATE:
        for seat, rat in enumerate(game.rats):
            if not rat.created:
                yield _move(
                    seat,
                    "create",
                    name=f"Rat{seat + 1}",
                    bonus=[rng.choice(SIZES), rng.choice(SIZES)],
                )
        yield Event(NEXT, source="bot")
        return
    for seat in over_limit(game):
        hand = game.rats[seat].hand
        yield _move(seat, "discard", card=rng.choice(hand) if hand else "2c")
    if rng.random() < DRAW_CHANCE:
        yield _move(rng.randrange(n), "draw")
    if ctx.phase == Phase.TUNNEL and ctx.current is not None:
        yield from _tunnel(game, ctx.current, rng)
    elif ctx.phase == Phase.NEST and game.nest is not None:
        yield from _nest(game, rng)
    yield Event(NEXT, source="bot")


def _tunnel(game: Rats, seat: int, rng: random.Random) -> Iterator[Event]:
    turn, rat = game.turn, game.rats[seat]
    if turn.stage == CARD:
        if game.deck_mode == PHONE:
            cards = list(rat.hand)
        else:
            taken = {c for r in game.rats for c in r.dominance} | set(game.discard)
            cards = [c for c in FULL_DECK if c not in taken]
        if cards:
            yield _move(seat, "play", card=rng.choice(cards))
        yield _move(seat, "skip")
    elif turn.stage == BURROW:
        yield _move(seat, "burrow", heal=list(rat.wounds))
    elif turn.stage == ROLL and turn.challenge is not None:
        yield from _rolls(turn.challenge.contest, rng)
    elif turn.stage == HATE and turn.challenge is not None:
        yield from _spending(game, turn.challenge.contest, rng)
    elif turn.stage == SETTLE:
        settle = turn.settle
        if settle.loot_order:
            looter = settle.loot_order[0]
            items = list(settle.loot_left)
            rng.shuffle(items)
            for item in items:
                if item == "hate":
                    hate = game.rats[looter].hate
                    if hate:
                        yield _move(looter, "loot", item="hate", amount=rng.randint(1, hate))
                else:
                    yield _move(looter, "loot", item=item)
            yield _move(looter, "loot", item="none")
        for due in settle.wounds_due:
            yield _move(due, "wound", die=rng.choice(game.rats[due].pool))


def _nest(game: Rats, rng: random.Random) -> Iterator[Event]:
    nest = game.nest
    assert nest is not None
    dominant, n = nest.dominant, len(game.rats)
    fight = nest.fight
    if fight is not None:
        yield from _rolls(fight.contest, rng)
        if not fight.result:
            yield from _spending(game, fight.contest, rng)
        for due in fight.wounds_due:
            yield _move(due, "wound", die=rng.choice(game.rats[due].pool))
        if fight.winner is not None:
            loser = fight.defender if fight.winner == fight.attacker else fight.attacker
            them = game.rats[loser]
            options = [_move(fight.winner, "spoils", card=c) for c in them.dominance]
            options += [_move(fight.winner, "spoils", die=s) for s in them.pool]
            rng.shuffle(options)
            yield from options
        return
    if nest.pending is not None:
        yield _move(nest.pending[1], "answer", accept=rng.random() < 0.6)
    elif nest.stage == SCRAP:
        fighter = rng.choice(most_hate(game))
        yield _move(
            dominant,
            "scrap",
            fighter=fighter,
            opponent=rng.choice([s for s in range(n) if s != fighter]),
        )
    elif nest.stage == CHALLENGES and rng.random() < CHALLENGE_CHANCE:
        seat = rng.randrange(n)
        yield _move(seat, "challenge", target=rng.choice([s for s in range(n) if s != seat]))
    elif nest.stage == MATE and rng.random() < MATE_CHANCE:
        yield _move(dominant, "mate", rat=rng.randrange(n))
    elif nest.stage == STEAL:
        offered = dict(nest.offers)
        for victim in nest.victims:
            if victim not in offered:
                yield _move(victim, "offer", die=rng.choice(game.rats[victim].pool))
        for victim, _ in nest.offers:
            yield _move(dominant, "steal", victim=victim)
