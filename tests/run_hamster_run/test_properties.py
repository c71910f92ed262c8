"""Invariants over many random legal games (hypothesis picks seeds, sizes and rule sets).

Replay, undo/redo and saved-file round trips are checked for every game at once in
``tests/runtime/test_game_contract.py``.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.session import GameHeader, Session
from companion.games.run_hamster_run import SPEC, Belt
from companion.games.run_hamster_run.bot import candidates
from companion.games.run_hamster_run.model import CHIPS
from companion.simulate import bot_turn, play_one

games = st.tuples(st.sampled_from(["classic", "v2.1"]), st.integers(2, 5), st.integers(0, 2**40))


def check_invariants(game: Belt) -> None:
    squares = set()
    for hamster in game.hamsters:
        if hamster.eaten:
            continue
        assert hamster.pluck + hamster.fatigue == CHIPS, hamster
        assert all(0 <= d <= t for d, t in zip(hamster.down, hamster.traits, strict=True))
        if hamster.on_belt:
            assert hamster.square not in squares, "two hamsters on one square"
            squares.add(hamster.square)
    assert game.speed >= 1 and game.alligators >= 1
    assert sorted(game.strips) == list(range(10))


def bot_session(rules: str, players: int, seed: int, limit: int = 400) -> Session[Belt]:
    names = tuple(f"P{i}" for i in range(players))
    session = Session(SPEC, GameHeader(SPEC.name, rules, names, seed))
    rng = random.Random(seed)
    pit_before: set[int] = set()
    while not session.state.ctx.over and len(session.log) < limit:
        bot_turn(candidates, session.state, rng, session.dispatch)
        game = session.state.G
        check_invariants(game)
        in_pit = {s for s, h in enumerate(game.hamsters) if h.row == 0}
        assert pit_before <= in_pit, "nobody leaves the Pit"
        pit_before = in_pit
    return session


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_games_keep_every_invariant(case: tuple[str, int, int]) -> None:
    rules, players, seed = case
    bot_session(rules, players, seed)


def test_thousands_of_games_finish_and_keep_chips() -> None:
    for seed in range(800):
        rules = "classic" if seed % 2 else "v2.1"
        state, result = play_one(SPEC, rules, 2 + seed % 4, seed)
        assert result.finished
        check_invariants(state.G)
