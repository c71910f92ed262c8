"""``companion update --remember`` and ``companion care apply`` from a terminal."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from companion.care.requests import CareRequest, leave_request, read_outcome
from companion.commands.tree import main


def _run(tmp_path: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), *args])
    return result.exit_code, result.output + (result.stderr if result.exit_code else "")


def test_update_remembers_its_source_for_the_page(tmp_path: Path) -> None:
    code, said = _run(tmp_path, "update", "--remember", "--wheels", str(tmp_path / "stick"))
    assert (
        code == 0
        and said.strip() == f"The page's Update will fetch from wheels in {tmp_path / 'stick'}."
    )


def test_update_with_no_source_says_how_to_set_one(tmp_path: Path) -> None:
    code, said = _run(tmp_path, "update")
    assert code == 2 and "No release source is set" in said and "--git" in said


def test_care_apply_with_nothing_asked_does_nothing(tmp_path: Path) -> None:
    assert _run(tmp_path, "care", "apply") == (0, "Nothing was asked from the page.\n")


def test_care_apply_says_in_one_sentence_what_went_wrong(tmp_path: Path) -> None:
    leave_request(tmp_path, CareRequest("update", "", "the page"))
    code, said = _run(tmp_path, "care", "apply")
    assert code == 0 and "No release source is set" in said
    outcome = read_outcome(tmp_path)
    assert outcome is not None and outcome["ok"] is False, "the page shows it after a reload"
