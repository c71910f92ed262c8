"""Cards dealt to phones stay secret; the camera's d6s go to the rat waiting for them."""

from __future__ import annotations

from companion.engine.events import MOVE, Event
from companion.engine.readings import DiceSeen
from companion.engine.redact import public_event
from companion.engine.session import GameHeader, Session
from companion.games.rats import SPEC
from companion.games.rats.table import read_dice
from tests.rats.helpers import NAMES, Table


def test_a_phone_deck_hand_is_seen_only_by_its_own_seat() -> None:
    table = Table(deck="phone")
    hand = table.rat(2).hand
    assert len(hand) == 5
    assert "hand" not in SPEC.presentation.view(table.game, table.state.ctx, None)["rats"][2]
    mine = SPEC.presentation.view(table.game, table.state.ctx, 2)["rats"][2]["hand"]
    assert [c["card"] for c in mine] == list(hand)
    others = SPEC.presentation.view(table.game, table.state.ctx, 1)["rats"]
    assert "hand" not in others[2] and "hand" in others[1]


def test_a_card_bought_with_hate_is_logged_for_its_seat_alone() -> None:
    session = Session(SPEC, GameHeader("rats", "standard", NAMES, 3, {"deck": "phone"}))
    for seat, name in enumerate(NAMES):
        args = {"name": name, "bonus": [6, 6]}
        session.dispatch(Event(MOVE, name="create", seat=seat, args=args))
    session.next()
    dealt = session.log[-1]
    assert all(entry.get("for_seat") is not None for entry in dealt.outcome)
    shown = public_event(SPEC, session.state, dealt, False, None)
    assert all(entry.get("secret") and "value" not in entry for entry in shown["outcome"])
    own = public_event(SPEC, session.state, dealt, False, 1)
    values = [e["value"] for e in own["outcome"] if e.get("for_seat") == 1]
    assert values == list(session.state.G.rats[1].hand)


def test_a_played_card_becomes_public() -> None:
    table = Table(deck="phone")
    card = table.rat(0).hand[0]
    table.move(0, "play", card=card)
    assert table.game.turn.card == card
    assert card not in table.rat(0).hand and table.rat(0).hand_count == 4


def test_the_camera_gives_d6s_to_the_first_rat_still_waiting_for_them() -> None:
    table = Table()
    table.move(0, "play", card="9c")
    seen = DiceSeen(values=(3,), confidences=(0.99,), auto_accept=0.9)
    verdict = read_dice(SPEC, table.state, seen)
    assert verdict.event is not None and verdict.sure
    assert verdict.event.seat == 0 and verdict.event.args == {"sizes": [6]}
    table.move(0, "roll", given=verdict.event.given, sizes=[6])
    verdict = read_dice(SPEC, table.state, seen)
    assert verdict.event is not None and verdict.event.seat == 1


def test_a_camera_count_that_does_not_match_is_never_applied() -> None:
    table = Table()
    table.move(0, "play", card="9c")
    seen = DiceSeen(values=(3, 4), confidences=(0.99, 0.99), auto_accept=0.9)
    verdict = read_dice(SPEC, table.state, seen)
    assert verdict.event is None and verdict.note is not None and verdict.note.status == "differ"


def test_demo_dice_are_only_proposed() -> None:
    table = Table()
    table.move(0, "play", card="9c")
    seen = DiceSeen(values=(3,), confidences=(1.0,), auto_accept=0.9, demo=True)
    verdict = read_dice(SPEC, table.state, seen)
    assert verdict.event is not None and not verdict.sure


def test_a_move_event_can_be_rebuilt_from_its_json() -> None:
    event = Event(MOVE, name="roll", seat=1, args={"sizes": [6, 8]}, given=(3, 7))
    assert Event.from_json(event.to_json()) == event
