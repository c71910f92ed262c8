"""The label review shows where a sure reader contradicts a label, and a fault a person
confirmed is fixed where the labels are read, with its note (issue 33, item 5)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest
from click.testing import CliRunner

from companion.commands.dice import dice as dice_cli
from companion.vision.dice_eval import LabelledDie, fixed, load_labels
from companion.vision.label_fixes import KNOWN_FIXES, LabelFix

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice"
MISLABELLED = "byler_IMG_20191209_100722.jpg"  # a five labelled 6 (SOURCE.md's known faults)
needs_data = pytest.mark.skipif(not (DATA / "labels.json").exists(), reason="no dice photos")


def _folder_of(tmp_path: Path, name: str) -> Path:
    """A labelled folder holding one of the shared photos and its labels as they are."""
    labels = json.loads((DATA / "labels.json").read_text())
    entry = next(e for e in labels["images"] if e["file"] == name)
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / name).symlink_to(DATA / "images" / name)
    (tmp_path / "labels.json").write_text(json.dumps({"images": [entry]}))
    return tmp_path


@needs_data
def test_a_five_labelled_six_is_shown_for_a_person_to_judge(tmp_path: Path) -> None:
    folder = _folder_of(tmp_path, MISLABELLED)
    sheet = tmp_path / "review.png"
    result = CliRunner().invoke(
        dice_cli, ["review", str(folder), "--out", str(sheet), "--as-labelled"]
    )
    assert result.exit_code == 0, result.output
    assert f"{MISLABELLED} at (434, 441): labelled 6, read 5" in result.output
    picture = cv2.imread(str(sheet))
    assert picture is not None and picture.shape[0] > 100


@needs_data
def test_once_confirmed_the_five_is_judged_as_a_five_and_the_output_says_so(
    tmp_path: Path,
) -> None:
    folder = _folder_of(tmp_path, MISLABELLED)
    result = CliRunner().invoke(dice_cli, ["eval", str(folder)])
    assert result.exit_code == 0, result.output
    assert "with 1 confirmed faults fixed" in result.output
    figures = json.loads(result.output.strip().splitlines()[-1])
    assert figures["accepted_wrong"] == 0
    review = CliRunner().invoke(
        dice_cli, ["review", str(folder), "--out", str(tmp_path / "sheet.png")]
    )
    assert "0 sure readings disagree" in review.output


@needs_data
def test_every_known_fault_still_applies_to_the_shared_labels() -> None:
    """Each fix finds its die as the fault describes it (a wrong value, or no label)."""
    as_they_are = dict(load_labels(DATA / "labels.json", fixes=()))
    for fix in KNOWN_FIXES:
        _, applied = fixed(fix.file, as_they_are[fix.file])
        assert fix in applied, fix.note


def test_a_die_nobody_labelled_is_added_even_beside_a_labelled_one() -> None:
    beside = LabelledDie(4, (230.0, 130.0, 36.0, 36.0))  # ends 4 px left of the new die
    fix = LabelFix("a.jpg", (286.0, 149.0), 34.0, None, 3, "unlabelled")
    dice, applied = fixed("a.jpg", [beside], [fix])
    assert applied == [fix]
    assert [d.value for d in dice] == [4, 3]
    assert fix.within(dice[1].box)


def test_a_fix_already_made_at_the_source_changes_nothing() -> None:
    right_now = [LabelledDie(5, (420.0, 427.0, 28.0, 28.0))]
    fix = LabelFix("a.jpg", (434.0, 441.0), 29.0, 6, 5, "a five labelled 6")
    assert fixed("a.jpg", right_now, [fix]) == (right_now, [])
    added = LabelFix("a.jpg", (434.0, 441.0), 29.0, None, 5, "unlabelled")
    assert fixed("a.jpg", right_now, [added]) == (right_now, [])


def test_fixes_touch_only_their_own_photo() -> None:
    dice = [LabelledDie(6, (420.0, 427.0, 28.0, 28.0))]
    fix = LabelFix("a.jpg", (434.0, 441.0), 29.0, 6, 5, "a five labelled 6")
    assert fixed("b.jpg", dice, [fix]) == (dice, [])
