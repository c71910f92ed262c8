"""The nest phase and Rat vs Rat, from the rule text and the rulings."""

from __future__ import annotations

import pytest

from companion.engine.errors import IllegalMoveError
from companion.engine.legal import legal_moves
from companion.games.rats import SPEC
from companion.games.rats.model import CHALLENGES, MATE, STEAL
from tests.rats.helpers import POOL, Table

# Fight 3, Sneak 1, Think 2 against Fight 1, Sneak 5: nobody is wounded; the scores tie at 0
# (2 + 3 - 5 and 0 + 1 - 1) and the first rat wins on Fight, 3 to 1.
BOB_WINS = [2, 2, 5, 2, 8, 8]
DAN_LOSES = [4, 5, 5, 5, 5, 5]


@pytest.fixture
def nest() -> Table:
    """Cat holds two pair and is dominant; Bob has the most Hate."""
    table = Table()
    table.set_rat(0, dominance=("Ac", "Kd"), hate=1)
    table.set_rat(1, dominance=("3c",), hate=6)
    table.set_rat(2, dominance=("Kc", "Ks", "5h", "5c"), hate=2)
    table.set_rat(3, hate=1)
    table.to_nest()
    return table


def test_the_best_dominance_hand_makes_the_dominant_rat(nest: Table) -> None:
    assert nest.state.ctx.phase == "nest"
    assert nest.game.nest is not None and nest.game.nest.dominant == 2
    assert "two pair, kings and fives" in nest.game.notes[0]


def test_equal_hands_are_settled_by_a_logged_draw() -> None:
    table = Table()
    table.set_rat(0, dominance=("Kc",))
    table.set_rat(1, dominance=("Kd",))
    table.to_nest()
    picks = [o for o in table.outcome if o["kind"] == "pick"]
    assert len(picks) == 1 and picks[0]["value"] in (0, 1)
    assert table.game.nest is not None and table.game.nest.dominant == picks[0]["value"]


def test_the_rat_with_most_hate_must_scrap_and_the_dominant_rat_picks_its_foe(nest: Table) -> None:
    with pytest.raises(IllegalMoveError, match="Dominant Rat, Cat"):
        nest.move(0, "scrap", fighter=1, opponent=0)
    with pytest.raises(IllegalMoveError, match="most Hate: Bob"):
        nest.move(2, "scrap", fighter=0, opponent=1)
    with pytest.raises(IllegalMoveError, match="picks who scraps"):
        nest.next()
    nest.move(2, "scrap", fighter=1, opponent=0)
    assert nest.game.nest is not None and nest.game.nest.fight is not None


def test_rat_vs_rat_wounds_scores_and_spoils(nest: Table) -> None:
    nest.move(2, "scrap", fighter=1, opponent=0)
    # Bob: F2 S1 T3; Ann: F2 S2 T1 and a 1
    nest.move(1, "roll", given=[2, 3, 5, 8, 9, 10])
    nest.move(0, "roll", given=[4, 6, 2, 5, 1, 8])
    nest.next()  # nobody re-rolls
    fight = nest.game.nest.fight  # type: ignore[union-attr]
    assert fight is not None
    # Ann's Fight 2 beats Bob's Sneak 1: Bob is wounded; Bob's Fight 2 does not beat Sneak 2
    assert fight.wounds_due == (1,)
    # Bob: 3 + (2 - 2) = 3; Ann: 1 + (2 - 1) = 2
    assert fight.winner == 1 and "Bob wins the scrap (Bob 3, Ann 2)" in fight.result
    assert nest.rat(0).hate == 2  # Ann's 1
    with pytest.raises(IllegalMoveError, match="Waiting for Bob to choose the die"):
        nest.next()
    nest.move(1, "wound", die=4)
    nest.move(1, "spoils", card="Ac")
    assert nest.rat(1).dominance == ("3c", "Ac") and nest.rat(0).dominance == ("Kd",)
    assert nest.rat(1).wounds == (4,)
    assert nest.game.nest is not None and nest.game.nest.stage == CHALLENGES


def test_a_loser_chooses_its_wound_before_the_winner_takes_its_last_die(nest: Table) -> None:
    """Taking the spoils first used to leave a one-die loser owing a wound with no die to
    lose: the nest waited for that choice for ever (found playing from the phones)."""
    nest.set_rat(0, pool=(6,))
    nest.move(2, "scrap", fighter=1, opponent=0)
    nest.move(1, "roll", given=[2, 3, 5, 8, 9, 10])  # Bob: F2 S1 T3
    nest.move(0, "roll", given=[5])  # Ann: S1, so Bob's Fight 2 wounds her
    nest.next()
    fight = nest.game.nest.fight  # type: ignore[union-attr]
    assert fight is not None and fight.winner == 1 and fight.wounds_due == (0,)
    offered = [c["name"] for c in legal_moves(SPEC, nest.state)]
    assert "wound" in offered and "spoils" not in offered
    with pytest.raises(
        IllegalMoveError, match="Ann must first choose the die it loses to its wound"
    ):
        nest.move(1, "spoils", die=6)
    nest.move(0, "wound", die=6)
    assert nest.rat(0).pool == () and nest.rat(0).wounds == (6,)
    nest.move(1, "spoils", card="Ac")  # her last die is wounded: a card is what is left
    assert nest.game.nest is not None and nest.game.nest.stage == CHALLENGES


def test_a_full_tie_is_rolled_again_and_its_wounds_stand(nest: Table) -> None:
    nest.move(2, "scrap", fighter=1, opponent=0)
    same = [2, 3, 5, 8, 9, 10]  # F2 S1 T3 each: both wounded, scores equal
    nest.move(1, "roll", given=same)
    nest.move(0, "roll", given=same)
    nest.next()
    fight = nest.game.nest.fight  # type: ignore[union-attr]
    assert fight is not None and fight.winner is None and fight.wounds_due == (0, 1)
    nest.move(0, "wound", die=4)
    nest.move(1, "wound", die=6)
    fight = nest.game.nest.fight  # type: ignore[union-attr]
    assert fight is not None and fight.rounds == 2 and not fight.contest.all_in
    assert len(fight.contest.roll(0).sizes) == len(POOL) - 1


def test_declining_a_challenge_loses_all_hate(nest: Table) -> None:
    nest.move(2, "scrap", fighter=1, opponent=3)
    nest.move(1, "roll", given=BOB_WINS)
    nest.move(3, "roll", given=DAN_LOSES)
    nest.next()
    nest.move(1, "spoils", die=10)
    with pytest.raises(IllegalMoveError, match="cannot challenge itself"):
        nest.move(0, "challenge", target=0)
    # typed in the terminal as a name: the seat numbers are said, since nothing shows them
    with pytest.raises(IllegalMoveError, match="seat number: 0 Ann, 1 Bob, 2 Cat, 3 Dan"):
        nest.move(0, "challenge", target="Cat")
    nest.move(0, "challenge", target=2)
    with pytest.raises(IllegalMoveError, match="Cat to accept or decline"):
        nest.next()
    nest.move(2, "answer", accept=False)
    assert nest.rat(2).hate == 0
    with pytest.raises(IllegalMoveError, match="already made its challenge"):
        nest.move(0, "challenge", target=1)


def _to_mate(table: Table) -> None:
    table.move(2, "scrap", fighter=1, opponent=3)
    table.move(1, "roll", given=BOB_WINS)
    table.move(3, "roll", given=DAN_LOSES)
    table.next()
    table.move(1, "spoils", die=10)
    table.next()  # no more challenges
    assert table.game.nest is not None and table.game.nest.stage == MATE


def test_mating_keeps_the_larger_half_of_hate_and_the_others_gain_one(nest: Table) -> None:
    _to_mate(nest)
    before = [nest.rat(s).hate for s in range(4)]
    nest.move(2, "mate", rat=1)
    assert before[1] == 6
    assert nest.rat(1).hate == 3  # 6 - floor(6/2)
    assert [nest.rat(s).hate for s in (0, 2, 3)] == [before[0] + 1, before[2] + 1, before[3] + 1]


def test_the_least_hateful_offer_a_die_and_the_dominant_rat_keeps_one(nest: Table) -> None:
    _to_mate(nest)
    nest.next()  # nobody mates
    found = nest.game.nest
    assert found is not None and found.stage == STEAL and found.victims == (0, 3)
    with pytest.raises(IllegalMoveError, match="puts a die forward first"):
        nest.move(2, "steal", victim=0)
    nest.move(0, "offer", die=10)
    nest.move(3, "offer", die=4)
    dan_hate = nest.rat(3).hate
    nest.move(2, "steal", victim=3)
    assert nest.rat(2).pool == (4, *POOL)
    assert nest.rat(3).hate == dan_hate + 1 and 4 not in nest.rat(3).pool
    assert nest.state.ctx.current is None  # the nest is settled
    nest.next()
    assert nest.state.ctx.phase == "tunnel" and nest.state.ctx.round == 2


def test_after_the_agreed_rounds_the_best_hand_wins() -> None:
    table = Table(rounds=1)
    table.set_rat(3, dominance=("9c", "9d"))
    table.set_rat(0, hate=3)
    table.to_nest()
    table.move(3, "scrap", fighter=0, opponent=1)
    table.move(0, "roll", given=BOB_WINS)
    table.move(1, "roll", given=DAN_LOSES)
    table.next()
    table.move(0, "spoils", die=8)
    table.next()
    table.next()
    while table.game.nest is not None and table.game.nest.stage == STEAL:
        nest = table.game.nest
        for victim in nest.victims:
            if victim not in dict(nest.offers):
                table.move(victim, "offer", die=table.rat(victim).pool[0])
        table.move(3, "steal", victim=nest.victims[0])
    table.next()
    assert table.state.ctx.over and table.state.ctx.winners == (3,)
    assert "pair of nines" in table.state.ctx.result


def test_spoils_before_the_wound_stay_allowed_while_the_loser_keeps_a_die_to_lose(
    nest: Table,
) -> None:
    """Only the order that would leave the nest waiting for ever is refused, so a game
    stored with the spoils taken first from a loser with dice to spare still loads."""
    nest.set_rat(0, pool=(6, 8))
    nest.move(2, "scrap", fighter=1, opponent=0)
    nest.move(1, "roll", given=[2, 3, 5, 8, 9, 10])  # Bob: F2 S1 T3
    nest.move(0, "roll", given=[5, 1])  # Ann: S1, so Bob's Fight 2 wounds her
    nest.next()
    nest.move(1, "spoils", die=8)
    nest.move(0, "wound", die=6)
    assert nest.rat(0).pool == () and nest.rat(0).wounds == (6,)
