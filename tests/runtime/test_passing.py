"""Steps that pass on their own, in every game: only where nobody has a choice left (the
players may still buy a Rats card for Hate, which is open at any time), and never where the
rulings keep the stop (Run, Hamster, Run!'s belt moves strips on the table)."""

from __future__ import annotations

import random

import pytest

from companion.engine.events import MOVE, NEXT
from companion.engine.passing import passes_itself
from companion.engine.session import GameHeader, Session
from companion.games import GAMES
from companion.simulate import bot_of, bot_turn

NAMES = ("Ann", "Bo", "Cy", "Di")


def _played(game: str, rules: str, seed: int) -> list[tuple[str, bool, str, str]]:
    """(phase, passes, kind, name) of every event a bot game made, with whether the step
    it was made in would have passed on its own."""
    spec = GAMES[game]
    session = Session(spec, GameHeader(game, rules, NAMES[: max(spec.min_players, 3)], seed))
    rng, seen = random.Random(seed), []
    while not session.state.ctx.over and len(session.log) < 20_000:
        state = session.state
        passes = passes_itself(spec, state)
        event = bot_turn(bot_of(spec), state, rng, session.dispatch)
        seen.append((str(state.ctx.phase), passes, event.kind, event.name))
    return seen


@pytest.mark.parametrize(
    ("game", "rules"), [(g, r) for g, spec in GAMES.items() for r in spec.rule_sets]
)
def test_a_step_passes_only_where_nobody_had_anything_else_to_do(game: str, rules: str) -> None:
    spec = GAMES[game]
    for seed in (1, 2):
        for phase, passes, kind, name in _played(game, rules, seed):
            if passes and kind == MOVE:
                move = spec.phases[phase].moves[name]
                assert move.any_time, f"{game} {phase}: {name} was a choice, yet it passed"


def test_run_hamster_run_passes_its_bookkeeping_but_keeps_the_belt_stop() -> None:
    seen = _played("run-hamster-run", "classic", 3)
    passed = {phase for phase, passes, kind, _ in seen if passes and kind == NEXT}
    assert {"initiative", "tally", "new_round"} <= passed
    assert "belt" not in passed  # strips to move on the table: the ruling's stop holds
    held = {phase for phase, passes, kind, _ in seen if not passes and kind == NEXT}
    assert "alligators" in held  # a Chomp! or an alligator to add: the stop holds


def test_rats_passes_a_settled_turn_but_never_the_dominant_rats_choice_to_mate() -> None:
    seen = _played("rats", "standard", 4)
    assert any(p == "tunnel" and passes and kind == NEXT for p, passes, kind, _ in seen)
    spec = GAMES["rats"]
    session = Session(spec, GameHeader("rats", "standard", NAMES, 4))
    rng = random.Random(4)
    mates = 0
    while not session.state.ctx.over:
        state = session.state
        if state.ctx.phase == "nest" and any(
            c["name"] == "mate"
            for c in spec.choices(state.G, state.ctx)  # type: ignore[misc]
        ):
            mates += 1
            assert not passes_itself(spec, state)
        bot_turn(bot_of(spec), state, rng, session.dispatch)
    assert mates


def test_hamster_wheel_has_no_step_without_a_choice() -> None:
    assert not any(passes for _, passes, _, _ in _played("hamster-wheel", "standard", 1))
