"""Candidate moves for the tablet's buttons (the engine keeps only the legal ones).

Dice entry, re-rolls, rat creation, cards and challenges have their own controls on the
Rats board and on each phone (one tap per die, two per card), so they are not listed here:
a button per die face or per card would bury the table in buttons, and a button per card
of a phone-deck hand would show that secret hand to everyone watching the tablet.
"""

from __future__ import annotations

from typing import Any

from companion.engine.state import Ctx
from companion.engine.words import counted
from companion.games.rats.cards import short
from companion.games.rats.deck import over_limit
from companion.games.rats.model import (
    BURROW,
    CARD,
    CHALLENGES,
    HATE,
    MATE,
    PHONE,
    SCRAP,
    SETTLE,
    STEAL,
    Contest,
    Rats,
)
from companion.games.rats.nest import most_hate
from companion.games.rats.phases import Phase


def _choice(seat: int, name: str, label: str, **args: Any) -> dict[str, Any]:
    return {"seat": seat, "name": name, "label": label, "args": args}


def choices(game: Rats, ctx: Ctx) -> list[dict[str, Any]]:
    if ctx.over:
        return []
    found: list[dict[str, Any]] = []
    if game.deck_mode != PHONE:  # a phone deck's hands are secret: played from the phones
        for seat in over_limit(game):
            label = f"{game.title(seat)}: discard a card"
            found.append(_choice(seat, "discard", label, card="2c"))
    if ctx.phase == Phase.TUNNEL:
        found += _tunnel(game, ctx)
    elif ctx.phase == Phase.NEST:
        found += _nest(game)
    if ctx.phase in (Phase.TUNNEL, Phase.NEST):
        for seat, rat in enumerate(game.rats):
            if rat.hate >= 1:
                found.append(_choice(seat, "draw", f"{rat.title}: buy a card (1 Hate)"))
    return found


def _enough(game: Rats, contest: Contest) -> list[dict[str, Any]]:
    if not contest.all_in:
        return []
    return [
        _choice(seat, "enough", f"{game.title(seat)}: no more re-rolls")
        for seat in range(len(game.rats))
        if seat not in contest.done_spending
    ]


def _wounds(game: Rats, due: tuple[int, ...]) -> list[dict[str, Any]]:
    return [
        _choice(seat, "wound", f"{game.title(seat)} loses a d{size}", die=size)
        for seat in due
        for size in sorted(set(game.rats[seat].pool))
    ]


def _tunnel(game: Rats, ctx: Ctx) -> list[dict[str, Any]]:
    seat, turn = ctx.current, game.turn
    if seat is None:
        return []
    rat = game.rats[seat]
    found: list[dict[str, Any]] = []
    if turn.stage == CARD:
        found.append(_choice(seat, "skip", f"{rat.title} skips (no card)"))
    elif turn.stage == BURROW:
        # Some of the wounds only: the board's burrow control (a tap per wound die).
        if rat.wounds:
            label = (
                f"Heal the d{rat.wounds[0]} wound"
                if len(rat.wounds) == 1
                else f"Heal all {counted(len(rat.wounds), 'wound')}"
            )
            found.append(_choice(seat, "burrow", label, heal=list(rat.wounds)))
        found.append(_choice(seat, "burrow", "Heal nothing", heal=[]))
    elif turn.stage == HATE and turn.challenge is not None:
        found += _enough(game, turn.challenge.contest)
    elif turn.stage == SETTLE:
        settle = turn.settle
        if settle.loot_order:
            looter = settle.loot_order[0]
            name = game.title(looter)
            for item in settle.loot_left:
                if item == "hate":
                    hate = game.rats[looter].hate
                    found.append(
                        _choice(
                            looter,
                            "loot",
                            f"{name}: all {hate} Hate gone",
                            item="hate",
                            amount=hate,
                        )
                    )
                    found.append(
                        _choice(looter, "loot", f"{name}: 1 Hate less", item="hate", amount=1)
                    )
                else:
                    found.append(_choice(looter, "loot", f"{name} takes a bonus {item}", item=item))
            found.append(_choice(looter, "loot", f"{name} takes nothing", item="none"))
        found += _wounds(game, settle.wounds_due)
    return found


def _nest(game: Rats) -> list[dict[str, Any]]:
    nest = game.nest
    if nest is None:
        return []
    found: list[dict[str, Any]] = []
    dominant = nest.dominant
    fight = nest.fight
    if fight is not None:
        if fight.contest.all_in and not fight.result:
            found += _enough(game, fight.contest)
        found += _wounds(game, fight.wounds_due)
        if fight.winner is not None and not fight.spoils_taken and not fight.wounds_due:
            loser = fight.defender if fight.winner == fight.attacker else fight.attacker
            them = game.rats[loser]
            who = game.title(fight.winner)
            found += [
                _choice(fight.winner, "spoils", f"{who} takes a d{s}", die=s)
                for s in sorted(set(them.pool))
            ]
            found += [
                _choice(fight.winner, "spoils", f"{who} takes {short(c)}", card=c)
                for c in them.dominance
            ]
            found.append(_choice(fight.winner, "spoils", f"{who} takes nothing", nothing=True))
        return found
    if nest.pending is not None:
        _challenger, target = nest.pending
        found.append(_choice(target, "answer", f"{game.title(target)} accepts", accept=True))
        found.append(
            _choice(
                target, "answer", f"{game.title(target)} declines (loses all Hate)", accept=False
            )
        )
        return found
    if nest.stage == SCRAP:
        for fighter in most_hate(game):
            for opponent in range(len(game.rats)):
                if opponent != fighter:
                    label = f"{game.title(fighter)} scraps with {game.title(opponent)}"
                    found.append(
                        _choice(dominant, "scrap", label, fighter=fighter, opponent=opponent)
                    )
    elif nest.stage == CHALLENGES:
        pass  # the board's challenge control: any rat against any other
    elif nest.stage == MATE:
        found += [
            _choice(dominant, "mate", f"{game.title(s)} mates", rat=s)
            for s in range(len(game.rats))
        ]
    elif nest.stage == STEAL:
        offered = dict(nest.offers)
        for victim in nest.victims:
            if victim not in offered:
                sizes = sorted(set(game.rats[victim].pool))
                found += [
                    _choice(victim, "offer", f"{game.title(victim)} offers a d{s}", die=s)
                    for s in sizes
                ]
        if len(offered) == len(nest.victims):
            found += [
                _choice(dominant, "steal", f"Take {game.title(v)}'s d{s}", victim=v)
                for v, s in nest.offers
            ]
    return found
