"""The table's parts one by one, on the test's own thread: the hub, the public state, the camera
proposals and the listeners. ``tests/runtime/test_table.py`` checks them together behind the
worker."""

from __future__ import annotations

import pytest

from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, NEXT, UNDO, Event
from companion.engine.readings import Note, Reading
from companion.engine.session import GameHeader, Session
from companion.hub import Hub
from companion.listeners import GAME_OVER_CUE, Listeners
from companion.proposals import NOTHING_TO_READ, Observation, Proposals, Stamp
from companion.public import NO_GAME, Snapshot, current_stamp, public_state, snapshot_of
from tests.runtime.tally import FINISH, TALLY, Tally


def session() -> Session[Tally]:
    return Session(TALLY, GameHeader("tally", "plain", ("Ann", "Bo"), seed=1))


def add(n: int) -> Event:
    return Event(MOVE, name="add", seat=0, args={"n": n})


def snapshot(game: Session[Tally], notes: dict[str, Note] | None = None) -> Snapshot[Tally]:
    return snapshot_of(
        7,
        game,
        game.log,
        pending=None,
        notes=notes or {},
        put_back="",
        spoken="",
        no_game=NO_GAME,
    )


# ---------------------------------------------------------------------- the hub
def test_a_stream_gets_what_it_missed_then_what_is_new() -> None:
    hub = Hub()
    hub.switch(1, [], "new game")
    for seq in (1, 2, 3):
        hub.publish(Event(NEXT, seq=seq), lambda: None)
    sub = hub.subscribe(after_seq=1)
    hub.publish(Event(NEXT, seq=4), lambda: None)
    assert [e.seq for e in sub.waiting()] == [2, 3, 4]
    assert sub.game_id == 1 and not sub.reset


def test_a_stream_asking_beyond_the_log_gets_the_whole_game_again() -> None:
    hub = Hub()
    hub.switch(2, [Event(NEXT, seq=1)], "resumed")
    sub = hub.subscribe(after_seq=40)  # a tablet still on the previous game
    assert sub.reset and [e.seq for e in sub.waiting()] == [1]


def test_another_game_ends_every_stream_of_the_old_one() -> None:
    hub = Hub()
    hub.switch(1, [], "new game")
    sub = hub.subscribe(0)
    hub.switch(2, [], "new game")
    assert sub.ended == "new game" and sub.get(timeout=0) is None
    hub.publish(Event(NEXT, seq=1), lambda: None)
    assert sub.waiting() == []  # the old game's stream hears nothing of the new one


def test_the_snapshot_is_refreshed_before_anyone_hears_of_the_event() -> None:
    hub = Hub()
    sub = hub.subscribe(0)
    heard_first: list[int] = []
    hub.publish(Event(NEXT, seq=1), lambda: heard_first.append(len(sub.waiting())))
    assert heard_first == [0] and [e.seq for e in sub.waiting()] == [1]


def test_a_closed_stream_is_let_go() -> None:
    hub = Hub()
    with hub.subscribe(0) as sub:
        pass
    hub.publish(Event(NEXT, seq=1), lambda: None)
    assert sub.ended == "closed" and sub.waiting() == []


# ---------------------------------------------------------------------- the public state
def test_with_no_game_the_page_is_told_why() -> None:
    assert public_state(Snapshot()) == {"game": None, "prompt": NO_GAME, "log": []}
    broken: Snapshot[Tally] = Snapshot(no_game="The last game could not be rebuilt.")
    assert public_state(broken)["prompt"] == "The last game could not be rebuilt."


def test_the_public_state_says_what_the_tablet_draws() -> None:
    game = session()
    game.dispatch(add(3))
    game.dispatch(add(4))
    state = public_state(snapshot(game, {"die": Note("agree", ("two dice",))}), seat=1)
    assert state["game"] == "tally" and state["players"] == ["Ann", "Bo"]
    assert state["prompt"] == "Add numbers (2 so far)."
    assert state["view"] == {"values": [3, 4], "total": 7, "seat": 1}
    assert [entry["seq"] for entry in state["log"]] == [1, 2] and state["seq"] == 2
    assert state["camera"] == {"die": {"status": "agree", "lines": ["two dice"]}}
    assert public_state(snapshot(game), with_log=False)["log"] is None


def test_each_reader_gets_its_own_copy_of_one_build() -> None:
    snap = snapshot(session())
    first = public_state(snap, seat=0)
    first["prompt"] = "scribbled on by one reader"
    assert public_state(snap, seat=0)["prompt"] == "Add numbers (0 so far)."
    assert public_state(snap, seat=0)["view"] is public_state(snap, seat=0)["view"]  # built once


def test_the_stamp_is_the_last_change_of_the_game_shown() -> None:
    game = session()
    assert current_stamp(snapshot(game)) == (7, 0)
    game.dispatch(add(1))
    assert current_stamp(snapshot(game)) == (7, 1)


# ---------------------------------------------------------------------- camera proposals
class Applier:
    """Stands in for the worker: dispatches a sure change and says the new stamp."""

    def __init__(self, game: Session[Tally]) -> None:
        self.game = game

    def __call__(self, event: Event, source: str) -> Stamp:
        logged = self.game.dispatch(event)
        return 7, logged.seq


def now(game: Session[Tally]) -> Stamp:
    return 7, len(game.log)


def test_a_sure_reading_is_applied_and_its_note_kept_for_the_new_state() -> None:
    game, desk = session(), Proposals()
    assert desk.take(Reading("die", (5, 0.95), 7, 0), game, now(game), Applier(game))
    assert game.state.G.values == (5,) and desk.pending is None
    assert desk.visible(now(game)) == {"die": Note("info", ("read 5",))}


def test_an_unsure_reading_waits_for_read() -> None:
    game, desk = session(), Proposals()
    assert desk.take(Reading("die", (2, 0.5)), game, now(game), Applier(game))
    assert game.state.G.values == () and desk.pending is not None
    assert desk.pending.summary == "The die shows 2."
    event, from_camera = desk.read(game, "button")
    assert from_camera and event.args == {"n": 2} and event.source == "camera"
    desk.settle(desk.pending.event, game.dispatch(event), from_camera)
    assert desk.pending is None and game.state.G.values == (2,)


def test_the_same_move_typed_answers_the_proposal() -> None:
    game, desk = session(), Proposals()
    desk.take(Reading("die", (2, 0.5)), game, now(game), Applier(game))
    assert desk.pending is not None
    desk.settle(desk.pending.event, game.dispatch(add(2)), from_camera=False)
    assert desk.pending is None


def test_a_reading_of_a_state_that_is_gone_is_dropped() -> None:
    game, desk = session(), Proposals()
    game.dispatch(add(1))
    assert not desk.take(Reading("die", (5, 0.95), 7, 0), game, now(game), Applier(game))
    assert not desk.take(Reading("die", (5, 0.95), 8, None), game, now(game), Applier(game))
    assert game.state.G.values == (1,) and desk.visible(now(game)) == {}


def test_a_note_of_an_older_state_is_hidden_and_a_withdrawn_one_gone() -> None:
    game, desk = session(), Proposals()
    desk.take(Reading("die", (2, 0.5), 7, 0), game, now(game), Applier(game))
    before = now(game)
    game.dispatch(add(1))
    assert desk.visible(before) != {} and desk.visible(now(game)) == {}
    desk.take(Reading("die", None), game, now(game), Applier(game))
    assert desk.visible(before) == {}


def test_read_with_nothing_proposed_says_so() -> None:
    with pytest.raises(IllegalMoveError, match="Nothing to read") as refused:
        Proposals().read(session(), "button")
    assert str(refused.value) == NOTHING_TO_READ


def test_a_new_game_forgets_the_proposal_and_notes_of_the_old() -> None:
    game, desk = session(), Proposals()
    desk.take(Reading("die", (2, 0.5), 7, 0), game, now(game), Applier(game))
    desk.new_game()
    assert desk.pending is None and desk.visible(now(game)) == {}


# ---------------------------------------------------------------------- listeners
def test_game_over_is_cued_once_and_a_broken_listener_stops_nobody() -> None:
    game, listeners = session(), Listeners()
    heard: list[tuple[str, ...]] = []

    def broken(cues: tuple[str, ...]) -> None:
        raise OSError("the buzzer came loose")

    listeners.cues += [broken, heard.append]
    before = game.state
    logged = game.dispatch(add(FINISH))
    listeners.cue(game, before, logged, ())
    assert heard == [(GAME_OVER_CUE,)]
    listeners.cue(game, game.state, Event(UNDO, seq=2), ("big",))
    assert heard == [(GAME_OVER_CUE,)]  # undo and redo make no sound


def test_next_takes_the_hand_rolled_dice_the_camera_proposes() -> None:
    desk = Proposals()
    assert desk.hand_roll() is None
    desk.pending = Observation(Event(NEXT, given=(4, 2)), "Rest dice 4 and 2.")
    taken = desk.hand_roll()
    assert taken is not None and taken.kind == NEXT and taken.given == (4, 2)
    assert taken.source == "camera"
    desk.pending = Observation(add(3), "The die shows 3.")
    assert desk.hand_roll() is None  # a proposed move waits for READ, not NEXT
