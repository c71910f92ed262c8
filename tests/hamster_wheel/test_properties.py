"""Invariants over many random games: every piece is somewhere, and every game ends."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.errors import IllegalMoveError
from companion.engine.flow import initial_state, step
from companion.games.hamster_wheel import SPEC
from companion.games.hamster_wheel.bot import bot_with

setups = st.tuples(
    st.integers(2, 4), st.booleans(), st.sampled_from([0.0, 0.2, 0.5]), st.integers(0, 2**32)
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups)
def test_pieces_are_conserved_and_games_end(case: tuple[int, bool, float, int]) -> None:
    players, split, clumsiness, seed = case
    options = {"split_fourth": split and players == 3}
    state, _ = initial_state(
        SPEC, "standard", tuple(f"P{i}" for i in range(players)), seed, options
    )
    total = state.G.total_pieces()
    bot, rng = bot_with(clumsiness), random.Random(seed)
    for _ in range(5000):
        if state.ctx.over:
            break
        for event in bot(state, rng):
            try:
                state = step(SPEC, state, event, record=False)[0]
                break
            except IllegalMoveError:
                continue
        game = state.G
        assert game.total_pieces() == total, "a piece appeared or vanished"
        assert all(n >= 0 for p in game.players for n in p.hand)
    assert state.ctx.over, "the game did not end"
    assert state.ctx.winners
