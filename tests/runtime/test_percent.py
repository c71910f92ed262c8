"""Odds say what they mean: whole percents from 1 to 99, one significant figure of the
distance from 0 or 100 beyond (0.3 %, 0.06 %, 99.7 %), never 0 or 100 for what can go either
way. Rats' 0.34 % and 0.06 % used to both read "1%"."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from companion.engine.percent import percent, percent_text
from companion.games.rats.dice import pass_chance


def test_small_and_large_chances_keep_one_significant_figure() -> None:
    assert percent(Fraction(34, 10_000)) == 0.3
    assert percent(Fraction(6, 10_000)) == 0.06
    assert percent(Fraction(997, 1000)) == 99.7
    assert percent(Fraction(9994, 10_000)) == 99.94
    assert percent(Fraction(1, 3)) == 33 and percent(Fraction(99, 100)) == 99
    assert [percent_text(c) for c in (0.0034, 0.0006, 0.997)] == ["0.3%", "0.06%", "99.7%"]


@given(st.fractions(min_value=0, max_value=1))
def test_only_a_certainty_reads_0_or_100(chance: Fraction) -> None:
    shown = percent(chance)
    assert (shown == 0) == (chance == 0) and (shown == 100) == (chance == 1)
    assert abs(shown - float(chance) * 100) <= max(0.5, min(shown, 100 - shown) / 2 + 1e-9)


def test_a_chance_closer_to_certain_than_a_float_can_say_is_never_0_or_100() -> None:
    """Hypothesis found 1 - 3/545890863923728 written as 99: past a float's precision the
    distance is written as the closest the page shows, 0.000000001 %."""
    assert percent(Fraction(545890863923725, 545890863923728)) == 99.999999999
    assert percent(1 - Fraction(1, 10**17)) == 99.999999999
    assert percent(Fraction(1, 10**400)) == 1e-9
    assert percent_text(1 - Fraction(1, 10**17)) == "99.999999999%"


def test_a_rats_long_shot_is_told_apart_in_the_terminal() -> None:
    pool = (4, 6, 8, 8, 10, 10)
    assert percent(pass_chance(pool, "think", 4)) == 0.1  # 0.14 %, it used to read 1 %
