"""What the tablet and each phone show for Rats, the prompt, and the terminal board.

Everything is public but a phone-deck hand: a seat sees its own cards, nobody else does
(the tablet, ``seat=None``, sees only how many each rat holds). Before anyone rolls, each
rat's exact chance to pass the challenge in play is shown beside its pool.
"""

from __future__ import annotations

from typing import Any

from companion.engine.percent import percent
from companion.engine.state import Ctx
from companion.games.rats import poker
from companion.games.rats.cards import HAND_LIMIT, TYPES, name, short
from companion.games.rats.contest import waiting_for
from companion.games.rats.deck import over_limit
from companion.games.rats.dice import listed, pass_chance, successes
from companion.games.rats.model import (
    BURROW,
    CARD,
    CHALLENGES,
    DONE,
    DRAWS_PER_ROUND,
    HATE,
    MATE,
    PHONE,
    SCRAP,
    SETTLE,
    STEAL,
    Contest,
    Rats,
)
from companion.games.rats.nest import most_hate, scores
from companion.games.rats.nest import waiting as nest_waiting
from companion.games.rats.phases import Phase
from companion.games.rats.tunnel import waiting as tunnel_waiting


def _contest(game: Rats, contest: Contest) -> list[dict[str, Any] | None]:
    shown: list[dict[str, Any] | None] = []
    for roll in contest.rolls:
        if roll is None:
            shown.append(None)
            continue
        shown.append(
            {
                "dice": [
                    {
                        "size": size,
                        "face": face,
                        "rerolled_by": sorted(p for p, i in roll.rerolled if i == k),
                    }
                    for k, (size, face) in enumerate(zip(roll.sizes, roll.faces, strict=True))
                ],
                "complete": roll.complete,
                "successes": successes(roll.shown),
                "ones": sum(1 for f in roll.shown if f == 1),
            }
        )
    return shown


def _challenge(game: Rats) -> dict[str, Any] | None:
    challenge = game.turn.challenge
    if challenge is None:
        return None
    return {
        "card": challenge.card,
        "card_short": short(challenge.card),
        "card_name": name(challenge.card),
        "type": challenge.kind,
        "difficulty": challenge.difficulty,
        "rolls": _contest(game, challenge.contest),
        "all_in": challenge.contest.all_in,
        "done_spending": sorted(challenge.contest.done_spending),
        "waiting": waiting_for(game, challenge.contest),
        "resolved": challenge.resolved,
        "winner": challenge.winner,
        "passed": list(challenge.passed),
        "failed": list(challenge.failed),
        "odds": [
            percent(pass_chance(rat.pool, challenge.kind, challenge.difficulty))
            for rat in game.rats
        ],
    }


def _nest(game: Rats) -> dict[str, Any] | None:
    nest = game.nest
    if nest is None:
        return None
    fight = nest.fight
    fight_view = None
    if fight is not None:
        fight_view = {
            "attacker": fight.attacker,
            "defender": fight.defender,
            "mandatory": fight.mandatory,
            "rounds": fight.rounds,
            "rolls": _contest(game, fight.contest),
            "all_in": fight.contest.all_in,
            "done_spending": sorted(fight.contest.done_spending),
            "scores": {str(s): list(v) for s, v in scores(game, fight).items()}
            if fight.contest.all_in
            else {},
            "wounds_due": list(fight.wounds_due),
            "winner": fight.winner,
            "spoils_taken": fight.spoils_taken,
            "result": fight.result,
        }
    return {
        "stage": nest.stage,
        "dominant": nest.dominant,
        "most_hate": most_hate(game),
        "fight": fight_view,
        "scrapped": nest.scrapped,
        "challenged": sorted(nest.challenged),
        "pending": list(nest.pending) if nest.pending else None,
        "mated": nest.mated,
        "victims": list(nest.victims),
        "offers": [list(o) for o in nest.offers],
        "stolen": list(nest.stolen) if nest.stolen else None,
    }


def view(game: Rats, ctx: Ctx, seat: int | None) -> dict[str, Any]:
    rats = []
    for s, rat in enumerate(game.rats):
        found, best = poker.best(rat.dominance)
        entry: dict[str, Any] = {
            "seat": s,
            "player": rat.player,
            "name": rat.title,
            "created": rat.created,
            "pool": list(rat.pool),
            "wounds": list(rat.wounds),
            "hate": rat.hate,
            "cards": rat.hand_count,
            "draws_left": DRAWS_PER_ROUND - rat.draws,
            "dominance": [{"card": c, "short": short(c)} for c in rat.dominance],
            "hand_rank": poker.describe(found),
            "best_five": list(best),
        }
        if seat == s and game.deck_mode == PHONE:
            entry["hand"] = [{"card": c, "short": short(c), "name": name(c)} for c in rat.hand]
        rats.append(entry)
    settle = game.turn.settle
    return {
        "rats": rats,
        "deck_mode": game.deck_mode,
        "roll_for_us": game.roll_for_us,
        "rounds": game.rounds,
        "deck": game.deck_count,
        "discard": game.discard_count,
        "hand_limit": HAND_LIMIT,
        "turn": {
            "stage": game.turn.stage,
            "card": game.turn.card,
            "card_short": short(game.turn.card) if game.turn.card else "",
        },
        "challenge": _challenge(game),
        "settle": {
            "loot_order": list(settle.loot_order),
            "loot_left": list(settle.loot_left),
            "looted": [list(x) for x in settle.looted],
            "wounds_due": list(settle.wounds_due),
        },
        "nest": _nest(game),
        "types": list(TYPES),
        "notes": list(game.notes),
        "me": seat,
    }


def prompt(game: Rats, ctx: Ctx) -> str:
    if ctx.over:
        return ctx.result
    if ctx.phase == Phase.CREATE:
        waiting = [r.player for r in game.rats if not r.created]
        if waiting:
            return f"Make your rats: {', '.join(waiting)}, name a rat and pick two bonus dice."
        return "Every rat is ready: press NEXT to deal five cards each and enter the tunnels."
    if ctx.phase == Phase.TUNNEL:
        return _tunnel_prompt(game, ctx)
    if ctx.phase == Phase.NEST and game.nest is not None:
        return _nest_prompt(game, ctx)
    return "Press NEXT."


def _tunnel_prompt(game: Rats, ctx: Ctx) -> str:
    if ctx.current is None:
        return "Every rat has had its turn: press NEXT for the nest."
    who = game.title(ctx.current)
    stage = game.turn.stage
    over = over_limit(game)
    if stage in (CARD, DONE) and over:
        # Play and NEXT are refused until then: the prompt says so, not "play a card".
        names = ", ".join(game.title(s) for s in over)
        return f"{names} must first discard down to {HAND_LIMIT} cards; then {who} goes on."
    if stage == CARD:
        if game.rats[ctx.current].hand_count == 0:
            return f"{who} has no card: buy one with 1 Hate, or press NEXT to skip."
        if game.deck_mode == PHONE:  # the phone shows the hand: no suit and rank to pick
            return f"{who}: play a tunnel card from your phone."
        return f"{who}: play a tunnel card (suit, then rank)."
    if stage == BURROW:
        return f"{who} burrows: choose which wound dice to heal (1 Hate each), or none."
    if stage == HATE:
        return (
            "Spend Hate on re-rolls (2 each), or say you are done; NEXT closes the window for all."
        )
    if stage in (SETTLE,):
        return tunnel_waiting(game)
    if stage == DONE:
        return f"{who}'s turn is over: press NEXT."
    waiting = tunnel_waiting(game)
    if game.roll_for_us:
        return f"{waiting} NEXT rolls the missing dice for you."
    return f"Everyone rolls all their dice. {waiting}"


def _nest_prompt(game: Rats, ctx: Ctx) -> str:
    nest = game.nest
    assert nest is not None
    said = nest_waiting(game)
    if said:
        return said
    dominant = game.title(nest.dominant)
    fight = nest.fight
    if fight is not None and not fight.result:  # every die is in: the re-roll window
        names = f"{game.title(fight.attacker)} and {game.title(fight.defender)}"
        return (
            f"{names}: spend Hate on re-rolls (2 each), or say you are done; "
            "NEXT settles the scrap."
        )
    if nest.stage == SCRAP:
        return f"{dominant} picks who scraps."
    if nest.stage == CHALLENGES:
        return "Any rat may challenge another (once each); NEXT when nobody will."
    if nest.stage == MATE:
        return f"{dominant} may choose a rat to mate; NEXT to skip."
    if nest.stage == STEAL:
        return f"{dominant} steals a die."
    if ctx.round >= game.rounds:
        return "The nest is settled: press NEXT to end the game and count the scores."
    return f"The nest is settled: press NEXT for round {ctx.round + 1}."


def odds_lines(game: Rats, ctx: Ctx) -> list[str]:
    """Before a challenge's dice lie, each rat's exact chance to pass, for the terminal."""
    challenge = game.turn.challenge
    if challenge is None or ctx.phase != Phase.TUNNEL or challenge.resolved:
        return []
    return [
        f"odds: {rat.title} passes {challenge.kind} {challenge.difficulty}: "
        f"{percent(pass_chance(rat.pool, challenge.kind, challenge.difficulty))}%"
        for seat, rat in enumerate(game.rats)
        if _not_rolled(challenge.contest.rolls[seat])
    ]


def _not_rolled(roll: Any) -> bool:
    return roll is None or all(face is None for face in roll.faces)


def render(game: Rats, ctx: Ctx) -> str:
    """The rats as plain text for the terminal."""
    lines = []
    challenge = game.turn.challenge
    if challenge is not None and ctx.phase == Phase.TUNNEL:
        lines.append(f"Challenge: {short(challenge.card)} {challenge.kind} {challenge.difficulty}")
    for seat, rat in enumerate(game.rats):
        mark = ">" if seat == ctx.current else " "
        pool = listed(rat.pool, " ") or "-"
        wounds = listed(rat.wounds, " ") or "-"
        hand = " ".join(short(c) for c in rat.dominance) or "-"
        lines.append(
            f"{mark} {rat.title}: pool {pool} | wounds {wounds} | Hate {rat.hate} | "
            f"cards {rat.hand_count} | Dominance {hand} ({poker.hand_name(rat.dominance)})"
        )
        if challenge is not None and ctx.phase == Phase.TUNNEL:
            roll = challenge.contest.rolls[seat]
            if roll is not None:
                faces = " ".join("?" if f is None else str(f) for f in roll.faces)
                lines.append(f"    rolled {faces}")
    if game.nest is not None:
        lines.append(f"Dominant Rat: {game.title(game.nest.dominant)} ({game.nest.stage})")
    lines.extend(game.notes)
    return "\n".join(lines)
