"""`companion calibrate`: sheets, one picture to calibrate, then reading the board."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from companion.serve import companion_command as main
from hardware.simulator import BeltScene, Conditions, render_belt

CALIBRATION_CELLS = {
    "red": (1, 1),
    "blue": (1, 2),
    "yellow": (1, 3),
    "green": (1, 4),
    "purple": (1, 5),
}


def picture(tmp_path: Path, name: str, hamsters: Mapping[str, Any], pose_seed: int = 4) -> Path:
    conditions = Conditions(size=(1280, 960), perspective=0.4, noise=2.0, uneven_light=0.3)
    rendered = render_belt(
        BeltScene(hamsters=hamsters), np.random.default_rng(pose_seed), conditions
    )
    path = tmp_path / name
    cv2.imwrite(str(path), rendered.frame)
    return path


def run(tmp_path: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "data"), "calibrate", *args])
    return result.exit_code, result.output


def test_calibrate_then_read_where_the_hamsters_are(tmp_path: Path) -> None:
    code, out = run(tmp_path, "board", str(picture(tmp_path, "cal.png", dict(CALIBRATION_CELLS))))
    assert code == 0 and "5 hamster colours" in out, out
    assert run(tmp_path, "show")[0] == 0
    moved = picture(tmp_path, "play.png", {"red": (7, 2), "blue": "pit", "green": (3, 5)})
    code, out = run(tmp_path, "check", str(moved))
    assert code == 0, out
    assert (
        "red: row 7, lane 2" in out and "green: row 3, lane 5" in out and "blue: in the Pit" in out
    )


def test_covered_markers_and_bad_files_get_a_sentence(tmp_path: Path) -> None:
    frame = cv2.imread(str(picture(tmp_path, "cal.png", dict(CALIBRATION_CELLS))))
    frame[:200, :] = 128  # a hand over the far markers
    covered = tmp_path / "covered.png"
    cv2.imwrite(str(covered), frame)
    code, out = run(tmp_path, "board", str(covered))
    assert code == 1 and "not visible" in out
    junk = tmp_path / "junk.png"
    junk.write_text("not a picture")
    code, out = run(tmp_path, "board", str(junk))
    assert code == 1 and "not a picture" in out
    code, out = run(tmp_path, "show")
    assert code == 1 and "calibrat" in out.lower()


def test_marker_sheets_are_written(tmp_path: Path) -> None:
    code, out = run(tmp_path, "markers", str(tmp_path / "sheets"))
    assert code == 0, out
    written = sorted(p.suffix for p in (tmp_path / "sheets").iterdir())
    assert ".pdf" in written and ".png" in written
    # From a review: nothing said the markers must be one belt square wide, so a belt
    # whose squares are not 40 mm was calibrated with markers of the wrong size.
    assert "The corner markers print 40 mm wide, one belt square: measure a square" in out
    code, out = run(tmp_path, "markers", str(tmp_path / "sheets"), "--square-mm", "47")
    assert code == 0 and "print 47 mm wide" in out and "if it is not 47 mm" in out, out


def test_marker_sheets_to_a_folder_that_cannot_be_made_is_one_sentence(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = CliRunner().invoke(main, ["calibrate", "markers", str(blocker / "sheets")])
    assert result.exit_code == 2 and "cannot write the sheets" in result.output
    assert "Traceback" not in result.output


def test_cells_off_the_belt_or_shared_are_refused_and_a_good_calibration_is_kept(
    tmp_path: Path,
) -> None:
    """From a review: `--cells ""` saved a calibration with no colours over a working one."""
    image = str(picture(tmp_path, "cal.png", dict(CALIBRATION_CELLS)))
    assert run(tmp_path, "board", image)[0] == 0
    saved = (tmp_path / "data").glob("calibration*.json")
    before = {p.name: p.read_bytes() for p in saved}
    for cells, says in (
        ("", "name each hamster's square"),
        ("red=11,1", "off the belt"),
        ("red=1,1 blue=1,1", "another hamster is on that square"),
    ):
        code, out = run(tmp_path, "board", image, "--cells", cells)
        assert code == 2 and says in out, out
    assert {p.name: p.read_bytes() for p in (tmp_path / "data").glob("calibration*.json")} == before
    code, out = run(tmp_path, "board", image)
    assert code == 0 and "is kept as calibration.json.previous" in out


def test_an_asterisk_strip_not_seen_is_said_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It printed "asterisk strip: row None"."""
    import companion.commands.calibrate
    import companion.vision.board

    image = str(picture(tmp_path, "cal.png", dict(CALIBRATION_CELLS)))
    assert run(tmp_path, "board", image)[0] == 0
    reading = companion.vision.board.BoardReading(blocked=False, hamsters={"red": (1, 1)})
    monkeypatch.setattr(companion.commands.calibrate, "read_board", lambda *_args: reading)
    code, out = run(tmp_path, "check", image)
    assert code == 0 and "asterisk strip: not seen" in out and "None" not in out, out


def test_a_calibration_file_with_a_field_of_the_wrong_kind_is_one_sentence_and_replaced(
    tmp_path: Path,
) -> None:
    """From a review: colour profiles saved as a list (a hand edit) gave a traceback, and so
    did calibrating again, which is what the message asks for."""
    image = str(picture(tmp_path, "cal.png", dict(CALIBRATION_CELLS)))
    assert run(tmp_path, "board", image)[0] == 0
    path = tmp_path / "data" / "calibration.json"
    data = json.loads(path.read_text())
    broken: object
    for broken in ([], "red"):
        path.write_text(json.dumps({**data, "colour_profiles": broken}))
        code, out = run(tmp_path, "show")
        assert code == 1 and "has a malformed field" in out and "Traceback" not in out, out
    code, out = run(tmp_path, "board", image)
    assert code == 0 and "5 hamster colours" in out, out
    assert run(tmp_path, "show")[0] == 0
