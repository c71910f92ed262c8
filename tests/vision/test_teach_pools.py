"""Teaching the pool reader (Rats' d4-d10) this table's dice from confirmed pools.

What the table notices: a pool confirmed on the tablet is kept die by die with its kind and
face; ``dice teach`` then reads dice of a style the shipped model never saw better, without
applying more of them wrongly, and says so in its figures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from bench.teach_pools import UNFAMILIAR, confirm_pools, pool_kinds, score
from companion.table import Table
from companion.vision import poly_dice as reader
from companion.vision.dice import shared_reader
from companion.vision.teach import EXAMPLES_DIR, ExampleStore
from companion.vision.teach_pools import (
    POOL_EXAMPLES_DIR,
    POOL_MODEL_FILE,
    PoolExampleStore,
    PoolTeachReport,
    class_of,
    pool_labels,
    pool_model,
    teach_pools,
    use_taught_pool_model,
)
from companion.vision.teaching import teach
from companion.watch.dice import DiceWatcher
from hardware.dice_twin import DiceTwin
from hardware.simulator import poly_dice as sim
from tests.rats.pool_table import WAIT, play_until_a_pool_is_due
from tests.rats.pool_table import rats_table as companion_rats_table


@pytest.fixture(autouse=True)
def shipped_afterwards(tmp_path: Path) -> Iterator[None]:
    """Teaching sets the process's pool model: every test leaves the shipped one behind."""
    yield
    use_taught_pool_model(tmp_path / "nothing-taught")


def test_a_pool_read_as_proposed_or_typed_by_size_is_labelled_die_by_die() -> None:
    kinds, read = (4, 8, 10), (3, 7, 10)
    assert pool_labels(kinds, read, (3, 7, 10), ()) == [
        class_of(4, 3),
        class_of(8, 7),
        class_of(10, 10),
    ]
    # typed in another order, sizes named: the d8 was a 1, not a 7
    assert pool_labels(kinds, read, (10, 3, 1), (10, 4, 8)) == [
        class_of(4, 3),
        class_of(8, 1),
        class_of(10, 10),
    ]
    assert pool_labels(kinds, read, (3, 1, 10), ()) is None  # changed, sizes unknown
    assert pool_labels((8, 8), (7, 7), (1, 2), (8, 8)) is None  # which d8 was which?


def test_teaching_from_confirmed_pools_of_an_unfamiliar_style_reads_more_right(
    tmp_path: Path,
) -> None:
    rng = np.random.default_rng(5)
    confirm_pools(tmp_path, 10, rng)
    report = teach_pools(tmp_path)
    assert isinstance(report, PoolTeachReport)
    assert report.kept and (tmp_path / POOL_MODEL_FILE).exists()
    assert report.after > report.before
    scenes = []
    for _ in range(12):
        kinds = pool_kinds(rng)
        scenes.append((kinds, sim.render_pool(rng, kinds, styles=(UNFAMILIAR,))))
    before, after = score(reader.shared_model(), scenes), score(pool_model(), scenes)
    assert after["right"] > before["right"]
    assert after["accepted wrong"] <= before["accepted wrong"]


def test_dice_teach_with_only_pools_confirmed_teaches_the_pool_reader(tmp_path: Path) -> None:
    confirm_pools(tmp_path, 6, np.random.default_rng(8))
    report = teach(shared_reader(), tmp_path)
    lines = report.lines()
    assert lines[0].startswith("Six-sided dice not taught")
    assert "6 confirmed Rats pools" in lines[1]
    assert report.to_json()["pools"]["pools"] == 6


@pytest.fixture
def rats_table(tmp_path: Path) -> Iterator[Table]:
    with companion_rats_table(tmp_path) as table:
        yield table


def test_a_pool_confirmed_on_the_tablet_is_kept_with_each_dies_kind_and_face(
    rats_table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("companion.watch.dice.POOL_ACCEPT", 1.01)  # always offered, never sure
    sizes = play_until_a_pool_is_due(rats_table)
    twin = DiceTwin()
    watcher = DiceWatcher(
        rats_table, stable_frames=2, examples=ExampleStore(tmp_path / EXAMPLES_DIR)
    )
    for _ in range(8):
        published = watcher.process(twin.frame(sizes, "roll"))
        if published is not None:
            published.result(WAIT)
            break
    assert rats_table.public_state()["pending"] is not None
    rats_table.submit_intent("read").result(WAIT)  # the one tap
    assert watcher.pool_saver is not None
    watcher.pool_saver.flush()
    kept = PoolExampleStore(tmp_path / POOL_EXAMPLES_DIR).load()
    read = [reader.CLASSES[example.value - 1] for example in kept]
    assert Counter(read) == Counter(zip(sizes, twin.thrown, strict=True))
    assert ExampleStore(tmp_path / EXAMPLES_DIR).load() == []  # not mixed with the d6s'
