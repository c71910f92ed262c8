"""The table runtime: order, stored-before-published, resumable streams, restart, errors, close.

Most tests use the tiny "tally" game (``tests/runtime/tally.py``: any seat may add a number
at any time) registered for the test only, because concurrency tests need moves that are
legal in any order; the restart
test plays real Run, Hamster, Run! games with the random bot.
"""

from __future__ import annotations

import random
import sqlite3
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, Event
from companion.engine.readings import Reading
from companion.engine.session import GameHeader, Session
from companion.games import GAMES, find_game
from companion.games.run_hamster_run import bot
from companion.proposals import NOTHING_TO_READ
from companion.public import NO_GAME
from companion.store import Store
from companion.table import Table
from companion.worker import TableClosedError
from tests.runtime.tally import FINISH, TALLY, TALLY_HEADER

WAIT = 30.0  # generous: only reached when something is broken


def add(n: int, seat: int = 0) -> Event:
    return Event(MOVE, name="add", seat=seat, args={"n": n}, source="test")


@pytest.fixture
def tally(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "tally", TALLY)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "companion.sqlite3"


@pytest.fixture
def table(tally: None, db: Path) -> Iterator[Table]:
    store = Store(db)
    table = Table(store)
    table.new_game(TALLY_HEADER)
    yield table
    table.close()
    store.close()


def drain(sub: Any, last_seq: int) -> list[Event]:
    """Read a subscription until ``last_seq`` arrives; fail (not hang) if it never does."""
    seen: list[Event] = []
    while not seen or seen[-1].seq < last_seq:
        event = sub.get(timeout=WAIT)
        assert event is not None, f"stream stalled after {[e.seq for e in seen][-3:]}"
        seen.append(event)
    return seen


def test_concurrent_submits_are_applied_in_order(table: Table, db: Path) -> None:
    threads, per_thread = 8, 50
    total = threads * per_thread
    sub = table.subscribe()
    start = threading.Barrier(threads)
    futures: dict[int, list[Future[Event]]] = {}

    def sender(t: int) -> None:
        start.wait(WAIT)
        futures[t] = [table.submit(add(t * 1000 + i, seat=t % 2)) for i in range(per_thread)]

    workers = [threading.Thread(target=sender, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(WAIT)
    published = drain(sub, total)
    assert [e.seq for e in published] == list(range(1, total + 1))
    for t, sent in futures.items():
        seqs = [f.result(WAIT).seq for f in sent]
        assert seqs == sorted(seqs), f"thread {t}'s inputs were reordered"
        values = [e.args["n"] for e in published if e.args["n"] // 1000 == t]
        assert values == [t * 1000 + i for i in range(per_thread)]
    game_id = table.game_id
    assert game_id is not None
    assert table.store.events(game_id) == published
    assert table.public_state()["view"]["values"] == [e.args["n"] for e in published]


def test_a_subscriber_never_sees_an_event_before_it_is_in_sqlite(table: Table, db: Path) -> None:
    sub = table.subscribe()
    problems: list[str] = []
    count = 60

    def check() -> None:
        reader = sqlite3.connect(db)  # another connection: sees only committed rows
        try:
            for event in drain(sub, count):
                row = reader.execute(
                    "SELECT kind, args FROM events WHERE game_id = ? AND seq = ?",
                    (sub.game_id, event.seq),
                ).fetchone()
                if row is None:
                    problems.append(f"#{event.seq} published before it was stored")
                if table.snapshot.count < event.seq:
                    problems.append(f"#{event.seq} published before the snapshot had it")
        finally:
            reader.close()

    checker = threading.Thread(target=check)
    checker.start()
    last = [table.submit(add(i)) for i in range(count)][-1]
    assert last.result(WAIT).seq == count
    checker.join(WAIT)
    assert not checker.is_alive()
    assert problems == []


def test_resume_from_any_seq_gets_exactly_the_missed_events(table: Table) -> None:
    """Tablets reconnect at random points while 300 events are being published."""
    total = 300
    rng = random.Random(3)
    triggers = set(rng.sample(range(1, total - 10), 25))
    results: list[tuple[int, list[int]]] = []

    def reconnect(after: int) -> None:
        with table.subscribe(after_seq=after) as sub:
            assert not sub.reset
            results.append((after, [e.seq for e in drain(sub, total)]))

    watcher = table.subscribe()
    sent = [table.submit(add(i)) for i in range(total)]
    checkers: list[threading.Thread] = []
    for event in drain(watcher, total):
        if event.seq in triggers:
            # The checker subscribes a moment later, while the worker keeps publishing.
            after = max(0, event.seq - rng.randint(0, 20))
            checkers.append(threading.Thread(target=reconnect, args=(after,)))
            checkers[-1].start()
    for checker in checkers:
        checker.join(WAIT)
    assert sent[-1].result(WAIT).seq == total
    assert len(results) == len(checkers) >= 20
    for after, seqs in results:
        assert seqs == list(range(after + 1, total + 1)), f"resumed after {after}"
    with table.subscribe(after_seq=total) as caught_up:
        table.submit(add(1)).result(WAIT)
        assert [e.seq for e in drain(caught_up, total + 1)] == [total + 1]


def test_a_stale_last_event_id_replays_the_whole_game(table: Table) -> None:
    for i in range(3):
        table.submit(add(i)).result(WAIT)
    with table.subscribe(after_seq=50) as sub:
        assert sub.reset
        assert [e.seq for e in drain(sub, 3)] == [1, 2, 3]


def play_bot(table: Table, events: int, seed: int) -> None:
    """Drive the table with the random bot: the first candidate the engine accepts wins."""
    rng = random.Random(seed)
    for _ in range(events):
        state = table.snapshot.state
        assert state is not None
        if state.ctx.over:
            return
        for candidate in bot.candidates(state, rng):
            try:
                table.submit(candidate, "bot").result(WAIT)
                break
            except IllegalMoveError:
                continue


def test_restart_resumes_the_last_game_with_identical_state(db: Path) -> None:
    header = GameHeader("run-hamster-run", "v2.1", ("Ann", "Bo"), seed=11)
    store = Store(db)
    with Table(store) as table:
        table.new_game(header)
        play_bot(table, 80, seed=5)
        table.submit_intent("undo").result(WAIT)
        before = table.public_state()
        state_before = table.snapshot.state
    store.close()
    assert before["undone"], "the undo should be marked in the log"

    store = Store(db)
    with Table(store) as table:
        # Everything but the one-off hint of what the undo asked to move on the table.
        before.pop("put_back")
        after = table.public_state()
        assert after.pop("put_back") is None
        assert after == before
        assert table.snapshot.state == state_before
        game_id = table.game_id
        assert game_id is not None
        fresh = Session.replay(find_game(header.game), header, store.events(game_id))
        assert fresh.state == state_before
        assert table.submit_intent("redo").result(WAIT).seq == before["seq"] + 1
    store.close()


def test_illegal_inputs_give_the_sentence_and_change_nothing(table: Table) -> None:
    table.submit(add(5)).result(WAIT)
    before = table.public_state()
    sub = table.subscribe(after_seq=1)
    cases: list[tuple[Any, str]] = [
        ("read", NOTHING_TO_READ),
        ("jump", "Unknown command 'jump'"),
        (add(-1), "Add a whole number"),
        ("redo", "There is nothing to redo"),
    ]
    for intent, sentence in cases:
        with pytest.raises(IllegalMoveError) as caught:
            table.submit(intent, "tablet").result(WAIT)
        assert str(caught.value).startswith(sentence)
        assert table.public_state() == before
    game_id = table.game_id
    assert game_id is not None
    assert len(table.store.events(game_id)) == 1
    # The worker is alive and nothing illegal was published: the next event is #2.
    assert table.submit(add(6)).result(WAIT).seq == 2
    assert [e.seq for e in drain(sub, 2)] == [2]


def test_next_from_a_button_when_the_game_is_over_is_a_sentence(table: Table) -> None:
    table.submit(add(FINISH)).result(WAIT)
    assert table.public_state()["over"]
    with pytest.raises(IllegalMoveError, match="The game is over"):
        table.submit_intent("next", "button").result(WAIT)
    assert table.submit_intent("undo", "button").result(WAIT).args == {"target": 1}
    assert not table.public_state()["over"]


def test_an_unexpected_error_fails_one_input_not_the_worker(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    store_append = table.store.append
    failures = iter([RuntimeError("the disk hiccupped")])

    def flaky(game_id: int, event: Event) -> None:
        for error in failures:
            raise error
        store_append(game_id, event)

    monkeypatch.setattr(table.store, "append", flaky)
    with pytest.raises(RuntimeError):
        table.submit(add(1)).result(WAIT)
    assert table.snapshot.count == 0
    assert table.submit(add(2)).result(WAIT).seq == 1


def test_a_value_the_log_cannot_keep_is_refused(table: Table) -> None:
    unstorable = Event(MOVE, name="add", seat=0, args={"n": 1, "why": object()})
    with pytest.raises(IllegalMoveError, match="plain text"):
        table.submit(unstorable).result(WAIT)
    assert table.snapshot.count == 0


def test_a_sure_reading_is_applied_on_the_worker_and_cues_follow(table: Table) -> None:
    heard: list[tuple[str, ...]] = []
    table.listeners.on_cues(heard.append)
    assert table.observe(Reading("die", (6, 0.95))).result(WAIT) is True
    state = table.public_state()
    assert state["view"]["total"] == 6 and state["log"][-1]["source"] == "camera"
    assert state["camera"] == {"die": {"status": "info", "lines": ["read 6"]}}
    assert heard == [("big",)]


def test_a_reading_taken_against_an_older_state_is_dropped(table: Table) -> None:
    game_id, seq = table.current_stamp()
    table.submit(add(1)).result(WAIT)
    stale = Reading("die", (6, 0.95), game_id=game_id, seq=seq)
    assert table.observe(stale).result(WAIT) is False
    assert table.public_state()["view"]["total"] == 1 and table.public_state()["camera"] == {}


def test_a_reading_no_game_takes_is_ignored(table: Table) -> None:
    assert table.observe(Reading("belt", object())).result(WAIT) is False
    assert table.public_state()["camera"] == {}


def test_read_accepts_the_pending_camera_observation(table: Table) -> None:
    table.observe(Reading("die", (6, 0.5))).result(WAIT)
    assert table.public_state()["pending"] == "The die shows 6."
    logged = table.submit_intent("read").result(WAIT)
    assert (logged.seq, logged.source, logged.args) == (1, "camera", {"n": 6})
    assert table.public_state()["pending"] is None
    with pytest.raises(IllegalMoveError, match="Nothing to read"):
        table.submit_intent("read").result(WAIT)


def test_public_state_carries_what_the_tablet_draws(table: Table) -> None:
    for i in range(3):
        table.submit(add(i)).result(WAIT)
    table.submit_intent("undo", "button").result(WAIT)
    state = table.public_state(seat=0)
    assert state["game"] == "tally" and state["rules"] == "plain"
    assert state["players"] == ["Ann", "Bo"]
    assert (state["phase"], state["phase_title"], state["round"]) == ("play", "Adding up", 0)
    assert state["prompt"] == "Add numbers (2 so far)." and state["over"] is False
    assert state["view"] == {"values": [0, 1], "total": 1, "seat": 0}
    assert [(e["seq"], e["undone"]) for e in state["log"]] == [
        (1, False),
        (2, False),
        (3, True),
        (4, False),
    ]
    assert (state["can_undo"], state["can_redo"], state["seq"]) == (True, True, 4)


def test_without_a_game_inputs_say_how_to_start_one(tally: None, db: Path) -> None:
    store = Store(db)
    with Table(store) as table:
        assert table.public_state() == {"game": None, "prompt": NO_GAME, "log": []}
        with pytest.raises(IllegalMoveError, match="No game is being played"):
            table.submit_intent("next").result(WAIT)
        game_id = table.new_game(TALLY_HEADER)
        assert table.public_state()["game_id"] == game_id
    store.close()


def test_a_new_game_ends_the_old_streams(table: Table) -> None:
    table.submit(add(1)).result(WAIT)
    old = table.subscribe()
    assert drain(old, 1)[0].seq == 1
    table.new_game(TALLY_HEADER)
    assert list(old) == [] and old.ended == "new game"
    new = table.subscribe()
    assert new.game_id == table.game_id != old.game_id
    assert table.submit(add(2)).result(WAIT).seq == 1
    assert drain(new, 1)[0].args == {"n": 2}


def test_close_applies_what_was_queued_then_stops(tally: None, db: Path) -> None:
    store = Store(db)
    table = Table(store)
    table.new_game(TALLY_HEADER)
    sub = table.subscribe()
    queued = [table.submit(add(i)) for i in range(100)]
    table.close()
    assert [f.result(0).seq for f in queued] == list(range(1, 101))
    assert [e.seq for e in sub] == list(range(1, 101)) and sub.ended == "closed"
    with pytest.raises(TableClosedError):
        table.submit_intent("next").result(0)
    assert not any(t.name == "table-worker" for t in threading.enumerate())
    table.close()  # twice is harmless
    store.close()


def test_of_two_inputs_made_on_one_change_only_the_first_applies(table: Table) -> None:
    """The table's NEXT button and a tablet's NEXT, pressed together: the tablet's says
    which change it showed, and is checked on the worker in line with the button, so it
    is refused once the button's NEXT has gone in (checked before queuing, both applied).
    A press from a page still showing another game is refused too."""
    game_id, seq = table.current_stamp()
    button = table.submit("next", source="button")
    tablet = table.submit("next", source="tablet", shown=(game_id, seq))
    assert button.result(10).seq == seq + 1
    with pytest.raises(IllegalMoveError, match="The game changed just now"):
        tablet.result(10)
    assert table.current_stamp() == (game_id, seq + 1)
    with pytest.raises(IllegalMoveError, match="was not applied"):
        table.submit("next", shown=((game_id or 0) + 1, seq + 1)).result(10)
    assert table.submit("next", shown=(game_id, seq + 1)).result(10).seq == seq + 2
    assert table.submit("next", shown=(None, seq + 2)).result(10).seq == seq + 3  # game unsaid


def test_an_automatic_next_queued_behind_keep_every_stop_is_refused(table: Table) -> None:
    """Another tablet turns Auto off while this page's automatic NEXT is on its way: the
    choice is checked on the worker, in line, so the step does not pass after all."""
    game_id, seq = table.current_stamp()
    choice = table.keep_every_stop(True)
    passing = table.submit("next", source="tablet", shown=(game_id, seq), auto=True)
    choice.result(10)
    with pytest.raises(IllegalMoveError, match="keeps every stop"):
        passing.result(10)
    assert table.current_stamp() == (game_id, seq)
    table.keep_every_stop(False).result(10)
    assert table.submit("next", shown=(game_id, seq), auto=True).result(10).seq == seq + 1
