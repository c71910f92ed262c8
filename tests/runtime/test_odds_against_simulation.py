"""Every odds figure the games show, against a Monte Carlo written from the rule texts.

The simulations below never call the odds code (nor the engine's phase code): each plays
the situation as the rules (../shared/rules/*.md and the seeds) describe it, with fixed
seeds, so a run is repeatable. A shown whole percent passes when the simulated frequency
lies within five standard errors of the interval that percent stands for (a shown 1 % or
99 % stands for anything short of certain; a shown 0 % or 100 % must never be contradicted).
"""

from __future__ import annotations

import random
from dataclasses import replace
from math import ceil, floor, log10, sqrt
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.hamsterdam.view import flood_odds
from companion.games.hamsterdam.view import odds_lines as flood_lines
from companion.games.rats.view import odds_lines as rat_lines
from companion.games.rats.view import view as rats_view
from companion.games.run_hamster_run.view import view as belt_view
from tests.hamsterdam import board as dams
from tests.rats.helpers import Table
from tests.run_hamster_run.board import position

SIGMAS = 5.0
FAST = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,  # the same positions every run: the test can never turn flaky
    suppress_health_check=[HealthCheck.too_slow],
)


def agrees(shown: float, hits: int, runs: int) -> bool:
    """Whether ``shown`` (a percent as ``percent`` writes it) fits ``hits`` out of ``runs``."""
    estimate = hits / runs
    if shown == 0:
        return hits == 0
    if shown == 100:
        return hits == runs
    low, high = interval(shown)
    nearest = min(max(estimate, low), high)
    spread = max(nearest * (1 - nearest), 1 / runs)
    return abs(estimate - nearest) <= SIGMAS * sqrt(spread / runs)


def interval(shown: float) -> tuple[float, float]:
    """The chances a shown percent stands for: half a unit of its last figure either way."""
    distance = min(shown, 100 - shown)
    unit = 1.0 if 1 <= shown <= 99 else 10 ** floor(log10(distance))
    return max(0.0, (shown - unit / 2) / 100), min(1.0, (shown + unit / 2) / 100)


# ----------------------------------------------------------------------- Run, Hamster, Run!
TRAITS = st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 3)).filter(
    lambda t: sum(t) <= 7
)
ORDERS = st.permutations([0, 1, 2])


def _lose(traits: list[int], order: list[int], count: int) -> None:
    """The owner gives up ``count`` chips, in its stated order (rules: owner's choice)."""
    for _ in range(count):
        trait = next((t for t in order if traits[t] > 0), None)
        if trait is None:
            return
        traits[trait] -= 1


def _classic_phase(
    gators: int, pit: dict[int, tuple[list[int], list[int]]], rng: random.Random
) -> tuple[bool, set[int], set[int]]:
    """Classic phase 6 from the rules: (another alligator came, Chomp!-ed, eaten)."""
    pit = {seat: (list(traits), order) for seat, (traits, order) in pit.items()}
    came = rng.randint(1, 6) <= len(pit)
    chomped: set[int] = set()
    eaten: set[int] = set()
    for _ in range(gators + came):
        if not pit or rng.randint(1, 6) > len(pit):
            continue
        seat = rng.choice(sorted(pit))
        chomped.add(seat)
        traits, order = pit[seat]
        gator = rng.randint(1, 6) + 3
        mettle = traits[1]
        if mettle and rng.randrange(mettle + gator) < mettle:  # one chip from the HAT
            traits[1] -= 1
            continue
        bite = rng.randint(1, 6)
        if sum(traits) <= bite:
            eaten.add(seat)
            del pit[seat]
        else:
            _lose(traits, order, bite)
    return came, chomped, eaten


def _v21_phase(
    gators: int, queue: list[tuple[int, list[int], int]], rng: random.Random
) -> tuple[set[int], set[int]]:
    """v2.1 phase 6 from the rules: (lost the test, eaten); ``queue`` in test order."""
    count = gators + 1  # a hamster is in the Pit
    chomped: set[int] = set()
    eaten: set[int] = set()
    for seat, traits, mine in queue:
        if sum(traits) == 0:
            chomped.add(seat)
            eaten.add(seat)
            continue
        if rng.randrange(mine + count) < mine:
            continue
        chomped.add(seat)
        if sum(traits) <= ceil(count / 2):
            eaten.add(seat)
        count = max(count - 1, 1)
    return chomped, eaten


def _belt(rules: str, gators: int, pit: list[Any], chosen: list[int | None]) -> Any:
    spots = [(f"H{i}", 0, 1, traits) for i, (traits, _) in enumerate(pit)]
    spots.append(("Z", 6, 3, (3, 2, 2)))  # someone still on the belt
    state = position(rules, spots, phase="belt", alligators=gators)
    hamsters = list(state.G.hamsters)
    for i, (_, order) in enumerate(pit):
        hamsters[i] = replace(hamsters[i], loss_order=tuple(order), chomp_trait=chosen[i])
    return replace(state, G=replace(state.G, hamsters=tuple(hamsters)))


def each_hamster_agrees(chomp: dict[str, Any], hit: list[int], ate: list[int], runs: int) -> None:
    """Each Pit hamster's shown Chomp!-ed and eaten figures against the times played out."""
    for line in chomp["hamsters"]:
        seat = line["seat"]
        assert agrees(line["chomped"], hit[seat], runs), (line, hit[seat])
        assert agrees(line["eaten"], ate[seat], runs), (line, ate[seat])


@FAST
@given(
    st.integers(1, 3),
    st.lists(st.tuples(TRAITS, ORDERS), min_size=1, max_size=3),
    st.integers(0, 2**31),
)
def test_classic_alligator_odds_match_the_rules_played_out(
    gators: int, pit: list[Any], seed: int
) -> None:
    state = _belt("classic", gators, pit, [None] * len(pit))
    chomp = belt_view(state.G, state.ctx, None)["odds"]["chomp"]
    rng, runs = random.Random(seed), 3000
    came = 0
    hit = [0] * len(pit)
    ate = [0] * len(pit)
    anyone = 0
    start = {i: (list(traits), list(order)) for i, (traits, order) in enumerate(pit)}
    for _ in range(runs):
        arrived, chomped, eaten = _classic_phase(gators, start, rng)
        came += arrived
        anyone += bool(chomped)
        for seat in chomped:
            hit[seat] += 1
        for seat in eaten:
            ate[seat] += 1
    assert agrees(chomp["arrives"], came, runs), chomp
    if not chomp["exact"]:
        return  # labelled "about": see the crowded-Pit test in tests/run_hamster_run
    assert agrees(chomp["any_chomp"], anyone, runs), (chomp, anyone)
    each_hamster_agrees(chomp, hit, ate, runs)


@FAST
@given(
    st.integers(1, 6),
    st.lists(st.tuples(TRAITS, ORDERS, st.sampled_from([None, 0, 1, 2])), min_size=1, max_size=4),
    st.permutations(range(5)),
    st.integers(0, 2**31),
)
def test_v21_alligator_odds_match_the_rules_played_out(
    gators: int, pit: list[Any], initiative: list[int], seed: int
) -> None:
    state = _belt("v2.1", gators, [(t, o) for t, o, _ in pit], [c for _, _, c in pit])
    order = [s for s in initiative if s <= len(pit)]
    state = replace(state, G=replace(state.G, initiative=tuple(order)))
    chomp = belt_view(state.G, state.ctx, None)["odds"]["chomp"]
    # Lowest Mettle first; ties: the lower initiative (later in the order) first.
    queue_seats = sorted(range(len(pit)), key=lambda s: (pit[s][0][1], -order.index(s)))
    queue = []
    for seat in queue_seats:
        traits, _, chosen = pit[seat]
        if chosen is None or traits[chosen] == 0:  # the largest: Mettle, then Scamper on ties
            chosen = max((1, 0, 2), key=lambda t: traits[t])
        queue.append((seat, list(traits), traits[chosen]))
    rng, runs = random.Random(seed), 3000
    hit = [0] * len(pit)
    ate = [0] * len(pit)
    anyone = 0
    for _ in range(runs):
        chomped, eaten = _v21_phase(gators, queue, rng)
        anyone += bool(chomped)
        for seat in chomped:
            hit[seat] += 1
        for seat in eaten:
            ate[seat] += 1
    assert chomp["arrives"] == 100 and chomp["exact"]
    assert agrees(chomp["any_chomp"], anyone, runs), (chomp, anyone)
    each_hamster_agrees(chomp, hit, ate, runs)


@FAST
@given(
    st.sampled_from(["classic", "v2.1"]),
    st.lists(TRAITS, min_size=2, max_size=5),
    st.integers(0, 2**31),
)
def test_mettle_test_odds_match_one_chip_drawn_from_the_hat(
    rules: str, traits: list[tuple[int, int, int]], seed: int
) -> None:
    spots = [(f"H{i}", 3 + i // 3, 1 + i % 3, t) for i, t in enumerate(traits)]
    state = position(rules, spots, current=0)
    shown = belt_view(state.G, state.ctx, None)["odds"]["mettle"]
    assert len(shown) == min(len(traits) - 1, 4)
    rng = np.random.default_rng(seed)
    runs = 20_000
    mine = traits[0][1]
    for test in shown:
        theirs = traits[test["seat"]][1]
        if mine == 0:  # the rules: no test happens, the initiator cannot win one
            wins = 0
        elif theirs == 0:  # the defender cannot resist: the initiator wins without a draw
            wins = runs
        else:
            wins = int((rng.integers(0, mine + theirs, runs) < mine).sum())
        assert agrees(test["percent"], wins, runs), (test, wins)


# ----------------------------------------------------------------------------------- Rats
RULES_DIFFICULTY = {**dict.fromkeys("234", 2), **dict.fromkeys("567", 3)}
RULES_DIFFICULTY |= {"8": 4, "9": 4, "10": 4, "J": 5, "Q": 5, "K": 5, "A": 5}
FACES = {"c": (2, 4), "s": (5, 7), "d": (8, 10)}  # fight, sneak, think


@FAST
@given(
    st.lists(st.lists(st.sampled_from([4, 6, 8, 10]), max_size=9), min_size=4, max_size=4),
    st.sampled_from(list(RULES_DIFFICULTY)),
    st.sampled_from("csd"),
    st.integers(0, 2**31),
)
def test_rats_pass_odds_match_rolling_the_pool(
    pools: list[list[int]], rank: str, suit: str, seed: int
) -> None:
    table = Table()
    card = rank + suit
    table.move(table.state.ctx.current or 0, "play", card=card)
    for seat, pool in enumerate(pools):
        table.set_rat(seat, pool=tuple(pool))
    shown = rats_view(table.game, table.state.ctx, None)["challenge"]["odds"]
    lines = rat_lines(table.game, table.state.ctx)
    need = RULES_DIFFICULTY[rank]
    low, high = FACES[suit]
    rng = np.random.default_rng(seed)
    runs = 40_000
    for seat, pool in enumerate(pools):
        if pool:
            faces = np.stack([rng.integers(1, size + 1, runs) for size in pool])
            passes = int((((faces >= low) & (faces <= high)).sum(axis=0) >= need).sum())
        else:
            passes = 0
        assert agrees(shown[seat], passes, runs), (pool, card, shown[seat], passes)
        assert lines[seat].endswith(f": {shown[seat]}%")


# ----------------------------------------------------------------------------- Hamsterdam
def _rolls(values: set[int], rng: np.random.Generator, runs: int) -> np.ndarray:
    """The flood rolls: 2d6, rolled again while no dam shows the total (the seed's rule)."""
    kept: list[np.ndarray] = []
    have = 0
    while have < runs:
        totals = rng.integers(1, 7, runs) + rng.integers(1, 7, runs)
        totals = totals[np.isin(totals, sorted(values))]
        kept.append(totals)
        have += len(totals)
    return np.concatenate(kept)[:runs]


@FAST
@given(
    st.lists(st.lists(st.integers(2, 12), max_size=11), min_size=2, max_size=4).filter(
        lambda dams_: any(dams_)
    ),
    st.sampled_from(["full", "classic"]),
    st.integers(0, 2**31),
)
def test_flood_odds_match_the_roll_with_its_rerolls(
    values: list[list[int]], rules: str, seed: int
) -> None:
    game = dams.table(
        [dams.player(f"P{i}", dams.dam(*vs)) for i, vs in enumerate(values)], rules=rules
    )
    ctx = dams.rolling(game).ctx
    rng = np.random.default_rng(seed)
    runs = 40_000
    rolls = _rolls({v for vs in values for v in vs}, rng, runs)
    for seat, vs in enumerate(values):
        odds = flood_odds(game, seat, ctx)
        assert odds is not None
        floods = int(np.isin(rolls, sorted(set(vs))).sum()) if vs else 0
        assert agrees(odds["flooded"], floods, runs), (values, seat, odds)
        for value, shown in zip(vs, odds["cards"], strict=True):
            assert agrees(shown, int((rolls == value).sum()), runs), (values, value, shown)
    assert len(flood_lines(game, ctx)) == len(values)


def test_flood_odds_count_only_the_totals_some_dam_shows() -> None:
    """Late in a full game both 7s are flipped: a 7 is rolled again, so a 6 comes up 5 times
    in 30, not 5 in 36 (the page said 14 % for Ann's 6, and 83 % for her dam, which
    every roll still made floods)."""
    ann = dams.player("Ann", dams.dam(2, 3, 4, 5, 6, 8, 9, 10, 11, 12))
    bo = dams.player("Bo", dams.dam(6, 12))
    game = dams.table([ann, bo])
    ctx = dams.rolling(game).ctx
    assert flood_odds(game, 0, ctx) == {
        "cards": [3, 7, 10, 13, 17, 17, 13, 10, 7, 3],  # 1..5 in 30
        "flooded": 100,  # every total still rolled is on Ann's dam
    }
    assert flood_odds(game, 1, ctx) == {"cards": [17, 3], "flooded": 20}  # 6 in 30
    last = dams.table([dams.player("Ann", ()), dams.player("Bo", dams.dam(2))])
    assert flood_odds(last, 1, dams.rolling(last).ctx) == {"cards": [100], "flooded": 100}


def test_flood_odds_come_back_after_a_roll_no_dam_shows() -> None:
    """A dry roll is rolled again: the odds stay on the table for that roll."""
    ann = dams.player("Ann", dams.dam(2, 3, 4, 5, 6))
    game = dams.table([ann, dams.player("Bo", dams.dam(6, 8))])
    ctx = dams.rolling(game).ctx
    dry = replace(game, dice=(3, 4), dry=True)
    assert flood_odds(dry, 0, ctx) == flood_odds(game, 0, ctx) is not None
    assert flood_odds(replace(game, dice=(3, 3), dry=False), 0, ctx) is None


def test_rats_odds_never_claim_a_certainty_a_big_pool_can_still_miss() -> None:
    table = Table()
    table.move(table.state.ctx.current or 0, "play", card="2c")  # Fight 2
    table.set_rat(0, pool=(4,) * 12)  # misses about once in 10 million rolls
    table.set_rat(1, pool=(10,))  # one die cannot make two successes
    table.set_rat(2, pool=())
    shown = rats_view(table.game, table.state.ctx, None)["challenge"]["odds"]
    assert shown[:3] == [99.9998, 0, 0]  # one figure of the 0.0002 % it can still miss by
    assert rat_lines(table.game, table.state.ctx)[0].endswith(": 99.9998%")
