"""Teaching the reader a table's own dice from confirmed rolls (issue 17, item 4)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from companion.commands.dice import dice as dice_cli
from companion.config import GameDefaults
from companion.engine.events import MOVE, Event
from companion.engine.session import GameHeader
from companion.games.hamsterdam import bot
from companion.simulate import bot_turn
from companion.store import Store
from companion.table import Table
from companion.vision.dice import (
    AUTO_ACCEPT,
    DiceReader,
    Die,
    face_crop,
    shared_reader,
    use_taught_head,
)
from companion.vision.teach import (
    EXAMPLES_DIR,
    HEAD_FILE,
    INDEX_FILE,
    NO_EXAMPLES,
    NOT_A_DIE,
    STALE_HEAD,
    ExampleStore,
    TeachError,
    align,
    jittered,
    load_head,
)
from companion.vision.teaching import teach
from companion.watch import dice as watch_dice
from companion.watch.dice import DiceWatcher
from tests.vision.odd_dice import FEATURES, blank_head, confirm_rolls, odd_roll


def test_odd_dice_are_read_wrong_out_of_the_box_and_right_after_teaching(
    tmp_path: Path,
) -> None:
    """30 confirmed rolls, each read by a head fitted on the other two thirds."""
    reader = DiceReader()
    right, total = confirm_rolls(reader, tmp_path, rolls=30, seed=1)
    assert right < 0.8 * total  # the shipped reader misreads this set
    report = teach(reader, tmp_path)
    assert report.rolls == 30 and report.kept
    assert report.before < 0.8
    assert report.after >= max(0.85, report.before + 0.3)  # rolls each head never saw
    assert report.accepted_wrong == 0
    assert "held out" in report.lines()[0]
    saved = load_head(tmp_path / HEAD_FILE)
    assert reader.head is not None and saved is not None
    assert saved.model == reader.fingerprint  # taught on the shipped close-up
    # New rolls the teaching never saw, read whole by the taught reader.
    rng = np.random.default_rng(99)
    read_right = found = 0
    for _ in range(10):
        frame, spots, values = odd_roll(rng)
        dice = reader.read(frame)
        for (x, y), value in zip(spots, values, strict=True):
            near = [d for d in dice if abs(d.centre[0] - x) < 15 and abs(d.centre[1] - y) < 15]
            found += bool(near)
            read_right += bool(near) and near[0].value == value
    assert read_right >= 0.9 * found


def test_teaching_with_no_examples_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(TeachError) as error:
        teach(DiceReader(), tmp_path)
    assert str(error.value) == NO_EXAMPLES and str(error.value).count(". ") == 0
    result = CliRunner().invoke(dice_cli, ["teach", "--data-dir", str(tmp_path)])
    assert result.exit_code == 2 and NO_EXAMPLES in result.output  # bad input, as elsewhere


def test_too_few_rolls_say_how_many_are_needed(tmp_path: Path) -> None:
    confirm_rolls(DiceReader(), tmp_path, rolls=2, seed=5)
    with pytest.raises(TeachError, match="at least 4 rolls"):
        teach(DiceReader(), tmp_path)


def test_cli_prints_held_out_figures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shared_reader(), "head", None)  # the shared reader is restored after
    confirm_rolls(DiceReader(), tmp_path, rolls=12, seed=2)
    result = CliRunner().invoke(dice_cli, ["teach", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "held out" in result.output and "taught without them" in result.output
    figures = json.loads(result.output.strip().splitlines()[-1])
    assert figures["parts"] == 3 and 0.0 <= figures["after"] <= 1.0


def test_storage_is_bounded_and_drops_the_oldest_rolls(tmp_path: Path) -> None:
    store = ExampleStore(tmp_path, limit=10)
    crop = np.zeros((32, 32, 3), np.uint8)
    for roll in range(8):
        store.add_roll([crop, crop, crop], [1 + roll % 6, 2, 3])
    kept = store.load()
    assert len(kept) <= 10
    assert {e.roll for e in kept} == {5, 6, 7}
    assert len(list(tmp_path.glob("*.png"))) == len(kept)


@pytest.mark.parametrize(
    ("read", "typed", "expected"),
    [
        ((3, 5), (3, 5), [3, 5]),
        ((3, 5), (5, 3), [3, 5]),  # typed in another order
        ((3, 5), (6, 3), [3, 6]),  # one die corrected
        ((2, 5), (3, 6), None),  # two corrected: which is which?
        ((5, 5), (5, 6), None),  # which of the fives was the six?
        ((4, 4), (6, 6), [6, 6]),
        ((3, 5), (3,), None),
    ],
)
def test_typed_values_are_matched_to_dice_only_when_unambiguous(
    read: tuple[int, ...], typed: tuple[int, ...], expected: list[int] | None
) -> None:
    assert align(read, typed) == expected


@pytest.fixture
def table_at_roll(tmp_path: Path) -> Iterator[Table]:
    """A 3-player Hamsterdam game played by the bot up to the first roll."""
    store = Store(tmp_path / "c.sqlite3")
    table = Table(store, GameDefaults(players=("Ann", "Bo", "Cy")))
    table.new_game(GameHeader("hamsterdam", "classic", ("Ann", "Bo", "Cy"), 3))
    rng = random.Random(3)
    while True:
        state = table.snapshot.state
        assert state is not None
        if state.ctx.phase == "roll" and getattr(state.G, "dice", None) is None:
            break
        bot_turn(bot.candidates, state, rng, lambda e: table.submit(e).result(timeout=10))
    yield table
    table.close()
    store.close()


def _watch_a_roll(
    watcher: DiceWatcher, values: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One settled frame whose unsure reading is ``values`` (the reader is stood in for)."""
    dice = [Die(v, (100.0 + 100 * i, 100.0), 50.0, 0.3) for i, v in enumerate(values)]
    monkeypatch.setattr(watch_dice, "read_dice", lambda _frame: dice)
    future = watcher.process(np.full((240, 320, 3), 128, np.uint8))
    assert future is not None
    future.result(timeout=10)


def test_a_roll_accepted_with_read_is_kept(
    table_at_roll: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ExampleStore(tmp_path / EXAMPLES_DIR)
    watcher = DiceWatcher(table_at_roll, stable_frames=1, examples=store)
    _watch_a_roll(watcher, (3, 5), monkeypatch)
    table_at_roll.submit("read").result(timeout=10)
    assert watcher.saver is not None
    watcher.saver.flush()
    assert sorted(e.value for e in store.load()) == [3, 5]


def test_a_roll_typed_after_a_proposal_is_kept_with_the_typed_values(
    table_at_roll: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ExampleStore(tmp_path / EXAMPLES_DIR)
    watcher = DiceWatcher(table_at_roll, stable_frames=1, examples=store)
    _watch_a_roll(watcher, (3, 5), monkeypatch)
    state = table_at_roll.snapshot.state
    assert state is not None and table_at_roll.snapshot.pending is not None
    seat = state.ctx.current or 0
    typed = Event(MOVE, name="roll", seat=seat, given=(6, 3), source="tablet")
    table_at_roll.submit(typed).result(timeout=10)
    assert watcher.saver is not None
    watcher.saver.flush()
    assert sorted(e.value for e in store.load()) == [3, 6]


def test_a_sure_camera_roll_is_not_kept_nobody_confirmed_it(
    table_at_roll: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ExampleStore(tmp_path / EXAMPLES_DIR)
    watcher = DiceWatcher(table_at_roll, stable_frames=1, examples=store)
    sure = [Die(v, (100.0 + 100 * i, 100.0), 50.0, 0.99) for i, v in enumerate((2, 4))]
    monkeypatch.setattr(watch_dice, "read_dice", lambda _frame: sure)
    future = watcher.process(np.full((240, 320, 3), 128, np.uint8))
    assert future is not None and future.result(timeout=10)
    assert watcher.saver is not None
    watcher.saver.flush()
    assert store.load() == []


SKOVY = Path(__file__).resolve().parents[2] / "datasets" / "dice-skovy"


def test_a_head_that_reads_a_real_table_no_better_is_not_used(tmp_path: Path) -> None:
    """Real photos of two coloured dice the reader never learned from, which the shipped
    model already reads well: a head fitted on 20 of these rolls read the held-out ones
    no better, so teaching keeps the shipped model and drops an earlier head."""
    from bench.teach_photos import confirm
    from companion.vision.dice_eval import load_labels

    rolls = load_labels(SKOVY / "labels.json")
    random.Random(0).shuffle(rolls)
    reader = DiceReader()
    kept, total = confirm(reader, SKOVY, rolls[:20], tmp_path)
    assert kept >= 0.9 * total
    (tmp_path / HEAD_FILE).write_bytes(b"an earlier head")
    report = teach(reader, tmp_path)
    assert report.after <= report.before and not report.kept
    assert reader.head is None and not (tmp_path / HEAD_FILE).exists()
    assert "keeps the shipped model" in report.lines()[-1]


def test_a_taught_head_alone_cannot_apply_a_die_the_shipped_reader_doubts() -> None:
    """A head taught on a few rolls can be sure and wrong: a die is applied without asking
    only when the shipped reader is sure of the same face."""
    from companion.vision.dice import AUTO_ACCEPT
    from companion.vision.teach import TaughtHead

    frame, _, _ = odd_roll(np.random.default_rng(3))
    reader = DiceReader()
    shipped = reader.read(frame)
    size = reader.face_readings([np.zeros((32, 32, 3), np.uint8)])[1].shape[1]
    always_six = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 50.0])  # sure of a six, whatever it sees
    reader.head = TaughtHead(
        np.zeros(size), np.ones(size), np.zeros((size, 6)), always_six, anchored=False
    )
    taught = reader.read(frame)
    assert taught and all(die.value == 6 for die in taught)
    for die in taught:
        nearest = min(shipped, key=lambda s: np.hypot(*np.subtract(s.centre, die.centre)))
        if nearest.value != 6:
            assert die.confidence < AUTO_ACCEPT
    assert any(s.value != 6 for s in shipped)


def test_a_head_saved_before_anchoring_is_read_as_it_was_fitted(tmp_path: Path) -> None:
    path = tmp_path / HEAD_FILE
    np.savez(path, mean=np.zeros(3), scale=np.ones(3), weights=np.zeros((3, 6)), bias=np.zeros(6))
    head = load_head(path)
    assert head is not None and not head.anchored
    assert head.model == ""  # nor which model it was taught on: used as before
    assert use_taught_head(tmp_path) is None
    assert shared_reader().head is not None
    shared_reader().head = None


def test_a_head_taught_on_an_earlier_model_is_set_aside_and_the_player_told_to_teach_again(
    tmp_path: Path,
) -> None:
    """After an update retrains the close-up classifier, a head taught on the old one reads
    features that mean something else: the reader goes back to the shipped model and the
    player hears how to teach again; the confirmed rolls stay."""
    size = shared_reader().face_readings([np.zeros((32, 32, 3), np.uint8)])[1].shape[1]
    assert size == FEATURES  # what blank_head builds
    (tmp_path / EXAMPLES_DIR).mkdir()
    (tmp_path / EXAMPLES_DIR / INDEX_FILE).write_text("[]")
    blank_head(model="0123456789abcdef").save(tmp_path / HEAD_FILE)
    shared_reader().head = blank_head()
    try:
        assert use_taught_head(tmp_path) == STALE_HEAD
        assert shared_reader().head is None
        assert "Teach" in STALE_HEAD and "kept" in STALE_HEAD
        assert (tmp_path / EXAMPLES_DIR / INDEX_FILE).exists()
        blank_head(model=shared_reader().fingerprint).save(tmp_path / HEAD_FILE)
        assert use_taught_head(tmp_path) is None
        assert shared_reader().head is not None
    finally:
        shared_reader().head = None


def test_a_removed_phantom_is_kept_as_not_a_die_and_never_taught_as_a_face(
    tmp_path: Path,
) -> None:
    store = ExampleStore(tmp_path, limit=3)
    crop = np.zeros((32, 32, 3), np.uint8)
    frame = np.zeros((48, 64, 3), np.uint8)
    boxes = [(1.0, 2.0, 30.0, 30.0), (40.0, 2.0, 20.0, 20.0)]
    store.add_roll([crop, crop], [3, NOT_A_DIE], boxes, frame)
    assert [e.value for e in store.load()] == [3], "faces only"
    rows = json.loads((tmp_path / INDEX_FILE).read_text())["dice"]
    assert [r["box"] for r in rows] == [list(b) for b in boxes]
    picture = tmp_path / rows[0]["frame"]
    assert picture.exists()
    store.add_roll([crop, crop], [1, 2])  # past the limit: the oldest roll goes, picture too
    assert not picture.exists() and [e.value for e in store.load()] == [1, 2]


def test_ten_confirmed_rolls_teach_enough_to_read_new_rolls(tmp_path: Path) -> None:
    """Ten rolls are few crops: each is also learned from in jittered copies (turned by any
    angle, shifted, scaled, lit differently), without which about one found die in five
    of new rolls was still read wrong."""
    reader = DiceReader()
    confirm_rolls(reader, tmp_path, rolls=10, seed=1)
    report = teach(reader, tmp_path)
    assert report.kept and report.accepted_wrong == 0
    rng = np.random.default_rng(5)
    read_right = found = applied_wrong = 0
    for _ in range(15):
        frame, spots, values = odd_roll(rng)
        for die in reader.read(frame):
            truth = [
                value
                for (x, y), value in zip(spots, values, strict=True)
                if abs(die.centre[0] - x) < 15 and abs(die.centre[1] - y) < 15
            ]
            found += bool(truth)
            read_right += truth == [die.value]
            applied_wrong += die.confidence >= AUTO_ACCEPT and truth != [die.value]
    assert found >= 30
    assert read_right >= 0.85 * found  # ~95 % here; ~80 % without the jittered copies
    assert applied_wrong == 0


def test_a_jittered_copy_is_a_close_up_of_the_same_size_not_the_same_pixels() -> None:
    frame, spots, _ = odd_roll(np.random.default_rng(3))
    crop = face_crop(frame, spots[0], 60.0)
    rng = np.random.default_rng(0)
    copies = [jittered(crop, rng) for _ in range(4)]
    assert all(c.shape == crop.shape and c.dtype == crop.dtype for c in copies)
    assert all(not np.array_equal(c, crop) for c in copies)
