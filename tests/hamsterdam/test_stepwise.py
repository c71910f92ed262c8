"""The step-wise moves the tablet's buttons drive: they end where the one-shot moves do.

Passing two cards, lining up eleven and standing a dozen hamsters cannot be offered as
buttons for every combination, so the rules take them one at a time; these tests pin down
that the steps reach exactly the states of ``pass_cards``, ``arrange`` and ``place``.
"""

from __future__ import annotations

import pytest

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import evolve
from companion.engine.session import GameHeader, Session
from companion.games.hamsterdam import SPEC, Hamsterdam
from companion.games.hamsterdam.model import ARRANGE, PASS, PLACE, READY, WAIT, Player
from tests.hamsterdam.board import act, at, dam, nxt, piece, player, spot, table

NAMES = ("Ann", "Ben", "Cy")


def full() -> Session[Hamsterdam]:
    return Session(SPEC, GameHeader(SPEC.name, "full", NAMES, 3))


def test_cards_passed_one_at_a_time_go_left_then_right() -> None:
    steps, whole = full(), full()
    steps.move(0, "pass_card", card=2)
    assert steps.state.G.players[0].stage == PASS and steps.state.G.players[0].passing == (2,)
    with pytest.raises(IllegalMoveError, match="not chosen yet"):
        steps.move(0, "pass_card", card=2)
    steps.move(0, "pass_card", card=12)
    assert steps.state.G.players[0].stage == WAIT
    with pytest.raises(IllegalMoveError, match="must wait"):
        steps.move(0, "pass_card", card=3)
    whole.move(0, "pass_cards", cards=[2, 12])
    for seat, cards in ((1, [3, 5]), (2, [7, 9])):
        for card in cards:
            steps.move(seat, "pass_card", card=card)
        whole.move(seat, "pass_cards", cards=cards)
    assert steps.state.G == whole.state.G


def test_a_dam_laid_card_by_card_equals_the_arranged_one() -> None:
    steps, whole = full(), full()
    for s in (steps, whole):
        for seat, cards in enumerate(([2, 12], [3, 5], [7, 9])):
            s.move(seat, "pass_cards", cards=cards)
    ann = steps.state.G.players[0]
    assert ann.stage == ARRANGE and ann.keep == 2
    order = [c.value for c in ann.hand][::-1]
    kept = [d.id for d in ann.dealt[:2]]
    whole.move(0, "arrange", order=order, keep=kept)
    for ref in kept:
        steps.move(0, "keep_special", special=ref)
    with pytest.raises(IllegalMoveError, match="kept every special"):
        steps.move(0, "keep_special", special=ann.dealt[2].id)
    steps.move(0, "lay_card", card=order[0])
    assert [s.value for s in steps.state.G.players[0].dam] == order[:1]
    with pytest.raises(IllegalMoveError, match="holds no 13 card"):
        steps.move(0, "lay_card", card=13)
    steps.move(0, "arrange", order=order[1:], keep=[])  # "the rest in this order"
    assert steps.state.G.players[0] == whole.state.G.players[0]
    assert steps.state.G.players[0].stage == PLACE


def placing(name: str, values: tuple[int, ...], plain: int, *specials: str) -> Player:
    """A player whose hamsters all rest, waiting to be stood on the dam."""
    resting = tuple(piece(s) for s in specials)
    return evolve(player(name, dam(*values)), stage=PLACE, rest_plain=plain, rest_specials=resting)


def test_hamsters_stood_one_at_a_time_then_the_rest_spread() -> None:
    game = table([placing("Ann", (2, 7, 12), 3, "Swimster"), player("Ben", dam(5, 6, plain=1))])
    state = act(at(game, "setup"), 0, "stand", at=1, hamster=None)
    assert state.G.players[0].dam[0].plain == 1 and state.G.players[0].rest_plain == 2
    state = act(state, 0, "spread")
    ann = state.G.players[0]
    assert ann.stage == READY and ann.rest_plain == 0 and not ann.rest_specials
    assert ann.dam[0].plain == 1, "the hamster already standing stays"
    assert ann.dam[1].plain == 2, "the rest go where two dice roll most"
    with pytest.raises(IllegalMoveError, match="must wait: they are ready"):
        act(state, 0, "stand", at=1)


def test_the_last_hamster_stood_makes_the_player_ready() -> None:
    game = table([placing("Ann", (2, 3), 1), player("Ben", dam(5))])
    state = act(at(game, "setup"), 0, "stand", at=2)
    assert state.G.players[0].stage == READY and state.G.players[0].dam[1].plain == 1


def test_the_table_may_say_who_won_the_roll_off() -> None:
    game = table([player("Ann", dam(2)), player("Ben", dam(5))], first=-1)
    state = act(at(game, "setup"), 1, "roll_off", first=1)
    assert state.G.first == 1
    with pytest.raises(IllegalMoveError, match="already rolls first"):
        act(state, 0, "roll_off", first=0)
    with pytest.raises(IllegalMoveError, match="no seat 5"):
        act(at(game, "setup"), 0, "roll_off", first=5)


def redeploying() -> Hamsterdam:
    ann = player("Ann", [spot(2, 2), spot(3, tokens=1), spot(4, 0, "Swimster"), spot(5)])
    return table([ann, player("Ben", dam(6, 7, plain=1))])


def test_redeploying_by_lifting_then_standing_one_by_one() -> None:
    state = act(at(redeploying(), "redeploy"), 0, "lift")
    ann = state.G.players[0]
    assert ann.stage == PLACE and ann.rest_plain == 2 and len(ann.rest_specials) == 1
    assert all(s.hamsters == 0 for s in ann.dam) and ann.dam[1].tokens == 1
    with pytest.raises(IllegalMoveError, match="already picked up"):
        act(state, 0, "lift")
    with pytest.raises(IllegalMoveError, match="flood token"):
        act(state, 0, "stand", at=2)
    swimster = ann.rest_specials[0].id
    state = act(state, 0, "stand", at=2, hamster=swimster)  # only Swimster may
    state = act(state, 0, "stand", at=4)
    state = act(state, 0, "stand", at=4)
    ann = state.G.players[0]
    assert ann.redeployed and ann.stage == READY, "nothing left to stand: done"
    assert [s.hamsters for s in ann.dam] == [0, 1, 0, 2]


def test_water_can_still_be_cleared_after_lifting() -> None:
    state = act(at(redeploying(), "redeploy"), 0, "lift")
    state = act(state, 0, "clear", at=2)
    assert state.G.players[0].tokens_on_dam == 0 and state.G.players[0].rest_plain == 1


def test_next_finishes_a_lifted_player_keeping_who_already_stands() -> None:
    state = act(at(redeploying(), "redeploy"), 0, "lift")
    state = act(state, 0, "stand", at=1)
    state = nxt(state)
    ann = state.G.players[0]
    assert ann.stage == READY and ann.rest_plain == 0 and not ann.rest_specials
    assert ann.dam[0].plain >= 1 and ann.hamsters == 3
    assert state.ctx.phase == "round"
