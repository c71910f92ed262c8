"""The exact chance to pass, from the dice in the pool (what the tablet shows before a roll)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.rats.cards import FIGHT, SNEAK, THINK, TYPES
from companion.games.rats.dice import pass_chance, successes


def brute_force(pool: list[int], kind: str, need: int) -> Fraction:
    hits = total = 0
    for faces in product(*(range(1, s + 1) for s in pool)):
        total += 1
        hits += successes(faces)[kind] >= need
    return Fraction(hits, total)


def test_a_d4_never_sneaks_and_a_d6_never_thinks() -> None:
    assert pass_chance([4, 4, 4], SNEAK, 1) == 0
    assert pass_chance([6, 6], THINK, 1) == 0
    assert pass_chance([4], FIGHT, 1) == Fraction(3, 4)


def test_the_starting_pool_against_a_fight_two() -> None:
    # d4 d6 d8 d10: fight chances 3/4, 1/2, 3/8, 3/10
    assert pass_chance([4, 6, 8, 10], FIGHT, 2) == brute_force([4, 6, 8, 10], FIGHT, 2)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from([4, 6, 8, 10]), max_size=4),
    st.sampled_from(TYPES),
    st.integers(0, 5),
)
def test_exact_odds_match_counting_every_roll(pool: list[int], kind: str, need: int) -> None:
    assert pass_chance(pool, kind, need) == brute_force(pool, kind, need)
