"""Invariants over random legal games (hypothesis picks rule sets, player counts, seeds)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.errors import IllegalMoveError
from companion.engine.session import GameHeader, Session
from companion.games.hamsterdam import SPEC, Hamsterdam
from companion.games.hamsterdam.bot import candidates
from companion.games.hamsterdam.catalogue import SWIMSTER
from companion.games.hamsterdam.deck import load_deck

games = st.tuples(st.sampled_from(["full", "classic"]), st.integers(2, 4), st.integers(0, 2**40))
TOKENS = load_deck().flood_tokens


def check(game: Hamsterdam, hamsters: int | None) -> int | None:
    """Tokens are conserved; only Swimster stands in water; no hamster appears or vanishes."""
    assert game.tokens_in_play() == TOKENS
    for player in game.players:
        for spot in player.dam:
            assert spot.tokens >= 0 and spot.plain >= 0
            if spot.tokens:
                assert spot.plain == 0, spot
                assert all(s.name == SWIMSTER for s in spot.specials), spot
    if game.first < 0:
        return None
    total = sum(p.hamsters + p.lost for p in game.players)
    assert hamsters is None or total == hamsters
    return total


def bot_session(rules: str, players: int, seed: int, limit: int) -> Session[Hamsterdam]:
    names = tuple(f"P{i}" for i in range(players))
    session = Session(SPEC, GameHeader(SPEC.name, rules, names, seed))
    rng = random.Random(seed)
    hamsters = None
    while not session.state.ctx.over and len(session.log) < limit:
        for event in candidates(session.state, rng):
            try:
                session.dispatch(event)
                break
            except IllegalMoveError:
                continue
        hamsters = check(session.state.G, hamsters)
        if len(session.log) % 5 == 0:  # the tablet and terminal never fail on a real state
            state = session.state
            seat = len(session.log) % players
            assert SPEC.presentation.view(state.G, state.ctx, seat)["players"][seat]["name"]
            assert SPEC.presentation.prompt(state.G, state.ctx)
            assert SPEC.presentation.text is not None and SPEC.presentation.text(state.G, state.ctx)
    return session


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_games_keep_tokens_hamsters_and_dry_feet(case: tuple[str, int, int]) -> None:
    bot_session(*case, limit=600)


def test_random_games_finish() -> None:
    for seed in range(40):
        session = bot_session(("full", "classic")[seed % 2], 2 + seed % 3, seed, limit=5000)
        assert session.state.ctx.over, session.state.ctx
