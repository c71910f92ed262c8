"""A table that plays itself (``companion run --demo-table``): the game's own bot takes
every turn through the table's queue, game after game, and none of its games reaches the
history, its exports or the event's standings."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import history
from companion.demo_table import DemoPlayer
from companion.engine.session import GameHeader
from companion.errors import CompanionError
from companion.games import find_game
from companion.mqtt.board import tournament
from companion.store import Store
from companion.table import Table


def test_the_bot_plays_whole_games_that_stay_out_of_the_history(tmp_path: Path) -> None:
    store = Store(tmp_path / "demo.sqlite3")
    table = Table(store)
    spec = find_game("hamster-wheel")
    table.new_game(GameHeader(spec.name, spec.rules_default, ("Ann", "Bo"), 5))
    demo = DemoPlayer(table, pace=0.001, seed=1)
    try:
        first = table.snapshot.game_id
        for _ in range(20_000):
            demo.step()
            if demo.games == 2:
                break
        assert demo.games == 2 and demo.played > 10
        assert table.snapshot.game_id != first  # a new game began by itself
        assert table.snapshot.header is not None
        assert table.snapshot.header.players == ("Ann", "Bo")
        assert history.plays(store) == []  # nobody's games: not in the history
    finally:
        table.close()
        store.close()


def test_a_demo_tables_games_never_count_in_the_event_standings() -> None:
    entry = {"name": "Ann", "rank": 1, "leads": True}
    demo = {"game": "rats", "over": True, "game_id": 1, "standings": [entry], "demo": True}
    assert tournament({"shop-window": demo}, [{**demo, "table": "shop-window"}]) == []
    counted = tournament({"table-1": {**demo, "demo": False}})
    assert [t.name for t in counted] == ["Ann"]


def test_a_pace_that_is_not_positive_is_one_sentence(tmp_path: Path) -> None:
    store = Store(tmp_path / "demo.sqlite3")
    table = Table(store)
    try:
        with pytest.raises(CompanionError, match="positive number of seconds"):
            DemoPlayer(table, pace=0)
    finally:
        table.close()
        store.close()
