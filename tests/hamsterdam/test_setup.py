"""Set-up of both variants: passing cards, dealing specials, placing, the roll-off."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.engine.errors import IllegalMoveError
from companion.engine.session import GameHeader, Session
from companion.games.hamsterdam import SPEC, Hamsterdam
from companion.games.hamsterdam.deck import default_deck_data, load_deck
from companion.games.hamsterdam.layout import default_layout

NAMES = ("Ann", "Ben", "Cy", "Di")


def session(rules: str, players: int, **options: object) -> Session[Hamsterdam]:
    return Session(SPEC, GameHeader(SPEC.name, rules, NAMES[:players], 3, options=options))


def test_the_shipped_deck_documents_its_invented_defaults() -> None:
    deck = load_deck()
    assert sum(c.orange for c in deck.dam_cards) == 14 and sum(c.blue for c in deck.dam_cards) == 4
    assert sum(deck.copies.values()) == 36 and len(deck.copies) == 18
    assert "does not list" in default_deck_data()["about"]


def test_full_setup_passes_left_and_right_then_deals_two_specials_per_blue_dot() -> None:
    s = session("full", 3)
    assert len(s.state.G.deck_left) == 35, "one Twinsters card is set aside"
    assert Counter(s.state.G.deck_left)["Twinsters"] == 1
    with pytest.raises(IllegalMoveError, match="two different"):
        s.move(0, "pass_cards", cards=[2, 2])
    s.move(0, "pass_cards", cards=[2, 12])  # 2 to Ben (left), 12 to Cy (right)
    s.move(1, "pass_cards", cards=[3, 5])  # 3 to Cy, 5 to Ann
    with pytest.raises(IllegalMoveError, match="must wait for the others"):
        s.move(0, "arrange", order=[], keep=[])
    s.move(2, "pass_cards", cards=[7, 9])  # 7 to Ann, 9 to Ben
    ann, ben, cy = s.state.G.players
    assert sorted(c.value for c in ann.hand) == [3, 4, 5, 5, 6, 7, 7, 8, 9, 10, 11]
    assert sorted(c.value for c in ben.hand) == [2, 2, 4, 6, 7, 8, 9, 9, 10, 11, 12]
    assert sorted(c.value for c in cy.hand) == [2, 3, 3, 4, 5, 6, 8, 10, 11, 12, 12]
    blue = [sum(c.blue for c in p.hand) for p in (ann, ben, cy)]
    assert [len(p.dealt) for p in (ann, ben, cy)] == [2 * b for b in blue]
    assert [p.keep for p in (ann, ben, cy)] == blue
    order = [c.value for c in ann.hand][::-1]
    kept = [d.id for d in ann.dealt[: ann.keep]]
    with pytest.raises(IllegalMoveError, match="keeps 2"):
        s.move(0, "arrange", order=order, keep=kept[:1])
    s.move(0, "arrange", order=order, keep=kept)
    ann = s.state.G.players[0]
    assert [spot.value for spot in ann.dam] == order
    assert ann.rest_plain == sum(spot.card.orange for spot in ann.dam), "one per orange dot"
    assert len(ann.rest_specials) >= ann.keep


def test_two_players_pass_both_cards_to_each_other() -> None:
    s = session("full", 2)
    s.move(0, "pass_cards", cards=[2, 3])
    s.move(1, "pass_cards", cards=[11, 12])
    ann = Counter(c.value for c in s.state.G.players[0].hand)
    ben = Counter(c.value for c in s.state.G.players[1].hand)
    assert ann[2] == ann[3] == 0 and ann[11] == ann[12] == 2
    assert ben[11] == ben[12] == 0 and ben[2] == ben[3] == 2


def test_a_kept_twinsters_card_brings_two_linked_hamsters() -> None:
    deck = default_deck_data()
    for name, entry in deck["specials"].items():
        entry["copies"] = 2 if name == "Twinsters" else 0
    s = session("classic", 2, deck=deck)
    twins = s.state.G.players[0].rest_specials
    assert [t.name for t in twins] == ["Twinsters"] * 4
    assert twins[0].twin == twins[1].id and twins[1].twin == twins[0].id


def test_classic_setup_orders_the_dam_and_gives_fourteen_hamsters_and_two_specials() -> None:
    s = session("classic", 4)
    for p in s.state.G.players:
        assert [spot.value for spot in p.dam] == list(range(2, 13))
        assert p.rest_plain == 14
        assert len({x.id for x in p.rest_specials}) >= 2
    with pytest.raises(IllegalMoveError, match="Set-up is not finished"):
        s.next()
    stacks, specials = default_layout(s.state.G.players[0])
    with pytest.raises(IllegalMoveError, match="every plain hamster"):
        s.move(0, "place", stacks=[0] * 11, specials=specials)
    for seat in range(4):
        stacks, specials = default_layout(s.state.G.players[seat])
        s.move(seat, "place", stacks=stacks, specials=specials)
    # Roll-off: Ann and Cy tie on 11, Cy then beats Ann.
    s.next(given=[5, 6, 1, 1, 6, 5, 2, 2, 1, 2, 3, 4])
    assert s.state.G.first == 2 and s.state.ctx.phase == "round"
    s.next()
    assert s.state.ctx.phase == "roll" and s.state.ctx.current == 2


def test_an_edited_deck_changes_the_single_use_flags() -> None:
    deck = default_deck_data()
    deck["specials"]["Buffster"]["single_use"] = False
    assert "Buffster" not in session("classic", 2, deck=deck).state.G.single_use
    assert "Buffster" in session("classic", 2).state.G.single_use
    deck["dam_cards"] = deck["dam_cards"][:-1]
    with pytest.raises(IllegalMoveError, match="each value 2 to 12"):
        session("classic", 2, deck=deck)


def test_the_lay_the_rest_button_names_the_cards_in_the_hand() -> None:
    """Ann passed her 2 and 12 away: the button said "the rest in order 2→12" anyway."""
    from companion.engine.legal import legal_moves

    s = session("full", 3)
    s.move(0, "pass_cards", cards=[2, 12])
    s.move(1, "pass_cards", cards=[3, 5])
    s.move(2, "pass_cards", cards=[7, 9])
    for special in s.state.G.players[0].dealt[: s.state.G.players[0].keep]:
        s.move(0, "keep_special", special=special.id)
    labels = [c["label"] for c in legal_moves(SPEC, s.state) if c["name"] == "arrange"]
    assert "Ann: the rest in order 3→11" in labels


def test_one_tap_lines_up_and_stands_every_dam_the_plain_way() -> None:
    """Set-up took about sixty taps for three players: the plain steps left to several
    players are one button for the table (the choices the rules give stay each player's)."""
    from companion.engine.events import MOVE as _MOVE
    from companion.engine.events import NEXT as _NEXT
    from companion.engine.events import Event as _Event
    from companion.engine.legal import legal_moves
    from companion.engine.passing import passes_itself
    from companion.engine.session import GameHeader as _Header
    from companion.engine.session import Session as _Session
    from companion.games import GAMES as _GAMES

    spec = _GAMES["hamsterdam"]
    session = _Session(spec, _Header("hamsterdam", "full", ("Ann", "Bo", "Cy"), 2))
    grouped = set()
    while not passes_itself(spec, session.state):
        legal = legal_moves(spec, session.state)
        # the players' own choices first, then the table's one-tap steps
        for name in ("pass_card", "keep_special", "arrange_all", "spread_all", "roll_off"):
            found = [c for c in legal if c["name"] == name]
            if found:
                choice = found[0]
                break
        else:
            raise AssertionError(f"no plain step offered: {[c['name'] for c in legal]}")
        if choice["name"].endswith("_all"):
            assert "the rest" in choice["label"]  # named by who: "Everyone", "Ann and Bo"
            grouped.add(choice["name"])
        session.dispatch(
            _Event(_MOVE, name=choice["name"], seat=choice["seat"], args=choice["args"])
        )
    assert grouped == {"arrange_all", "spread_all"}
    game = session.state.G
    assert all(len(p.dam) == 11 and p.stage == "ready" for p in game.players)
    assert all([s.value for s in p.dam] == sorted(s.value for s in p.dam) for p in game.players)
    session.dispatch(_Event(_NEXT))  # what the tablet presses by itself
    assert session.state.ctx.phase != "setup"
