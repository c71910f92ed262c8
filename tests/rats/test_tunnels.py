"""The tunnel phase, from the rule text: challenges, passing and winning, Hate, loot,
wounds, burrowing, spending Hate, and what NEXT says when the table is not ready."""

from __future__ import annotations

import pytest

from companion.engine.errors import IllegalMoveError
from companion.games.rats.model import DONE, HATE, SETTLE
from tests.rats.helpers import POOL, Table

# faces in pool order: d4 d6 d8 d8 d10 d10 (2-4 Fight, 5-7 Sneak, 8-10 Think, 1 Hate)
ANN_FIVE_FIGHT = [2, 3, 4, 4, 3, 1]
BOB_FOUR_FIGHT = [3, 4, 2, 4, 9, 1]
CAT_ONE_FIGHT = [1, 1, 5, 8, 2, 10]
DAN_ONE_FIGHT = [4, 6, 8, 8, 10, 10]


@pytest.fixture
def fight_four() -> Table:
    """Ann plays the 9 of clubs (Fight 4) and everyone rolls."""
    table = Table()
    table.move(0, "play", card="9c")
    table.roll_all(ANN_FIVE_FIGHT, BOB_FOUR_FIGHT, CAT_ONE_FIGHT, DAN_ONE_FIGHT)
    return table


def test_every_rat_starts_with_the_free_dice_two_bonus_dice_and_five_cards() -> None:
    table = Table()
    for seat in range(4):
        assert table.rat(seat).pool == POOL
        assert table.rat(seat).hand_count == 5
    assert table.game.deck_count == 52 - 20


def test_a_card_sets_the_challenge_by_suit_and_rank() -> None:
    for card, kind, need in [
        ("9c", "fight", 4),
        ("5s", "sneak", 3),
        ("Kd", "think", 5),
        ("2c", "fight", 2),
    ]:
        table = Table()
        table.move(0, "play", card=card)
        challenge = table.game.turn.challenge
        assert challenge is not None and (challenge.kind, challenge.difficulty) == (kind, need)


def test_the_most_successes_win_the_card_and_the_winner_takes_no_hate(fight_four: Table) -> None:
    table = fight_four
    assert table.game.turn.stage == HATE
    table.next()  # nobody spends Hate
    challenge = table.game.turn.challenge
    assert challenge is not None and challenge.winner == 0
    assert challenge.passed == (0, 1) and challenge.failed == (2, 3)
    assert table.rat(0).dominance == ("9c",)
    assert [table.rat(s).hate for s in range(4)] == [0, 1, 2, 0]  # Ann's 1 costs her nothing


def test_loot_goes_in_order_of_successes_and_each_item_once(fight_four: Table) -> None:
    table = fight_four
    table.next()
    with pytest.raises(IllegalMoveError, match="Ann picks loot first"):
        table.move(1, "loot", item="d10")
    table.move(0, "loot", item="d10")
    with pytest.raises(IllegalMoveError, match="already been taken"):
        table.move(1, "loot", item="d10")
    with pytest.raises(IllegalMoveError, match="1 to 1"):
        table.move(1, "loot", item="hate", amount=2)
    table.move(1, "loot", item="hate", amount=1)
    assert table.rat(0).pool == (*POOL, 10)
    assert table.rat(1).hate == 0


def test_a_rat_that_fails_loses_a_die_of_its_choice_to_wounds(fight_four: Table) -> None:
    table = fight_four
    table.next()
    with pytest.raises(IllegalMoveError, match="Waiting for Ann to pick loot and Cat, Dan"):
        table.next()
    table.move(0, "loot", item="none")
    table.move(1, "loot", item="none")
    table.move(2, "wound", die=10)
    with pytest.raises(IllegalMoveError, match="no such die"):
        table.move(3, "wound", die=12)
    table.move(3, "wound", die=4)
    assert table.rat(2).wounds == (10,) and table.rat(2).pool == (4, 6, 8, 8, 10)
    assert table.rat(3).wounds == (4,)
    assert table.game.turn.stage == DONE
    table.next()
    assert table.state.ctx.current == 1  # Bob's turn


def test_a_die_size_written_as_a_decimal_is_refused_in_one_sentence(fight_four: Table) -> None:
    """``die=10.0`` (a typed detail, or a client that writes floats) passed ``10.0 in pool``
    and then crashed the move: the page answered "a bug", the terminal a vague sentence;
    a burrow's ``heal=[8.0]`` put a "d8.0" into the pool for ever."""
    table = fight_four
    table.next()
    table.move(0, "loot", item="none")
    table.move(1, "loot", item="none")
    with pytest.raises(IllegalMoveError, match="Cat has no such die in its pool; it holds d4"):
        table.move(2, "wound", die=10.0)
    assert table.rat(2).pool == POOL and table.rat(2).wounds == ()
    burrowing = Table()
    burrowing.set_rat(0, pool=(4, 6), wounds=(8, 10))
    burrowing.move(0, "play", card="Qh")
    with pytest.raises(IllegalMoveError, match=r"no d8.0 among its wounds.*\(d8, d10\)"):
        burrowing.move(0, "burrow", heal=[8.0])
    burrowing.move(0, "burrow", heal=[8])
    assert burrowing.rat(0).pool == (4, 6, 8) and burrowing.rat(0).wounds == (10,)


def test_equal_successes_are_split_by_the_other_two_types() -> None:
    table = Table()
    table.move(0, "play", card="5s")  # Sneak 3
    table.roll_all([1, 5, 5, 6, 2, 8], [2, 5, 5, 6, 9, 8], [1, 1, 1, 1, 1, 1], [2, 2, 2, 2, 2, 2])
    table.next()
    challenge = table.game.turn.challenge
    assert challenge is not None and challenge.winner == 1  # 3 sneak each; Bob has 3 others, Ann 2
    assert challenge.passed == (1, 0)
    assert [table.rat(s).hate for s in range(4)] == [1, 0, 6, 0]


def test_a_tie_nobody_can_split_has_no_winner_and_everyone_takes_hate() -> None:
    table = Table()
    table.move(0, "play", card="5s")
    same = [1, 5, 5, 6, 2, 8]
    table.roll_all(same, same, [1, 1, 1, 1, 1, 1], [2, 2, 2, 2, 2, 2])
    table.next()
    challenge = table.game.turn.challenge
    assert challenge is not None and challenge.winner is None and challenge.passed == (0, 1)
    assert "discarded" in table.game.notes[0]
    assert table.game.discard_count == 1
    assert [table.rat(s).hate for s in range(4)] == [1, 1, 6, 0]
    assert table.game.turn.stage == SETTLE  # both still loot, Cat and Dan take wounds


def test_nobody_passing_discards_the_card() -> None:
    table = Table()
    table.move(0, "play", card="Kd")  # Think 5
    low = [2, 2, 2, 2, 2, 2]
    table.roll_all(low, low, low, low)
    table.next()
    challenge = table.game.turn.challenge
    assert challenge is not None and challenge.winner is None and not challenge.passed
    assert "Nobody passes" in table.game.notes[0]


def test_a_heart_burrows_heals_wounds_for_a_point_of_hate_each() -> None:
    table = Table()
    table.set_rat(0, pool=(4, 6), wounds=(8, 8, 10, 10))
    table.move(0, "play", card="Qh")
    with pytest.raises(IllegalMoveError, match="which wound dice to heal"):
        table.next()
    table.move(0, "burrow", heal=[8, 10])
    assert table.rat(0).pool == (4, 6, 8, 10) and table.rat(0).wounds == (8, 10)
    assert table.rat(0).hate == 2
    assert table.game.discard_count == 1 and table.game.turn.stage == DONE


def test_two_hate_reroll_a_die_not_showing_one_once_per_paying_rat(fight_four: Table) -> None:
    table = fight_four
    table.set_rat(2, hate=6)
    table.set_rat(3, hate=2)
    with pytest.raises(IllegalMoveError, match="showing 1"):
        table.move(2, "reroll", given=[4], owner=2, die=0)  # Cat's d4 shows 1
    with pytest.raises(IllegalMoveError, match="re-rolled: 0 Ann, 1 Bob, 2 Cat, 3 Dan"):
        table.move(2, "reroll", given=[3], owner="Cat", die=2)
    table.move(2, "reroll", given=[3], owner=2, die=2)  # Cat's d8: 5 -> 3
    with pytest.raises(IllegalMoveError, match="already paid"):
        table.move(2, "reroll", given=[3], owner=2, die=2)
    table.move(3, "reroll", given=[2], owner=2, die=2)  # Dan pays for Cat's same die
    assert table.rat(2).hate == 4 and table.rat(3).hate == 0
    roll = table.game.turn.challenge.contest.roll(2)  # type: ignore[union-attr]
    assert roll.faces[2] == 2


def test_the_window_closes_when_every_rat_has_passed(fight_four: Table) -> None:
    table = fight_four
    for seat in range(3):
        table.move(seat, "enough")
    assert table.game.turn.stage == HATE
    table.move(3, "enough")
    assert table.game.turn.stage == SETTLE


def test_one_hate_buys_a_card_five_at_most_a_round_and_six_cards_must_be_cut() -> None:
    table = Table()
    table.set_rat(1, hate=7)
    table.move(1, "draw")
    assert table.rat(1).hand_count == 6 and table.rat(1).hate == 6
    # Ann's cards are refused until Bob discards: the prompt says so, not "Ann: play a card"
    assert table.prompt == "Bob must first discard down to 5 cards; then Ann goes on."
    with pytest.raises(IllegalMoveError, match="discard down to five"):
        table.move(0, "play", card="9c")
    table.move(1, "discard", card="2c")
    assert table.prompt.startswith("Ann: play a tunnel card")
    for _ in range(4):
        table.move(1, "draw")
        table.move(1, "discard", card="2c")
    with pytest.raises(IllegalMoveError, match="already bought 5"):
        table.move(1, "draw")


def test_next_waits_for_dice_and_says_whose() -> None:
    table = Table()
    table.move(0, "play", card="9c")
    table.move(0, "roll", given=ANN_FIVE_FIGHT)
    table.move(1, "roll", given=[3, 4], sizes=[4, 6])
    with pytest.raises(IllegalMoveError, match=r"Bob \(2 of 6 dice in\), Cat \(0 of 6"):
        table.next()


def test_roll_for_us_rolls_only_when_the_table_asked_and_logs_every_die() -> None:
    table = Table(roll_for_us=True)
    table.move(0, "play", card="9c")
    table.next()
    assert table.game.turn.stage == HATE
    assert sum(1 for o in table.outcome if o["kind"] == "die") == 24


def test_a_card_face_up_in_a_dominance_hand_cannot_be_played_from_a_real_deck(
    fight_four: Table,
) -> None:
    table = fight_four
    table.next()
    table.move(0, "loot", item="none")
    table.move(1, "loot", item="none")
    table.move(2, "wound", die=4)
    table.move(3, "wound", die=4)
    table.next()
    with pytest.raises(IllegalMoveError, match="Dominance hand"):
        table.move(1, "play", card="9c")


def test_a_rat_without_cards_skips() -> None:
    table = Table()
    table.set_rat(0, hand_count=0)
    table.next()
    assert table.state.ctx.current == 1
    assert "skips" in table.game.notes[0]


def test_a_card_on_the_discard_pile_cannot_be_played_from_a_real_deck() -> None:
    table = Table()
    table.move(0, "play", card="Qh")  # burrow: the heart is discarded
    table.move(0, "burrow", heal=[])
    table.next()
    with pytest.raises(IllegalMoveError, match="on the discard pile"):
        table.move(1, "play", card="Qh")
