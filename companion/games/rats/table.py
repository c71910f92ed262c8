"""What Rats gives the rest of the table: report figures, cues and the camera's dice rule.

During a roll, the overhead camera reads the pool of the first rat (in turn order) still
waiting for dice: all d6s are read by the d6 reader, exactly as many as that rat's unrolled
d6s; a pool with other sizes is read die by die, kind and face (companion/vision/poly_dice.py),
and goes to that rat only when the kinds seen are exactly its unrolled dice.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from companion.engine.events import MOVE, Event
from companion.engine.readings import DiceSeen, Note, Verdict
from companion.engine.spec import GameSpec, Standing
from companion.engine.standing import ranked
from companion.engine.state import Ctx, State
from companion.games.rats import poker
from companion.games.rats.dice import listed
from companion.games.rats.model import Rats, Roll
from companion.games.rats.nest import best_hands
from companion.observations import describe_dice


def report_figures(game: Rats) -> Mapping[str, float]:
    """The winner's hand category (0 high card .. 8 straight flush), pools over the game
    (after the first round, the middle one, at the end) and Hate."""
    leader = best_hands(game)[0]
    category = poker.best(game.rats[leader].dominance)[0][0]
    pools = [len(rat.pool) for rat in game.rats]
    by_round = game.pools_by_round or (0.0,)
    over_time = {
        "pool_after_round_1": by_round[0],
        "pool_after_middle_round": by_round[(len(by_round) - 1) // 2],
    }
    return {
        **over_time,
        "winner_hand_category": max(category, 0),
        "mean_pool_dice": sum(pools) / len(pools),
        "largest_pool": max(pools),
        "mean_wounds": sum(len(r.wounds) for r in game.rats) / len(game.rats),
        "hate_spent": game.hate_spent,
        "mean_hate_left": sum(r.hate for r in game.rats) / len(game.rats),
        "pass_rate": game.passes / max(1, game.challenges * len(game.rats)),
    }


def key_figures(game: Rats) -> Mapping[str, float | str]:
    """What a finished game of Rats is remembered by: every rat's Dominance hand (best
    first), and the dice, wounds and Hate of the evening."""
    strengths = [poker.best(rat.dominance)[0] for rat in game.rats]
    order = sorted(range(len(game.rats)), key=lambda seat: strengths[seat], reverse=True)
    hands = ", ".join(
        f"{game.rats[seat].player} {poker.hand_name(game.rats[seat].dominance)}" for seat in order
    )
    return {
        "Dominance hands": hands,
        "dice in the largest pool": max(len(rat.pool) for rat in game.rats),
        "wounds": sum(len(rat.wounds) for rat in game.rats),
        "Hate spent": game.hate_spent,
    }


def cues(before: Rats, after: Rats, ctx: Ctx, event: Event) -> tuple[str, ...]:
    if before.nest is None and after.nest is not None:
        return ("dominant",)
    if (
        after.nest is not None
        and after.nest.fight is not None
        and (before.nest is None or before.nest.fight is None)
    ):
        return ("scrap",)
    return ()


def _rolls_in_turn_order(state: State[Rats]) -> Iterator[tuple[int, Roll]]:
    """(seat, roll) of each rat in the contest, from the rat whose turn it is: the camera's
    reading goes to the first of them still to roll, so both readers ask in this order."""
    game, ctx = state.G, state.ctx
    contest = game.contest()
    if contest is None:
        return
    start = ctx.current or 0
    n = len(game.rats)
    for k in range(n):
        seat = (start + k) % n
        roll = contest.rolls[seat]
        if roll is not None:
            yield seat, roll


def waiting_for_d6(state: State[Rats]) -> tuple[int, int] | None:
    """(seat, how many d6s) of the first rat still to roll its d6s, in turn order."""
    for seat, roll in _rolls_in_turn_order(state):
        missing = sum(
            1 for s, f in zip(roll.sizes, roll.faces, strict=True) if s == 6 and f is None
        )
        if missing:
            return seat, missing
    return None


def d6s_due(state: State[Rats]) -> tuple[int, ...]:
    """The d6s the next rat rolls by hand (the camera reads them; the twin renders them)."""
    target = waiting_for_d6(state)
    return () if target is None else (6,) * target[1]


def waiting_for_pool(state: State[Rats]) -> tuple[int, tuple[int, ...]] | None:
    """(seat, sizes of its unrolled dice) of the first rat, in turn order, still to roll."""
    for seat, roll in _rolls_in_turn_order(state):
        if not roll.complete:
            return seat, tuple(s for s, f in zip(roll.sizes, roll.faces, strict=True) if f is None)
    return None


def pool_due(state: State[Rats]) -> tuple[int, ...]:
    """The dice the next rat rolls by hand, every size: the camera reads the whole pool (the
    d6 reader alone when they are all d6s) and the twin renders it."""
    target = waiting_for_pool(state)
    return () if target is None else target[1]


def read_pool(state: State[Rats], seen: DiceSeen, said: str) -> Verdict:
    """A reading of a whole pool (each die's kind and face) for the next rat to roll: the
    kinds must be exactly that rat's unrolled dice, or the faces are typed instead."""
    target = waiting_for_pool(state)
    if target is None:
        return Verdict(note=Note("info", (said,)))
    seat, sizes = target
    who = state.G.title(seat)
    if any(v is None for v in seen.values):
        return Verdict(
            note=Note("info", (f"{said} Check the die marked ?, or type {who}'s dice.",))
        )
    if sorted(seen.sizes) != sorted(sizes):
        line = (
            f"{said} {who} rolls {listed(sorted(sizes))}; the camera sees "
            f"{listed(sorted(seen.sizes))}: type them instead."
        )
        return Verdict(note=Note("differ", (line,)))
    faces = tuple(int(v) for v in seen.values if v is not None)
    event = Event(
        MOVE, name="roll", seat=seat, args={"sizes": list(seen.sizes)}, given=faces, source="camera"
    )
    note = Note("info", (f"{said} (for {who}'s {listed(sorted(sizes))})",))
    # Always one tap, however sure the reader is: it learned d4-d10 from renders alone, and
    # on a numeral style it had never seen it read 16 of 193 dice confidently wrong
    # (`python -m bench.teach_pools`, before teaching). Every real set is such a style.
    return Verdict(event, summary=f"{said} Press READ to give them to {who}.", note=note)


def describe_pool(seen: DiceSeen) -> str:
    """ "Camera sees d4 3, d8 7." """
    dice = ", ".join(
        f"d{size} {'?' if value is None else value}"
        for size, value in zip(seen.sizes, seen.values, strict=True)
    )
    return f"Camera sees {dice}."


def read_dice(spec: GameSpec[Any], state: State[Rats], seen: DiceSeen) -> Verdict:
    said = describe_pool(seen) if seen.sizes else describe_dice(seen.values)
    if seen.demo:
        said = f"Demo camera (simulated dice, not the real table): {said}"
    if seen.sizes and not state.ctx.over:
        return read_pool(state, seen, said)
    target = None if state.ctx.over else waiting_for_d6(state)
    if target is None:
        return Verdict(note=Note("info", (said,)))
    seat, count = target
    who = state.G.title(seat)
    if any(v is None for v in seen.values):
        return Verdict(note=Note("info", (f"{said} Check the die marked ?, or type {who}'s d6s.",)))
    if len(seen.values) != count:
        line = (
            f"{said} {who} rolls {count} d6; the camera sees {len(seen.values)}: type them instead."
        )
        return Verdict(note=Note("differ", (line,)))
    values = tuple(int(v) for v in seen.values if v is not None)
    event = Event(
        MOVE, name="roll", seat=seat, args={"sizes": [6] * count}, given=values, source="camera"
    )
    note = Note("info", (f"{said} (for {who}'s d6s)",))
    if seen.sure:
        return Verdict(event, sure=True, note=note)
    return Verdict(event, summary=f"{said} Press READ to give them to {who}.", note=note)


def standing(game: Rats, ctx: Ctx) -> tuple[Standing, ...]:
    """The best Dominance hand so far leads (the tunnel cards won are on the table)."""
    ranks = ranked([poker.best(rat.dominance)[0] for rat in game.rats], highest_leads=True)
    return tuple(
        Standing(rank, poker.hand_name(rat.dominance))
        for rank, rat in zip(ranks, game.rats, strict=True)
    )
