"""What the nest says while it runs (issue 31's play-test): the prompt after both rats of a
scrap rolled, the last round's NEXT, a steal nobody suffers, and a winner taking nothing."""

from __future__ import annotations

import pytest

from companion.engine.legal import legal_moves
from companion.games.rats import SPEC
from companion.games.rats.model import CHALLENGES, DONE
from tests.rats.helpers import Table
from tests.rats.test_nest import BOB_WINS, DAN_LOSES


@pytest.fixture
def nest() -> Table:
    """Cat holds two pair and is dominant; Bob has the most Hate (as in test_nest)."""
    table = Table(rounds=2)
    table.set_rat(0, dominance=("Ac", "Kd"), hate=1)
    table.set_rat(1, dominance=("3c",), hate=6)
    table.set_rat(2, dominance=("Kc", "Ks", "5h", "5c"), hate=2)
    table.set_rat(3, hate=1)
    table.to_nest()
    return table


def test_once_both_rats_rolled_the_prompt_is_the_re_roll_window_not_the_pick(nest: Table) -> None:
    assert "picks who scraps" in nest.prompt
    nest.move(2, "scrap", fighter=1, opponent=3)
    nest.move(1, "roll", given=BOB_WINS)
    nest.move(3, "roll", given=DAN_LOSES)
    assert "picks who scraps" not in nest.prompt
    assert "Bob and Dan: spend Hate on re-rolls" in nest.prompt
    assert "NEXT settles the scrap" in nest.prompt


def test_the_winner_may_take_nothing(nest: Table) -> None:
    nest.move(2, "scrap", fighter=1, opponent=3)
    nest.move(1, "roll", given=BOB_WINS)
    nest.move(3, "roll", given=DAN_LOSES)
    nest.next()
    labels = [c["label"] for c in legal_moves(SPEC, nest.state)]
    assert "Bob takes nothing" in labels
    pool, cards = nest.rat(3).pool, nest.rat(3).dominance
    nest.move(1, "spoils", nothing=True)
    assert nest.rat(3).pool == pool and nest.rat(3).dominance == cards
    assert nest.game.nest is not None and nest.game.nest.stage == CHALLENGES
    assert "Bob takes nothing from Dan." in nest.game.notes


def test_a_steal_nobody_suffers_is_said_and_the_last_round_ends_the_game(nest: Table) -> None:
    nest.move(2, "scrap", fighter=1, opponent=3)
    nest.move(1, "roll", given=BOB_WINS)
    nest.move(3, "roll", given=DAN_LOSES)
    nest.next()
    nest.move(1, "spoils", nothing=True)
    nest.next()  # no challenges
    for seat in (0, 1, 3):
        nest.set_rat(seat, hate=9)
    nest.set_rat(2, hate=0)  # the Dominant Rat has the least Hate: it robs nobody
    nest.next()  # nobody mates
    assert nest.game.nest is not None and nest.game.nest.stage == DONE
    assert any(
        "Nobody is robbed: the Dominant Rat, Cat, has the least Hate itself" in line
        for line in nest.game.notes
    )
    assert nest.prompt.endswith("press NEXT for round 2.")


def test_after_the_last_rounds_nest_next_is_said_to_end_the_game() -> None:
    table = Table(rounds=1)
    table.set_rat(3, dominance=("9c", "9d"))
    table.set_rat(0, hate=3)
    table.set_rat(1, hate=5)
    table.to_nest()
    table.move(3, "scrap", fighter=1, opponent=0)
    table.move(1, "roll", given=BOB_WINS)
    table.move(0, "roll", given=DAN_LOSES)
    table.next()
    table.move(1, "spoils", nothing=True)
    table.next()
    table.move(3, "mate", rat=1)
    if table.game.nest is not None and table.game.nest.stage != DONE:
        nest = table.game.nest
        for victim in nest.victims:
            table.move(victim, "offer", die=table.rat(victim).pool[0])
        table.move(3, "steal", victim=nest.victims[0])
    assert "round 2" not in table.prompt
    assert table.prompt == "The nest is settled: press NEXT to end the game and count the scores."
    table.next()
    assert table.state.ctx.over
