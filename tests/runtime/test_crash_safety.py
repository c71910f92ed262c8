"""Power-cut safety: SIGKILL the table at random points, restart it, lose nothing acknowledged.

tests/runtime/crash_worker.py plays random Run, Hamster, Run! v2.1 games through the Table
and prints
``ACK <game_id> <seq>`` once each event's future resolves. We kill it (seeded, random number
of acknowledgements later, so the kill lands mid-write, mid-replay or mid-publish), restart
it, and at the end check the store against everything that was acknowledged.
"""

from __future__ import annotations

import hashlib
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

import pytest

from companion.engine.session import Session
from companion.engine.state import State
from companion.games import find_game
from companion.store import Store

WORKER = Path(__file__).with_name("crash_worker.py")
PYTHON = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "python"
KILLS = 24
TARGET = 400  # stored events at the end (several games of two hamsters)
WAIT = 60.0

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")


def digest(state: State[Any]) -> str:
    """The same digest as crash_worker.digest (kept separate: the worker is a script)."""
    return hashlib.sha256(repr((state.G, state.ctx, state.rng)).encode()).hexdigest()


def start(db: Path) -> subprocess.Popen[str]:
    python = PYTHON if PYTHON.exists() else Path(sys.executable)
    return subprocess.Popen(
        [str(python), str(WORKER), str(db), str(TARGET), "5"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def read_line(stream: IO[str]) -> str:
    """The next protocol line; '' at end of output (the worker died or finished)."""
    return stream.readline().strip()


@pytest.mark.slow  # kills a worker process 24 times: ~8 s
def test_acknowledged_events_survive_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    rng = random.Random(2024)
    acked: dict[int, int] = {}  # game -> highest acknowledged seq
    acked_total = 0
    final: tuple[int, str] | None = None

    def follow(proc: subprocess.Popen[str], stop_after: int | None) -> None:
        nonlocal acked_total, final
        assert proc.stdout is not None
        first = read_line(proc.stdout).split()
        assert first and first[0] == "START", f"worker did not start: {first}"
        game_id, seq = int(first[1]), int(first[2])
        # What was acknowledged before the kill is still there after the restart (an event
        # stored but killed before its ACK may be there too: stored, never promised).
        assert seq >= acked.get(game_id, 0)
        assert all(g <= game_id for g in acked)
        last = {game_id: seq}  # this run's acknowledgements continue from the stored end
        seen = 0
        while stop_after is None or seen < stop_after:
            line = read_line(proc.stdout)
            if not line:
                return
            kind, game, value = line.split()
            if kind == "FINAL":
                final = (int(game), value)
                continue
            assert kind == "ACK"
            game_id, seq = int(game), int(value)
            assert seq == last.get(game_id, 0) + 1, f"gap or repeat at {line}"
            last[game_id] = acked[game_id] = seq
            acked_total += 1
            seen += 1

    for _ in range(KILLS):
        proc = start(db)
        follow(proc, rng.randint(0, 20))
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=WAIT)
        assert proc.returncode == -signal.SIGKILL, "the worker ended before it was killed"
    proc = start(db)
    follow(proc, None)
    _, errors = proc.communicate(timeout=WAIT)
    assert proc.returncode == 0, errors
    assert final is not None and acked_total >= 300

    store = Store(db)
    try:
        assert store.stats()["events"] >= TARGET
        games = store.games()
        assert [g.id for g in games] == sorted(acked)
        for game in games:
            events = store.events(game.id)
            seqs = [e.seq for e in events]
            assert seqs == list(range(1, len(seqs) + 1)), f"game {game.id}: {seqs[:5]}..."
            assert len(seqs) >= acked[game.id], f"game {game.id} lost acknowledged events"
            replayed = Session.replay(find_game(game.header.game), game.header, events)
            if game.id != final[0]:
                assert replayed.state.ctx.over, "a game was abandoned before its end"
            else:
                assert digest(replayed.state) == final[1]
    finally:
        store.close()
