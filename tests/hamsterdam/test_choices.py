"""The tablet's buttons alone can play Hamsterdam: legal moves, NEXT and dice pickers.

A player at the tablet can only tap what :func:`legal_moves` offers, so random games that
choose nothing else must always end, must never get stuck where the rules (the bot) see a
move, and must at some point be offered every special hamster.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, NEXT, Event
from companion.engine.flow import step
from companion.engine.legal import legal_moves
from companion.engine.session import GameHeader, Session
from companion.engine.state import State
from companion.games.hamsterdam import SPEC, Hamsterdam
from companion.games.hamsterdam.bot import candidates
from companion.games.hamsterdam.catalogue import COPYCATSTER, KINDS, MOVE_TO_KIND
from companion.simulate import bot_turn
from tests.hamsterdam.board import (
    act,
    act_rolling,
    at,
    dam,
    player,
    rolled,
    rolling,
    spot,
    table,
)

games = st.tuples(st.sampled_from(["full", "classic"]), st.integers(2, 4), st.integers(0, 2**40))

# The bot's one-shot set-up and redeployment moves are offered as steps with shortcuts;
# a button of any step (or shortcut) of the series counts as offering the bot's move.
STEPWISE = {
    "pass_cards": "pass_card",
    "arrange": "lay_card",
    "keep_special": "lay_card",
    "place": "stand",
    "spread": "stand",
    "redeploy": "stand",
    "lift": "stand",
}


def accepted(state: State[Hamsterdam], event: Event) -> bool:
    try:
        step(SPEC, state, event, record=False)
    except (IllegalMoveError, ValueError):
        return False
    return True


def kinds_in(game: Hamsterdam, choice: dict[str, Any]) -> Iterator[str]:
    """The special kinds a button acts with: its own move, or a piece it names."""
    args = choice["args"]
    if choice["name"] in MOVE_TO_KIND:
        yield COPYCATSTER if args.get("copycat") else MOVE_TO_KIND[choice["name"]]
    ids = {args.get(key) for key in ("hamster", "piece", "special", "sacrifice")}
    for p in game.players:
        pieces = [*p.rest_specials, *p.dealt, *(s for spot_ in p.dam for s in spot_.specials)]
        yield from (s.name for s in pieces if s.id in ids)


def play(rules: str, players: int, seed: int, offered: set[str], limit: int = 6000) -> Session[Any]:
    """Tap random buttons (NEXT now and then) until the game is over.

    At every step, whatever the bot (which knows the rules' move arguments, not the
    buttons) finds legal must have a button of the same player and kind.
    """
    names = ("Ann", "Bo", "Cy", "Di")[:players]
    session = Session(SPEC, GameHeader(SPEC.name, rules, names, seed))
    rng, bot_rng = random.Random(seed), random.Random(seed + 1)
    while not session.state.ctx.over:
        assert len(session.log) < limit, session.state.ctx
        state = session.state
        legal = legal_moves(SPEC, state)
        next_ok = accepted(state, Event(NEXT))
        offered.update(k for c in legal for k in kinds_in(state.G, c))
        labels = [c["label"] for c in legal]
        assert len(set(labels)) == len(labels), labels  # every button says what it does
        assert all(len(label) <= 60 for label in labels), labels
        buttons = {(c["seat"], STEPWISE.get(c["name"], c["name"])) for c in legal}
        for event in candidates(state, bot_rng):
            if event.kind == NEXT:
                break
            if accepted(state, event):
                assert legal or next_ok, (state.ctx, event)
                wanted = (event.seat, STEPWISE.get(event.name, event.name))
                assert wanted in buttons, (state.ctx.phase, event, sorted(buttons))
        assert legal or next_ok, state.ctx
        if legal and (not next_ok or rng.random() < 0.75):
            choice = rng.choice(legal)
            dice = tuple(rng.randint(1, 6) for _ in range(choice.get("dice", 0)))
            session.dispatch(
                Event(
                    MOVE, name=choice["name"], seat=choice["seat"], args=choice["args"], given=dice
                )
            )
        else:
            session.dispatch(Event(NEXT))
    return session


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_tapping_only_the_offered_buttons_always_finishes_the_game(
    case: tuple[str, int, int],
) -> None:
    play(*case, offered=set())


def test_every_special_is_offered_in_some_game() -> None:
    offered: set[str] = set()
    for seed in range(40):
        play(("full", "classic")[seed % 2], 2 + seed % 3, seed, offered)
        if offered >= set(KINDS):
            break
    assert set(KINDS) - offered == set()


def test_every_flood_way_and_flood_special_gets_a_button() -> None:
    game = table(
        [
            player("Ann", [spot(6), spot(7, 1, "Blobster"), spot(8, 0, "Cheekster")]),
            player("Bo", dam(2, 3, 4)),
        ]
    )
    state = step(SPEC, rolling(game), Event(MOVE, name="roll", seat=0, given=(3, 5)))[0]
    state = step(SPEC, state, Event(NEXT))[0]
    assert state.ctx.phase == "flood"
    labels = sorted(c["label"] for c in legal_moves(SPEC, state))
    assert labels == [
        "Ann: Blobster from 7 stops 8",
        "Ann: Cheekster stops 8",
        "Ann: plug 8 with Cheekster",
    ]
    state = act(state, 0, "blobster", at=3, piece=game.players[0].dam[1].specials[0].id)
    assert state.G.players[0].rest_specials[0].name == "Blobster"


def test_breach_offers_both_ends_and_each_sacrifice() -> None:
    wet = spot(3, 0, tokens=1)
    game = table(
        [player("Ann", [spot(2, 1, "Mobster"), wet, spot(4)], pile=3), player("Bo", dam(5))]
    )
    state = at(game, "breach")
    labels = sorted(c["label"] for c in legal_moves(SPEC, state))
    assert labels == [
        "Ann: flip left end 2, lose Mobster",
        "Ann: flip left end 2, lose a hamster",
        "Ann: flip right end 4",
    ]


def test_physicster_asks_for_two_dice_then_offers_both_rolls() -> None:
    ann = player("Ann", [spot(4, 0, "Physicster"), spot(8)])
    state = rolled(rolling(table([ann, player("Bo", dam(5))])), 2, 2)
    (offer,) = [c for c in legal_moves(SPEC, state) if c["name"] == "physicster"]
    assert offer["dice"] == 2 and offer["label"] == "Ann: Physicster re-roll"
    state = act_rolling(state, 0, "physicster", (5, 5), **offer["args"])
    labels = [c["label"] for c in legal_moves(SPEC, state)]
    assert labels == ["Ann: keep the old roll 2+2=4", "Ann: keep the new roll 5+5=10"]
    assert not accepted(state, Event(NEXT)), "NEXT waits for the choice"


def test_the_longest_copycat_button_fits() -> None:
    """Found by the random-tapping test (full rules, 4 players, seed 155): "Di: Copycat as
    Buffster on 11 (#11) turns the dice over (4+5)" ran past the 60 characters a button
    has; Buffster's label is now shorter."""
    play("full", 4, 155, offered=set())


def test_flood_odds_before_the_roll_are_exact() -> None:
    """Each card: the chance two dice total its value; each dam: the chance any of its
    values comes up (a 7 is 6 in 36, a 2 or 12 is 1 in 36)."""
    from fractions import Fraction

    from companion.games.hamsterdam.view import flood_odds, roll_chance

    assert roll_chance(7) == Fraction(6, 36) and roll_chance(2) == roll_chance(12) == Fraction(
        1, 36
    )
    assert sum(roll_chance(v) for v in range(2, 13)) == 1
    session = Session(SPEC, GameHeader(SPEC.name, "full", ("Ann", "Bo", "Cy"), 3))
    rng = random.Random(3)
    while not (session.state.ctx.phase == "roll" and session.state.G.dice is None):
        bot_turn(SPEC.bot, session.state, rng, session.dispatch)  # type: ignore[arg-type]
    game, ctx = session.state.G, session.state.ctx
    for seat, dam_owner in enumerate(game.players):
        odds = flood_odds(game, seat, ctx)
        assert odds is not None
        values = {spot.value for spot in dam_owner.dam}
        assert odds["flooded"] == round(100 * sum(roll_chance(v) for v in values))
        assert odds["cards"] == [round(100 * roll_chance(s.value)) for s in dam_owner.dam]
