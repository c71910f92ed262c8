"""Plays random Run, Hamster, Run! games through the Table until the store holds enough events.

Run by tests/runtime/test_crash_safety.py as
``python tests/runtime/crash_worker.py DB TARGET SEED``; the test
kills it with SIGKILL at random points and starts it again. The protocol on stdout (flushed
line by line, because the killer reads it to decide what was acknowledged):

* ``START <game_id> <seq>`` — resumed (or started) game and its last stored seq;
* ``ACK <game_id> <seq>`` — the table acknowledged this event (its future resolved);
* ``FINAL <game_id> <sha256>`` — clean end: a digest of the live state, for the replay check.
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.engine.errors import IllegalMoveError
from companion.engine.session import GameHeader
from companion.engine.state import State
from companion.games.run_hamster_run import bot
from companion.store import Store
from companion.table import Table

WAIT = 60.0


def digest(state: State[Any]) -> str:
    """Equal states give equal digests: State and its parts are frozen dataclasses."""
    return hashlib.sha256(repr((state.G, state.ctx, state.rng)).encode()).hexdigest()


def header(seed: int, games: int) -> GameHeader:
    return GameHeader("run-hamster-run", "v2.1", ("Ann", "Bo"), seed=seed * 1000 + games)


def main(db: str, target: int, seed: int) -> int:
    store = Store(db)
    table = Table(store)
    if table.resume_error:
        print(table.resume_error, file=sys.stderr)
        return 2
    stored = int(store.stats()["events"])
    if table.game_id is None:
        table.new_game(header(seed, len(store.games())))
    print(f"START {table.game_id} {table.snapshot.count}", flush=True)
    while stored < target:
        snap = table.snapshot
        assert snap.state is not None
        if snap.state.ctx.over:
            table.new_game(header(seed, len(store.games())))
            continue
        # Seeded by position, so a restarted worker makes the same choices.
        rng = random.Random(f"{seed}:{snap.game_id}:{snap.count}")
        for candidate in bot.candidates(snap.state, rng):
            try:
                logged = table.submit(candidate, "bot").result(WAIT)
            except IllegalMoveError:
                continue
            print(f"ACK {snap.game_id} {logged.seq}", flush=True)
            stored += 1
            break
    state = table.snapshot.state
    assert state is not None
    print(f"FINAL {table.game_id} {digest(state)}", flush=True)
    table.close()
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
