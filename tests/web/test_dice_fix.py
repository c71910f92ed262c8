"""Fixing the camera's dice reading on its picture: the fixed roll is played and kept to
teach from, whatever count the reader had (issue 33, item 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.table import Table
from companion.vision.teach import EXAMPLES_DIR, INDEX_FILE, NOT_A_DIE, ExampleStore, align
from companion.watch.dice import DiceWatcher
from tests.vision.test_teach import _watch_a_roll, table_at_roll
from tests.web.conftest import PIN
from web import create_app

__all__ = ["table_at_roll"]  # the fixture, shared with the teaching tests


def test_a_roll_fixed_on_the_picture_is_played_and_kept_whatever_the_count(
    table_at_roll: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The camera read a 3 and a phantom 5 and missed a die: typed as 4 and 2, the roll
    could not be kept (which typed value is which die?); tapped on the picture, it is."""
    store = ExampleStore(tmp_path / EXAMPLES_DIR)
    watcher = DiceWatcher(table_at_roll, stable_frames=1, examples=store)
    _watch_a_roll(watcher, (3, 5), monkeypatch)
    assert align((3, 5), (4, 2)) is None, "typing alone cannot say which die was which"
    client = create_app(table_at_roll, PIN, camera=watcher, data_dir=tmp_path).test_client()
    shown = client.get("/api/dice/proposal").get_json()
    assert [(d["x"], d["value"]) for d in shown["dice"]] == [(100.0, 3), (200.0, 5)]
    assert client.get("/dice/proposal.jpg").status_code == 200
    fix = {
        "dice": [{"x": 100, "y": 100, "value": 4, "size": 50}, {"x": 250, "y": 180, "value": 2}],
        "removed": [{"x": 200, "y": 100}],
    }
    assert client.post("/api/dice/correct", json=fix).status_code == 401, "needs the PIN"
    token = client.post("/api/login", json={"pin": PIN}).get_json()["token"]
    done = client.post("/api/dice/correct", json=fix, headers={"X-Table-Token": token})
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["values"] == [4, 2] and done.get_json()["taken"]
    state = table_at_roll.snapshot.state
    assert state is not None and tuple(state.G.dice) == (4, 2)
    assert watcher.saver is not None
    watcher.saver.flush()
    assert sorted(e.value for e in store.load()) == [2, 4]
    rows = json.loads((tmp_path / EXAMPLES_DIR / INDEX_FILE).read_text())["dice"]
    assert [row["value"] for row in rows] == [4, 2, NOT_A_DIE]
    assert rows[1]["box"] == [225.0, 155.0, 50.0, 50.0], "an added die takes the roll's size"
    assert (tmp_path / EXAMPLES_DIR / rows[0]["frame"]).exists()
    again = client.post("/api/dice/correct", json=fix, headers={"X-Table-Token": token})
    assert again.status_code == 409, "each proposal is fixed once"


def test_a_fix_without_faces_is_refused_in_one_sentence(
    table_at_roll: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    watcher = DiceWatcher(table_at_roll, stable_frames=1, examples=ExampleStore(tmp_path))
    _watch_a_roll(watcher, (3, 5), monkeypatch)
    client = create_app(table_at_roll, PIN, camera=watcher, data_dir=tmp_path).test_client()
    token = client.post("/api/login", json={"pin": PIN}).get_json()["token"]
    bad = client.post(
        "/api/dice/correct",
        json={"dice": [{"x": 1, "y": 2, "value": 9}]},
        headers={"X-Table-Token": token},
    )
    assert bad.status_code == 400 and "face from 1 to 6" in bad.get_json()["error"]
