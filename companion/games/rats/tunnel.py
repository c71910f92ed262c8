"""The tunnel phase: each rat in turn plays a card, and everyone faces its challenge.

A turn goes card → roll → Hate window → settle (loot picks in order, wound dice chosen)
→ done, or card (a heart) → burrow → done. NEXT moves the turn on where the table may
decide for everyone (close the Hate window, let the companion roll if the table asked it
to) and otherwise says in one sentence who the table is waiting for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.rng import Draws
from companion.engine.state import Ctx
from companion.engine.words import counted
from companion.games.rats import contest as contests
from companion.games.rats.cards import BURROW, TYPES, challenge_type, difficulty, short, suit_of
from companion.games.rats.deck import over_limit, take_from_hand, to_discard
from companion.games.rats.dice import is_size, listed, ones, successes
from companion.games.rats.model import (
    BURROW as BURROW_STAGE,
)
from companion.games.rats.model import (
    CARD,
    DONE,
    HATE,
    LOOT_ITEMS,
    ROLL,
    SETTLE,
    Challenge,
    Contest,
    Rats,
    Settle,
    Turn,
)

# --- whose turn ---------------------------------------------------------------------------


def mid_turn(game: Rats) -> bool:
    """The rat's turn is not over yet: NEXT gives the same rat a fresh turn."""
    return game.turn.stage != CARD


def _order_from(game: Rats, start: int) -> list[int]:
    n = len(game.rats)
    return [(start + k) % n for k in range(n)]


# --- playing a card -------------------------------------------------------------------------


def _no_pending_discards(game: Rats) -> None:
    over = over_limit(game)
    if over:
        names = ", ".join(game.title(s) for s in over)
        raise IllegalMoveError(f"{names} must discard down to five cards first.")


def play(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    """Play a tunnel card: a challenge for everyone, or a heart to burrow."""
    if game.turn.stage != CARD:
        raise IllegalMoveError(f"{game.title(seat)} has already played a card this turn.")
    _no_pending_discards(game)
    game, card = take_from_hand(game, seat, args.get("card"))
    if suit_of(card) == BURROW:
        game = to_discard(game, card)
        note = f"{game.title(seat)} plays the {short(card)} and burrows."
        return replace(game, turn=Turn(stage=BURROW_STAGE, card=card), notes=(note,))
    kind = challenge_type(card) or TYPES[0]
    need = difficulty(card)
    contest = contests.open_contest(game, range(len(game.rats)))
    challenge = Challenge(card=card, kind=kind, difficulty=need, contest=contest)
    stage = HATE if contest.all_in else ROLL
    note = f"{game.title(seat)} plays the {short(card)}: {kind.title()} {need}. Everyone rolls."
    game = replace(game, challenges=game.challenges + 1, notes=(note,))
    return replace(game, turn=Turn(stage=stage, card=card, challenge=challenge))


def skip(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    """A rat with no card skips its turn (it could have bought one with Hate)."""
    if game.turn.stage != CARD:
        raise IllegalMoveError("The turn is under way; it cannot be skipped now.")
    if game.rats[seat].hand_count > 0:
        raise IllegalMoveError(f"{game.title(seat)} holds cards: play one.")
    return replace(
        game, turn=Turn(stage=DONE), notes=(f"{game.title(seat)} has no card and skips.",)
    )


def burrow(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    """Heal any of the wound dice back into the pool; each one healed is a point of Hate."""
    if game.turn.stage != BURROW_STAGE:
        raise IllegalMoveError("Burrowing follows a heart played on your own turn.")
    heal = args.get("heal", [])
    rat = game.rats[seat]
    wounds = list(rat.wounds)
    if not isinstance(heal, list):
        raise IllegalMoveError("'heal' lists the wound dice to heal by size, such as [6, 10].")
    for size in heal:
        if not is_size(size) or size not in wounds:
            wounded = listed(rat.wounds) or "none"
            raise IllegalMoveError(
                f"{rat.title} has no d{size} among its wounds; 'heal' lists sizes from its "
                f"wounds ({wounded})."
            )
        wounds.remove(size)
    pool = tuple(sorted((*rat.pool, *heal)))
    rat = replace(rat, pool=pool, wounds=tuple(sorted(wounds)), hate=rat.hate + len(heal))
    note = (
        f"{rat.title} heals {counted(len(heal), 'wound die', 'wound dice')} "
        f"and takes {len(heal)} Hate."
        if heal
        else f"{rat.title} burrows and heals nothing."
    )
    return replace(game.with_rat(seat, rat), turn=replace(game.turn, stage=DONE), notes=(note,))


# --- the challenge ------------------------------------------------------------------------


def _challenge(game: Rats) -> Challenge:
    challenge = game.turn.challenge
    if challenge is None or challenge.resolved:
        raise IllegalMoveError("No challenge is being rolled now.")
    return challenge


def _with_contest(game: Rats, contest: Contest) -> Rats:
    challenge = replace(_challenge(game), contest=contest)
    stage = HATE if contest.all_in else ROLL
    return replace(game, turn=replace(game.turn, challenge=challenge, stage=stage))


def roll(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    contest = contests.enter_roll(game, _challenge(game).contest, seat, args, draws)
    return _with_contest(game, contest)


def reroll(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    game, contest = contests.reroll(game, _challenge(game).contest, seat, args, draws)
    return _with_contest(game, contest)


def enough(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    """This rat spends no more Hate on re-rolls; the last to say so closes the window."""
    contest = contests.pass_spending(game, _challenge(game).contest, seat)
    game = _with_contest(game, contest)
    if contests.window_closed(game, contest):
        game = resolve(game, ctx)
    return game


def ranking(counts: Mapping[str, int], kind: str) -> tuple[int, int]:
    """Successes of the challenge's type, then of the other two types together."""
    others = sum(n for k, n in counts.items() if k != kind)
    return counts[kind], others


def resolve(game: Rats, ctx: Ctx) -> Rats:
    """Pass, win, Hate from ones, the card's fate, then who loots and who is wounded."""
    challenge = _challenge(game)
    contest, kind = challenge.contest, challenge.kind
    start = ctx.current if ctx.current is not None else 0
    order = _order_from(game, start)
    counts = {seat: successes(contest.roll(seat).shown) for seat in order}
    passed = [s for s in order if counts[s][kind] >= challenge.difficulty]
    # loot order: most successes first; equal ones by the other two types, then turn order
    passed.sort(key=lambda s: ranking(counts[s], kind), reverse=True)
    winner = None
    if passed and (
        len(passed) == 1 or ranking(counts[passed[0]], kind) != ranking(counts[passed[1]], kind)
    ):
        winner = passed[0]
    failed = [s for s in order if s not in passed]
    for seat in order:
        hate = ones(contest.roll(seat).shown)
        if seat != winner and hate:
            rat = game.rats[seat]
            game = game.with_rat(seat, replace(rat, hate=rat.hate + hate))
    card = challenge.card
    if winner is not None:
        rat = game.rats[winner]
        game = game.with_rat(winner, replace(rat, dominance=(*rat.dominance, card)))
        said = f"{game.title(winner)} wins the {short(card)}"
    else:
        game = to_discard(game, card)
        said = "Nobody passes" if not passed else "A tie nobody can break: no winner"
        said += f"; the {short(card)} is discarded"
    names = ", ".join(game.title(s) for s in passed) or "nobody"
    wounded = [s for s in failed if game.rats[s].pool]
    hurt = ", ".join(game.title(s) for s in failed) or "nobody"
    note = f"{said}. Passed: {names}. Failed: {hurt}."
    settle = Settle(loot_order=tuple(passed), wounds_due=tuple(wounded))
    resolved = replace(
        challenge, winner=winner, passed=tuple(passed), failed=tuple(failed), resolved=True
    )
    game = replace(
        game,
        passes=game.passes + len(passed),
        notes=(note,),
        turn=replace(game.turn, challenge=resolved, settle=settle),
    )
    return _settled(game)


def _settled(game: Rats) -> Rats:
    """Done once every loot pick is made (or no item is left) and every wound chosen."""
    settle = game.turn.settle
    if not settle.loot_left:
        settle = replace(settle, loot_order=())
    stage = SETTLE if settle.loot_order or settle.wounds_due else DONE
    return replace(game, turn=replace(game.turn, settle=settle, stage=stage))


def loot(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    """One pick, in order of successes: a bonus die, or less Hate (by at least one)."""
    settle = game.turn.settle
    if game.turn.stage != SETTLE or not settle.loot_order:
        raise IllegalMoveError("There is no loot to pick now.")
    if settle.loot_order[0] != seat:
        raise IllegalMoveError(f"{game.title(settle.loot_order[0])} picks loot first.")
    item = args.get("item")
    rat = game.rats[seat]
    if item == "none":
        note = f"{rat.title} takes no loot."
    elif item in LOOT_ITEMS and item in settle.loot_left:
        if item == "hate":
            amount = args.get("amount", 1)
            if (
                not isinstance(amount, int)
                or isinstance(amount, bool)
                or not 1 <= amount <= rat.hate
            ):
                raise IllegalMoveError(
                    f"{rat.title} can lower its Hate by 1 to {rat.hate}"
                    if rat.hate
                    else f"{rat.title} has no Hate to lower."
                )
            rat = replace(rat, hate=rat.hate - amount)
            note = f"{rat.title} finds a pretty shiny object: {amount} Hate less."
        else:
            size = int(str(item)[1:])
            rat = replace(rat, pool=tuple(sorted((*rat.pool, size))))
            note = f"{rat.title} loots a d{size}."
    elif item in LOOT_ITEMS:
        raise IllegalMoveError(
            f"The {item} has already been taken; left: {', '.join(settle.loot_left)}."
        )
    else:
        raise IllegalMoveError("'item' is d4, d6, d8, d10, hate (with 'amount') or none.")
    left = tuple(i for i in settle.loot_left if i != item)
    settle = replace(
        settle,
        loot_order=settle.loot_order[1:],
        loot_left=left,
        looted=(*settle.looted, (seat, str(item))),
    )
    game = game.with_rat(seat, rat)
    return _settled(
        replace(game, turn=replace(game.turn, settle=settle), notes=(*game.notes, note)[-3:])
    )


def wound(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    """A rat that failed sets aside one die of its choice on its wounds card."""
    settle = game.turn.settle
    if seat not in settle.wounds_due:
        raise IllegalMoveError(f"{game.title(seat)} has no wound to take now.")
    game = lose_die(game, seat, args.get("die"))
    due = tuple(s for s in settle.wounds_due if s != seat)
    return _settled(replace(game, turn=replace(game.turn, settle=replace(settle, wounds_due=due))))


def lose_die(game: Rats, seat: int, size: object) -> Rats:
    """Move a die of ``size`` from the pool to the wounds card."""
    rat = game.rats[seat]
    if not is_size(size) or size not in rat.pool:
        sizes = listed(rat.pool)
        raise IllegalMoveError(f"{rat.title} has no such die in its pool; it holds {sizes}.")
    pool = list(rat.pool)
    pool.remove(size)
    rat = replace(rat, pool=tuple(pool), wounds=tuple(sorted((*rat.wounds, size))))
    note = f"{rat.title} is wounded: a d{size} goes to its wounds."
    return replace(game.with_rat(seat, rat), notes=(*game.notes, note)[-3:])


# --- NEXT -----------------------------------------------------------------------------------


def waiting(game: Rats) -> str:
    """Who the turn waits for, in one sentence ("" when NEXT may move on)."""
    turn = game.turn
    if turn.stage == ROLL and turn.challenge is not None:
        who = contests.waiting_for(game, turn.challenge.contest)
        return f"Waiting for dice from {', '.join(who)}."
    if turn.stage == SETTLE:
        parts = []
        if turn.settle.loot_order:
            parts.append(f"{game.title(turn.settle.loot_order[0])} to pick loot")
        if turn.settle.wounds_due:
            names = ", ".join(game.title(s) for s in turn.settle.wounds_due)
            parts.append(f"{names} to choose the die lost to wounds")
        return f"Waiting for {' and '.join(parts)}."
    return ""


def end_turn(game: Rats, ctx: Ctx, draws: Draws) -> Rats:
    """NEXT during a turn: move it on where the table may, or say what it waits for."""
    seat = ctx.current if ctx.current is not None else 0
    stage = game.turn.stage
    _no_pending_discards(game)
    if stage == CARD:
        if game.rats[seat].hand_count == 0:
            return replace(game, turn=Turn(), notes=(f"{game.title(seat)} has no card and skips.",))
        raise IllegalMoveError(f"{game.title(seat)}: play a card (its suit, then its rank).")
    if stage == BURROW_STAGE:
        raise IllegalMoveError(f"{game.title(seat)}: choose which wound dice to heal (or none).")
    if stage == ROLL:
        challenge = _challenge(game)
        if not game.roll_for_us:
            raise IllegalMoveError(waiting(game))
        contest = contests.roll_missing(game, challenge.contest, draws)
        return _with_contest(game, contest)
    if stage == HATE:
        contest = contests.everyone_passes(game, _challenge(game).contest)
        return resolve(_with_contest(game, contest), ctx)
    if stage == SETTLE:
        raise IllegalMoveError(waiting(game))
    return replace(game, turn=Turn())


def on_begin(game: Rats, ctx: Ctx, draws: Draws) -> Rats:
    return replace(game, turn=Turn(), nest=None, notes=(f"Round {ctx.round}: into the tunnels.",))
