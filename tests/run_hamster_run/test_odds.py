"""Odds for Run, Hamster, Run!: a Mettle test's chance, and what the alligators may do.

The alligator odds are checked two ways: by hand for a situation small enough to work out
on paper, and against the alligator phase itself, played thousands of times with the
engine's own dice (the odds must follow the procedure the table plays, not a formula).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.percent import percent
from companion.engine.rng import Draws
from companion.engine.state import Ctx
from companion.games.run_hamster_run import odds
from companion.games.run_hamster_run.rounds import alligators
from companion.games.run_hamster_run.view import view
from tests.run_hamster_run.board import position

RUNS = 4000


def _played(state: object, seat: int, runs: int = RUNS) -> tuple[float, float]:
    """How often ``seat`` met a Chomp!, and was eaten, over many alligator phases.

    A classic Chomp! is the attack itself (the hamster may fight it off); in v2.1 a hamster
    is Chomp!-ed when it loses its test against the alligators.
    """
    game = state.G  # type: ignore[attr-defined]
    ctx = Ctx(phase="alligators", round=1)
    before = len(game.tests)
    chomped = eaten = 0
    name = game.hamsters[seat].name
    for run in range(runs):
        after = alligators(game, ctx, Draws(run * 7919 + 1))
        tests = after.tests[before:] if len(after.tests) > before else ()
        met = [t for t in tests if name in (t.initiator, t.defender)]
        if game.rules == "v2.1":
            met = [t for t in met if t.winner != name]
        chomped += bool(met) or (after.hamsters[seat].eaten and not game.hamsters[seat].eaten)
        eaten += after.hamsters[seat].eaten
    return chomped / runs, eaten / runs


def test_a_mettle_test_is_one_chip_from_the_hat() -> None:
    # The rules' own sum: 4 of my chips against 3 of yours is 4/7.
    assert odds.mettle_chance(4, 3) == Fraction(4, 7)
    assert odds.mettle_chance(2, 0) == 1  # a defender with no Mettle just loses
    assert odds.mettle_chance(0, 5) == 0  # no Mettle: no test to win


@given(st.fractions(min_value=0, max_value=1))
def test_a_percent_never_claims_a_certainty_that_is_not_one(chance: Fraction) -> None:
    shown = percent(chance)
    assert 0 <= shown <= 100
    assert (shown == 100) == (chance == 1)
    assert (shown == 0) == (chance == 0)


def test_the_resolving_hamster_sees_its_chance_against_the_hamsters_near_it() -> None:
    state = position(
        "classic",
        [("A", 3, 2, (2, 4, 1)), ("B", 3, 3, (2, 3, 2)), ("C", 7, 5, (1, 0, 6))],
        current=0,
    )
    shown = view(state.G, state.ctx, None)["odds"]["mettle"]
    assert [(m["name"], m["adjacent"], m["percent"]) for m in shown] == [
        ("B", True, 57),  # 4 of 7 chips
        ("C", False, 100),  # C has no Mettle to resist with
    ]
    assert view(state.G, Ctx(phase="declare", current=0), None)["odds"]["mettle"] == []


def test_classic_one_hamster_one_alligator_worked_on_paper() -> None:
    # Alone in the Pit with one alligator: the arrival die comes up 1 one time in six; then
    # each alligator's die chomps on a 1. Chomped = 5/6 * 1/6 + 1/6 * (1 - (5/6)^2) = 41/216.
    state = position("classic", [("A", 0, 1, (2, 3, 2)), ("B", 5, 2, (3, 2, 2))], phase="belt")
    chomp = view(state.G, state.ctx, None)["odds"]["chomp"]
    assert chomp["arrives"] == 17  # 1 in 6
    assert chomp["any_chomp"] == percent(Fraction(41, 216))
    assert [h["name"] for h in chomp["hamsters"]] == ["A"]
    assert chomp["hamsters"][0]["chomped"] == 19 and chomp["exact"]


@pytest.mark.parametrize(
    ("rules", "gators", "pit"),
    [
        ("classic", 2, [(1, 2, 1), (0, 1, 1)]),
        ("classic", 3, [(2, 3, 2), (1, 1, 0), (0, 4, 3)]),
        ("v2.1", 2, [(1, 2, 1), (2, 0, 1)]),
        ("v2.1", 4, [(3, 1, 3), (1, 1, 0), (0, 5, 2)]),
    ],
)
def test_alligator_odds_match_the_phase_played_thousands_of_times(
    rules: str, gators: int, pit: list[tuple[int, int, int]]
) -> None:
    spots = [(name, 0, 1, traits) for name, traits in zip("PQR", pit, strict=False)]
    state = position(rules, [*spots, ("Z", 6, 3, (3, 2, 2))], phase="belt", alligators=gators)
    chomp = view(state.G, state.ctx, None)["odds"]["chomp"]
    assert chomp["exact"]
    for line in chomp["hamsters"]:
        chomped, eaten = _played(state, line["seat"])
        # Three standard errors of a 4000-run frequency is under 2.4 points.
        assert abs(chomped * 100 - line["chomped"]) <= 3.5, (line, chomped)
        assert abs(eaten * 100 - line["eaten"]) <= 3.5, (line, eaten)


def test_no_chomp_odds_while_the_pit_is_empty_or_outside_the_belt_phase() -> None:
    empty = position("classic", [("A", 3, 1, (2, 3, 2)), ("B", 5, 2, (3, 2, 2))], phase="belt")
    assert view(empty.G, empty.ctx, None)["odds"]["chomp"] is None
    full = position("classic", [("A", 0, 1, (2, 3, 2)), ("B", 5, 2, (3, 2, 2))], phase="resolve")
    assert view(full.G, full.ctx, None)["odds"]["chomp"] is None


@settings(max_examples=15, deadline=None)
@given(
    st.integers(1, 12),
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 1)), min_size=4, max_size=4
    ),
)
def test_crowded_pits_and_many_alligators_still_get_odds_quickly_labelled_about(
    gators: int, pit: list[tuple[int, int, int]]
) -> None:
    # However crowded the Pit, the page gets every hamster's line, each a real percent; past
    # the walk's budget they are labelled "about" (the others are assumed to stay put).
    spots = [(name, 0, 1, traits) for name, traits in zip("PQRS", pit, strict=True)]
    state = position("classic", spots, phase="belt", alligators=gators)
    chomp = view(state.G, state.ctx, None)["odds"]["chomp"]
    assert len(chomp["hamsters"]) == 4
    for line in chomp["hamsters"]:
        assert 0 <= line["eaten"] <= line["chomped"] <= 100


def test_a_crowded_pit_says_about_before_the_eaten_figure_too() -> None:
    # Past the walk's budget the others are assumed to stay put, which moves the eaten figure
    # as much as the Chomp!-ed one (a few points either way): both are "about".
    spots = [(name, 0, 1, (1, 2, 1)) for name in "PQRS"]
    state = position("classic", spots, phase="belt", alligators=8)
    assert not view(state.G, state.ctx, None)["odds"]["chomp"]["exact"]
    lines = [line for line in odds.odds_lines(state.G, state.ctx) if "eaten" in line]
    assert len(lines) == 4
    assert all("% Chomp!-ed, about " in line for line in lines), lines
