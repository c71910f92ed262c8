"""Teach the reader from rolls fixed on the page's picture, and measure before and after.

    python -m bench.teach_fixes [ROLLS] [NEW_ROLLS_SEED] [FIXED_ROLLS_SEED]

An unfamiliar drawn set (tests/vision/odd_dice.py: dark blue dice with yellow pips in
rows, which the shipped reader misreads) is rolled ROLLS times (10 by default; drawn from
FIXED_ROLLS_SEED, 1 by default) under a dice watcher with a real table. Each settled roll
is fixed exactly as the page does it, over HTTP: ``GET /api/dice/proposal``, then
``POST /api/dice/correct`` with a tap for every die (its true face; a die the reader
missed is added where it lies, a find on no die removed), so every roll is kept whatever
count the reader had. Then ``companion dice teach`` runs on what was kept. Thirty new
rolls (another seed, never fixed or fitted) are read whole before and after: dice found,
read right, applied unasked, and applied unasked but wrong (finds on no die included);
then where the dice not read right went (missed by the finder, found but dropped as not a
die, unreadable, read wrong) and how many read right were asked. Drawn dice, not photos:
they show that fixes on the picture teach, not how well any real set will be read.
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass
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


@dataclass
class Tally:
    """What became of each die of the new rolls (every die lands in exactly one of
    missed, vetoed, unreadable, wrong, held and applied) and the finds on no die applied."""

    total: int = 0
    missed: int = 0  # the finder found nothing there
    vetoed: int = 0  # found, then dropped: the close-up said "not a die" (or a side face)
    unreadable: int = 0  # found, no value given (the player is asked)
    wrong: int = 0  # found, read wrong (asked or applied)
    held: int = 0  # found, read right, but not sure enough: the player is asked
    applied: int = 0  # found, read right and applied unasked
    wrong_applied: int = 0  # of ``wrong``, applied unasked
    phantoms_applied: int = 0  # applied finds on no die
    phantoms_asked: int = 0  # finds on no die the player is asked about (to remove)

    def line(self) -> str:
        found = self.total - self.missed - self.vetoed
        right = self.held + self.applied
        sure = self.applied + self.wrong_applied + self.phantoms_applied
        return (
            f"{found} of {self.total} dice found, {right} read right ({right / self.total:.1%} "
            f"of all), {sure} applied unasked, {self.wrong_applied + self.phantoms_applied} "
            "of those wrong"
        )

    def lost(self) -> str:
        """Where the dice not read right went."""
        return (
            f"  not read right: {self.missed} missed by the finder, {self.vetoed} found but "
            f"dropped as not a die, {self.unreadable} found but unreadable, {self.wrong} read "
            f"wrong ({self.wrong_applied} of them applied); read right but asked: {self.held}; "
            f"finds on no die: {self.phantoms_asked} asked, {self.phantoms_applied} applied"
        )


def read_whole(reader: DiceReader, rolls: int = 30, seed: int = NEW_ROLLS_SEED) -> Tally:
    """What the camera would make of new rolls, die by die."""
    rng = np.random.default_rng(seed)
    tally = Tally()
    for _ in range(rolls):
        frame, spots, values = odd_roll(rng)
        seen = reader.read(frame)
        finds = reader.find(frame)
        matched: set[int] = set()
        for (x, y), value in zip(spots, values, strict=True):
            tally.total += 1
            near = [i for i, d in enumerate(seen) if _near(d.centre, (x, y)) and i not in matched]
            if not near:
                if any(_near((c.x, c.y), (x, y)) for c in finds):
                    tally.vetoed += 1
                else:
                    tally.missed += 1
                continue
            die = seen[near[0]]
            matched.add(near[0])
            sure = die.value is not None and die.confidence >= AUTO_ACCEPT
            if die.value is None:
                tally.unreadable += 1
            elif die.value != value:
                tally.wrong += 1
                tally.wrong_applied += sure
            elif sure:
                tally.applied += 1
            else:
                tally.held += 1
        for i, die in enumerate(seen):
            if i not in matched:
                sure = die.value is not None and die.confidence >= AUTO_ACCEPT
                tally.phantoms_applied += sure
                tally.phantoms_asked += not sure
    return tally


def _near(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) < NEAR and abs(a[1] - b[1]) < NEAR


def fix_rolls(folder: Path, rolls: int, seed: int = FIXED_SEED) -> tuple[int, int, int, int]:
    """Roll, let the watcher propose, fix each roll through the page's endpoints until
    ``rolls`` are fixed; returns (dice the reader had right, dice the taps added, finds the
    taps removed, rolls rolled again because the camera proposed nothing to fix: it saw
    no die)."""
    store = Store(folder / "c.sqlite3")
    table = Table(store, GameDefaults(players=("Ann", "Bo", "Cy")))
    table.new_game(GameHeader("hamsterdam", "classic", ("Ann", "Bo", "Cy"), 3))
    watcher = DiceWatcher(table, stable_frames=1, examples=ExampleStore(folder / EXAMPLES_DIR))
    client = create_app(table, PIN, camera=watcher, data_dir=folder).test_client()
    token = client.post("/api/login", json={"pin": PIN}).get_json()["token"]
    rng = np.random.default_rng(seed)
    right = added = removed = unseen = 0
    try:
        while rolls:
            frame, spots, values = odd_roll(rng)
            watcher.process(frame)
            proposal = client.get("/api/dice/proposal")
            if proposal.status_code == 404:
                unseen += 1
                continue
            rolls -= 1
            shown = proposal.get_json()["dice"]
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
    return right, added, removed, unseen


def main(rolls: int = 10, seed: int = NEW_ROLLS_SEED, fixed_seed: int = FIXED_SEED) -> None:
    reader = shared_reader()
    reader.head = None
    reader.detect = DETECT
    before = read_whole(reader, seed=seed)
    print(f"30 new rolls (seed {seed}), shipped reader: {before.line()}\n{before.lost()}")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        right, added, removed, unseen = fix_rolls(folder, rolls, fixed_seed)
        kept = ExampleStore(folder / EXAMPLES_DIR).load()
        print(
            f"{rolls} rolls (seed {fixed_seed}) fixed on the picture: {len(kept)} dice kept "
            f"({right} the reader had right, {added} added by a tap), {removed} finds removed "
            "as not a die"
            + (f"; {unseen} more rolled again: the camera saw no die to fix" if unseen else "")
        )
        report = teach(reader, folder)
        print("\n".join(report.lines()))
    after = read_whole(reader, seed=seed)
    print(f"30 new rolls (seed {seed}), taught reader: {after.line()}\n{after.lost()}")
    reader.head = None
    reader.detect = DETECT


if __name__ == "__main__":
    main(*(int(argument) for argument in sys.argv[1:4]))
