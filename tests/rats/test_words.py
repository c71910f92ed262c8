"""The tunnels' words read right across the table: one wound is "the wound", a heal counts
its dice, and a table playing with the phone deck is not told to pick a suit and rank."""

from __future__ import annotations

from dataclasses import replace

from companion.engine.legal import legal_moves
from companion.games.rats import SPEC
from companion.games.rats.model import BURROW
from tests.rats.helpers import Table


def _burrowing(table: Table, wounds: tuple[int, ...]) -> None:
    table.set_rat(0, wounds=wounds, hate=0)
    game = replace(table.game, turn=replace(table.game.turn, stage=BURROW))
    table.state = replace(table.state, G=game, ctx=replace(table.state.ctx, current=0))


def test_one_wound_is_named_as_one_and_the_heal_counts_it() -> None:
    table = Table()
    _burrowing(table, (6,))
    labels = [c["label"] for c in legal_moves(SPEC, table.state)]
    assert "Heal the d6 wound" in labels and not any("all 1" in label for label in labels)
    table.move(0, "burrow", heal=[6])
    assert table.game.notes[-1] == "Ann heals 1 wound die and takes 1 Hate."


def test_several_wounds_are_healed_all_at_once() -> None:
    table = Table()
    _burrowing(table, (6, 10))
    assert "Heal all 2 wounds" in [c["label"] for c in legal_moves(SPEC, table.state)]


def test_the_phone_deck_is_not_asked_for_a_suit_and_rank() -> None:
    physical, phones = Table(), Table(deck="phone")
    assert "(suit, then rank)" in physical.prompt
    assert "(suit, then rank)" not in phones.prompt
    assert phones.prompt.endswith("play a tunnel card from your phone.")
