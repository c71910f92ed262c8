"""Engine benchmarks: random games per second, events per second, rebuild time.

Prints medians over repeats (this machine is shared and noisy), and a last line of JSON.
Run: ``.venv/bin/python bench/engine.py``
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from functools import partial
from pathlib import Path

from companion.engine.session import GameHeader, Session
from companion.games.run_hamster_run import SPEC
from companion.simulate import play_one, play_session
from companion.store import Store

REPEATS = 5


def games_per_second(rules: str, games: int = 100) -> tuple[float, float]:
    """(games/s, events/s) for random 4-player games in one process, median of repeats."""
    rates, event_rates = [], []
    for repeat in range(REPEATS):
        events = 0
        started = time.process_time()
        for index in range(games):
            events += play_one(SPEC, rules, 4, repeat * 100_000 + index)[1].events
        seconds = time.process_time() - started
        rates.append(games / seconds)
        event_rates.append(events / seconds)
    return statistics.median(rates), statistics.median(event_rates)


def rebuild_seconds(events_wanted: int = 500) -> tuple[float, int]:
    """Median time to rebuild a stored game of ~500 events from SQLite (read + replay)."""
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "bench.sqlite3")
        seed = 0
        while True:
            header = GameHeader(SPEC.name, "classic", ("A", "B", "C", "D", "E"), seed)
            game_id = store.create_game(header)
            session = Session(SPEC, header, partial(store.append, game_id))
            play_session(session, random.Random(seed), events_wanted)
            if len(session.log) >= events_wanted:
                break
            seed += 1
        times = []
        for _ in range(REPEATS):
            started = time.perf_counter()
            stored = store.game(game_id)
            rebuilt = Session.replay(SPEC, stored.header, store.events(game_id))
            times.append(time.perf_counter() - started)
        assert rebuilt.state == session.state
        store.close()
        return statistics.median(times), len(session.log)


def main() -> None:
    v21_games, v21_events = games_per_second("v2.1")
    classic_games, classic_events = games_per_second("classic")
    rebuild, events = rebuild_seconds()
    figures = {
        "v2.1_games_per_s_one_core": round(v21_games, 1),
        "classic_games_per_s_one_core": round(classic_games, 1),
        "v2.1_events_per_s": round(v21_events),
        "classic_events_per_s": round(classic_events),
        "rebuild_ms": round(rebuild * 1000, 1),
        "rebuild_events": events,
        "classic_to_v2.1_game_time_ratio": round(v21_games / classic_games, 2),
    }
    print(f"random 4-player games, one core (median of {REPEATS}):")
    print(f"  v2.1    {v21_games:8.1f} games/s  {v21_events:10.0f} events/s")
    print(f"  classic {classic_games:8.1f} games/s  {classic_events:10.0f} events/s")
    print(f"rebuild a {events}-event game from SQLite: {rebuild * 1000:.1f} ms (median)")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
