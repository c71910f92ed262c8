"""The engine's contract, checked for every registered game: a new game gets these for free.

As OpenSpiel runs the same random-simulation and serialization checks over every game, each
game in ``GAMES`` must: finish random legal games played by its own bot; rebuild the same
state by replaying its log; come back to the same state after undo then redo; survive a
save and load; keep a secret move's arguments out of what other seats see while its phase
is open; reach every phase it declares; and give JSON-ready views and legal moves.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.events import MOVE, Event
from companion.engine.flow import step
from companion.engine.legal import legal_moves
from companion.engine.redact import is_secret, public_event
from companion.engine.serialize import dumps, loads
from companion.engine.session import GameHeader, Session
from companion.engine.spec import GameSpec
from companion.engine.standing import standings_json
from companion.engine.state import State
from companion.games import GAMES
from companion.simulate import bot_of, bot_turn

NAMES = sorted(GAMES)
LIMIT = 600  # events per game in these checks; the simulator's own games run to the end


def setups(spec: GameSpec[Any]) -> st.SearchStrategy[tuple[str, int, int]]:
    return st.tuples(
        st.sampled_from(spec.rule_sets),
        st.integers(spec.min_players, spec.max_players),
        st.integers(0, 2**40),
    )


def bot_session(
    spec: GameSpec[Any], rules: str, players: int, seed: int, limit: int
) -> Session[Any]:
    names = tuple(f"P{i + 1}" for i in range(players))
    session = Session(spec, GameHeader(spec.name, rules, names, seed))
    bot, rng = bot_of(spec), random.Random(seed)
    while not session.state.ctx.over and len(session.log) < limit:
        bot_turn(bot, session.state, rng, session.dispatch)
    return session


@pytest.mark.parametrize("name", NAMES)
def test_the_game_declares_what_the_rest_of_the_companion_needs(name: str) -> None:
    spec = GAMES[name]
    assert spec.name == name and spec.title and spec.rule_sets
    assert spec.bot is not None, "companion simulate and these tests need a bot"
    assert spec.choices is not None, "the tablet's buttons need the game's candidate moves"
    assert spec.board_name, "the page draws the board module of this name"
    assert 1 <= spec.min_players <= spec.max_players
    assert spec.first_phase in spec.phases
    assert spec.presentation.by_hand, (
        "the page lists what a person can correct by hand in this game"
    )


@pytest.mark.slow  # whole random games of every game: Rats alone ~6 s
@pytest.mark.parametrize("name", NAMES)
def test_random_games_end_and_reach_every_phase(name: str) -> None:
    spec = GAMES[name]
    seen: set[str] = set()
    for seed in range(12):
        rules = spec.rule_sets[seed % len(spec.rule_sets)]
        players = spec.min_players + seed % (spec.max_players - spec.min_players + 1)
        session = bot_session(spec, rules, players, seed, limit=20_000)
        assert session.state.ctx.over, f"{name} {rules} {players} players, seed {seed}"
        seen.update(
            e.outcome[0]["phase"] for e in session.log if e.outcome and "phase" in e.outcome[0]
        )
        seen.update(_phases_of(spec, session))
    assert seen >= set(spec.phases) - {spec.first_phase} | {spec.first_phase}


def _phases_of(spec: GameSpec[Any], session: Session[Any]) -> set[str]:
    """Every phase the game passed through, by replaying its log event by event."""
    phases = {spec.first_phase}
    replayed = Session(spec, session.header)
    for event in session.log:
        replayed.dispatch(event)
        phases.add(replayed.state.ctx.phase)
    return phases


@pytest.mark.parametrize("name", NAMES)
def test_replay_undo_redo_and_saved_files_give_the_same_state(name: str) -> None:
    spec = GAMES[name]

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(setups(spec), st.integers(1, 40))
    def check(setup: tuple[str, int, int], back: int) -> None:
        session = bot_session(spec, *setup, limit=LIMIT // 2)
        assert Session.replay(spec, session.header, session.log).state == session.state
        before = session.state
        steps = min(back, len(session.applied))
        for _ in range(steps):
            session.undo()
        for _ in range(steps):
            session.redo()
        assert session.state == before
        header, events = loads(dumps(session.header, session.log))
        assert header == session.header
        assert Session.replay(spec, header, events).state == before

    check()


def tap(spec: GameSpec[Any], state: State[Any], offer: dict[str, Any]) -> None:
    """Make an offered button's move as the page makes it when tapped: a move made now is
    refused if it carries a detail it never reads (Hamsterdam's "spread the rest" carried
    two such: offered, then refused)."""
    given = (1,) * int(offer.get("dice", 0))
    event = Event(MOVE, name=offer["name"], seat=offer["seat"], args=offer["args"], given=given)
    step(spec, state, event, record=False, strict=True)


@pytest.mark.slow  # every button of every step of six games each: Rats alone ~10 s
@pytest.mark.parametrize("name", NAMES)
def test_views_and_legal_moves_are_json_buttons_work_and_secrets_stay_hidden(name: str) -> None:
    spec = GAMES[name]

    @settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(setups(spec))
    def check(setup: tuple[str, int, int]) -> None:
        rules, players, seed = setup
        names = tuple(f"P{i + 1}" for i in range(players))
        session = Session(spec, GameHeader(spec.name, rules, names, seed))
        bot, rng = bot_of(spec), random.Random(seed)
        while not session.state.ctx.over and len(session.log) < LIMIT // 3:
            state = session.state
            json.dumps(
                [
                    spec.presentation.view(state.G, state.ctx, seat)
                    for seat in (None, *range(players))
                ]
            )
            offers = legal_moves(spec, state)
            json.dumps(offers)
            for offer in offers:
                tap(spec, state, offer)
            spec.presentation.prompt(state.G, state.ctx)
            logged = bot_turn(bot, state, rng, session.dispatch)
            if logged.kind == MOVE and is_secret(spec, session.state, logged):
                for seat in (None, *range(players)):
                    shown = public_event(spec, session.state, logged, False, seat)
                    if seat != logged.seat:
                        assert "args" not in shown and shown["secret"], (seat, shown)

    check()


@pytest.mark.parametrize("name", NAMES)
def test_standings_rank_every_seat_and_the_winners_lead_at_the_end(name: str) -> None:
    """The event board compares tables through standings: one per seat at every moment,
    ranks from 1, and once the game is over exactly its winners lead."""
    spec = GAMES[name]

    @settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(setups(spec), st.integers(0, 300))
    def check(setup: tuple[str, int, int], stop: int) -> None:
        rules, players, seed = setup
        session = bot_session(spec, rules, players, seed, limit=stop or 20_000)
        table = standings_json(spec, session.state, session.header.players)
        ranks = [entry["rank"] for entry in table]
        assert [entry["name"] for entry in table] == list(session.header.players)
        ctx = session.state.ctx
        nobody_won = ctx.over and not ctx.winners
        assert min(ranks) == (2 if nobody_won else 1) and max(ranks) <= players
        json.dumps(table)
        if ctx.over:
            leading = {entry["seat"] for entry in table if entry["leads"]}
            assert leading == set(session.state.ctx.winners)

    check()
