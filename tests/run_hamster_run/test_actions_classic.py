"""Classic (2000) actions, one rule per test, each from ``shared/rules/run-hamster-run.md``."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import flow
from companion.engine import session as session_module
from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, Event
from companion.engine.legal import legal_moves
from companion.engine.replaying import is_replaying, replaying
from companion.engine.session import GameHeader, Session
from companion.games import find_game
from companion.games.run_hamster_run import SPEC
from tests.run_hamster_run.board import act, ham, nxt, outcome, position

C = "classic"


def test_run_flips_one_scamper_per_square() -> None:
    s = position(C, [("A", 2, 1, (3, 2, 2)), ("B", 9, 5, (2, 2, 3))], declared=["run", "rest"])
    s = act(s, 0, "run", path=[[3, 1], [4, 1]])
    assert ham(s, 0).square == (4, 1)
    assert ham(s, 0).down[0] == 2 and ham(s, 0).fatigue == 0


def test_run_two_squares_per_chip_moved_to_fatigue() -> None:
    s = position(C, [("A", 2, 1, (3, 2, 2)), ("B", 9, 5, (2, 2, 3))], declared=["run", "rest"])
    s = act(s, 0, "run", path=[[3, 1], [4, 1], [5, 1], [6, 1]], pay="double")
    assert ham(s, 0).square == (6, 1)
    assert ham(s, 0).traits[0] == 1 and ham(s, 0).fatigue == 2


def test_run_cannot_enter_an_occupied_square() -> None:
    s = position(C, [("A", 2, 1, (3, 2, 2)), ("B", 3, 1, (2, 2, 3))], declared=["run", "rest"])
    with pytest.raises(IllegalMoveError, match="occupied by B"):
        act(s, 0, "run", path=[[3, 1]])


def test_steps_are_orthogonal() -> None:
    s = position(C, [("A", 2, 1, (3, 2, 2)), ("B", 9, 1, (2, 2, 3))], declared=["run", "rest"])
    with pytest.raises(IllegalMoveError, match="not next to"):
        act(s, 0, "run", path=[[3, 2]])


def test_side_and_top_walls_stop_a_run() -> None:
    s = position(C, [("A", 10, 5, (3, 2, 2)), ("B", 1, 1, (2, 2, 3))], declared=["run", "rest"])
    with pytest.raises(IllegalMoveError, match="wall"):
        act(s, 0, "run", path=[[10, 6]])
    with pytest.raises(IllegalMoveError, match="wall"):
        act(s, 0, "run", path=[[11, 5]])


def test_push_win_flips_two_and_shoves_one_square_then_continues_without_a_test() -> None:
    s = position(C, [("A", 5, 3, (6, 1, 0)), ("B", 4, 3, (1, 1, 5))], declared=["push", "rest"])
    s = act(s, 0, "push", direction="down", given=[0])
    assert ham(s, 0).square == (4, 3) and ham(s, 1).square == (3, 3)
    assert ham(s, 0).down[0] == 2
    assert ham(s, 0).traits[1] == 0  # classic: the winner loses a Mettle chip
    assert outcome(s, 0, "push", direction="down") == ()  # no new test
    s = act(s, 0, "push", direction="down")
    assert ham(s, 1).square == (2, 3) and ham(s, 0).down[0] == 4


def test_push_loss_flips_one_and_bars_the_double_move() -> None:
    s = position(C, [("A", 5, 3, (4, 2, 1)), ("B", 4, 3, (1, 3, 3))], declared=["push", "rest"])
    s = act(s, 0, "push", direction="down", given=[1])
    assert ham(s, 0).square == (5, 3) and ham(s, 1).square == (4, 3)
    assert ham(s, 0).down[0] == 1
    with pytest.raises(IllegalMoveError, match="never after a failed push"):
        act(s, 0, "run", path=[[6, 3], [7, 3]], pay="double")
    s = act(s, 0, "push", direction="down", given=[0])  # may try again: a new test
    assert ham(s, 1).square == (3, 3)


def test_push_into_another_hamster_or_a_wall_fails_without_a_test() -> None:
    s = position(
        C,
        [("A", 5, 3, (4, 2, 1)), ("B", 4, 3, (1, 3, 3)), ("C", 3, 3, (1, 3, 3))],
        declared=["push", "rest", "rest"],
    )
    assert outcome(s, 0, "push", direction="down") == ()
    s = act(s, 0, "push", direction="down")
    assert [ham(s, i).square for i in range(3)] == [(5, 3), (4, 3), (3, 3)]
    assert ham(s, 0).down[0] == 1
    s = position(C, [("A", 5, 4, (4, 2, 1)), ("B", 5, 5, (1, 3, 3))], declared=["push", "rest"])
    s = act(s, 0, "push", direction="right")
    assert ham(s, 1).square == (5, 5) and ham(s, 0).down[0] == 1


def test_push_with_no_scamper_left_costs_mettle() -> None:
    s = position(C, [("A", 5, 4, (0, 3, 4)), ("B", 5, 5, (1, 3, 3))], declared=["push", "rest"])
    s = act(s, 0, "push", direction="right")
    assert ham(s, 0).traits == (0, 2, 4) and ham(s, 0).fatigue == 1


def test_pushing_off_row_one_drops_the_hamster_in_the_pit() -> None:
    s = position(C, [("A", 2, 3, (4, 2, 1)), ("B", 1, 3, (1, 3, 3))], declared=["push", "rest"])
    s = act(s, 0, "push", direction="down", given=[0])
    assert ham(s, 1).in_pit and ham(s, 0).square == (1, 3)


def test_throw_flies_ceil_half_mettle_after_the_loss_and_ends_the_turn() -> None:
    s = position(C, [("A", 8, 3, (0, 6, 1)), ("B", 7, 3, (1, 3, 3))], declared=["throw", "rest"])
    s = act(s, 0, "throw", target="B", given=[0])
    assert ham(s, 1).square == (4, 3)  # Mettle 6 -> 5 for winning -> ceil(5/2) = 3 squares
    with pytest.raises(IllegalMoveError, match="action is over"):
        act(s, 0, "run", path=[[9, 3]])


def test_thrown_hamster_stops_before_a_wall_or_hamster_and_can_land_in_the_pit() -> None:
    s = position(
        C,
        [("A", 8, 3, (0, 7, 0)), ("B", 7, 3, (1, 3, 3)), ("C", 5, 3, (7, 0, 0))],
        declared=["throw", "rest", "rest"],
    )
    s = act(s, 0, "throw", target="B", given=[0])
    assert ham(s, 1).square == (6, 3)
    s = position(C, [("A", 3, 3, (0, 7, 0)), ("B", 2, 3, (1, 3, 3))], declared=["throw", "rest"])
    s = act(s, 0, "throw", target="B", given=[0])
    assert ham(s, 1).in_pit
    s = position(C, [("A", 3, 3, (0, 7, 0)), ("B", 3, 4, (1, 3, 3))], declared=["throw", "rest"])
    s = act(s, 0, "throw", target="B", given=[0])
    assert ham(s, 1).square == (3, 5)


def test_throw_may_first_approach_paying_scamper() -> None:
    s = position(C, [("A", 8, 1, (1, 5, 1)), ("B", 7, 2, (1, 3, 3))], declared=["throw", "rest"])
    s = act(s, 0, "run", path=[[8, 2]])
    s = act(s, 0, "throw", target="B", given=[0])
    assert ham(s, 1).square == (5, 2)


def test_rest_rolls_for_a_chip_back_on_an_even_die() -> None:
    s = position(C, [("A", 8, 1, (1, 3, 1)), ("B", 7, 2, (1, 3, 3))], declared=["rest", "rest"])
    assert ham(nxt(s, given=[3]), 0).fatigue == 2
    s2 = nxt(s, given=[4])
    assert ham(s2, 0).fatigue == 1 and ham(s2, 0).traits == (2, 3, 1)


def test_rest_with_nothing_in_fatigue_rolls_nothing() -> None:
    s = position(C, [("A", 8, 1, (1, 5, 1)), ("B", 7, 2, (1, 3, 3))], declared=["rest", "rest"])
    assert outcome(s, 0, "finish") == ()


def test_changing_action_costs_a_chip_but_changing_target_is_free() -> None:
    s = position(C, [("A", 8, 1, (3, 2, 2)), ("B", 8, 2, (1, 3, 3))], declared=["run", "rest"])
    s2 = act(s, 0, "change", action="push", chip="friskiness")
    assert ham(s2, 0).traits == (3, 2, 1) and ham(s2, 0).fatigue == 1
    s = position(C, [("A", 8, 1, (3, 2, 2)), ("B", 8, 2, (1, 3, 3))], declared=["push", "rest"])
    s = act(s, 0, "push", direction="right", given=[0])  # declared against someone else: free
    assert ham(s, 0).pluck + ham(s, 0).fatigue == 7 and ham(s, 0).fatigue == 1  # only the win


def test_classic_mettle_test_winner_loses_a_mettle_chip_defender_too() -> None:
    s = position(C, [("A", 8, 1, (3, 2, 2)), ("B", 8, 2, (1, 3, 3))], declared=["push", "rest"])
    s = act(s, 0, "push", direction="right", given=[1])
    assert ham(s, 1).traits[1] == 2 and ham(s, 0).traits[1] == 2


def test_initiator_without_mettle_cannot_test() -> None:
    s = position(C, [("A", 8, 1, (3, 0, 4)), ("B", 8, 2, (1, 3, 3))], declared=["push", "rest"])
    with pytest.raises(IllegalMoveError, match="no Mettle"):
        act(s, 0, "push", direction="right")


def test_defender_without_mettle_or_not_resisting_loses_without_a_draw() -> None:
    s = position(C, [("A", 8, 1, (3, 2, 2)), ("B", 8, 2, (3, 0, 4))], declared=["push", "rest"])
    assert outcome(s, 0, "push", direction="right") == ()
    s = position(C, [("A", 8, 1, (3, 2, 2)), ("B", 8, 2, (1, 3, 3))], declared=["push", "rest"])
    assert outcome(s, 0, "push", direction="right", resist=False) == ()
    assert ham(act(s, 0, "push", direction="right", resist=False), 1).square == (8, 3)


def test_a_push_nobody_can_pay_for_is_refused_not_free() -> None:
    # A won push leaves A with no face-up Scamper and no Mettle: pushing B on would cost
    # two chips A does not have, so it is refused (it used to move both hamsters for free).
    s = position(C, [("A", 5, 3, (2, 1, 0)), ("B", 4, 3, (1, 1, 5))], declared=["push", "rest"])
    s = act(s, 0, "push", direction="down", given=[0])
    assert ham(s, 0).up(0) == 0 and ham(s, 0).traits[1] == 0
    with pytest.raises(IllegalMoveError, match="cannot pay for this push"):
        act(s, 0, "push", direction="down")
    assert "Push down" not in [m["label"] for m in legal_moves(SPEC, s)]
    # Into a wall, with nothing at all to pay: refused too.
    s = position(C, [("A", 5, 4, (0, 0, 4)), ("B", 5, 5, (1, 3, 3))], declared=["push", "rest"])
    with pytest.raises(IllegalMoveError, match="cannot pay for this push"):
        act(s, 0, "push", direction="right")


def test_a_stored_game_with_an_unpaid_push_still_loads_as_it_was_played() -> None:
    """Games stored before the unpaid push was refused may hold one: rebuilding such a
    game from its log lets the push stand (a game that no longer loads is a lost evening)."""
    s = position(C, [("A", 5, 4, (0, 0, 4)), ("B", 5, 5, (1, 3, 3))], declared=["push", "rest"])
    with replaying():
        after = act(s, 0, "push", direction="right")
    assert ham(after, 0).lane == 4 and ham(after, 1).lane == 5  # a failed push: both stay


def test_only_a_stored_log_and_a_redo_count_as_replaying(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[bool] = []
    spec = find_game("run-hamster-run")
    header = GameHeader(spec.name, spec.rules_default, ("Ann", "Bo"), 1)
    real_step = flow.step

    def watching(*args: Any, **kwargs: Any) -> Any:
        seen.append(is_replaying())
        return real_step(*args, **kwargs)

    monkeypatch.setattr(session_module, "step", watching)
    session = Session(spec, header)
    first = legal_moves(spec, session.state)[0]
    session.dispatch(Event(MOVE, name=first["name"], seat=first["seat"], args=first["args"]))
    Session.replay(spec, header, session.log)
    session.undo()
    session.redo()  # re-applies a move already made, as it was made
    assert seen == [False, True, True] and not is_replaying()
