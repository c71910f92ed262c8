"""Undo and redo say what to put back on the real table (the log steps back, not the pieces)."""

from __future__ import annotations

from pathlib import Path

from companion.config import GameDefaults
from companion.engine.events import MOVE, Event
from companion.engine.session import GameHeader
from companion.games.hamsterdam import SPEC, Hamsterdam
from companion.store import Store
from companion.table import Table
from tests.hamsterdam.board import act, at, nxt, player, rolled, rolling, spot, table


def changes(before: Hamsterdam, after: Hamsterdam) -> str:
    assert SPEC.table_changes is not None, "Hamsterdam says what to put back after an undo"
    return SPEC.table_changes(before, after)


def test_an_undone_plug_puts_the_hamster_back_on_its_card() -> None:
    game = table([player("Ann", [spot(6, 2), spot(7)]), player("Ben", [spot(6), spot(8, 1)])])
    flooded = nxt(rolled(rolling(game), 3, 3))  # Ann plugs her 6, water onto Ben's 6
    undone = changes(flooded.G, game)
    assert undone == (
        "Make the table match: Ann's card 6 holds 2 hamsters; Ann's reinforcements: nothing; "
        "Ben's card 6 holds nothing."
    )
    assert changes(game, flooded.G) == (
        "Make the table match: Ann's card 6 holds 1 hamster; Ann's reinforcements: 1 hamster; "
        "Ben's card 6 holds 1 flood token."
    )
    assert changes(game, game) == ""


def test_an_undone_breach_brings_the_card_back_with_its_water() -> None:
    ann = player("Ann", [spot(2, 1), spot(3, 2, "Cheekster"), spot(12, tokens=1)], pile=3)
    state = at(table([ann, player("Ben", [spot(5, 1)])]), "breach")
    flipped = act(state, 0, "flip", end="right")
    said = changes(flipped.G, state.G)
    assert said == (
        "Make the table match: Ann's dam runs 2 3 12 (left to right); "
        "Ann's card 12 holds 1 flood token; Ann's flood pile holds 3 tokens."
    )
    left = act(state, 0, "flip", end="left")  # the hamster on 2 steps onto 3
    assert changes(left.G, state.G) == (
        "Make the table match: Ann's dam runs 2 3 12 (left to right); "
        "Ann's card 2 holds 1 hamster; Ann's card 3 holds 2 hamsters and Cheekster."
    )


def test_the_page_state_says_what_to_put_back_after_undo(tmp_path: Path) -> None:
    """Through the table runtime, as the page gets it: the sentence above the prompt."""
    store = Store(tmp_path / "companion.sqlite3")
    names = ("Ann", "Bo")
    live = Table(store, GameDefaults(players=names))
    try:
        live.new_game(GameHeader("hamsterdam", "classic", names, 3))
        stand = Event(MOVE, name="stand", seat=0, args={"at": 6, "hamster": None})
        live.submit(stand).result(5)
        live.submit("undo").result(5)
        put_back = live.public_state(with_log=False)["put_back"]
        assert put_back.startswith("Make the table match: Ann's card 7 holds nothing; ")
        assert "Ann's reinforcements: 14 hamsters" in put_back
        live.submit("redo").result(5)
        put_back = live.public_state(with_log=False)["put_back"]
        assert put_back.startswith("Make the table match: Ann's card 7 holds 1 hamster; ")
    finally:
        live.close()
        store.close()
