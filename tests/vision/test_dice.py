"""Behaviour of the dice reader that a player would notice, on real and drawn photos."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.commands.dice import dice as dice_cli
from companion.vision.confidence import temper
from companion.vision.dice import (
    AUTO_ACCEPT,
    Candidate,
    DiceReader,
    Die,
    closer_regions,
    distinct,
    judge,
    read_dice,
    views,
)
from companion.vision.dice_eval import ImageResult, LabelledDie, Report, evaluate, load_labels
from companion.vision.dice_split import PARTS, hold_out, parts
from companion.vision.stabiliser import DiceStabiliser

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice"
needs_data = pytest.mark.skipif(not (DATA / "labels.json").exists(), reason="no dice photos")


def _photo(name: str) -> np.ndarray:
    frame = cv2.imread(str(DATA / "images" / name))
    assert frame is not None
    return frame


# ----------------------------------------------------------------------- real photos


@needs_data
@pytest.mark.parametrize(
    ("name", "values"),
    [
        ("matteop65_train_five_33.jpg", [5, 5, 5, 5]),
        ("byler_IMG_20191209_100221.jpg", [2, 3, 3, 5, 6, 6]),
        ("byler_IMG_20191208_111228.jpg", None),
    ],
)
def test_photo_reads_every_die_it_should(name: str, values: list[int] | None) -> None:
    found = read_dice(_photo(name))
    if values is None:
        # Busy tray of 22 dice: most must be found and read as some value.
        assert len(found) >= 15
    else:
        assert sorted(d.value for d in found if d.value is not None) == values


@needs_data
def test_whole_folder_accuracy_stays_above_floor() -> None:
    """Guards the shipped models against a bad retrain (whole folder, mostly seen photos).

    Today, with the three confirmed label faults fixed (companion/vision/label_fixes.py):
    dice_accuracy 0.980, coverage 0.934, confident_accuracy 1.0 counting accepted phantom
    dice as errors, no false dice, no roll applied wrong. Judged against the labels as they
    are, the three faults (a die labelled 6 that shows 5, two real dice nobody labelled) are
    the 3 accepted errors, the 2 false dice and the one roll applied wrong.
    """
    figures = evaluate(DATA).figures()
    assert figures["images"] == 200
    assert figures["dice_accuracy"] >= 0.97
    assert figures["confident_accuracy"] >= 0.99
    assert figures["coverage"] >= 0.90
    assert figures["false_dice"] <= 4
    assert figures["rolls_applied_wrong"] <= 1


@needs_data
def test_empty_felt_has_no_dice() -> None:
    frame = _photo("byler_IMG_20191208_111228.jpg")
    felt = np.ascontiguousarray(frame[400:480, 150:450])
    assert read_dice(felt) == []


# ----------------------------------------------------------------------- drawn frames


def _draw_die(
    frame: np.ndarray,
    centre: tuple[int, int],
    value: int,
    side: int,
    angle: float,
    body: tuple[int, int, int],
    pip: tuple[int, int, int],
) -> None:
    offsets = {
        1: [(0, 0)],
        2: [(-1, -1), (1, 1)],
        3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    }[value]
    rect = ((float(centre[0]), float(centre[1])), (float(side), float(side)), angle)
    corners = cv2.boxPoints(rect).astype(np.int32)
    cv2.fillConvexPoly(frame, corners, body, lineType=cv2.LINE_AA)
    turn = np.deg2rad(angle)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    for ox, oy in offsets:
        px, py = rot @ np.array([ox, oy]) * side * 0.27 + np.array(centre)
        cv2.circle(frame, (round(px), round(py)), max(2, side // 10), pip, -1, cv2.LINE_AA)


def _table(width: int = 640, height: int = 480) -> np.ndarray:
    rng = np.random.default_rng(3)
    frame = np.full((height, width, 3), (150, 160, 165), np.uint8)
    noise = rng.normal(0, 4, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


WHITE, BLACK, RED = (235, 235, 235), (25, 25, 25), (40, 40, 200)


def test_drawn_dice_are_localised_where_drawn() -> None:
    frame = _table()
    spots = [(120, 120), (320, 140), (520, 120), (200, 340), (440, 340)]
    for value, spot in enumerate(spots, start=1):
        _draw_die(frame, spot, value, 60, 17.0 * value, WHITE, BLACK)
    centres = [die.centre for die in read_dice(frame)]
    assert len(centres) == len(spots)
    for spot in spots:
        assert any(abs(x - spot[0]) < 10 and abs(y - spot[1]) < 10 for x, y in centres)


@pytest.mark.parametrize(("body", "pip"), [(WHITE, BLACK), (BLACK, WHITE), (RED, WHITE)])
def test_drawn_rotated_and_touching_dice_read_right(
    body: tuple[int, int, int], pip: tuple[int, int, int]
) -> None:
    frame = _table()
    _draw_die(frame, (200, 200), 5, 60, 30.0, body, pip)
    _draw_die(frame, (260, 204), 2, 60, 30.0, body, pip)  # touching its neighbour
    _draw_die(frame, (450, 300), 6, 60, 0.0, body, pip)
    values = sorted(d.value for d in read_dice(frame) if d.value is not None)
    assert values == [2, 5, 6]


def test_a_close_up_read_in_eight_views_reads_the_same_dice() -> None:
    frame = _table()
    for value, spot in enumerate([(120, 120), (320, 140), (520, 120), (200, 340)], start=3):
        _draw_die(frame, spot, value, 60, 11.0 * value, BLACK, WHITE)
    plain = DiceReader().read(frame)
    turned = DiceReader(views=8).read(frame)
    assert (
        sorted(d.value or 0 for d in turned) == sorted(d.value or 0 for d in plain) == [3, 4, 5, 6]
    )


def test_the_views_of_a_close_up_are_its_turns_and_mirrors_the_crop_first() -> None:
    crop = np.arange(32 * 32 * 3, dtype=np.uint8).reshape(32, 32, 3)
    eight = views(crop, 8)
    assert np.array_equal(eight[0], crop)
    assert len({view.tobytes() for view in eight}) == 8
    assert [len(views(crop, n)) for n in (1, 4)] == [1, 4]


def test_a_view_count_without_symmetry_is_refused_with_the_ones_that_work() -> None:
    with pytest.raises(ValueError, match=r"1, 4 .* or 8"):
        DiceReader(views=3)


def test_blank_square_is_never_given_a_value() -> None:
    frame = _table()
    _draw_die(frame, (320, 240), 1, 70, 20.0, WHITE, WHITE)  # pips the colour of the face
    for die in read_dice(frame):
        assert die.value is None or die.confidence < AUTO_ACCEPT


def test_die_is_frozen_and_grey_frames_are_refused() -> None:
    die = Die(value=3, centre=(1.0, 2.0), size=30.0, confidence=0.9)
    with pytest.raises(dataclasses.FrozenInstanceError):
        die.value = 4  # type: ignore[misc]
    with pytest.raises(ValueError, match="colour"):
        read_dice(np.zeros((100, 100), np.uint8))


def test_missing_model_says_how_to_get_it_back(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="make train-dice"):
        DiceReader(tmp_path / "nowhere.onnx")


@settings(max_examples=25, deadline=None)
@given(
    width=st.integers(16, 900),
    height=st.integers(16, 900),
    grey=st.integers(0, 255),
)
def test_any_frame_size_reads_without_error_and_dice_lie_inside(
    width: int, height: int, grey: int
) -> None:
    """Cameras come in odd sizes: the reader pads and scales, never crashes."""
    frame = np.full((height, width, 3), grey, np.uint8)
    if width > 80 and height > 80:
        _draw_die(frame, (width // 2, height // 2), 4, min(width, height) // 3, 10.0, WHITE, BLACK)
    for die in read_dice(frame):
        assert 0 <= die.centre[0] <= width and 0 <= die.centre[1] <= height
        assert 0.0 <= die.confidence <= 1.0


# ----------------------------------------------------------------------- two looks


def _candidate(here: float, faces: list[float]) -> Candidate:
    return Candidate(100.0, 50.0, 40.0, here, np.array(faces, np.float64))


SURE_FOUR = [0.01, 0.01, 0.01, 0.95, 0.01, 0.01]


def test_both_looks_agreeing_make_a_sure_die_in_frame_pixels() -> None:
    die = judge(_candidate(0.9, SURE_FOUR), np.array([0.0, 0, 0, 0, 0.99, 0.01, 0]), scale=0.5)
    assert die is not None
    assert die.value == 4 and die.confidence >= AUTO_ACCEPT
    assert die.centre == (200.0, 100.0) and die.size == 80.0


def test_looks_that_disagree_are_never_auto_accepted() -> None:
    """The whole frame says 4, the close-up says 5: the player is asked."""
    die = judge(_candidate(0.9, SURE_FOUR), np.array([0.0, 0, 0, 0, 0.02, 0.97, 0.01]), scale=1.0)
    assert die is not None
    assert die.confidence < AUTO_ACCEPT


def test_a_find_the_close_up_calls_no_die_is_dropped_however_sure_the_first_look() -> None:
    """A laptop key the whole frame took for a 1 must not appear as a die (or a '?')."""
    second = np.array([0.9, 0, 0, 0, 0.1, 0, 0])
    assert judge(_candidate(0.45, SURE_FOUR), second, scale=1.0) is None
    assert judge(_candidate(0.95, SURE_FOUR), second, scale=1.0) is None


def test_a_close_up_unsure_whether_it_is_a_die_is_never_auto_accepted() -> None:
    second = np.array([0.4, 0, 0, 0, 0.6, 0, 0])
    die = judge(_candidate(0.95, SURE_FOUR), second, scale=1.0)
    assert die is not None and die.value in (4, None) and die.confidence < AUTO_ACCEPT


def test_a_die_neither_look_can_read_has_no_value() -> None:
    flat = [1 / 6] * 6
    die = judge(_candidate(0.9, flat), np.array([0.0, *flat]), scale=1.0)
    assert die is not None and die.value is None


def test_temperature_changes_how_sure_never_what_is_read() -> None:
    """Calibration softens the confidence; the value and the veto stay the models' own."""
    second = np.array([0.02, 0, 0, 0, 0.9, 0.05, 0.03])
    sharp = judge(_candidate(0.9, SURE_FOUR), second, scale=1.0, temperature=1.0)
    soft = judge(_candidate(0.9, SURE_FOUR), second, scale=1.0, temperature=2.0)
    assert sharp is not None and soft is not None
    assert sharp.value == soft.value == 4
    assert soft.confidence < sharp.confidence
    probabilities = np.array([[0.1, 0.2, 0.7], [0.5, 0.3, 0.2]])
    for t in (0.5, 1.3, 3.0):
        tempered = temper(probabilities, t)
        assert np.allclose(tempered.sum(axis=1), 1.0)
        assert (tempered.argmax(axis=1) == probabilities.argmax(axis=1)).all()
    assert np.allclose(temper(probabilities, 1.0), probabilities)


# ----------------------------------------------------------------------- evaluation


def _result(labelled: list[int], found: list[tuple[int | None, float]]) -> ImageResult:
    """Labelled dice in a row 100 px apart; found dice on them in order, extras beyond."""
    dice = [LabelledDie(v, (100.0 * i, 0.0, 40.0, 40.0)) for i, v in enumerate(labelled)]
    seen = [Die(v, (100.0 * i + 20, 20.0), 40.0, c) for i, (v, c) in enumerate(found)]
    pairs = [(i, i) for i in range(min(len(dice), len(seen)))]
    return ImageResult("x.jpg", dice, seen, pairs, 1.0)


def test_an_accepted_phantom_die_is_an_accepted_error() -> None:
    """A side face read as a second die is what the player sees as a wrong roll."""
    report = Report([_result([3], [(3, 0.99), (5, 0.99)])])
    figures = report.figures(auto_accept=0.85)
    assert figures["accepted_false_dice"] == 1
    assert figures["accepted_wrong"] == 1
    assert figures["confident_accuracy"] == 0.5
    assert figures["coverage"] == 1.0


def test_rolls_are_applied_right_applied_wrong_or_asked() -> None:
    report = Report(
        [
            _result([3, 4], [(3, 0.99), (4, 0.9)]),  # applied right
            _result([3, 4], [(3, 0.99), (5, 0.9)]),  # applied wrong: a misread
            _result([3, 4], [(3, 0.99), (4, 0.5)]),  # asked: one die unsure
            _result([3, 4], [(3, 0.99)]),  # asked: one die missing, the count is wrong
            _result([3], [(3, 0.99), (4, 0.99)]),  # asked: a phantom makes the count wrong
        ]
    )
    figures = report.figures(auto_accept=0.85)
    assert (figures["rolls_applied_right"], figures["rolls_applied_wrong"]) == (1, 1)
    assert figures["rolls_asked"] == 3
    assert report.figures(auto_accept=0.95)["rolls_applied_wrong"] == 0


def test_the_folder_parts_are_disjoint_seeded_and_the_trainers_own() -> None:
    names = [f"byler_{i}.jpg" for i in range(83)] + [f"matteop65_{i}.jpg" for i in range(117)]
    chosen = parts(names)
    assert set(chosen) == set(names) and set(chosen.values()) == set(PARTS)
    kept, held = hold_out(names, 0.25, 0)
    assert {n for n in names if chosen[n] == "train"} == set(kept)
    assert len(held) == 50 and not set(kept) & set(held)
    assert parts(names) == chosen, "the same names always give the same parts"
    for part in PARTS[1:]:
        members = [n for n in names if chosen[n] == part]
        assert {n.split("_")[0] for n in members} == {"byler", "matteop65"}


# ----------------------------------------------------------------------- stabiliser


def _reading(*dice: tuple[int, float, float]) -> list[Die]:
    return [Die(v, (x, y), 40.0, 0.99) for v, x, y in dice]


def test_stabiliser_silent_while_tumbling_then_reports_once() -> None:
    stabiliser = DiceStabiliser(frames_required=3)
    tumbling = [
        _reading((1, 100, 100), (4, 300, 100)),
        _reading((5, 130, 110), (2, 280, 120)),
        _reading((3, 160, 115), (6, 260, 140)),
        _reading((3, 175, 118), (6, 250, 150)),  # same faces, still sliding
    ]
    assert all(stabiliser.update(frame) is None for frame in tumbling)
    settled = [_reading((3, 190 + jitter, 120), (1, 245, 152 - jitter)) for jitter in (0, 1, 0)]
    assert [stabiliser.update(frame) for frame in settled] == [None, None, [1, 3]]
    assert all(stabiliser.update(settled[0]) is None for _ in range(5)), "reported only once"


def test_stabiliser_resets_when_dice_move() -> None:
    stabiliser = DiceStabiliser(frames_required=2)
    still = _reading((6, 100, 100))
    assert stabiliser.update(still) is None
    assert stabiliser.update(still) == [6]
    moved = _reading((6, 180, 100))  # same value, pushed across the table
    assert stabiliser.update(moved) is None
    assert stabiliser.update(moved) == [6]


# ----------------------------------------------------------------------- command line


@needs_data
def test_cli_eval_ends_with_json_figures(tmp_path: Path) -> None:
    labels = json.loads((DATA / "labels.json").read_text())
    labels["images"] = labels["images"][:2] + labels["images"][-2:]
    small = tmp_path / "labels.json"
    small.write_text(json.dumps(labels))
    result = CliRunner().invoke(dice_cli, ["eval", str(DATA), "--labels", str(small)])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["images"] == 4
    assert {"dice_accuracy", "coverage", "confident_accuracy", "false_dice"} <= figures.keys()
    assert len(load_labels(small)) == 4
    assert {"accepted_wrong", "rolls_applied_wrong", "rolls_applied_right", "rolls_asked"} <= (
        figures.keys()
    )


@needs_data
def test_cli_eval_scores_one_part_and_says_what_it_was_measured_on() -> None:
    result = CliRunner().invoke(dice_cli, ["eval", str(DATA), "--part", "report"])
    assert result.exit_code == 0, result.output
    assert "measured on: photos the detector never saw" in result.stdout
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["part"] == "report" and figures["images"] == 16


@needs_data
def test_cli_read_json_lists_dice() -> None:
    image = DATA / "images" / "matteop65_train_three_35.jpg"
    result = CliRunner().invoke(dice_cli, ["read", str(image), "--json"])
    assert result.exit_code == 0, result.output
    assert isinstance(json.loads(result.stdout), list)


# ----------------------------------------------------------------------- large frames


def _large_frame(side: int, values: list[int]) -> np.ndarray:
    """A 4032x3024 phone photo of a small group of dice, each ``side`` px: at the reader's
    640 px first look they are side / 6.3 px, too small to be read there."""
    rng = np.random.default_rng(2)
    frame = np.full((3024, 4032, 3), (150, 160, 165), np.uint8)
    frame += rng.integers(0, 8, frame.shape, dtype=np.uint8)
    colours = [(WHITE, BLACK), (RED, WHITE), ((30, 30, 30), WHITE)]
    for i, value in enumerate(values):
        centre = (
            round(1800 + (i % 4 - 1.5) * side * 2.2),
            round(1500 + (i // 4 - 0.5) * side * 2.4),
        )
        body, pip = colours[i % 3]
        _draw_die(frame, centre, value, side, 11.0 * i, body, pip)
    return frame


def test_dice_too_small_for_the_first_look_are_read_at_the_cameras_resolution() -> None:
    """70 px dice in a 4032x3024 frame are 11 px at 640: the first look alone saw one
    unreadable blob where the eight dice are."""
    values = [1, 1, 2, 2, 3, 3, 5, 6]
    found = read_dice(_large_frame(70, values))
    assert sorted(d.value or 0 for d in found) == values
    assert all(d.confidence >= AUTO_ACCEPT for d in found)
    assert all(abs(d.size - 70) < 25 for d in found), "sizes in the frame's own pixels"


def test_the_closer_look_is_a_region_never_beyond_the_cameras_pixels() -> None:
    frame = _large_frame(70, [4, 5])
    coarse = [Candidate(280.0, 238.0, 12.0, 0.4, np.full(6, 1 / 6))]
    regions = closer_regions(frame, 640 / 4032, coarse)
    assert len(regions) == 1 and regions[0].zoom <= 1.0
    left, top, right, bottom = regions[0].box
    assert left < 280 * 6.3 < right and top < 238 * 6.3 < bottom
    assert (right - left) * (bottom - top) < frame.shape[0] * frame.shape[1] / 10
    assert closer_regions(frame[:480, :640], 1.0, coarse) == [], "a small frame is read whole"
    big = [Candidate(280.0, 238.0, 60.0, 0.9, np.full(6, 1 / 6))]
    assert closer_regions(frame, 640 / 4032, big) == [], "dice big enough at 640 px"


def test_dice_29_px_in_the_first_look_are_looked_at_again() -> None:
    """A 12 MP phone photo shrunk 6x left dice at ~29 px, above the old 25 px trigger: the
    network finds dice best at 40-48 px, so they are looked at again."""
    frame = _large_frame(180, [4, 5])
    coarse = [Candidate(280.0, 238.0, 29.0, 0.6, np.full(6, 1 / 6))]
    assert closer_regions(frame, 640 / 4032, coarse), "29 px dice get a closer look"


def test_groups_of_dice_far_apart_are_read_as_separate_regions() -> None:
    """Two groups at opposite corners cost the pixels around them, not the whole table."""
    frame = _large_frame(70, [4])
    coarse = [
        Candidate(60.0, 60.0, 11.0, 0.4, np.full(6, 1 / 6)),
        Candidate(580.0, 420.0, 11.0, 0.4, np.full(6, 1 / 6)),
    ]
    regions = closer_regions(frame, 640 / 4032, coarse)
    assert len(regions) == 2
    area = sum((r.box[2] - r.box[0]) * (r.box[3] - r.box[1]) for r in regions)
    assert area < frame.shape[0] * frame.shape[1] / 20


def test_a_die_seen_by_two_looks_is_one_die() -> None:
    faces = np.full(6, 1 / 6)
    finds = [
        Candidate(100.0, 100.0, 40.0, 0.7, faces),
        Candidate(104.0, 98.0, 42.0, 0.9, faces),
        Candidate(150.0, 100.0, 40.0, 0.8, faces),
    ]
    kept = distinct(finds)
    assert [(c.x, c.here) for c in kept] == [(104.0, 0.9), (150.0, 0.8)]
