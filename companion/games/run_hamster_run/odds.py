"""Exact odds for Run, Hamster, Run!, shown where the players decide.

Two places matter at the table. While a hamster resolves its action, its player weighs a
Push, Throw or Bite against each hamster nearby: a Mettle test is one chip drawn from the
HAT, so the chance is simply i / (i + d) with every Mettle chip counted. After the belt has
moved, everyone wants to know what the alligators will do: that chance follows the phase's
own procedure (the arrival die, one die per alligator, a random pick per Chomp!, the HAT
against the alligator's d6 + 3 Mettle, the bite die) in the classic rules, and the queue of
tests against a shrinking alligator count in v2.1. The numbers are small, so every branch is
walked, never sampled: in fractions where that is cheap, in floating point for the classic
walk (exact up to rounding, and shown as whole percents anyway).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import ceil
from typing import Any

from companion.engine.percent import percent
from companion.engine.state import Ctx
from companion.games.run_hamster_run.model import CLASSIC, METTLE, Belt, Hamster
from companion.games.run_hamster_run.phases import Phase
from companion.games.run_hamster_run.rounds import chomp_trait, pit_queue

Chance = Fraction | float  # exact where cheap, floating point where the walk is long
MOST_SHOWN = 4  # the nearest hamsters a Mettle test is shown against


def mettle_chance(mine: int, theirs: int) -> Fraction:
    """The initiator's chance to win a Mettle test (a defender with no Mettle simply loses)."""
    if mine == 0:
        return Fraction(0)
    return Fraction(mine, mine + theirs)


def mettle_odds(game: Belt, ctx: Ctx) -> list[dict[str, Any]]:
    """The resolving hamster's chance in a Mettle test against each hamster near it."""
    if ctx.phase != Phase.RESOLVE or ctx.current is None:
        return []
    me = game.hamsters[ctx.current]
    if not me.on_belt:
        return []
    mine = me.traits[METTLE]
    others = [
        (abs(h.row - me.row) + abs(h.lane - me.lane), seat, h)
        for seat, h in enumerate(game.hamsters)
        if seat != ctx.current and h.on_belt
    ]
    return [
        {
            "seat": seat,
            "name": h.name,
            "mine": mine,
            "theirs": h.traits[METTLE],
            "adjacent": distance == 1,
            "percent": percent(mettle_chance(mine, h.traits[METTLE])),
        }
        for distance, seat, h in sorted(others, key=lambda item: (item[0], item[1]))[:MOST_SHOWN]
    ]


# ----------------------------------------------------------------------------- the alligators
# In the classic walk a hamster is only what a Chomp! reads and changes: its chips per trait
# and the order its owner gives them up in. Others in the Pit are kept as a sorted tuple, so
# situations that differ only in who sits where share one cached branch.
Chips = tuple[tuple[int, int, int], tuple[int, int, int]]  # (traits, loss order)


def _lose(chips_: Chips, count: int) -> Chips:
    traits, order = list(chips_[0]), chips_[1]
    for _ in range(count):
        trait = next((t for t in order if traits[t] > 0), None)
        if trait is None:
            break
        traits[trait] -= 1
    return (traits[0], traits[1], traits[2]), order


@lru_cache(maxsize=4096)
def _chomp_endings(chips_: Chips) -> tuple[tuple[float, Chips | None], ...]:
    """Every way one classic Chomp! can end for a hamster (None: eaten), with its chance.

    Branches that leave the hamster alike are merged: the HAT's result and the bite die
    change the board, the alligator's own Mettle does not.
    """
    traits = chips_[0]
    mettle, pluck = traits[METTLE], sum(traits)
    fights_off = sum(mettle / (mettle + gator) for gator in range(4, 10)) / 6 if mettle else 0.0
    endings: dict[Chips | None, float] = {}
    if fights_off:
        endings[_lose_mettle(chips_)] = fights_off
    for bite in range(1, 7):
        after = None if pluck <= bite else _lose(chips_, bite)
        endings[after] = endings.get(after, 0.0) + (1 - fights_off) / 6
    return tuple((chance, after) for after, chance in endings.items())


def _lose_mettle(chips_: Chips) -> Chips:
    traits = chips_[0]
    return (traits[0], traits[1] - 1, traits[2]), chips_[1]


BUDGET = 4_000  # branches walked before the classic odds fall back to "about"


class _TooLong(Exception):
    """The exact walk would take too long for a page render."""


class _ClassicWalk:
    """The classic alligator phase, walked branch by branch for one watched hamster.

    ``walk`` returns (chance the watched hamster is Chomp!-ed at least once, chance it is
    eaten). With ``others_stay`` the others never leave the Pit (the "about" figure: only
    the watched hamster's own chips are followed, which is quick however many alligators).
    """

    def __init__(self, others_stay: bool) -> None:
        self.others_stay = others_stay
        self.memo: dict[tuple[Any, ...], tuple[float, float]] = {}

    def walk(
        self, dice: int, me: Chips | None, chomped: bool, others: tuple[Chips, ...]
    ) -> tuple[float, float]:
        key = (dice, me, chomped, others)
        if key in self.memo:
            return self.memo[key]
        if len(self.memo) >= BUDGET:
            raise _TooLong
        size = len(others) + (me is not None)
        if dice == 0 or size == 0:
            return float(chomped), float(me is None)
        hit = min(size, 6) / 6
        quiet = self.walk(dice - 1, me, chomped, others)
        total_chomped, total_eaten = (1 - hit) * quiet[0], (1 - hit) * quiet[1]
        share = hit / size
        if me is not None:
            for chance, after in _chomp_endings(me):
                c, e = self.walk(dice - 1, after, True, others)
                total_chomped += share * chance * c
                total_eaten += share * chance * e
        if self.others_stay:
            total_chomped += share * len(others) * quiet[0]
            total_eaten += share * len(others) * quiet[1]
        else:
            for index, victim in enumerate(others):
                rest = others[:index] + others[index + 1 :]
                for chance, after in _chomp_endings(victim):
                    now = rest if after is None else tuple(sorted((*rest, after)))
                    c, e = self.walk(dice - 1, me, chomped, now)
                    total_chomped += share * chance * c
                    total_eaten += share * chance * e
        self.memo[key] = (total_chomped, total_eaten)
        return self.memo[key]


def _chips(hamster: Hamster) -> Chips:
    order = hamster.loss_order
    return hamster.traits, (order[0], order[1], order[2])


@lru_cache(maxsize=256)
def _classic_odds(alligators: int, pit: tuple[tuple[int, Chips], ...]) -> dict[str, Any]:
    """Cached by the situation: the page asks for the same board many times."""
    try:
        return _classic_lines(alligators, pit, _ClassicWalk(others_stay=False), exact=True)
    except _TooLong:
        return _classic_lines(alligators, pit, _ClassicWalk(others_stay=True), exact=False)


def _classic_lines(
    alligators: int, pit: tuple[tuple[int, Chips], ...], walker: _ClassicWalk, *, exact: bool
) -> dict[str, Any]:
    arrives = min(len(pit), 6) / 6
    keep = (1 - arrives) ** alligators
    none = (1 - arrives) * keep + arrives * keep * (1 - arrives)
    lines = []
    for seat, me in pit:
        others = tuple(sorted(chips_ for s, chips_ in pit if s != seat))
        stay = walker.walk(alligators, me, False, others)
        grow = walker.walk(alligators + 1, me, False, others)
        chomped = (1 - arrives) * stay[0] + arrives * grow[0]
        eaten = (1 - arrives) * stay[1] + arrives * grow[1]
        lines.append((seat, percent(chomped), percent(eaten)))
    return {
        "arrives": percent(arrives),
        "any_chomp": percent(1 - none),
        "exact": exact,
        "lines": tuple(lines),
    }


def _classic(game: Belt) -> dict[str, Any]:
    pit = tuple((seat, _chips(game.hamsters[seat])) for seat in game.in_pit())
    odds = dict(_classic_odds(game.alligators, pit))
    odds["hamsters"] = [
        {"seat": seat, "name": game.hamsters[seat].name, "chomped": chomped, "eaten": eaten}
        for seat, chomped, eaten in odds.pop("lines")
    ]
    return odds


def _v21(game: Belt) -> dict[str, Any]:
    arrived = game.alligators + 1  # a hamster is in the Pit
    gators: dict[int, Fraction] = {arrived: Fraction(1)}
    hamsters = []
    # While nobody has lost, the count has not dropped: every test so far was against the
    # arrival count, so "nobody Chomp!-ed" is a plain product.
    nobody = Fraction(1)
    for seat in pit_queue(game, game.in_pit()):
        hamster = game.hamsters[seat]
        if hamster.pluck == 0:
            hamsters.append(_line(seat, hamster, Fraction(1), Fraction(1)))
            nobody = Fraction(0)
            continue
        mine = hamster.traits[chomp_trait(hamster)]
        lost = eaten = Fraction(0)
        after: dict[int, Fraction] = {}
        for count, chance in gators.items():
            lose = Fraction(count, mine + count)
            lost += chance * lose
            if hamster.pluck <= ceil(count / 2):
                eaten += chance * lose
            after[max(count - 1, 1)] = after.get(max(count - 1, 1), Fraction(0)) + chance * lose
            after[count] = after.get(count, Fraction(0)) + chance * (1 - lose)
        nobody *= Fraction(mine, mine + arrived)
        gators = after
        hamsters.append(_line(seat, hamster, lost, eaten))
    return {"arrives": 100, "any_chomp": percent(1 - nobody), "exact": True, "hamsters": hamsters}


def _line(seat: int, hamster: Hamster, chomped: Chance, eaten: Chance) -> dict[str, Any]:
    return {
        "seat": seat,
        "name": hamster.name,
        "chomped": percent(chomped),
        "eaten": percent(eaten),
    }


def odds_lines(game: Belt, ctx: Ctx) -> list[str]:
    """The same odds as the page's, for the terminal."""
    lines = []
    if ctx.current is not None:
        mover = game.hamsters[ctx.current].name
        for test in mettle_odds(game, ctx):
            lines.append(
                f"odds: Mettle test {mover} vs {test['name']}: {test['mine']} vs "
                f"{test['theirs']} chips, {test['percent']}% for {mover}"
            )
    chomp = chomp_odds(game, ctx)
    if chomp is not None:
        about = "" if chomp["exact"] else "about "
        lines.append(
            f"odds: when NEXT brings the alligators: {about}{chomp['arrives']}% another "
            f"alligator, {about}{chomp['any_chomp']}% at least one Chomp!"
        )
        lines.extend(
            f"odds: {h['name']}: {about}{h['chomped']}% Chomp!-ed, {about}{h['eaten']}% eaten"
            for h in chomp["hamsters"]
        )
    return lines


def chomp_odds(game: Belt, ctx: Ctx) -> dict[str, Any] | None:
    """What the alligator phase may do, while the table is one NEXT away from it."""
    if ctx.phase != Phase.BELT or not game.in_pit():
        return None
    return _classic(game) if game.rules == CLASSIC else _v21(game)
