"""Teach the reader from rolls fixed on the page's picture, and measure before and after.

    python -m bench.teach_fixes [ROLLS] [NEW_ROLLS_SEED]

An unfamiliar drawn set (tests/vision/odd_dice.py: dark blue dice with yellow pips in
rows, which the shipped reader misreads) is rolled ROLLS times (10 by default) under a
dice watcher with a real table. Each settled roll is fixed exactly as the page does it, over
HTTP: ``GET /api/dice/proposal``, then ``POST /api/dice/correct`` with a tap for every die
(its true face; a die the reader missed is added where it lies, a find on no die removed),
so every roll is kept whatever count the reader had. Then ``companion dice teach`` runs on
what was kept. Thirty new rolls (another seed, never fixed or fitted) are read whole
before and after: dice found, read right, applied unasked, and applied unasked but wrong
(finds on no die included). Drawn dice, not photos: they show that fixes on the picture
teach, not how well any real set will be read.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from companion.config import GameDefaults
from companion.engine.session import GameHeader
from companion.store import Store
from companion.table import Table
from companion.vision.dice import AUTO_ACCEPT, DETECT, DiceReader, shared_reader
from companion.vision.teach import EXAMPLES_DIR, ExampleStore
from companion.vision.teaching import teach
from companion.watch.dice import DiceWatcher
from tests.vision.odd_dice import odd_roll
from web import create_app

FIXED_SEED = 1
NEW_ROLLS_SEED = 99
PIN = "2468"
NEAR = 15.0


def read_whole(reader: DiceReader, rolls: int = 30, seed: int = NEW_ROLLS_SEED) -> str:
    """What the camera would make of new rolls: found, right, applied unasked, wrong."""
    rng = np.random.default_rng(seed)
    total = found = right = applied = wrong = 0
    for _ in range(rolls):
        frame, spots, values = odd_roll(rng)
        seen = reader.read(frame)
        matched: set[int] = set()
        for (x, y), value in zip(spots, values, strict=True):
            total += 1
            near = [i for i, d in enumerate(seen) if _near(d.centre, (x, y)) and i not in matched]
            if not near:
                continue
            die = seen[near[0]]
            matched.add(near[0])
            found += 1
            right += die.value == value
            sure = die.value is not None and die.confidence >= AUTO_ACCEPT
            applied += sure
            wrong += sure and die.value != value
        for i, die in enumerate(seen):
            if i not in matched and die.value is not None and die.confidence >= AUTO_ACCEPT:
                applied += 1
                wrong += 1
    return (
        f"{found} of {total} dice found, {right} read right ({right / total:.1%} of all), "
        f"{applied} applied unasked, {wrong} of those wrong"
    )


def _near(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) < NEAR and abs(a[1] - b[1]) < NEAR


def fix_rolls(folder: Path, rolls: int) -> tuple[int, int, int]:
    """Roll, let the watcher propose, fix each roll through the page's endpoints; returns
    (dice the reader had right, dice the taps added, finds the taps removed)."""
    store = Store(folder / "c.sqlite3")
    table = Table(store, GameDefaults(players=("Ann", "Bo", "Cy")))
    table.new_game(GameHeader("hamsterdam", "classic", ("Ann", "Bo", "Cy"), 3))
    watcher = DiceWatcher(table, stable_frames=1, examples=ExampleStore(folder / EXAMPLES_DIR))
    client = create_app(table, PIN, camera=watcher, data_dir=folder).test_client()
    token = client.post("/api/login", json={"pin": PIN}).get_json()["token"]
    rng = np.random.default_rng(FIXED_SEED)
    right = added = removed = 0
    try:
        for _ in range(rolls):
            frame, spots, values = odd_roll(rng)
            watcher.process(frame)
            shown = client.get("/api/dice/proposal").get_json()["dice"]
            taps, used = [], set()
            for (x, y), value in zip(spots, values, strict=True):
                near = [i for i, d in enumerate(shown) if _near((d["x"], d["y"]), (x, y))]
                if near:
                    used.add(near[0])
                    right += shown[near[0]]["value"] == value
                    die = shown[near[0]]
                    taps.append({"x": die["x"], "y": die["y"], "value": value, "size": die["size"]})
                else:
                    added += 1
                    taps.append({"x": x, "y": y, "value": value})
            phantoms = [{"x": d["x"], "y": d["y"]} for i, d in enumerate(shown) if i not in used]
            removed += len(phantoms)
            body: dict[str, Any] = {"dice": taps, "removed": phantoms}
            done = client.post("/api/dice/correct", json=body, headers={"X-Table-Token": token})
            assert done.status_code == 200, done.get_json()
        assert watcher.saver is not None
        watcher.saver.flush()
    finally:
        table.close()
        store.close()
    return right, added, removed


def main(rolls: int = 10, seed: int = NEW_ROLLS_SEED) -> None:
    reader = shared_reader()
    reader.head = None
    reader.detect = DETECT
    print(f"30 new rolls (seed {seed}), shipped reader: {read_whole(reader, seed=seed)}")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        right, added, removed = fix_rolls(folder, rolls)
        kept = ExampleStore(folder / EXAMPLES_DIR).load()
        print(
            f"{rolls} rolls fixed on the picture: {len(kept)} dice kept ({right} the reader "
            f"had right, {added} added by a tap), {removed} finds removed as not a die"
        )
        report = teach(reader, folder)
        print("\n".join(report.lines()))
    print(f"30 new rolls (seed {seed}), taught reader: {read_whole(reader, seed=seed)}")
    reader.head = None
    reader.detect = DETECT


if __name__ == "__main__":
    main(*(int(argument) for argument in sys.argv[1:3]))
