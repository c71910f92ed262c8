"""Redeployment, the tablet's view and the balance report."""

from __future__ import annotations

import pytest

from companion import simulate
from companion.engine.errors import IllegalMoveError
from companion.games import GAMES
from companion.games.hamsterdam import SPEC, Hamsterdam, bot
from tests.hamsterdam.board import act, at, dam, nxt, player, rolled, rolling, spot, table


def wet_dam() -> Hamsterdam:
    ann = player(
        "Ann", [spot(2, 2), spot(3, tokens=1), spot(4, 0, "Swimster"), spot(5)], rest_plain=3
    )
    return table([ann, player("Ben", dam(6, 7, plain=1))])


def test_redeployment_places_resting_hamsters_too_but_never_on_water() -> None:
    state = at(wet_dam(), "redeploy")
    with pytest.raises(IllegalMoveError, match="every plain hamster \\(5\\)"):
        act(state, 0, "redeploy", stacks=[2, 0, 0, 0], specials=[["Swimster", 3]])
    with pytest.raises(IllegalMoveError, match="flood token"):
        act(state, 0, "redeploy", stacks=[1, 1, 2, 1], specials=[["Swimster", 3]])
    state = act(state, 0, "redeploy", stacks=[1, 0, 2, 2], specials=[["Swimster", 2]])
    ann = state.G.players[0]
    assert [s.plain for s in ann.dam] == [1, 0, 2, 2] and ann.rest_plain == 0
    assert ann.dam[1].specials[0].name == "Swimster", "Swimster may stand in water"
    with pytest.raises(IllegalMoveError, match="already redeployed"):
        act(state, 0, "clear", at=2)


def test_a_hamster_removed_from_the_game_clears_one_token() -> None:
    state = act(at(wet_dam(), "redeploy"), 0, "clear", at=2)
    ann = state.G.players[0]
    assert ann.tokens_on_dam == 0 and ann.lost == 1 and ann.rest_plain == 2
    assert state.G.removed == 1 and state.G.supply == 34, "the token left the game"
    state = act(at(wet_dam(), "redeploy"), 0, "clear", at=2, hamster="plain", **{"from": 1})
    assert state.G.players[0].dam[0].plain == 1


def test_next_spreads_everyone_who_did_not_redeploy_and_starts_a_round() -> None:
    state = nxt(at(wet_dam(), "redeploy"))
    ann = state.G.players[0]
    assert ann.rest_plain == 0 and ann.dam[1].plain == 0 and ann.hamsters == 6
    assert state.ctx.phase == "round" and state.ctx.round == 2


def test_view_shows_dams_tallies_tracker_roll_and_standings() -> None:
    game = table(
        [
            player("Ann", [spot(6, 1, "Buffster"), spot(8, tokens=1)], pile=4, breaches=1),
            player("Ben", [spot(6), spot(9, 2)], pile=1),
        ]
    )
    state = rolled(rolling(game), 3, 3)
    seen = SPEC.presentation.view(state.G, state.ctx, 1)
    ann = seen["players"][0]
    assert ann["tallies"] == {
        "pile": 4,
        "on_dam": 1,
        "total": 5,
        "to_next_breach": 1,
        "breaches": 1,
    }
    assert ann["dam"][0]["specials"][0]["name"] == "Buffster" and ann["usable"] == ["Buffster"]
    assert seen["table"] == {"piles": 5, "threshold": 10, "supply": 29, "stand_ins": 0}
    assert seen["tracker"]["turns_each"] == 6 and seen["tracker"]["movement_every"] == 4
    assert seen["roll"]["value"] == 6 and seen["standings"] == [1, 0]
    assert seen["roll"]["floods"] == [
        {"seat": 0, "at": 1, "waiting": False},
        {"seat": 1, "at": 1, "waiting": False},
    ]
    assert "Ann rolled 6" in SPEC.presentation.prompt(state.G, state.ctx)
    assert SPEC.presentation.text is not None and "Buffster" in SPEC.presentation.text(
        state.G, state.ctx
    )
    flooding = nxt(state)
    floods = SPEC.presentation.view(flooding.G, flooding.ctx, None)["roll"]["floods"]
    assert floods == [{"seat": 0, "at": 1, "waiting": True}, {"seat": 1, "at": 1, "waiting": False}]
    assert "Stop the floods (Ann)" in SPEC.presentation.prompt(flooding.G, flooding.ctx)


def test_the_balance_report_runs_from_the_spec_alone() -> None:
    assert GAMES["hamsterdam"] is SPEC and SPEC.bot is bot.candidates
    for rules in ("full", "classic"):
        report = simulate.simulate("hamsterdam", rules, 3, 12, seed=5, workers=1).as_dict()
        assert report["games"] == 12 and report["unfinished"] == 0
        assert sum(report["win_rate_by_seat"].values()) >= 0.99


@pytest.mark.parametrize("specials", [None, 3, "Swimster"])
def test_special_hamsters_not_given_as_a_list_are_refused_in_one_sentence(
    specials: object,
) -> None:
    """Typed by hand (the command line, a saved file): before, a bare null crashed the
    command with a TypeError traceback."""
    state = at(wet_dam(), "redeploy")
    with pytest.raises(IllegalMoveError, match=r"list of \[name, position\]"):
        act(state, 0, "redeploy", stacks=[1, 0, 2, 2], specials=specials)
