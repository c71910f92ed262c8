"""What the tablet shows: every dam, the flood tallies, the tracker, the roll, standings.

Set-up secrets stay secret: another seat sees how many specials a player was dealt and
whether they chose cards to pass, never which.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from companion.engine.percent import percent
from companion.engine.state import Ctx
from companion.engine.words import listed
from companion.games.hamsterdam import breach, flood, powers
from companion.games.hamsterdam.catalogue import KINDS
from companion.games.hamsterdam.model import (
    CLASSIC,
    PASS,
    Flood,
    Hamsterdam,
    Player,
    Special,
    rotation,
    round_length,
    tokens_to_next_breach,
)
from companion.games.hamsterdam.phases import Phase
from companion.games.hamsterdam.scoring import standings


def _special(special: Special) -> dict[str, Any]:
    return {
        "id": special.id,
        "name": special.name,
        "timing": KINDS[special.name].timing,
        "help": KINDS[special.name].help,
        "stops": special.stops,
    }


def tallies(game: Hamsterdam, player: Player) -> dict[str, Any]:
    """The flood tallies of one player (breach figures only in the full game)."""
    return {
        "pile": player.pile,
        "on_dam": player.tokens_on_dam,
        "total": player.water,
        "to_next_breach": None
        if game.rules == CLASSIC
        else (0 if breach.due(player) else tokens_to_next_breach(player.pile)),
        "breaches": player.breaches,
    }


def roll_chance(value: int) -> Fraction:
    """The exact chance that two dice total ``value`` (2..12)."""
    return Fraction(max(0, 6 - abs(7 - value)), 36)


def flood_odds(game: Hamsterdam, seat: int, ctx: Ctx) -> dict[str, Any] | None:
    """Before the roll: each card's chance to flood on the next 2d6 and the player's chance
    of being flooded at all (every card showing the total floods; specials played after
    the roll, such as Mobster or Ninjaster, are not counted). A total no dam shows is
    rolled again, so the chances are among the totals some dam shows: late in a full game,
    with cards flipped, a 7 nobody holds makes every other total likelier. Shown again
    after such a dry roll; ``None`` once a roll some dam shows lies on the table."""
    if ctx.phase != Phase.ROLL or (game.dice is not None and not game.dry) or ctx.over:
        return None
    shown = frozenset().union(*(p.values() for p in game.players))
    total = sum((roll_chance(v) for v in shown), Fraction(0))

    def chance(values: frozenset[int]) -> Fraction:
        return sum((roll_chance(v) for v in values), Fraction(0)) / total if total else total

    return {
        "cards": [percent(chance(frozenset({s.value}))) for s in game.players[seat].dam],
        "flooded": percent(chance(game.players[seat].values())),
    }


def odds_lines(game: Hamsterdam, ctx: Ctx) -> list[str]:
    """Before the roll, each dam's chance to be flooded, for the terminal."""
    lines = []
    for seat, player in enumerate(game.players):
        odds = flood_odds(game, seat, ctx)
        if odds is None:
            continue
        cards = ", ".join(
            f"card {spot.value} {chance}%"
            for spot, chance in zip(player.dam, odds["cards"], strict=True)
        )
        lines.append(f"odds: {player.name}'s dam floods on this roll {odds['flooded']}% ({cards})")
    return lines


def _player(game: Hamsterdam, ctx: Ctx, seat: int, viewer: int | None) -> dict[str, Any]:
    player = game.players[seat]
    mine = viewer == seat
    return {
        "odds": flood_odds(game, seat, ctx),
        "seat": seat,
        "name": player.name,
        "stage": player.stage,
        "dam": [
            {
                "at": i + 1,
                "value": spot.value,
                "orange": spot.card.orange,
                "blue": spot.card.blue,
                "plain": spot.plain,
                "specials": [_special(s) for s in spot.specials],
                "tokens": spot.tokens,
                "floods": any(f.seat == seat and f.index == i for f in game.pending),
            }
            for i, spot in enumerate(player.dam)
        ],
        "resting": {
            "plain": player.rest_plain,
            "specials": [_special(s) for s in player.rest_specials],
        },
        "flipped": [card.value for card in player.flipped],
        "hamsters": player.hamsters,
        "moved": player.moved,
        "redeployed": player.redeployed,
        "lost": player.lost,
        "tallies": tallies(game, player),
        "floods_at": flood.flood_value(game, seat)
        if ctx.phase in (Phase.ROLL, Phase.FLOOD)
        else None,
        "usable": powers.usable(game, ctx, seat),
        "hand": [c.value for c in player.hand] if mine else len(player.hand),
        "passing": list(player.passing) if mine else player.stage != PASS,
        "dealt": [_special(s) for s in player.dealt] if mine else len(player.dealt),
        "keep": player.keep,
    }


def _hits(game: Hamsterdam, ctx: Ctx) -> tuple[Flood, ...]:
    """Who floods where: foreseen once the roll is in, then as resolved."""
    if ctx.phase == Phase.ROLL:
        rolled = game.dice is not None and not game.dry and game.alternative is None
        return flood.floods_for_roll(game) if rolled else ()
    return game.struck


def view(game: Hamsterdam, ctx: Ctx, viewer: int | None) -> dict[str, Any]:
    count = len(game.players)
    return {
        "rules": game.rules,
        "players": [_player(game, ctx, s, viewer) for s in range(count)],
        "table": {
            "piles": game.piles,
            "threshold": game.threshold,
            "supply": max(0, game.supply),
            "stand_ins": max(0, -game.supply),  # tokens the box lacked (see flood.py)
        },
        "tracker": {
            "round": ctx.round,
            "turn": game.turns + 1,
            "turns_per_round": round_length(count),
            "turns_each": round_length(count) // count,
            "movement_every": rotation(count),
            "first": game.first if game.first >= 0 else None,
            "roller": game.roller if game.first >= 0 else None,
        },
        "roll": {
            "dice": list(game.dice) if game.dice else None,
            "value": game.roll or None,
            "dry": game.dry,
            "alternative": list(game.alternative) if game.alternative else None,
            "floods": [
                {"seat": f.seat, "at": f.index + 1, "waiting": f in game.pending}
                for f in _hits(game, ctx)
            ],
        },
        "standings": standings(game),
        "recent": list(game.log[-5:]),  # what just happened, newest last
        "log": list(game.log[-12:]),
    }


def prompt(game: Hamsterdam, ctx: Ctx) -> str:
    """One sentence: what the table must do now."""
    if ctx.over:
        return ctx.result
    names = [p.name for p in game.players]
    phase = ctx.phase
    if phase == Phase.SETUP:
        stages = {
            stage: ", ".join(p.name for p in game.players if p.stage == stage)
            for stage in ("pass", "arrange", "place")
        }
        if stages["pass"]:
            return f"Choose two dam cards to pass: waiting for {stages['pass']}."
        if stages["arrange"]:
            return f"Line up your dam and keep your specials: waiting for {stages['arrange']}."
        if stages["place"]:
            return f"Stand your hamsters on your dam: waiting for {stages['place']}."
        return "Everyone is ready: roll off for the first player, then press NEXT."
    roller = names[game.roller]
    if phase == Phase.ROUND:
        return f"Round {ctx.round} begins: press NEXT, {names[game.first]} rolls first."
    if phase == Phase.ROLL:
        if game.dice is None:
            return f"{roller} rolls the two dice; press NEXT when they lie still."
        if game.dry:
            return f"No dam shows {game.roll}: {roller} rolls again."
        if game.alternative is not None:
            return f"{roller} keeps the old or the new roll (Physicster)."
        return f"{roller} rolled {game.roll}: use after-roll specials, then press NEXT to flood."
    if phase == Phase.FLOOD:
        hit = ", ".join(sorted({names[f.seat] for f in game.pending}))
        if hit:
            return f"Stop the floods ({hit}), or press NEXT to plug the plain way."
        return "Every flood is resolved: press NEXT."
    if phase == Phase.BREACH:
        due = breach.waiting(game)
        if due:
            return f"Breach: {_flip(due)} at an end of the dam, then press NEXT."
        return "No breach this turn: press NEXT to pass the dice."
    if phase == Phase.DICE:
        return f"{roller} passes the dice to the left; press NEXT."
    if phase == Phase.MOVEMENT:
        return "Movement: each player may move one hamster one card; press NEXT when done."
    if phase == Phase.SKIPS:
        return _skips_prompt(game, ctx)
    if phase == Phase.REDEPLOY:
        late = ", ".join(p.name for p in game.players if not p.redeployed)
        return f"Redeploy your hamsters ({late}); NEXT spreads the rest evenly."
    return "Press NEXT."


def _flip(due: list[str]) -> str:
    """Who flips: "Cy flips a card", "Ann and Cy each flip a card"."""
    if len(due) == 1:
        return f"{due[0]} flips a card"
    return f"{listed(due)} each flip a card"


def _skips_prompt(game: Hamsterdam, ctx: Ctx) -> str:
    """The skip-movement step: whose special is next, and first what a Bombster started.

    A Bombster flood waits for its player like any flood. When its water fills a flood
    pile, the breach is due at once (the rulings put breaches right after a flood), so it
    is said here and flipped here; it used to wait, unsaid, for the next turn's breach step
    while the card that should have left the dam could still flood.
    """
    names = [p.name for p in game.players]
    hit = ", ".join(sorted({names[f.seat] for f in game.pending}))
    due = breach.waiting(game)
    now = ""
    if hit:
        now = f"Stop the flood Bombster started ({hit})"
    elif due:
        now = f"Breach: {_flip(due)} at an end of the dam now"
    if ctx.current is not None:
        turn = f"{names[ctx.current]} may use a special instead of moving, or press NEXT."
        return f"{now}; {turn}" if now else turn
    if hit:
        return f"{now}, or press NEXT to resolve it the plain way."
    if due:
        return f"{now}, then press NEXT."
    return "Every skip-movement special has acted: press NEXT."
