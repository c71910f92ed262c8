"""History benchmark: how long the History page and `companion history` take to list a
table's games the first time (every game rebuilt from its log) and after (kept summaries).

Plays ``GAMES_PER_KIND`` bot games of every game into a real SQLite file in a temporary
folder, then times :func:`companion.history.plays` cold and warm. Prints the figures and a
last line of JSON. Run: ``.venv/bin/python bench/history.py``.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from companion import history
from companion.engine.session import GameHeader
from companion.games import GAMES
from companion.saved import start_game
from companion.simulate import play_session
from companion.store import Store

GAMES_PER_KIND = 50
NAMES = ("Ann", "Bob", "Cy", "Dee")
WARM_RUNS = 5


def fill(store: Store) -> int:
    count = 0
    for name, spec in GAMES.items():
        for seed in range(GAMES_PER_KIND):
            _, session = start_game(store, GameHeader(name, spec.rules_default, NAMES, seed))
            play_session(session, random.Random(seed), 20_000)
            count += 1
    return count


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "companion.sqlite3")
        games = fill(store)
        started = time.perf_counter()
        listed = history.plays(store)
        cold = time.perf_counter() - started
        warm = []
        for _ in range(WARM_RUNS):
            started = time.perf_counter()
            history.plays(store)
            warm.append(time.perf_counter() - started)
        started = time.perf_counter()
        history.player_stats(listed)
        stats = time.perf_counter() - started
        store.close()
    figures = {
        "games": games,
        "finished": len(listed),
        "first_listing_s": round(cold, 3),
        "kept_listing_median_s": round(statistics.median(warm), 4),
        "player_stats_s": round(stats, 4),
    }
    print(f"{games} stored games ({len(listed)} finished)")
    print(f"  first listing (every game replayed): {cold:.3f} s")
    print(f"  later listings (kept summaries):     {statistics.median(warm) * 1000:.1f} ms median")
    print(f"  per-player stats:                    {stats * 1000:.1f} ms")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
