"""v2.1 (2005) actions: face-up and face-down chips, Bite, the new Run and Throw."""

from __future__ import annotations

import pytest

from companion.engine.errors import IllegalMoveError
from companion.engine.legal import legal_moves
from companion.games.run_hamster_run import SPEC
from tests.run_hamster_run.board import act, ham, nxt, outcome, position

V = "v2.1"


def test_flip_keeps_the_chip_spend_moves_it_to_fatigue() -> None:
    s = position(V, [("A", 2, 1, (3, 2, 2)), ("B", 9, 5, (2, 2, 3))], declared=["run", "rest"])
    s = act(s, 0, "run", path=[[3, 1]])
    assert ham(s, 0).traits == (3, 2, 2) and ham(s, 0).down == (1, 0, 0)
    s = act(s, 0, "run", path=[[4, 1], [5, 1]], pay="spend")
    assert ham(s, 0).traits == (2, 2, 2) and ham(s, 0).fatigue == 1
    with pytest.raises(IllegalMoveError, match="two squares at most"):
        act(s, 0, "run", path=[[6, 1], [7, 1], [8, 1]], pay="spend")


def test_only_face_up_chips_can_be_flipped_or_spent() -> None:
    s = position(V, [("A", 2, 1, (2, 2, 3)), ("B", 9, 5, (2, 2, 3))], declared=["run", "rest"])
    s = act(s, 0, "run", path=[[3, 1], [4, 1]])
    with pytest.raises(IllegalMoveError, match="face-up Scamper"):
        act(s, 0, "run", path=[[5, 1], [6, 1]], pay="spend")


def test_one_free_sidestep_per_run() -> None:
    s = position(V, [("A", 2, 2, (1, 3, 3)), ("B", 9, 5, (2, 2, 3))], declared=["run", "rest"])
    s = act(s, 0, "sidestep", to=[2, 3])
    assert ham(s, 0).square == (2, 3) and ham(s, 0).down == (0, 0, 0)
    with pytest.raises(IllegalMoveError, match="already taken"):
        act(s, 0, "sidestep", to=[2, 4])
    with pytest.raises(IllegalMoveError, match="left or right"):
        act(
            position(V, [("A", 2, 2, (1, 3, 3)), ("B", 9, 5, (2, 2, 3))], declared=["run", "rest"]),
            0,
            "sidestep",
            to=[3, 2],
        )


def test_climb_over_a_neighbour_costs_three_flips_or_a_spend_and_a_flip() -> None:
    spots = [("A", 2, 2, (4, 2, 1)), ("B", 3, 2, (2, 2, 3))]
    s = act(position(V, spots, declared=["run", "rest"]), 0, "climb", over="B", to=[4, 2])
    assert ham(s, 0).square == (4, 2) and ham(s, 0).down == (3, 0, 0)
    s = act(
        position(V, spots, declared=["run", "rest"]), 0, "climb", over="B", to=[3, 3], pay="spend"
    )
    assert ham(s, 0).square == (3, 3) and ham(s, 0).down == (1, 0, 0) and ham(s, 0).fatigue == 1
    with pytest.raises(IllegalMoveError, match="empty belt square next to B"):
        act(position(V, spots, declared=["run", "rest"]), 0, "climb", over="B", to=[5, 2])


def test_run_into_a_hamster_is_a_push_with_a_test_flipping_one_either_way() -> None:
    spots = [("A", 5, 3, (3, 2, 2)), ("B", 4, 3, (2, 2, 3))]
    won = act(position(V, spots, declared=["run", "rest"]), 0, "push", direction="down", given=[0])
    assert ham(won, 0).square == (4, 3) and ham(won, 1).square == (3, 3)
    assert ham(won, 0).down == (1, 0, 0) and ham(won, 0).traits[1] == 2  # no loss for winning
    lost = act(position(V, spots, declared=["run", "rest"]), 0, "push", direction="down", given=[1])
    assert ham(lost, 0).square == (5, 3) and ham(lost, 0).down == (1, 0, 0)
    # Continue pushing: one flip each, no new test.
    assert outcome(won, 0, "push", direction="down") == ()
    again = act(won, 0, "push", direction="down")
    assert ham(again, 1).square == (2, 3) and ham(again, 0).down == (2, 0, 0)


def test_push_into_occupied_square_or_edge_fails_without_test_but_still_flips() -> None:
    spots = [("A", 10, 3, (3, 2, 2)), ("B", 10, 4, (2, 2, 3)), ("C", 10, 5, (2, 2, 3))]
    s = position(V, spots, declared=["run", "rest", "rest"])
    assert outcome(s, 0, "push", direction="right") == ()
    s = act(s, 0, "push", direction="right")
    assert ham(s, 1).square == (10, 4) and ham(s, 0).down == (1, 0, 0)
    s = position(V, [("A", 9, 3, (3, 2, 2)), ("B", 10, 3, (2, 2, 3))], declared=["run", "rest"])
    s = act(s, 0, "push", direction="up")  # off the top edge
    assert ham(s, 1).square == (10, 3) and ham(s, 0).down == (1, 0, 0)


def test_push_needs_a_face_up_scamper() -> None:
    s = position(V, [("A", 5, 3, (0, 4, 3)), ("B", 4, 3, (2, 2, 3))], declared=["run", "rest"])
    with pytest.raises(IllegalMoveError, match="face-up Scamper"):
        act(s, 0, "push", direction="down")


def test_bite_with_free_step_before_or_after_costs_target_a_chip_of_biters_choice() -> None:
    s = position(V, [("A", 5, 1, (0, 4, 3)), ("B", 5, 3, (2, 2, 3))], declared=["bite", "rest"])
    s = act(s, 0, "step", to=[5, 2])
    s = act(s, 0, "bite", target="B", chip="scamper", given=[0])
    assert ham(s, 1).traits == (1, 2, 3) and ham(s, 1).fatigue == 1
    s = act(s, 0, "finish")
    assert ham(s, 0).did == "bite"
    s = position(V, [("A", 5, 2, (0, 4, 3)), ("B", 5, 3, (2, 2, 3))], declared=["bite", "rest"])
    s = act(s, 0, "bite", target="B", given=[1])
    assert ham(s, 1).pluck == 7
    s = act(s, 0, "step", to=[6, 2])
    with pytest.raises(IllegalMoveError, match="one free step"):
        act(s, 0, "step", to=[7, 2])


def test_throw_lands_within_half_mettle_ignoring_obstacles_or_in_the_pit() -> None:
    spots = [("A", 6, 3, (0, 6, 1)), ("B", 5, 3, (2, 2, 3)), ("C", 4, 3, (7, 0, 0))]
    s = position(V, spots, declared=["throw", "rest", "rest"])
    thrown = act(s, 0, "throw", target="B", to=[2, 3], given=[0])  # over C: obstacles ignored
    assert ham(thrown, 1).square == (2, 3)
    with pytest.raises(IllegalMoveError, match="throws 3 square"):
        act(s, 0, "throw", target="B", to=[1, 3], given=[0])
    with pytest.raises(IllegalMoveError, match="must land on an empty square"):
        act(s, 0, "throw", target="B", to=[4, 3], given=[0])
    near = position(V, [("A", 4, 3, (0, 6, 1)), ("B", 3, 3, (2, 2, 3))], declared=["throw", "rest"])
    assert ham(act(near, 0, "throw", target="B", to="pit", given=[0]), 1).in_pit


def test_judo_throw_with_four_mettle_lands_next_to_the_thrower() -> None:
    s = position(V, [("A", 5, 3, (0, 4, 3)), ("B", 4, 3, (2, 2, 3))], declared=["throw", "rest"])
    s = act(s, 0, "throw", target="B", to=[6, 3], given=[0])  # 3 from B, but next to A
    assert ham(s, 1).square == (6, 3)
    weak = position(V, [("A", 5, 3, (1, 3, 3)), ("B", 4, 3, (2, 2, 3))], declared=["throw", "rest"])
    with pytest.raises(IllegalMoveError):
        act(weak, 0, "throw", target="B", to=[6, 3], given=[0])


def test_rest_takes_a_chip_back_unless_in_the_pit() -> None:
    s = position(V, [("A", 5, 3, (1, 3, 1)), ("B", 4, 3, (2, 2, 3))], declared=["rest", "rest"])
    s2 = act(s, 0, "rest", to="mettle")
    assert ham(s2, 0).traits == (1, 4, 1) and ham(s2, 0).fatigue == 1
    pit = position(V, [("A", 0, 3, (1, 3, 1)), ("B", 4, 3, (2, 2, 3))], declared=["rest", "rest"])
    assert ham(act(pit, 0, "rest"), 0).fatigue == 2


def test_change_of_action_spends_a_face_up_chip() -> None:
    s = position(V, [("A", 5, 3, (2, 3, 2)), ("B", 4, 1, (2, 2, 3))], declared=["bite", "rest"])
    s = act(s, 0, "change", action="run", chip="mettle")
    assert ham(s, 0).traits == (2, 2, 2) and ham(s, 0).fatigue == 1
    with pytest.raises(IllegalMoveError, match="once"):
        act(s, 0, "change", action="rest")


def test_pit_hamster_cannot_move_or_be_targeted() -> None:
    s = position(V, [("A", 0, 3, (3, 2, 2)), ("B", 1, 3, (2, 2, 3))], declared=["run", "rest"])
    with pytest.raises(IllegalMoveError, match="cannot get out"):
        act(s, 0, "run", path=[[1, 2]])
    s = position(V, [("A", 1, 3, (3, 2, 2)), ("B", 0, 3, (2, 2, 3))], declared=["bite", "rest"])
    with pytest.raises(IllegalMoveError, match="next to it"):
        act(s, 0, "bite", target="B")


def test_passed_out_hamster_may_only_rest() -> None:
    s = position(V, [("A", 5, 3, (0, 0, 0)), ("B", 4, 1, (2, 2, 3))], phase="declare", current=0)
    with pytest.raises(IllegalMoveError, match="passed out"):
        act(s, 0, "declare", action="run")
    assert ham(act(s, 0, "declare", action="rest"), 0).declared == "rest"


def test_next_during_resolve_finishes_the_current_hamster() -> None:
    s = position(V, [("A", 5, 3, (2, 3, 2)), ("B", 4, 1, (2, 2, 3))], declared=["run", "run"])
    s = nxt(s)
    assert s.ctx.current == 1 and ham(s, 0).did == "run"


def test_the_free_sidestep_cannot_push() -> None:
    s = position(V, [("A", 2, 2, (1, 3, 3)), ("B", 2, 3, (2, 2, 3))], declared=["run", "rest"])
    with pytest.raises(IllegalMoveError, match="occupied by B"):
        act(s, 0, "sidestep", to=[2, 3])


def test_the_page_offers_the_chip_paid_for_a_change_as_the_players_choice() -> None:
    """One 'Change to …' button per trait that has a chip to pay with (issue: the engine
    used to take the chip itself)."""
    from companion.engine.legal import legal_moves
    from companion.games.run_hamster_run import SPEC

    s = position(V, [("A", 5, 3, (2, 3, 0)), ("B", 4, 1, (2, 2, 3))], declared=["bite", "rest"])
    changes = [c for c in legal_moves(SPEC, s) if c["name"] == "change" and c["seat"] == 0]
    paid = {c["args"]["chip"] for c in changes}
    assert paid == {"scamper", "mettle"}  # no Friskiness chip to pay with
    run_paying_scamper = next(
        c for c in changes if c["args"] == {"action": "run", "chip": "scamper"}
    )
    assert run_paying_scamper["label"] == "Change to Run (pay Scamper)"
    s = act(s, 0, "change", **run_paying_scamper["args"])
    assert ham(s, 0).traits == (1, 3, 0)


def test_rest_in_the_pit_is_not_offered_as_a_chip_back() -> None:
    # v2.1: resting in the Pit regains nothing, so the tablet offers a plain Rest there,
    # not "Rest: a chip back to Mettle" (tapping that gave no chip back).
    pit = position(V, [("A", 0, 3, (1, 3, 1)), ("B", 4, 3, (2, 2, 3))], declared=["rest", "rest"])
    labels = [m["label"] for m in legal_moves(SPEC, pit)]
    assert "Rest" in labels
    assert not [label for label in labels if "chip back" in label]
    belt = position(V, [("A", 5, 3, (1, 3, 1)), ("B", 4, 3, (2, 2, 3))], declared=["rest", "rest"])
    assert "Rest: a chip back to Mettle" in [m["label"] for m in legal_moves(SPEC, belt)]
