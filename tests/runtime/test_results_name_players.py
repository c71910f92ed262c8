"""A finished game's result names the players (their rat or hamster second), and every
figure it gives agrees with the others: the sentence, the standings the board shows, the
history's figures and its exports (CSV and BG Stats) are all read by people at the event.

Each game is played to its end on a real table (SQLite) by its own bot.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion import history
from companion.engine.session import GameHeader
from companion.games import find_game
from companion.history_export import bgstats_file, to_csv
from companion.mqtt.board import leaders_line
from companion.simulate import bot_of, bot_turn
from companion.store import Store
from companion.table import Table


def finished(
    folder: Path, game: str, players: tuple[str, ...], seed: int
) -> tuple[Store, dict[str, Any]]:
    """A real table that played ``game`` to its end; its store and its public state."""
    store = Store(folder / f"{game}-{seed}.sqlite3")
    table = Table(store)
    spec = find_game(game)
    table.new_game(GameHeader(spec.name, spec.rules_default, players, seed, {}))
    bot, rng = bot_of(spec), random.Random(seed)
    for _ in range(50_000):
        state = table.snapshot.state
        assert state is not None
        if state.ctx.over:
            break
        bot_turn(bot, state, rng, lambda e: table.submit(e).result(10))
    public = table.public_state(None, with_log=False)
    table.close()
    assert public["over"]
    return store, public


@pytest.mark.parametrize("seed", [3, 7])
def test_a_rats_result_names_the_player_first_and_the_rat_second(tmp_path: Path, seed: int) -> None:
    store, public = finished(tmp_path, "rats", ("Ann", "Bo", "Cy", "Dee"), seed)
    try:
        winners = [public["players"][s] for s in public["winners"]]
        if not winners:
            pytest.skip("nobody won this seed")
        for name in winners:  # the bot names its rats "Rat1".."Rat4"
            assert re.search(rf"\b{name} \(Rat\d\)", public["result"]), public["result"]
        assert not public["result"].startswith("Rat")
        (play,) = history.plays(store)
        assert public["result"] in to_csv([play])
        exported = json.dumps(bgstats_file([play]))
        assert all(f"{name} (Rat" in exported for name in winners)
    finally:
        store.close()


def test_a_run_hamster_run_winner_on_the_board_reads_as_the_winner(tmp_path: Path) -> None:
    store, public = finished(tmp_path, "run-hamster-run", ("Ann", "Bo", "Cy"), 7)
    store.close()
    (winner,) = [public["players"][s] for s in public["winners"]]
    assert f"{winner} (last hamster left)" == leaders_line(public)
    assert "Pit" not in leaders_line(public)
    assert re.match(rf"{winner} \(\w+ hamster\) is the last hamster left", public["result"])


@pytest.mark.parametrize("seed", [7, 11])
def test_a_hamsterdam_result_and_its_figures_agree(tmp_path: Path, seed: int) -> None:
    store, public = finished(tmp_path, "hamsterdam", ("Ann", "Bo", "Cy"), seed)
    try:
        (play,) = history.plays(store)
        said = re.match(r"(\d+) flood tokens have broken through", public["result"])
        assert said is not None, public["result"]
        broke = int(said[1])
        assert play.figures["flood_tokens_broken_through"] == broke
        water = [int(e["figure"].split()[0]) for e in public["standings"]]
        assert play.figures["water_at_end"] == sum(water)
        best = min(water)
        assert f"the least water ({best})" in public["result"]
        row = to_csv([play])
        assert f"flood tokens broken through {broke}" in row
        assert "flood tokens at end" not in row
    finally:
        store.close()
