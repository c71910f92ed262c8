"""A turn on the buttons: roll, flood, breaches, pass the dice; movement; redeployment."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.engine.errors import IllegalMoveError
from companion.engine.session import GameHeader, Session
from companion.games.hamsterdam import SPEC, Hamsterdam
from companion.games.hamsterdam.layout import default_layout
from tests.hamsterdam.board import act, at, dam, nxt, player, rolled, rolling, spot, table


def two_players(**fields: Any) -> Hamsterdam:
    return table(
        [
            player("Ann", [spot(5), spot(7, 2), spot(7), spot(9, 1)]),
            player("Ben", [spot(4, 1), spot(6), spot(8)]),
        ],
        **fields,
    )


def test_a_roll_no_dam_shows_is_rolled_again_and_next_steps_through_the_turn() -> None:
    state = rolling(two_players())
    state = rolled(state, 6, 6)  # 12: on nobody's dam
    assert state.G.dry and state.ctx.current == 0
    with pytest.raises(IllegalMoveError, match="acts after a roll"):
        state = act(state, 0, "buffster")
    state = rolled(state, 3, 4)
    assert state.G.roll == 7 and not state.G.dry and state.ctx.current is None
    state = nxt(state)  # flood: Ann has two 7s, the first plugged, the second empty
    assert state.ctx.phase == "flood"
    ann = state.G.players[0]
    assert ann.dam[1].plain == 1 and ann.rest_plain == 1
    assert ann.dam[2].tokens == 1, "a duplicate value floods every copy"
    assert state.G.players[1].tokens_on_dam == 0, "a dam without the value stays dry"
    state = nxt(nxt(state))
    assert state.ctx.phase == "dice"
    state = nxt(state)
    assert state.ctx.phase == "roll" and state.G.roller == 1


def test_plugging_is_forced_where_a_hamster_stands() -> None:
    state = nxt(rolled(rolling(two_players()), 4, 5))  # 9: Ann's last card has a hamster
    assert state.G.players[0].dam[3].plain == 0, "a lone plain hamster plugs by itself"
    state = rolled(
        rolling(table([player("Ann", [spot(9, 1, "Swimster")]), player("B", dam(3))])), 4, 5
    )
    state = nxt(state)
    with pytest.raises(IllegalMoveError, match="must plug"):
        act(state, 0, "water", at=1)
    state = act(state, 0, "plug", at=1, hamster="Swimster")
    assert [s.name for s in state.G.players[0].rest_specials] == ["Swimster"]


def test_water_on_a_wet_card_goes_to_the_flood_pile() -> None:
    game = table([player("Ann", [spot(6, tokens=1)]), player("Ben", dam(3))], rules="classic")
    state = nxt(nxt(rolled(rolling(game), 3, 3)))
    assert state.G.players[0].pile == 1 and state.G.players[0].dam[0].tokens == 1
    assert state.ctx.phase == "dice", "classic has no breach step"


@pytest.mark.parametrize(
    ("players", "movement_after", "turns_each"), [(2, 4, 6), (3, 3, 4), (4, 4, 3)]
)
def test_movement_and_redeployment_timing(
    players: int, movement_after: int, turns_each: int
) -> None:
    seats = [player(f"P{i}", [spot(7, 5), spot(8, 5)]) for i in range(players)]
    state = at(table(seats), "round")
    state = nxt(state)
    movements: list[int] = []
    while state.ctx.phase != "redeploy":
        if state.ctx.phase == "movement":
            movements.append(state.G.turns)
        state = rolled(state, 3, 4) if state.ctx.current is not None else nxt(state)
    assert movements[0] == movement_after
    assert movements[-1] == turns_each * players, "the last movement comes before redeployment"
    assert state.G.turns == turns_each * players
    state = nxt(state)
    assert state.ctx.phase == "round" and state.ctx.round == 2 and state.G.turns == 0


def test_the_game_ends_at_once_when_a_flood_reaches_the_threshold() -> None:
    game = table(
        [
            player("Ann", [spot(6, tokens=1), spot(6, tokens=1)], pile=8),
            player("Ben", [spot(6, tokens=1)], pile=1),
        ]
    )
    state = rolled(rolling(game), 3, 3)
    state = nxt(state)  # Ann's first 6 takes the table to 10: the game ends before more water
    assert state.ctx.over
    assert state.G.piles == 10 and state.G.players[1].pile == 1
    assert state.ctx.winners == (1,)
    with pytest.raises(IllegalMoveError, match="over"):
        nxt(state)


def test_scoring_counts_pile_and_dam_and_ties_go_to_the_most_hamsters() -> None:
    game = table(
        [
            player("Ann", [spot(2, 1, tokens=1), spot(3)], pile=4),
            player("Ben", [spot(2, 3), spot(3, tokens=2)], pile=3),
            player("Cy", [spot(2, 5)], pile=8),
        ]
    )
    outcome = SPEC.end_if(game, at(game, "dice").ctx)
    assert outcome is not None and outcome.winners == (1,)
    assert "most hamsters" in outcome.result
    shared = table([player("A", [spot(2, 1)], pile=5), player("B", [spot(3, 1)], pile=5)])
    result = SPEC.end_if(shared, at(shared, "dice").ctx)
    assert result is not None and result.winners == (0, 1)


def test_a_classic_game_runs_on_next_and_camera_dice_alone() -> None:
    names = ("Ann", "Ben", "Cy")
    session = Session(SPEC, GameHeader(SPEC.name, "classic", names, 11))
    for seat in range(3):
        stacks, specials = default_layout(session.state.G.players[seat])
        session.move(seat, "place", stacks=stacks, specials=specials)
    session.next(given=[6, 6, 1, 2, 3, 4])  # the roll-off: Ann 12
    assert session.state.G.first == 0
    faces = random.Random(11)
    phases = set()
    while not session.state.ctx.over and len(session.log) < 2000:
        state = session.state
        phases.add(state.ctx.phase)
        if state.ctx.phase == "roll" and state.ctx.current is not None:
            session.next(given=[faces.randint(1, 6), faces.randint(1, 6)])
        else:
            session.next()
    assert session.state.ctx.over
    assert "breach" not in phases and {"movement", "redeploy", "flood"} <= phases
