"""Play history from the store and `companion history`, with real games the bots played
to their end in a real SQLite file."""

from __future__ import annotations

import csv
import io
import json
import random
import re
import sqlite3
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import history
from companion.commands.tree import main
from companion.config import load_config
from companion.engine.session import GameHeader, Session
from companion.games import GAMES
from companion.history_export import BGSTATS_LINK, bgstats_file, to_csv
from companion.saved import resume_game, start_game
from companion.simulate import play_session
from companion.store import Store

NAMES = ("Ann", "Bob", "Cy", "Dee")
COLOURS = ["red", "blue", "yellow", "green"]
# The fields BG Stats documents for a play it imports through its createPlay link
# (https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/).
BGSTATS_PLAY = {"board", "durationMin", "comments", "game", "location", "playDate", "players"}
BGSTATS_GAME = {"bggId", "highestWins", "name", "noPoints", "sourceGameId"}
BGSTATS_PLAYER = {"startPlayer", "name", "rank", "role", "score", "sourcePlayerId", "winner"}


def database(data_dir: Path) -> Path:
    return load_config(None, data_dir=str(data_dir)).database


def play_to_end(store: Store, game: str, seed: int, names: tuple[str, ...] = NAMES) -> int:
    spec = GAMES[game]
    options: dict[str, Any] = {"colours": COLOURS[: len(names)]} if game == "hamsterdam" else {}
    header = GameHeader(game, spec.rules_default, names, seed, options)
    game_id, session = start_game(store, header)
    play_session(session, random.Random(seed), 20_000)
    assert session.state.ctx.over
    return game_id


def stretch(path: Path, game_id: int, seconds: float) -> None:
    """Make a game's last event come ``seconds`` after its start (real games take a while)."""
    db = sqlite3.connect(path)
    created = db.execute("SELECT created FROM games WHERE id = ?", (game_id,)).fetchone()[0]
    db.execute(
        "UPDATE events SET at = ? WHERE game_id = ? AND seq = "
        "(SELECT MAX(seq) FROM events WHERE game_id = ?)",
        (created + seconds, game_id, game_id),
    )
    db.commit()
    db.close()


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """A data folder holding one finished game of every game, then one still going."""
    path = database(tmp_path)
    store = Store(path)
    for seed, game in enumerate(GAMES, start=1):
        play_to_end(store, game, seed)
    start_game(store, GameHeader("hamster-wheel", "standard", ("Eve", "Fay"), 99))
    store.set_setting("table_pin", "123456")
    store.close()
    stretch(path, 1, 42 * 60)
    return tmp_path


def run(data_dir: Path, *args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--data-dir", str(data_dir), *args], input=input)
    return result.exit_code, result.output


def test_every_finished_game_is_listed_newest_first_with_its_own_figures(table: Path) -> None:
    store = Store(database(table))
    found = history.plays(store)
    assert [p.id for p in found] == [4, 3, 2, 1]  # the unfinished game 5 is not listed
    assert {p.game for p in found} == set(GAMES)
    for play in found:
        spec = GAMES[play.game]
        state = Session.replay(spec, store.game(play.id).header, store.events(play.id)).state
        figures = spec.key_figures or spec.report.figures
        assert figures is not None
        assert play.figures == figures(state.G)  # through the seam, per game
        assert play.result == state.ctx.result and play.players == NAMES
    first = found[-1]
    assert first.seconds == pytest.approx(42 * 60)
    assert {"speed_at_end", "alligators_at_end"} <= set(first.figures)  # belt and gators


def test_a_kept_summary_is_redone_when_the_game_changes(table: Path) -> None:
    store = Store(database(table))
    assert 4 in [p.id for p in history.plays(store)]
    resumed = resume_game(store, 4)
    assert resumed is not None
    resumed[1].undo()  # back before the end: the game is not finished any more
    assert 4 not in [p.id for p in history.plays(store)]
    assert 4 in [p.id for p in history.plays(store, finished_only=False)]


def test_delete_hides_a_game_undelete_brings_it_back_and_only_old_ones_are_purged(
    table: Path,
) -> None:
    store = Store(database(table))
    history.delete(store, 2, now=1000.0)
    assert 2 not in [p.id for p in history.plays(store)]
    history.undelete(store, 2)
    assert 2 in [p.id for p in history.plays(store)]
    history.delete(store, 2, now=1000.0)
    history.delete(store, 3, now=1000.0 + history.UNDO_SECONDS - 1)
    assert len(store.events(2)) > 0  # still within its time to be brought back
    history.delete(store, 4, now=1000.0 + history.UNDO_SECONDS + 1)
    assert store.events(2) == []  # purged for good, in one go with its summary
    with pytest.raises(history.HistoryError, match="no game 2"):
        history.undelete(store, 2)
    history.undelete(store, 3)
    assert [p.id for p in history.plays(store)] == [3, 1]


def test_the_game_being_played_cannot_be_deleted(table: Path) -> None:
    store = Store(database(table))
    with pytest.raises(history.HistoryError, match="still being played"):
        history.delete(store, 5)


def test_same_players_again_offers_the_last_names_and_colours(tmp_path: Path) -> None:
    store = Store(database(tmp_path))
    assert history.last_players(store) is None
    play_to_end(store, "hamsterdam", 3, ("Ann", "Bob", "Cy"))
    assert history.last_players(store) == (("Ann", "Bob", "Cy"), ("red", "blue", "yellow"))


def plays_strategy() -> st.SearchStrategy[list[history.Play]]:
    names = st.lists(st.sampled_from(["Ann", "ann", "Bob", "Cy", "Dee"]), min_size=2, max_size=4)

    def one(players: list[str], data: st.DataObject) -> history.Play:
        winners = data.draw(st.sets(st.integers(0, len(players) - 1), max_size=2))
        return history.Play(
            id=1,
            game="g",
            title=data.draw(st.sampled_from(["A", "B"])),
            rules="r",
            players=tuple(players),
            colours=(),
            started=0.0,
            seconds=None,
            finished=True,
            winners=tuple(sorted(winners)),
            result="",
            rounds=1,
        )

    return st.lists(st.builds(one, names, st.data()), max_size=8)


@settings(deadline=None)
@given(plays_strategy())
def test_stats_add_up_however_the_games_went(found: list[history.Play]) -> None:
    stats = history.player_stats(found)
    assert sum(s.total.plays for s in stats) == sum(len(p.players) for p in found)
    assert sum(s.total.wins for s in stats) == sum(len(p.winners) for p in found)
    for entry in stats:
        assert 0 <= entry.total.wins <= entry.total.plays
        assert sum(t.plays for t in entry.by_game.values()) == entry.total.plays
        assert sum(t.wins for t in entry.by_seat.values()) == entry.total.wins
    assert len({s.name.casefold() for s in stats}) == len(stats)  # "Ann" and "ann" are one


def test_the_command_lists_the_games_and_the_stats(table: Path) -> None:
    code, out = run(table, "history")
    assert code == 0
    assert "#1" in out and "Run, Hamster, Run!" in out and "42 min" in out
    assert "speed at end" in out and "flood tokens broken through" in out
    assert "Eve" not in out  # the game still going is not history yet
    assert run(table, "history", "list")[1] == out
    for play in history.plays(Store(database(table))):  # nobody won: the game says who did
        assert play.winners or f"nobody ({play.result})" in out
    listed = json.loads(run(table, "history", "list", "--json")[1])
    assert [p["id"] for p in listed] == [4, 3, 2, 1]
    code, out = run(table, "history", "stats")
    assert code == 0 and "Ann:" in out and "seat 1:" in out and "Hamsterdam:" in out
    data = json.loads(run(table, "history", "stats", "--json")[1])
    assert sum(p["plays"] for p in data) == 4 * len(GAMES)


def test_csv_export_has_one_row_per_finished_game(table: Path) -> None:
    target = table / "plays.csv"
    code, out = run(table, "history", "export", "--csv", str(target))
    assert code == 0 and "4 games" in out
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert [r["id"] for r in rows] == ["4", "3", "2", "1"]
    assert rows[-1]["minutes"] == "42" and rows[-1]["players"] == "Ann; Bob; Cy; Dee"
    assert "alligators at end" in rows[-1]["figures"]
    hamsterdam = next(r for r in rows if r["game"] == "Hamsterdam")
    assert hamsterdam["colours"] == "red; blue; yellow; green"


def test_bgstats_export_uses_only_the_documented_fields(table: Path) -> None:
    target = table / "plays.json"
    code, _ = run(table, "history", "export", "--bgstats", str(target))
    assert code == 0
    data = json.loads(target.read_text(encoding="utf-8"))
    assert len(data["plays"]) == 4
    for entry in data["plays"]:
        play = entry["data"]
        assert set(play) <= BGSTATS_PLAY and set(play["game"]) <= BGSTATS_GAME
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
        assert isinstance(play["durationMin"], int)
        for player in play["players"]:
            assert set(player) <= BGSTATS_PLAYER and isinstance(player["winner"], bool)
        if play["game"]["sourceGameId"] == "run-hamster-run":  # initiative: no start player
            assert all("startPlayer" not in p for p in play["players"])
        else:
            assert sum(p["startPlayer"] for p in play["players"]) == 1
        assert entry["link"].startswith(BGSTATS_LINK)
        assert json.loads(unquote(entry["link"][len(BGSTATS_LINK) :])) == play
    first = data["plays"][-1]["data"]
    assert first["durationMin"] == 42 and first["game"]["name"] == "Run, Hamster, Run!"


def test_bgstats_names_the_games_own_start_player_and_who_wins_hamsterdam(table: Path) -> None:
    """Hamsterdam: the roll-off's winner starts (not always seat 1) and the least water wins."""
    store = Store(database(table))
    plays = {
        p["data"]["game"]["sourceGameId"]: p["data"]
        for p in bgstats_file(history.plays(store))["plays"]
    }
    hamsterdam = next(p for p in history.plays(store) if p.game == "hamsterdam")
    state = Session.replay(
        GAMES["hamsterdam"], store.game(hamsterdam.id).header, store.events(hamsterdam.id)
    ).state
    assert state.G.first != 0  # this seed's roll-off is won by another seat than the first
    starts = [p["startPlayer"] for p in plays["hamsterdam"]["players"]]
    assert starts.index(True) == state.G.first
    assert plays["hamsterdam"]["game"]["highestWins"] is False
    assert plays["rats"]["game"]["highestWins"] is True


def test_bgstats_gives_a_role_only_to_players_whose_colour_was_chosen(table: Path) -> None:
    plays = {
        p["data"]["game"]["sourceGameId"]: p["data"]
        for p in bgstats_file(history.plays(Store(database(table))))["plays"]
    }
    assert [p["role"] for p in plays["hamsterdam"]["players"]] == COLOURS
    assert all("role" not in p for p in plays["rats"]["players"])  # started without colours


def test_export_without_a_file_says_what_to_give(table: Path) -> None:
    code, out = run(table, "history", "export")
    assert code == 2 and "--csv FILE" in out


def test_an_export_that_cannot_be_written_names_the_file_and_what_is_wrong(
    table: Path,
) -> None:
    target = table / "no-such-folder" / "plays.json"
    code, out = run(
        table, "history", "export", "--csv", str(table / "ok.csv"), "--bgstats", str(target)
    )
    assert code == 2 and "Traceback" not in out
    assert f"Cannot write {target}: there is no folder {target.parent}" in out
    assert (table / "ok.csv").exists()  # the file that could be written was


def test_delete_needs_the_pin_and_undelete_brings_the_game_back(table: Path) -> None:
    code, out = run(table, "history", "delete", "2", "--pin", "000000")
    assert code == 2 and "PIN is not right" in out and "Nothing was deleted" in out
    assert "#2" in run(table, "history")[1]
    code, out = run(table, "history", "delete", "2", input="123456\n")  # asked for
    assert code == 0 and "undelete 2" in out
    assert "#2 " not in run(table, "history")[1]
    code, out = run(table, "history", "undelete", "2")
    assert code == 0 and "#2" in run(table, "history")[1]
    code, out = run(table, "history", "delete", "77", "--pin", "123456")
    assert code == 2 and "no game 77" in out and "Traceback" not in out


def test_exports_of_an_empty_history_are_still_readable() -> None:
    assert to_csv([]).splitlines() == [
        "id,date,game,rules,players,colours,winners,result,minutes,rounds,figures"
    ]
    assert bgstats_file([])["plays"] == []


def test_a_deleted_game_the_table_still_holds_is_purged_only_once_another_starts(
    tmp_path: Path,
) -> None:
    store = Store(database(tmp_path))
    first = play_to_end(store, "hamster-wheel", 4)
    history.delete(store, first, now=0.0)
    assert history.purge_expired(store, now=10_000.0) == []  # still the table's game
    assert history.plays(store) == []
    play_to_end(store, "hamster-wheel", 5)
    assert history.purge_expired(store, now=10_000.0) == [first]
    assert store.events(first) == []


def test_a_game_is_summarised_as_it_ends(tmp_path: Path) -> None:
    """`companion run` keeps a game's summary when its game-over cue sounds, so the History
    page never replays it."""
    from companion.listeners import GAME_OVER_CUE
    from companion.startup.games import summary_at_the_end
    from companion.table import Table

    store = Store(database(tmp_path))
    game_id = play_to_end(store, "hamster-wheel", 6)
    table = Table(store)
    try:
        summary_at_the_end(store, table)((GAME_OVER_CUE,))
        for _ in range(500):  # the summary is made on a thread of its own
            if store.summary(game_id) is not None:
                break
            time.sleep(0.01)
        kept = store.summary(game_id)
        assert kept is not None and json.loads(kept[1])["finished"] is True
    finally:
        table.close()


ACTIONS = st.lists(
    st.tuples(st.sampled_from(["delete", "undelete", "purge"]), st.integers(1, 3)),
    max_size=12,
)


# Each example plays three games into SQLite: slow for hypothesis, by design.
@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(ACTIONS)
def test_no_game_is_lost_unless_deleted_longer_ago_than_the_undo_window(
    actions: list[tuple[str, int]],
) -> None:
    """Whatever is deleted, brought back or purged, and when: a game disappears for good
    only if it was deleted (and not brought back) more than UNDO_SECONDS before a purge."""
    store = Store(":memory:")
    for seed in (1, 2, 3):
        play_to_end(store, "hamster-wheel", seed, ("Ann", "Bob"))
    start_game(store, GameHeader("hamster-wheel", "standard", ("Ann", "Bob"), 9))  # current
    deleted: dict[int, float] = {}
    gone: set[int] = set()
    now = 0.0
    for action, game_id in actions:
        now += history.UNDO_SECONDS / 2
        try:
            if action == "delete":
                history.delete(store, game_id, now=now)
            elif action == "undelete":
                history.undelete(store, game_id)
            else:
                history.purge_expired(store, now=now)
        except history.HistoryError:
            assert game_id in gone or (action == "delete") == (game_id in deleted)
            continue
        if action != "undelete":  # a deletion purges the old ones first, as a purge does
            expired = {g for g, at in deleted.items() if at < now - history.UNDO_SECONDS}
            gone |= expired
            deleted = {g: at for g, at in deleted.items() if g not in expired}
        if action == "delete":
            deleted[game_id] = now
        elif action == "undelete":
            deleted.pop(game_id)
        listed = {p.id for p in history.plays(store)}
        assert listed == {1, 2, 3} - gone - set(deleted)
        assert all(store.events(g) for g in {1, 2, 3} - gone)  # nothing else lost
        assert all(not store.events(g) for g in gone)


def test_same_players_again_from_the_command_line(tmp_path: Path) -> None:
    code, out = run(tmp_path, "new", "--same-players")
    assert code == 2 and "no earlier game" in out
    code, out = run(tmp_path, "new", "--game", "run-hamster-run")
    assert code == 2 and "--players" in out
    run(tmp_path, "new", "--players", "Ann,Bob,Cy", "--colours", "green,red,blue", "--seed", "1")
    code, out = run(tmp_path, "new", "--same-players", "--seed", "2")
    assert code == 0 and "for Ann, Bob, Cy" in out
    status = json.loads(run(tmp_path, "status", "--json")[1])
    assert [h["colour"] for h in status["view"]["hamsters"]] == ["green", "red", "blue"]


def test_a_game_of_rats_is_remembered_by_every_rats_dominance_hand(table: Path) -> None:
    store = Store(database(table))
    rats = next(p for p in history.plays(store) if p.game == "rats")
    hands = str(rats.figures["Dominance hands"])
    assert all(name in hands for name in NAMES)  # every player's rat, by name
    assert any(word in hands for word in ("high card", "pair", "no cards", "straight", "flush"))
    code, shown = run(table, "history")
    assert code == 0 and "Dominance hands" in shown
