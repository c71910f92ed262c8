"""The nest phase: the Dominant Rat, the mandatory scrap and any challenges, mate, steal.

One phase with stages, the Dominant Rat as the seat the table waits on. A scrap is a Rat
vs Rat fight: both roll everything (Hate buys re-rolls as in the tunnels, and ones give
Hate), Fight beats the other's Sneak to wound, and Think plus that difference decides
the winner, who takes a die or a Dominance card from the loser.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.rng import Draws
from companion.engine.state import Ctx
from companion.games.rats import contest as contests
from companion.games.rats import poker
from companion.games.rats.cards import FIGHT, SNEAK, THINK, parse, short
from companion.games.rats.dice import is_size, listed, ones, successes
from companion.games.rats.model import (
    CHALLENGES,
    DONE,
    MATE,
    SCRAP,
    STEAL,
    Contest,
    Fight,
    Nest,
    Rats,
)
from companion.games.rats.tunnel import lose_die


def _seat(game: Rats, value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < len(game.rats):
        raise IllegalMoveError(f"'{what}' is a rat's seat number: {game.seats_named()}.")
    return value


def _nest(game: Rats) -> Nest:
    if game.nest is None:
        raise IllegalMoveError("The rats are not in the nest now.")
    return game.nest


def _with_nest(game: Rats, nest: Nest) -> Rats:
    return replace(game, nest=nest)


def _note(game: Rats, line: str) -> Rats:
    return replace(game, notes=(*game.notes, line)[-3:])


def _dominant_only(game: Rats, seat: int, what: str) -> Nest:
    nest = _nest(game)
    if seat != nest.dominant:
        raise IllegalMoveError(f"The Dominant Rat, {game.title(nest.dominant)}, {what}.")
    return nest


# --- the Dominant Rat ------------------------------------------------------------------------


def best_hands(game: Rats) -> list[int]:
    """The seats whose Dominance hands are equal best."""
    strengths = [poker.best(rat.dominance)[0] for rat in game.rats]
    top = max(strengths)
    return [seat for seat, found in enumerate(strengths) if found == top]


def on_begin(game: Rats, ctx: Ctx, draws: Draws) -> Rats:
    """Find the Dominant Rat: the best Dominance hand; equal hands go to a logged draw."""
    leaders = best_hands(game)
    if len(leaders) == 1:
        dominant = leaders[0]
        how = poker.hand_name(game.rats[dominant].dominance)
        note = f"{game.title(dominant)} is the Dominant Rat ({how})."
    else:
        names = [game.title(s) for s in leaders]
        dominant = draws.pick(leaders, "equal Dominance hands: who is the Dominant Rat")
        chosen = game.title(dominant)
        note = f"{', '.join(names)} hold equal hands; the draw makes {chosen} the Dominant Rat."
    return replace(game, nest=Nest(stage=SCRAP, dominant=dominant), notes=(note,))


def dominant_until_settled(game: Rats, ctx: Ctx) -> int | None:
    """The table waits on the Dominant Rat until the nest is settled."""
    nest = _nest(game)
    return None if nest.stage == DONE else nest.dominant


def most_hate(game: Rats) -> list[int]:
    top = max(rat.hate for rat in game.rats)
    return [seat for seat, rat in enumerate(game.rats) if rat.hate == top]


# --- fights ------------------------------------------------------------------------------


def _fight(game: Rats) -> Fight:
    fight = _nest(game).fight
    if fight is None:
        raise IllegalMoveError("No scrap is under way.")
    return fight


def _start_fight(game: Rats, attacker: int, defender: int, mandatory: bool) -> Rats:
    contest = contests.open_contest(game, (attacker, defender))
    fight = Fight(attacker, defender, contest, mandatory=mandatory)
    note = f"{game.title(attacker)} scraps with {game.title(defender)}: both roll everything."
    return _note(_with_nest(game, replace(_nest(game), fight=fight)), note)


def scrap(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    """The mandatory scrap: a rat with the most Hate fights a rat the Dominant Rat picks."""
    nest = _dominant_only(game, seat, "picks who scraps")
    if nest.stage != SCRAP or nest.fight is not None:
        raise IllegalMoveError("The mandatory scrap has already been set.")
    fighter = _seat(game, args.get("fighter"), "fighter")
    opponent = _seat(game, args.get("opponent"), "opponent")
    hateful = most_hate(game)
    if fighter not in hateful:
        names = ", ".join(game.title(s) for s in hateful)
        raise IllegalMoveError(f"The rat that must scrap is the one with most Hate: {names}.")
    if opponent == fighter:
        raise IllegalMoveError(f"{game.title(fighter)} cannot scrap with itself.")
    return _start_fight(game, fighter, opponent, mandatory=True)


def _with_fight(game: Rats, fight: Fight) -> Rats:
    return _with_nest(game, replace(_nest(game), fight=fight))


def _with_contest(game: Rats, contest: Contest) -> Rats:
    return _with_fight(game, replace(_fight(game), contest=contest))


def roll(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    fight = _fight(game)
    if fight.winner is not None:
        raise IllegalMoveError("This scrap has been decided.")
    return _with_contest(game, contests.enter_roll(game, fight.contest, seat, args, draws))


def reroll(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    fight = _fight(game)
    if fight.winner is not None or fight.result:
        raise IllegalMoveError("This scrap has been decided.")
    game, contest = contests.reroll(game, fight.contest, seat, args, draws)
    return _with_contest(game, contest)


def enough(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    fight = _fight(game)
    if fight.result:
        raise IllegalMoveError("This scrap has been decided.")
    contest = contests.pass_spending(game, fight.contest, seat)
    game = _with_contest(game, contest)
    if contests.window_closed(game, contest):
        game = resolve_fight(game)
    return game


def scores(game: Rats, fight: Fight) -> dict[int, tuple[int, int, int, int]]:
    """Per rat: (Think + own Fight − other's Sneak, Fight, Sneak, Think), compared in order."""
    a, b = fight.attacker, fight.defender
    count = {s: successes(fight.contest.roll(s).shown) for s in (a, b)}
    found = {}
    for me, other in ((a, b), (b, a)):
        mine, theirs = count[me], count[other]
        edge = mine[FIGHT] - theirs[SNEAK]
        found[me] = (mine[THINK] + edge, mine[FIGHT], mine[SNEAK], mine[THINK])
    return found


def resolve_fight(game: Rats) -> Rats:
    """Wounds both ways, Hate for ones, and the winner (or, all equal, another roll)."""
    fight = _fight(game)
    a, b = fight.attacker, fight.defender
    count = {s: successes(fight.contest.roll(s).shown) for s in (a, b)}
    wounded = []
    if count[a][FIGHT] > count[b][SNEAK] and game.rats[b].pool:
        wounded.append(b)
    if count[b][FIGHT] > count[a][SNEAK] and game.rats[a].pool:
        wounded.append(a)
    for seat in (a, b):
        hate = ones(fight.contest.roll(seat).shown)
        if hate:
            rat = game.rats[seat]
            game = game.with_rat(seat, replace(rat, hate=rat.hate + hate))
    found = scores(game, fight)
    shown = f"{game.title(a)} {found[a][0]}, {game.title(b)} {found[b][0]}"
    if found[a] == found[b]:
        result = f"A draw ({shown}, every count equal): they roll again."
        fight = replace(fight, wounds_due=tuple(wounded), result=result)
    else:
        winner = a if found[a] > found[b] else b
        result = f"{game.title(winner)} wins the scrap ({shown})."
        fight = replace(fight, wounds_due=tuple(wounded), winner=winner, result=result)
    game = _note(_with_fight(game, fight), result)
    return _after_fight(game)


def _after_fight(game: Rats) -> Rats:
    """A drawn scrap rolls again once its wounds are chosen; a finished one ends."""
    fight = _fight(game)
    if fight.wounds_due:
        return game
    a, b = game.rats[fight.attacker], game.rats[fight.defender]
    if fight.winner is None and fight.result and not a.pool and not b.pool:
        line = "Neither rat has a die left to roll: the scrap ends with no winner."
        game = _note(_with_fight(game, replace(fight, empty_handed=True)), line)
        fight = _fight(game)
    elif fight.winner is not None and not fight.spoils_taken:
        loser = b if fight.winner == fight.attacker else a
        if not loser.pool and not loser.dominance:  # nothing left to take
            game = _with_fight(game, replace(fight, spoils_taken=True))
            fight = _fight(game)
    if fight.winner is None and fight.result and not fight.empty_handed:
        contest = contests.open_contest(game, (fight.attacker, fight.defender))
        again = replace(fight, contest=contest, rounds=fight.rounds + 1, result="")
        return _with_fight(game, again)
    if not fight.over:
        return game
    nest = _nest(game)
    stage = CHALLENGES if fight.mandatory else nest.stage
    return _with_nest(
        game, replace(nest, fight=None, scrapped=nest.scrapped or fight.mandatory, stage=stage)
    )


def wound(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    fight = _fight(game)
    if seat not in fight.wounds_due:
        raise IllegalMoveError(f"{game.title(seat)} has no wound to take now.")
    game = lose_die(game, seat, args.get("die"))
    fight = replace(fight, wounds_due=tuple(s for s in fight.wounds_due if s != seat))
    return _after_fight(_with_fight(game, fight))


def spoils(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    """The winner takes one of the loser's dice, or a card from its Dominance hand."""
    fight = _fight(game)
    if fight.winner is None or fight.spoils_taken:
        raise IllegalMoveError("There are no spoils to take now.")
    if seat != fight.winner:
        raise IllegalMoveError(f"{game.title(fight.winner)} won the scrap and takes the spoils.")
    loser = fight.defender if seat == fight.attacker else fight.attacker
    them, me = game.rats[loser], game.rats[seat]
    if loser in fight.wounds_due and "card" not in args and len(them.pool) <= 1:
        # A loser whose last die went as spoils could never choose the die it loses, and
        # the nest would wait for that choice for ever. Only this order is refused (the
        # page offers the spoils after the wounds anyway), so games stored with the
        # spoils taken first in any other case still load.
        raise IllegalMoveError(
            f"{them.title} must first choose the die it loses to its wound; then take the spoils."
        )
    if args.get("nothing") is True:  # the rules say the winner *may* take: it may decline
        note = f"{me.title} takes nothing from {them.title}."
        game = _with_fight(_note(game, note), replace(fight, spoils_taken=True))
        return _after_fight(game)
    if "card" in args:
        card = parse(args["card"])
        if card not in them.dominance:
            raise IllegalMoveError(f"{them.title}'s Dominance hand has no {short(card)}.")
        cards = list(them.dominance)
        cards.remove(card)
        them = replace(them, dominance=tuple(cards))
        me = replace(me, dominance=(*me.dominance, card))
        note = f"{me.title} takes the {short(card)} from {them.title}'s Dominance hand."
    else:
        size = args.get("die")
        if not is_size(size) or size not in them.pool:
            raise IllegalMoveError(f"{them.title} has no such die; say 'die' (a size) or 'card'.")
        rest = list(them.pool)
        rest.remove(size)
        them = replace(them, pool=tuple(rest))
        me = replace(me, pool=tuple(sorted((*me.pool, size))))
        note = f"{me.title} takes a d{size} from {them.title}."
    game = game.with_rat(loser, them).with_rat(seat, me)
    game = _with_fight(_note(game, note), replace(fight, spoils_taken=True))
    return _after_fight(game)


# --- challenges ---------------------------------------------------------------------------


def challenge(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    """After the mandatory scrap, any rat may challenge another, once per nest phase."""
    nest = _nest(game)
    if nest.stage != CHALLENGES or nest.fight is not None or nest.pending is not None:
        raise IllegalMoveError("Challenges come after the mandatory scrap, one at a time.")
    if seat in nest.challenged:
        raise IllegalMoveError(f"{game.title(seat)} has already made its challenge this nest.")
    target = _seat(game, args.get("target"), "target")
    if target == seat:
        raise IllegalMoveError("A rat cannot challenge itself.")
    nest = replace(nest, challenged=nest.challenged | {seat}, pending=(seat, target))
    line = f"{game.title(seat)} challenges {game.title(target)}: accept, or lose all Hate."
    return _note(_with_nest(game, nest), line)


def answer(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    nest = _nest(game)
    if nest.pending is None or nest.pending[1] != seat:
        raise IllegalMoveError(f"Nobody has challenged {game.title(seat)}.")
    accept = args.get("accept")
    if not isinstance(accept, bool):
        raise IllegalMoveError("'accept' is true (fight) or false (decline and lose all Hate).")
    challenger = nest.pending[0]
    game = _with_nest(game, replace(nest, pending=None))
    if accept:
        return _start_fight(game, challenger, seat, mandatory=False)
    rat = game.rats[seat]
    game = game.with_rat(seat, replace(rat, hate=0))
    return _note(game, f"{rat.title} declines and loses all {rat.hate} Hate.")


# --- mate and steal -----------------------------------------------------------------------


def mate(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    """The chosen rat keeps H − floor(H/2) of its Hate; every other rat takes one more."""
    nest = _dominant_only(game, seat, "chooses which rat mates")
    if nest.stage != MATE:
        raise IllegalMoveError("Mating comes after the scraps.")
    chosen = _seat(game, args.get("rat"), "rat")
    for other, rat in enumerate(game.rats):
        hate = rat.hate - rat.hate // 2 if other == chosen else rat.hate + 1
        game = game.with_rat(other, replace(rat, hate=hate))
    game = _note(game, f"{game.title(chosen)} mates and loses half its Hate; the others take 1.")
    return _enter_steal(_with_nest(game, replace(nest, mated=chosen)))


def victims(game: Rats) -> tuple[int, ...]:
    """The rats with least Hate that have a die to offer (the Dominant Rat never robs itself)."""
    least = min(rat.hate for rat in game.rats)
    dominant = _nest(game).dominant
    return tuple(s for s, r in enumerate(game.rats) if r.hate == least and s != dominant and r.pool)


def _enter_steal(game: Rats) -> Rats:
    found = victims(game)
    if not found:  # said aloud: a skipped steal looked like a forgotten one
        game = _note(game, f"Nobody is robbed: {_why_no_steal(game)}.")
    stage = STEAL if found else DONE
    return _with_nest(game, replace(_nest(game), stage=stage, victims=found, offers=()))


def _why_no_steal(game: Rats) -> str:
    least = min(rat.hate for rat in game.rats)
    dominant = _nest(game).dominant
    lowest = [s for s, r in enumerate(game.rats) if r.hate == least]
    if lowest == [dominant]:
        return f"the Dominant Rat, {game.title(dominant)}, has the least Hate itself"
    others = ", ".join(game.title(s) for s in lowest if s != dominant)
    return f"the rats with least Hate ({others}) have no die to give"


def offer(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    """A least-Hate rat puts one die forward for the Dominant Rat."""
    nest = _nest(game)
    if nest.stage != STEAL or seat not in nest.victims:
        raise IllegalMoveError(f"{game.title(seat)} is not asked for a die now.")
    if any(s == seat for s, _ in nest.offers):
        raise IllegalMoveError(f"{game.title(seat)} has already put a die forward.")
    size = args.get("die")
    if not is_size(size) or size not in game.rats[seat].pool:
        sizes = listed(game.rats[seat].pool)
        raise IllegalMoveError(
            f"{game.title(seat)} has no such die to put forward; it holds {sizes}."
        )
    nest = replace(nest, offers=(*nest.offers, (seat, size)))
    return _with_nest(game, nest)


def steal(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    nest = _dominant_only(game, seat, "takes the die")
    if nest.stage != STEAL or len(nest.offers) < len(nest.victims):
        raise IllegalMoveError("Every rat with least Hate puts a die forward first.")
    victim = _seat(game, args.get("victim"), "victim")
    size = dict(nest.offers).get(victim)
    if size is None:
        raise IllegalMoveError(f"{game.title(victim)} put no die forward.")
    them, me = game.rats[victim], game.rats[seat]
    rest = list(them.pool)
    rest.remove(size)
    game = game.with_rat(victim, replace(them, pool=tuple(rest), hate=them.hate + 1))
    game = game.with_rat(seat, replace(me, pool=tuple(sorted((*me.pool, size)))))
    game = _note(game, f"{me.title} steals {them.title}'s d{size}; {them.title} takes 1 Hate.")
    return _with_nest(game, replace(nest, stage=DONE, stolen=(victim, size)))


# --- NEXT -----------------------------------------------------------------------------------


def waiting(game: Rats) -> str:
    nest = _nest(game)
    fight = nest.fight
    if fight is not None:
        if not fight.contest.all_in:
            return f"Waiting for dice from {', '.join(contests.waiting_for(game, fight.contest))}."
        if fight.wounds_due:
            names = ", ".join(game.title(s) for s in fight.wounds_due)
            return f"Waiting for {names} to choose the die lost to wounds."
        if fight.winner is not None and not fight.spoils_taken:
            return f"Waiting for {game.title(fight.winner)} to take a die or a Dominance card."
    if nest.pending is not None:
        return f"Waiting for {game.title(nest.pending[1])} to accept or decline the challenge."
    if nest.stage == SCRAP and fight is None:
        return f"{game.title(nest.dominant)} (the Dominant Rat) picks who scraps."
    if nest.stage == STEAL:
        if len(nest.offers) < len(nest.victims):
            offered = {s for s, _ in nest.offers}
            names = ", ".join(game.title(s) for s in nest.victims if s not in offered)
            return f"Waiting for {names} to put a die forward."
        return f"{game.title(nest.dominant)} takes one of the dice put forward."
    return ""


def advance(game: Rats, ctx: Ctx, draws: Draws) -> Rats:
    """NEXT in the nest: settle the fight's rolling where the table may, or move on a stage."""
    nest = _nest(game)
    fight = nest.fight
    if fight is not None and not fight.result:
        if not fight.contest.all_in:
            if not game.roll_for_us:
                raise IllegalMoveError(waiting(game))
            return _with_contest(game, contests.roll_missing(game, fight.contest, draws))
        game = _with_contest(game, contests.everyone_passes(game, fight.contest))
        return resolve_fight(game)
    reason = waiting(game)
    if reason:
        raise IllegalMoveError(reason)
    if nest.stage == CHALLENGES:
        return _with_nest(game, replace(nest, stage=MATE))
    if nest.stage == MATE:
        return _enter_steal(_note(game, f"{game.title(nest.dominant)} lets nobody mate."))
    return game


def on_end(game: Rats, ctx: Ctx, draws: Draws) -> Rats:
    """The round is over: card buying starts afresh; after the last round the game ends."""
    rats = tuple(replace(rat, draws=0) for rat in game.rats)
    pools = (*game.pools_by_round, sum(len(r.pool) for r in rats) / len(rats))
    finished = ctx.round >= game.rounds
    return replace(game, rats=rats, nest=None, finished=finished, pools_by_round=pools)
