"""The event board's own logic, without a broker: what it takes, how it adds up a
tournament, what it prints."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from companion.mqtt.board import Board, render, tournament
from companion.mqtt.topics import FORMAT, state_payload


def state(table: str, players: list[str], ranks: list[int], over: bool) -> dict[str, Any]:
    leading = [r == 1 and (over or len(set(ranks)) > 1) for r in ranks]
    standings = [
        {"seat": i, "name": n, "rank": r, "figure": f"{r} water", "leads": lead}
        for i, (n, r, lead) in enumerate(zip(players, ranks, leading, strict=True))
    ]
    public = {
        "game": "hamsterdam",
        "title": "Hamsterdam",
        "round": 2,
        "phase": "roll",
        "phase_title": "Roll the dice",
        "over": over,
        "players": players,
        "standings": standings,
    }
    data: dict[str, Any] = json.loads(state_payload(table, public, now=100.0))
    return data


def test_the_board_keeps_each_tables_last_state_and_ignores_strangers() -> None:
    board = Board("hamster")
    board.take("hamster/t1/state", json.dumps(state("t1", ["Ann", "Bo"], [1, 2], False)).encode())
    board.take("hamster/t1/online", b"online")
    board.take("hamster/t2/state", b"not json")  # a stray publisher
    board.take("hamster/t3/state", json.dumps({"format": FORMAT + 1}).encode())  # a newer Pi
    board.take("other/t4/state", json.dumps(state("t4", ["Cy"], [1], False)).encode())
    board.take("hamster/t1/events", b"{}")
    assert list(board.tables()) == ["t1"]
    assert board.tables()["t1"]["online"] is True
    board.take("hamster/t1/online", b"offline")
    assert board.tables()["t1"]["online"] is False
    board.take("hamster/t1/state", b"")  # the organiser cleared the retained state
    assert board.tables() == {}


def test_a_finished_game_counts_wins_and_players_beaten_by_name_across_tables() -> None:
    tables = {
        "t1": state("t1", ["Ann", "Bo", "Cy"], [1, 2, 3], over=True),
        "t2": state("t2", ["Bo", "Ann"], [1, 2], over=True),
        "t3": state("t3", ["Ann", "Dee"], [2, 1], over=False),
    }
    totals = {t.name: t for t in tournament(tables)}
    assert (totals["Ann"].wins, totals["Ann"].beaten, totals["Ann"].games) == (1, 2, 3)
    assert (totals["Bo"].wins, totals["Bo"].beaten) == (1, 2)
    assert totals["Dee"].leading == 1 and totals["Dee"].wins == 0
    assert [t.name for t in tournament(tables)][:2] == ["Ann", "Bo"]


def test_a_name_typed_with_other_capitals_at_another_table_is_the_same_player() -> None:
    # Ann won at t1; at t2 her name was typed "ann " and she won again: one line, 2 wins.
    tables = {
        "t1": state("t1", ["Ann", "Bo"], [1, 2], over=True),
        "t2": state("t2", ["ann ", "BO"], [1, 2], over=True),
    }
    totals = tournament(tables)
    assert [(t.name, t.wins, t.beaten, t.games) for t in totals] == [
        ("Ann", 2, 2, 2),
        ("Bo", 0, 0, 2),
    ]


def test_the_text_board_names_every_table_its_leader_and_the_standings() -> None:
    tables = {
        "t1": {**state("t1", ["Ann", "Bo"], [1, 2], False), "online": True},
        "t2": {**state("t2", ["Cy", "Dee"], [1, 1], False), "online": False},
    }
    text = render(tables, now=130.0)
    t1, t2 = (line for line in text.splitlines() if line.startswith(("t1 ", "t2 ")))
    assert "Hamsterdam" in t1 and "Roll the dice" in t1 and "Ann (1 water)" in t1
    assert "nobody yet" in t2 and "offline; this state is 30 s old" in t2
    assert "Standings across tables" in text
    assert "No table has published yet" in render({})


@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from("ABCDEF"), min_size=1, max_size=4, unique=True),
            st.booleans(),
            st.randoms(),
        ),
        max_size=8,
    )
)
def test_standings_across_tables_add_up(games: list[tuple[list[str], bool, Any]]) -> None:
    """Whatever the tables: every seat is counted once, and the wins are the finished
    games' leaders."""
    tables = {}
    for index, (players, over, rng) in enumerate(games):
        ranks = [rng.randint(1, len(players)) for _ in players]
        ranks = [1 + sum(1 for o in ranks if o < r) for r in ranks]  # competition ranks
        tables[f"t{index}"] = state(f"t{index}", players, ranks, over)
    totals = tournament(tables)
    assert sum(t.games for t in totals) == sum(len(p) for p, _, _ in games)
    leaders = sum(1 for s in tables.values() if s["over"] for e in s["standings"] if e["leads"])
    assert sum(t.wins for t in totals) == leaders
    assert len({t.name for t in totals}) == len(totals)


def test_a_tournament_counts_every_finished_game_of_the_evening_once() -> None:
    # Table t1 finished game 1 (Ann won) and now plays game 2; the broker keeps game 1.
    first = {**state("t1", ["Ann", "Bo"], [1, 2], over=True), "game_id": 1}
    second = {**state("t1", ["Ann", "Bo"], [2, 1], over=False), "game_id": 2}
    totals = {t.name: t for t in tournament({"t1": second}, [first])}
    assert (totals["Ann"].wins, totals["Ann"].beaten, totals["Ann"].games) == (1, 1, 2)
    assert totals["Bo"].leading == 1 and totals["Bo"].wins == 0
    # A finished game both kept on the broker and still on the table counts once.
    again = {t.name: t for t in tournament({"t1": first}, [first])}
    assert again["Ann"].wins == 1 and again["Ann"].games == 1


def test_the_board_keeps_finished_games_and_forgets_one_an_undo_reopened() -> None:
    board = Board("hamster")
    finished = {**state("t1", ["Ann", "Bo"], [1, 2], over=True), "game_id": 4}
    board.take("hamster/t1/results/4", json.dumps(finished).encode())
    board.take("hamster/t1/results/5", json.dumps(state("t1", ["Cy"], [1], False)).encode())
    board.take("hamster/t1/results/6", b"not json")
    assert [(r["table"], r["game_id"]) for r in board.results()] == [("t1", 4)]
    board.take("hamster/t1/results/4", b"")  # reopened by an undo
    assert board.results() == []
