"""The round's phases: set-up, initiative, declarations, belt, alligators, fatigue, tally."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import evolve
from companion.engine.flow import initial_state
from companion.engine.rng import Draws
from companion.games.run_hamster_run import SPEC
from companion.games.run_hamster_run.model import ASTERISK_STRIP
from companion.games.run_hamster_run.rounds import draw_initiative
from tests.run_hamster_run.board import act, ham, nxt, position
from tests.run_hamster_run.helpers import new_game


def test_setup_order_comes_from_the_hat_and_start_rows_are_one_to_five() -> None:
    state, _ = initial_state(SPEC, "v2.1", ("A", "B", "C"), 5, given=([2, 0, 1],))
    assert state.G.placement == (2, 0, 1) and state.ctx.current == 2
    with pytest.raises(IllegalMoveError, match="rows 1 to 5"):
        act(state, 2, "place", to=[6, 1])
    state = act(state, 2, "place", to=[5, 1])
    with pytest.raises(IllegalMoveError, match="taken"):
        act(state, 0, "place", to=[5, 1])
    assert state.ctx.current == 0
    assert state.G.speed == 1 and state.G.alligators == 1 and state.G.asterisk_row == 5


def test_allocation_is_secret_until_everyone_has_allocated() -> None:
    s = new_game("v2.1", [(1, 1), (1, 2)], [(3, 2, 2), (4, 2, 1)], initiative=[0, 1])
    assert ham(s.state, 0).traits == (3, 2, 2)
    # Next round: A allocates; B's view must not show it until the reveal.
    state = s.state
    for _ in range(7):
        state = nxt(state) if state.ctx.phase != "declare" else state
        if state.ctx.phase == "declare":
            for _ in range(2):
                assert state.ctx.current is not None
                state = act(state, state.ctx.current, "declare", action="rest")
            state = nxt(state)
            state = nxt(nxt(state))  # both rest (finish each)
    while state.ctx.phase != "allocate":
        state = nxt(state)
    state = act(state, 0, "allocate", scamper=5, mettle=1, friskiness=0)
    seen_by_b = SPEC.presentation.view(state.G, state.ctx, 1)["hamsters"][0]
    seen_by_a = SPEC.presentation.view(state.G, state.ctx, 0)["hamsters"][0]
    assert seen_by_b["traits"] is None and "my_allocation" not in seen_by_b
    assert seen_by_a["my_allocation"] == {"scamper": 5, "mettle": 1, "friskiness": 0}
    with pytest.raises(IllegalMoveError, match="Waiting for B"):
        nxt(state)


def test_allocation_must_use_exactly_the_pluck_in_hand() -> None:
    s = position(
        "v2.1", [("A", 1, 1, (3, 2, 1)), ("B", 1, 2, (3, 2, 2))], phase="allocate", current=None
    )
    with pytest.raises(IllegalMoveError, match="6 Pluck to allocate"):
        act(s, 0, "allocate", scamper=3, mettle=2, friskiness=2)
    assert ham(act(s, 0, "allocate", scamper=6, mettle=0, friskiness=0), 0).allocation == (6, 0, 0)


def test_a_declaration_without_an_action_says_it_is_missing_and_lists_the_actions() -> None:
    s = new_game("v2.1", [(1, 1), (1, 2)], [(3, 2, 2), (4, 2, 1)], initiative=[0, 1])
    seat = s.state.ctx.current
    assert seat is not None
    with pytest.raises(IllegalMoveError) as missing:
        act(s.state, seat, "declare")
    assert str(missing.value) == (
        "Say which action the hamster takes: one of Bite, Run, Throw, Rest."
    )
    with pytest.raises(IllegalMoveError, match="'dance' is not an action in these rules"):
        act(s.state, seat, "declare", action="dance")


def test_initiative_is_weighted_by_friskiness_and_chipless_hamsters_go_last() -> None:
    s = position(
        "classic",
        [
            ("A", 1, 1, (4, 3, 0)),
            ("B", 1, 2, (0, 1, 6)),
            ("C", 1, 3, (0, 5, 2)),
            ("D", 1, 4, (7, 0, 0)),
        ],
        phase="initiative",
    )
    firsts: Counter[int] = Counter()
    for seed in range(3000):
        game = draw_initiative(s.G, s.ctx, Draws(seed * 7919 + 1))
        assert set(game.initiative[2:]) == {0, 3}
        firsts[game.initiative[0]] += 1
    assert abs(firsts[1] / 3000 - 6 / 8) < 0.03


def test_v21_no_friskiness_anywhere_speeds_the_belt() -> None:
    s = position("v2.1", [("A", 1, 1, (4, 3, 0)), ("B", 1, 2, (7, 0, 0))], phase="initiative")
    assert draw_initiative(s.G, s.ctx, Draws(1)).speed == 2
    c = position("classic", [("A", 1, 1, (4, 3, 0)), ("B", 1, 2, (7, 0, 0))], phase="initiative")
    assert draw_initiative(c.G, c.ctx, Draws(1)).speed == 1


def test_declare_lowest_first_and_resolve_highest_first() -> None:
    s = new_game(
        "v2.1", [(1, 1), (1, 2), (1, 3)], [(3, 2, 2), (4, 2, 1), (4, 1, 2)], initiative=[1, 2, 0]
    )
    assert s.state.G.initiative == (1, 2, 0)
    assert s.state.ctx.current == 0
    s.move(0, "declare", action="run")
    assert s.state.ctx.current == 2
    s.move(2, "declare", action="run")
    s.move(1, "declare", action="run")
    s.next()
    assert s.state.ctx.current == 1


def test_v21_everyone_resting_speeds_the_belt() -> None:
    s = new_game("v2.1", [(1, 1), (1, 2)], [(3, 2, 2), (4, 2, 1)], initiative=[0, 1])
    s.move(1, "declare", action="rest")
    s.move(0, "declare", action="rest")
    s.next()
    assert s.state.G.speed == 2
    c = new_game("classic", [(1, 1), (1, 2)], [(3, 2, 2), (4, 2, 1)], initiative=[0, 1])
    c.move(1, "declare", action="rest")
    c.move(0, "declare", action="rest")
    c.next()
    assert c.state.G.speed == 1


def _belt(rules: str, speed: int, asterisk_row: int) -> object:
    strips = list(range(10))
    strips.remove(ASTERISK_STRIP)
    strips.insert(asterisk_row - 1, ASTERISK_STRIP)
    return position(
        rules,
        [("A", 1, 1, (3, 2, 2)), ("B", 2, 2, (3, 2, 2)), ("C", 7, 3, (3, 2, 2))],
        phase="resolve",
        current=None,
        speed=speed,
        strips=tuple(strips),
    )


def test_belt_moves_once_per_speed_chip_and_dumps_row_one_into_the_pit() -> None:
    s = nxt(_belt("classic", 2, 5))  # type: ignore[arg-type]
    assert s.ctx.phase == "belt"
    assert ham(s, 0).in_pit and ham(s, 1).in_pit and ham(s, 2).square == (5, 3)
    assert s.G.asterisk_row == 3
    assert "Move 2 of 2" in s.G.notes[-1] and "B falls into the Pit" in s.G.notes[-1]


def test_asterisk_strip_coming_round_changes_speed_by_the_rules() -> None:
    assert nxt(_belt("classic", 1, 1)).G.speed == 2  # type: ignore[arg-type]
    assert nxt(_belt("classic", 5, 1)).G.speed == 6  # type: ignore[arg-type]
    assert nxt(_belt("v2.1", 1, 1)).G.speed == 2  # type: ignore[arg-type]
    assert nxt(_belt("v2.1", 5, 1)).G.speed == 4  # type: ignore[arg-type]
    assert nxt(_belt("v2.1", 4, 1)).G.speed == 4  # type: ignore[arg-type]


def _pit(
    rules: str, alligators: int, spots: list[tuple[str, int, int, tuple[int, int, int]]]
) -> object:
    return position(rules, spots, phase="belt", current=None, alligators=alligators)


def test_classic_alligators_arrive_and_chomp_with_d6_plus_3_mettle() -> None:
    s = _pit("classic", 1, [("A", 0, 1, (1, 3, 1)), ("B", 5, 2, (3, 2, 2))])
    # arrival die 1 (<= 1 in the Pit): +1 alligator; then 2 dice: 1 chomps, 6 does not.
    # Chomp: pick A; alligator Mettle 2+3; HAT: alligator; A loses a die of 2 Pluck.
    after = nxt(s, given=[1, 1, "0", 2, "alligator", 2, 6])  # type: ignore[arg-type]
    assert after.G.alligators == 2
    assert ham(after, 0).pluck == 3 and ham(after, 0).fatigue == 4
    won = nxt(s, given=[6, 1, "0", 4, 0])  # type: ignore[arg-type]
    assert won.G.alligators == 1 and ham(won, 0).traits[1] == 2  # winner's Mettle loss


def test_classic_chomp_eats_a_hamster_losing_its_last_pluck() -> None:
    s = _pit("classic", 1, [("A", 0, 1, (1, 1, 0)), ("B", 5, 2, (3, 2, 2))])
    after = nxt(s, given=[6, 1, "0", 3, "alligator", 2])  # type: ignore[arg-type]
    assert ham(after, 0).eaten
    no_mettle = _pit("classic", 1, [("A", 0, 1, (3, 0, 0)), ("B", 5, 2, (3, 2, 2))])
    # A has no Mettle to resist: no HAT draw, the alligator wins.
    after = nxt(no_mettle, given=[6, 1, "0", 3, 2])  # type: ignore[arg-type]
    assert ham(after, 0).pluck == 1


def test_v21_alligators_grow_with_a_hamster_in_the_pit_and_shrink_without() -> None:
    empty = _pit("v2.1", 3, [("A", 5, 1, (1, 3, 1)), ("B", 5, 2, (3, 2, 2))])
    assert nxt(empty).G.alligators == 2  # type: ignore[arg-type]
    one = _pit("v2.1", 1, [("A", 5, 1, (1, 3, 1)), ("B", 5, 2, (3, 2, 2))])
    assert nxt(one).G.alligators == 1  # type: ignore[arg-type]


def test_v21_pit_test_loses_half_the_alligators_rounded_up_then_one_leaves() -> None:
    s = _pit("v2.1", 2, [("A", 0, 1, (1, 3, 1)), ("B", 5, 2, (3, 2, 2))])
    after = nxt(s, given=["alligator"])  # type: ignore[arg-type]
    # 3 alligators after arrival: A loses ceil(3/2) = 2 chips, then one alligator leaves.
    assert ham(after, 0).pluck == 3 and after.G.alligators == 2
    safe = nxt(s, given=[0])  # type: ignore[arg-type]
    assert ham(safe, 0).pluck == 5 and safe.G.alligators == 3


def test_v21_lowest_mettle_faces_the_alligators_first_and_empty_hamsters_are_eaten() -> None:
    s = _pit(
        "v2.1",
        1,
        [
            ("A", 0, 1, (0, 0, 0)),
            ("B", 0, 2, (1, 4, 1)),
            ("C", 0, 3, (4, 1, 1)),
            ("D", 5, 2, (3, 2, 2)),
        ],
    )
    after = nxt(s, given=["alligator", 1])  # type: ignore[arg-type]
    assert ham(after, 0).eaten
    assert ham(after, 2).pluck == 5  # C (Mettle 1) went first and lost ceil(2/2)=1
    assert ham(after, 1).pluck == 6


def test_fatigue_classic_on_even_die_v21_always_for_non_resters() -> None:
    spots = [("A", 5, 1, (3, 3, 1)), ("B", 5, 2, (3, 2, 2))]
    c = evolve(
        position("classic", spots, phase="alligators", current=None),
    )
    c = evolve(
        c,
        G=evolve(
            c.G,
            hamsters=tuple(
                evolve(h, did=d) for h, d in zip(c.G.hamsters, ["run", "rest"], strict=True)
            ),
        ),
    )
    after = nxt(c, given=[2])
    assert ham(after, 0).fatigue == 1 and ham(after, 1).fatigue == 0
    # The die is named whichever way it falls (it was named only when odd).
    assert after.G.notes == ("A tires (rolls 2): one Pluck chip to Fatigue.",)
    assert ham(nxt(c, given=[3]), 0).fatigue == 0
    assert nxt(c, given=[3]).G.notes == ("A rolls 3: no Fatigue.",)
    v = evolve(c, G=evolve(c.G, rules="v2.1"))
    assert ham(nxt(v), 0).fatigue == 1 and ham(nxt(v), 1).fatigue == 0


def test_tally_last_hamster_wins_and_none_left_means_alligators_win() -> None:
    s = position(
        "v2.1", [("A", 0, 1, (1, 3, 1)), ("B", 5, 2, (3, 2, 2))], phase="fatigue", current=None
    )
    eaten = evolve(s, G=s.G.with_hamster(0, evolve(ham(s, 0), eaten=True)))
    over = nxt(eaten)
    assert over.ctx.over and over.ctx.winners == (1,) and "B" in over.ctx.result
    both = evolve(eaten, G=eaten.G.with_hamster(1, evolve(ham(eaten, 1), eaten=True)))
    assert "alligators win" in nxt(both).ctx.result
    going = nxt(s)
    assert not going.ctx.over  # a hamster in the Pit is still in play
    with pytest.raises(IllegalMoveError, match="game is over"):
        nxt(over)


def test_hat_odds_are_chips_over_all_chips() -> None:
    wins = sum(Draws(seed * 104729).hat({0: 3, 1: 1}, "test") == 0 for seed in range(4000))
    assert abs(wins / 4000 - 0.75) < 0.03


def test_face_down_chips_turn_back_up_at_the_next_round() -> None:
    s = position(
        "classic", [("A", 5, 1, (3, 3, 1)), ("B", 5, 2, (3, 2, 2))], phase="new_round", current=None
    )
    s = evolve(s, G=s.G.with_hamster(0, evolve(ham(s, 0), down=(2, 0, 0))))
    s = nxt(s)
    assert s.ctx.phase == "allocate" and ham(s, 0).down == (0, 0, 0)


def test_each_chomp_picks_its_own_pit_hamster() -> None:
    s = _pit("classic", 2, [("A", 0, 1, (1, 5, 1)), ("B", 0, 2, (1, 5, 1)), ("C", 5, 2, (3, 2, 2))])
    # No arrival (6); both alligators chomp (1, 1); the first hits A, the second B; both win.
    after = nxt(s, given=[6, 1, "0", 4, 0, 1, "1", 4, 1])  # type: ignore[arg-type]
    assert ham(after, 0).traits[1] == 4 and ham(after, 1).traits[1] == 4


def test_v21_alligators_never_drop_below_one() -> None:
    s = _pit("v2.1", 1, [("A", 0, 1, (1, 5, 1)), ("B", 5, 2, (3, 2, 2))])
    # One arrives (2 now); A loses the test: ceil(2/2) = 1 chip, then one leaves (1 left).
    after = nxt(s, given=["alligator"])  # type: ignore[arg-type]
    assert after.G.alligators == 1 and ham(after, 0).pluck == 6


def test_face_down_chips_count_in_a_test() -> None:
    from tests.run_hamster_run.board import outcome

    s = position("v2.1", [("A", 5, 3, (3, 2, 2)), ("B", 4, 3, (2, 4, 1))], declared=["run", "rest"])
    s = evolve(s, G=s.G.with_hamster(1, evolve(ham(s, 1), down=(0, 3, 0))))
    drawn = outcome(s, 0, "push", direction="down")
    assert drawn[0]["chips"] == {"0": 2, "1": 4}


def test_belt_moves_as_many_times_as_speed_chips_at_the_start_of_the_phase() -> None:
    s = nxt(_belt("classic", 1, 1))  # type: ignore[arg-type]
    assert s.G.speed == 2  # the asterisks came round during the move...
    assert [n for n in s.G.notes if n.startswith("Move")] == [
        n for n in s.G.notes if "Move 1 of 1" in n
    ]  # ...but the belt still moved only once


def test_v21_chips_turn_face_up_when_actions_are_declared() -> None:
    s = position(
        "v2.1", [("A", 5, 1, (3, 3, 1)), ("B", 5, 2, (3, 2, 2))], phase="initiative", current=None
    )
    s = evolve(s, G=s.G.with_hamster(0, evolve(ham(s, 0), down=(2, 1, 0))))
    s = nxt(s)
    assert s.ctx.phase == "declare" and ham(s, 0).down == (0, 0, 0)


def test_v21_the_player_picks_the_trait_tested_against_the_alligators() -> None:
    """The engine used to test the largest trait always; the player may choose it at
    allocation (``against_alligators``), and the Chomp! test records that trait."""
    s = _pit("v2.1", 2, [("A", 0, 1, (3, 1, 1)), ("B", 5, 2, (3, 2, 2))])
    chose = evolve(s, G=s.G.with_hamster(0, evolve(ham(s, 0), chomp_trait=1)))  # type: ignore[attr-defined, arg-type]
    after = nxt(chose, given=[0])  # type: ignore[arg-type]
    assert after.G.tests[-1].trait == "mettle"
    largest = nxt(s, given=[0])  # type: ignore[arg-type]
    assert largest.G.tests[-1].trait == "scamper"


def test_the_choice_against_the_alligators_is_made_with_the_allocation() -> None:
    state = initial_state(SPEC, "v2.1", ("A", "B"), 1, given=([0, 1],))[0]
    state = act(state, 0, "place", to=[1, 1])
    state = nxt(act(state, 1, "place", to=[1, 2]))
    assert state.ctx.phase == "allocate"
    state = act(
        state, 0, "allocate", scamper=3, mettle=2, friskiness=2, against_alligators="mettle"
    )
    assert ham(state, 0).chomp_trait == 1
    with pytest.raises(IllegalMoveError, match="not a trait to test"):
        act(state, 1, "allocate", scamper=3, mettle=2, friskiness=2, against_alligators="luck")


def test_classic_alligator_dice_are_shown_with_their_values() -> None:
    # The companion rolls the alligators' dice in classic: each value is on the table's
    # notes, so nobody has to trust a result without the roll behind it.
    s = _pit("classic", 1, [("A", 0, 1, (1, 3, 1)), ("B", 5, 2, (3, 2, 2))])
    after = nxt(s, given=[1, 1, "0", 2, "alligator", 2, 6])  # type: ignore[arg-type]
    notes = " ".join(after.G.notes)
    assert "Alligator die 1" in notes and "another alligator" in notes
    assert "Alligator 1 rolls 1: Chomp! on A" in notes
    assert "die 2 + 3 = 5" in notes and "bite die 2" in notes
    assert "Alligator 2 rolls 6: no Chomp!" in notes


def test_undo_says_which_chips_to_put_back() -> None:
    # A mis-pressed NEXT into Fatigue (v2.1: every non-rester gives up a chip) is undone:
    # the page must say where each hamster's chips go, not only where the pieces stand.
    s = new_game("v2.1", places=[(5, 1), (5, 3)], allocations=[(3, 2, 2), (3, 2, 2)])
    for seat in reversed(s.state.G.initiative):
        s.move(seat, "declare", action="run")
    s.next()
    first = s.state.G.initiative[0]
    s.move(first, "run", path=[[6, 1 if first == 0 else 3]])
    for _ in range(4):  # both resolve, belt, alligators
        s.next()
    assert s.state.ctx.phase == "alligators"
    before = s.state.G
    s.next()  # Fatigue: each hamster loses a chip
    tired = s.state.G
    assert SPEC.table_changes is not None
    back = SPEC.table_changes(tired, before)
    assert "Alice's chips to Scamper 3" in back and "and 0 in Fatigue" in back
    assert "(1 face-down)" in back  # the first runner's flipped Scamper chip
    forward = SPEC.table_changes(before, tired)
    assert "and 1 in Fatigue" in forward and "Bob's chips" in forward


def test_terminal_board_before_the_first_allocation_shows_pluck_not_a_split() -> None:
    # Before anyone allocates, the seven chips are in the hand; the terminal showed them
    # as "S7 M0 F0", as if every hamster had put all its Pluck in Scamper.
    state, _ = initial_state(SPEC, "v2.1", ("Ann", "Bob"), 5, given=([0, 1],))
    assert SPEC.presentation.text is not None
    board = SPEC.presentation.text(state.G, state.ctx)
    assert "S7" not in board and "Pluck 7" in board
    for seat in (0, 1):
        state = act(state, seat, "place", to=[5, seat + 1])
    state = nxt(state)  # round 1, Allocate: still nothing revealed
    assert state.ctx.phase == "allocate" and "Pluck 7" in SPEC.presentation.text(state.G, state.ctx)
    state = act(
        act(state, 0, "allocate", scamper=3, mettle=2, friskiness=2),
        1,
        "allocate",
        scamper=4,
        mettle=2,
        friskiness=1,
    )
    state = nxt(state, given=[0])
    assert "S3 M2 F2" in SPEC.presentation.text(state.G, state.ctx)
