"""``companion update --remember`` and ``companion care apply`` from a terminal."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.care.requests import CareRequest, leave_request, read_outcome
from companion.commands.tree import main
from companion.config import GameDefaults
from companion.store import Store
from companion.table import Table
from companion.update.remembered import HOME_VARIABLE


@pytest.fixture(autouse=True)
def update_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The updater's root-only home, outside the data folder (tmp_path) as on the Pi."""
    home = tmp_path.parent / f"{tmp_path.name}-update-home"
    monkeypatch.setenv(HOME_VARIABLE, str(home))
    return home


def _run(tmp_path: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), *args])
    return result.exit_code, result.output + (result.stderr if result.exit_code else "")


def test_update_remembers_its_source_for_the_page(tmp_path: Path) -> None:
    code, said = _run(tmp_path, "update", "--remember", "--wheels", str(tmp_path / "stick"))
    assert (
        code == 0
        and said.strip() == f"The page's Update will fetch from wheels in {tmp_path / 'stick'}."
    )


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root, as the Pi's care helper runs")
def test_roots_helper_refuses_a_source_the_pages_user_rewrote(
    tmp_path: Path, update_home: Path
) -> None:
    """The service's user can write the care folder; if it could repoint the remembered
    source, root's helper would install code of its choosing."""
    assert _run(tmp_path, "update", "--remember", "--git", str(tmp_path / "repo"))[0] == 0
    assert not list(tmp_path.rglob("update-source.json")), "not in the page's data folder"
    (remembered,) = update_home.rglob("update-source.json")
    assert remembered.stat().st_uid == 0 and not remembered.stat().st_mode & 0o022
    os.chown(remembered, 65534, 65534)  # as if the page's user had replaced it
    code, said = _run(tmp_path, "update")
    assert code == 2 and "was not written by root" in said and "--remember" in said


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


def test_care_apply_restores_with_the_service_stopped_around_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's restore request, done by the helper: systemctl (a stub that records its
    calls) stops the service, the backup comes back, the service starts again."""
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=("Ann", "Ben")))
    table.new_game()
    backup = store.backup()
    table.new_game()
    table.close()
    store.close()
    stubs, called = tmp_path / "stubs", tmp_path / "called"
    stubs.mkdir()
    (stubs / "systemctl").write_text(f'#!/bin/sh\necho "$*" >> "{called}"\n', encoding="utf-8")
    (stubs / "systemctl").chmod(0o755)
    monkeypatch.setenv("PATH", f"{stubs}:{os.environ['PATH']}")
    leave_request(tmp_path, CareRequest("restore", backup.name, "the page"))
    code, said = _run(tmp_path, "care", "apply")
    assert code == 0 and said.startswith(f"Restored {backup.name} (1 game)")
    assert called.read_text().splitlines() == ["stop companion.service", "start companion.service"]
    with contextlib.closing(sqlite3.connect(tmp_path / "companion.sqlite3")) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root, as the Pi's care helper runs")
def test_the_updaters_home_is_refused_when_the_pages_user_could_write_it(
    tmp_path: Path, update_home: Path
) -> None:
    """Root pip-installs what its home names (a release folder, releases.json): a home the
    page's user owns, or a link it planted, is not used."""
    update_home.mkdir()
    os.chown(update_home, 65534, 65534)
    code, said = _run(tmp_path, "update", "--wheels", str(tmp_path / "stick"))
    assert code == 2 and "is not a folder only root can write" in said
    update_home.rmdir()
    update_home.symlink_to(tmp_path)
    code, said = _run(tmp_path, "update", "--remember", "--wheels", str(tmp_path / "stick"))
    assert code == 2 and "is not a folder only root can write" in said
