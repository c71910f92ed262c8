"""Invariants over random games (hypothesis): dice are conserved between pools and wounds
except through loot, steal and scrap spoils; Hate is never negative; hands stay in limits."""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.errors import IllegalMoveError
from companion.engine.events import Event
from companion.engine.flow import initial_state, step
from companion.games.rats import SPEC
from companion.games.rats.cards import HAND_LIMIT
from companion.games.rats.model import Rats


@dataclass
class Dice:
    """Dice that legitimately enter or change owner: loot adds, steal and spoils move."""

    looted: int = 0


def _looted(before: Rats, after: Rats) -> int:
    """Bonus dice handed out by this step's loot picks."""
    was, now = before.turn.settle.looted, after.turn.settle.looted
    if len(now) <= len(was):
        return 0
    return sum(1 for _, item in now[len(was) :] if item in ("d4", "d6", "d8", "d10"))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(4, 6), st.integers(0, 2**32), st.sampled_from(["physical", "phone"]))
def test_counts_stay_right_through_random_games(players: int, seed: int, deck: str) -> None:
    names = tuple(f"R{i}" for i in range(players))
    state, _ = initial_state(SPEC, "standard", names, seed, {"deck": deck, "rounds": 3})
    rng = random.Random(seed)
    steps = 0
    while not state.ctx.over and steps < 1500:
        before = state.G
        event: Event | None = None
        for event in SPEC.bot(state, rng):  # type: ignore[misc]
            try:
                state, _ = step(SPEC, state, event)
                break
            except IllegalMoveError:
                continue
        after = state.G
        steps += 1
        assert all(rat.hate >= 0 for rat in after.rats)
        assert all(0 <= rat.hand_count <= HAND_LIMIT + 1 for rat in after.rats)
        if deck == "phone":
            assert all(len(rat.hand) == rat.hand_count for rat in after.rats)
            cards = (
                after.deck_count
                + after.discard_count
                + sum(rat.hand_count + len(rat.dominance) for rat in after.rats)
            )
            in_play = 1 if after.turn.challenge and not after.turn.challenge.resolved else 0
            assert cards + in_play == 52
        if all(rat.created for rat in before.rats):
            grown = after.total_dice() - before.total_dice()
            assert grown == _looted(before, after), (event, grown)
    assert state.ctx.over
