"""The root helper in a folder the page's user owns: what it may plant there (links to
/etc/shadow, a second request) must not make root chown, write or read what it points at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.care.helper import Service, apply_waiting
from companion.care.requests import (
    BUSY,
    CareRequest,
    CareRequestError,
    care_folder,
    leave_request,
    read_outcome,
    take_request,
    write_outcome,
)
from companion.store import BACKUP_FOLDER
from companion.update import Updater

NOBODY = 65534
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root, as the Pi's care helper runs")


def _pages_folder(tmp_path: Path) -> Path:
    """A data folder owned by the page's user (nobody here), as /var/lib/hamster-companion."""
    data = tmp_path / "data"
    (data / "care").mkdir(parents=True)
    os.chown(data, NOBODY, NOBODY)
    os.chown(data / "care", NOBODY, NOBODY)
    return data


def _secret(tmp_path: Path) -> Path:
    secret = tmp_path / "shadow"
    secret.write_text("root:secret\n", encoding="utf-8")
    secret.chmod(0o600)
    return secret


def _no_updater() -> tuple[Updater, object]:
    raise AssertionError("no update was asked")


@as_root
def test_root_never_hands_over_a_file_a_planted_link_points_at(tmp_path: Path) -> None:
    data, secret = _pages_folder(tmp_path), _secret(tmp_path)
    (data / "care" / "x").symlink_to(secret)
    (data / "care" / "request.json.part").symlink_to(secret)
    (data / "companion.sqlite3-wal").symlink_to(secret)
    write_outcome(data, True, "done")
    assert secret.stat().st_uid == 0, "the secret is still root's"
    assert read_outcome(data) == {"ok": True, "sentence": "done"}
    assert (data / "care" / "outcome.json").stat().st_uid == NOBODY, "the page can replace it"


@as_root
def test_root_never_writes_the_outcome_through_a_planted_link(tmp_path: Path) -> None:
    data, secret = _pages_folder(tmp_path), _secret(tmp_path)
    (data / "care" / "outcome.json").symlink_to(secret)
    write_outcome(data, False, "failed")
    assert secret.read_text(encoding="utf-8") == "root:secret\n" and secret.stat().st_uid == 0
    assert not (data / "care" / "outcome.json").is_symlink()


@as_root
def test_a_restore_of_a_planted_link_is_refused(tmp_path: Path) -> None:
    data, secret = _pages_folder(tmp_path), _secret(tmp_path)
    (data / BACKUP_FOLDER).mkdir()
    (data / BACKUP_FOLDER / "games-1.sqlite3").symlink_to(secret)
    leave_request(data, CareRequest("restore", "games-1.sqlite3", "the page"))
    calls: list[str] = []
    service = Service(lambda: calls.append("stop"), lambda: calls.append("start"))
    said = apply_waiting(data, data / "companion.sqlite3", service, _no_updater)  # type: ignore[arg-type]
    assert said is not None and "is not a plain file" in said
    assert calls == [], "the service was never stopped for it"
    assert secret.stat().st_uid == 0


@as_root
def test_a_backup_swapped_for_a_link_while_the_service_stops_is_refused(tmp_path: Path) -> None:
    data, secret = _pages_folder(tmp_path), _secret(tmp_path)
    backup = data / BACKUP_FOLDER / "games-1.sqlite3"
    backup.parent.mkdir()
    backup.write_bytes(b"")
    leave_request(data, CareRequest("restore", backup.name, "the page"))
    calls: list[str] = []

    def stop_while_the_page_swaps_it() -> None:
        calls.append("stop")
        backup.unlink()
        backup.symlink_to(secret)

    service = Service(stop_while_the_page_swaps_it, lambda: calls.append("start"))
    said = apply_waiting(data, data / "companion.sqlite3", service, _no_updater)  # type: ignore[arg-type]
    assert said is not None and "is not a plain file" in said
    assert calls == ["stop", "start"], "the table is started again"


def test_a_request_that_is_a_pipe_or_a_link_is_refused_not_waited_on(tmp_path: Path) -> None:
    """A pipe named request.json would hold root's helper for ever; a link would have it
    read any file."""
    folder = care_folder(tmp_path)
    folder.mkdir()
    os.mkfifo(folder / "request.json")
    with pytest.raises(CareRequestError, match="could not be read; it was removed"):
        take_request(tmp_path)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text('{"kind": "update"}', encoding="utf-8")
    (folder / "request.json").symlink_to(elsewhere)
    with pytest.raises(CareRequestError, match="could not be read; it was removed"):
        take_request(tmp_path)
    assert not (folder / "request.json").exists() and elsewhere.exists()


def test_a_second_request_is_refused_not_replacing_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tablets at once: the other tablet's request lands between this one's check and
    its write; this one must be refused, not silently replace it."""
    target = care_folder(tmp_path) / "request.json"
    real_link = os.link

    def other_tablet_first(source: Path, destination: Path) -> None:
        target.write_text('{"kind": "restore", "backup": "games-1.sqlite3"}', encoding="utf-8")
        real_link(source, destination)

    monkeypatch.setattr("companion.care.requests.os.link", other_tablet_first)
    with pytest.raises(CareRequestError, match="already busy"):
        leave_request(tmp_path, CareRequest("update", "", "the page"))
    assert '"restore"' in target.read_text(encoding="utf-8")
    assert sorted(p.name for p in care_folder(tmp_path).iterdir()) == ["request.json"]
    assert BUSY.startswith("The table is already busy")
