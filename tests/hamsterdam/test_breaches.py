"""Breaches in the full game: the 3rd, the 5th and every later token flip an end card."""

from __future__ import annotations

import pytest

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import evolve
from companion.games.hamsterdam import SPEC
from companion.games.hamsterdam.breach import due
from companion.games.hamsterdam.model import breaches_due, tokens_to_next_breach
from tests.hamsterdam.board import act, at, dam, nxt, player, rolled, rolling, spot, table


def test_breaches_fall_on_the_third_fifth_and_every_later_token() -> None:
    assert [breaches_due(pile) for pile in range(9)] == [0, 0, 0, 1, 1, 2, 3, 4, 5]
    assert [tokens_to_next_breach(pile) for pile in range(7)] == [3, 2, 1, 2, 1, 1, 1]


def test_breaches_in_sequence_as_water_reaches_the_pile() -> None:
    wet = [spot(6, tokens=1) for _ in range(4)]
    game = table([player("Ann", [spot(2, 1), *wet, spot(12, 2)], pile=2), player("Ben", dam(3))])
    state = nxt(rolled(rolling(game), 3, 3))  # four wet 6s: four tokens into the pile
    ann = state.G.players[0]
    assert ann.pile == 6 and due(ann) == 3, "the 3rd, 5th and 6th tokens each breach"
    state = nxt(state)
    assert state.ctx.phase == "breach"
    state = act(state, 0, "flip", end="right")
    ann = state.G.players[0]
    assert [s.value for s in ann.dam] == [2, 6, 6, 6, 6] and ann.flipped[0].value == 12
    with pytest.raises(IllegalMoveError, match="left or the right"):
        act(state, 0, "flip", end="middle")
    state = nxt(state)  # NEXT flips the other two, the cheaper (dry) end first
    ann = state.G.players[0]
    assert ann.breaches == 3 and state.ctx.phase == "dice"
    with pytest.raises(IllegalMoveError, match="no breach"):
        act(at(state.G, "breach"), 0, "flip", end="left")


def test_hamsters_shift_inward_and_one_is_sacrificed_to_a_token() -> None:
    game = table(
        [
            player("Ann", [spot(2, 2, "Swimster"), spot(3, tokens=1), spot(4)], pile=3),
            player("Ben", dam(5)),
        ]
    )
    state = act(at(game, "breach"), 0, "flip", end="left")
    ann = state.G.players[0]
    assert [s.value for s in ann.dam] == [3, 4]
    assert ann.dam[0].plain == 1 and ann.dam[0].tokens == 0 and ann.lost == 1
    assert [s.name for s in ann.dam[0].specials] == ["Swimster"]
    assert state.G.removed == 1 and ann.pile == 3


def test_the_owner_may_choose_whom_to_sacrifice() -> None:
    game = table(
        [player("Ann", [spot(2, 1, "Napster"), spot(3, tokens=1)], pile=3), player("Ben", dam(5))]
    )
    state = act(at(game, "breach"), 0, "flip", end="left", sacrifice="Napster")
    assert state.G.players[0].dam[0].plain == 1 and not state.G.players[0].dam[0].specials


def test_a_token_on_the_flipped_card_goes_to_the_pile_and_counts_toward_the_next() -> None:
    ann = player("Ann", [spot(2, tokens=1), spot(6, tokens=1), spot(4)], pile=4, breaches=1)
    state = nxt(rolled(rolling(table([ann, player("Ben", dam(5))])), 3, 3))
    assert state.G.players[0].pile == 5 and due(state.G.players[0]) == 1
    state = act(nxt(state), 0, "flip", end="left")  # the 2 card's token is the 6th
    ann = state.G.players[0]
    assert ann.pile == 6 and ann.breaches == 2 and due(ann) == 1, "so it breaches again"


def test_a_breach_that_reaches_the_threshold_ends_the_game_at_once() -> None:
    game = table(
        [
            player("Ann", [spot(2, tokens=1), spot(3)], pile=5, breaches=1),
            player("Ben", dam(5), pile=4),
        ]
    )
    state = act(at(game, "breach"), 0, "flip", end="left")
    assert state.ctx.over and state.ctx.winners == (1,)


def test_classic_has_no_breaches() -> None:
    ann = player("Ann", [spot(6, tokens=1), spot(8)], pile=2)
    state = nxt(rolled(rolling(table([ann, player("B", dam(3))], rules="classic")), 3, 3))
    assert state.G.players[0].pile == 3
    assert nxt(state).ctx.phase == "dice"


def test_flipping_the_last_card_sends_its_hamsters_to_rest() -> None:
    game = table([player("Ann", [spot(7, 2, "Swimster")], pile=3), player("Ben", dam(5))])
    state = act(at(game, "breach"), 0, "flip", end="right")
    ann = state.G.players[0]
    assert ann.dam == () and ann.rest_plain == 2 and len(ann.rest_specials) == 1


def test_the_terminal_counts_down_to_a_breach_only_in_the_full_game() -> None:
    """The classic game has no breaches: its terminal board said 'breach in 3' all game."""
    assert SPEC.presentation.text is not None
    ann = player("Ann", [spot(6, tokens=1), spot(8)], pile=2)
    classic = at(table([ann, player("Ben", dam(3))], rules="classic"), "roll")
    assert "breach" not in SPEC.presentation.text(classic.G, classic.ctx)
    full = at(table([ann, player("Ben", dam(3))]), "roll")
    assert "Ann: pile 2, on dam 1, total 3, breach in 1," in SPEC.presentation.text(
        full.G, full.ctx
    )
    wet = at(table([evolve(ann, pile=3), player("Ben", dam(3))]), "breach")
    assert "Ann: pile 3, on dam 1, total 4, breach now," in SPEC.presentation.text(wet.G, wet.ctx)
