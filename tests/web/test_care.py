"""Table care behind the PIN, on the real server (hypercorn) over a real games file:
backups listed, downloaded, restored from an upload through `companion restore`'s own
checks, copied to a "USB stick" (a temporary folder), logs downloaded, update asked for."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import sqlite3
import urllib.error
import urllib.request
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from playwright.sync_api import Browser, expect

from companion import logs
from companion.care.helper import Service, apply_waiting
from companion.care.requests import take_request
from companion.config import GameDefaults
from companion.store import SCHEMA_VERSION, Store, backups
from companion.table import Table
from companion.update import WheelFolder
from companion.update.remembered import HOME_VARIABLE, remember_source
from tests.web.conftest import shots, unlock
from tests.web.serving import PIN, serve_table
from web.care import CareSetup

ROOT = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("AXE_JS", ROOT / ".cache/axe/node_modules/axe-core/axe.min.js"))


def _call(
    port: int, path: str, body: bytes | None = None, token: str = "", name: str = ""
) -> tuple[int, bytes]:
    headers = {"X-Table-Token": token} if token else {}
    if name:
        headers["X-File-Name"] = name
    if body is not None:
        headers["Content-Type"] = "application/octet-stream"
    ask = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, headers=headers)
    try:
        with urllib.request.urlopen(ask, timeout=60) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _login(port: int) -> str:
    ask = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/login",
        data=json.dumps({"pin": PIN}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(ask, timeout=30) as answer:
        return str(json.loads(answer.read())["token"])


def _said(raw: bytes) -> str:
    data: dict[str, Any] = json.loads(raw)
    return str(data.get("error") or data.get("message"))


def _backups(table: Table, count: int = 2) -> list[Path]:
    start = datetime(2026, 11, 1, 20, 0)
    return [table.store.backup(keep=50, now=start + timedelta(days=day)) for day in range(count)]


def test_backups_need_the_pin_and_download_as_they_are(table: Table) -> None:
    made = _backups(table)
    with serve_table(table) as port:
        status, raw = _call(port, "/api/care")
        assert status == 401 and "PIN" in _said(raw)
        token = _login(port)
        status, raw = _call(port, "/api/care", token=token)
        listed = json.loads(raw)["backups"]
        assert [b["name"] for b in listed] == [p.name for p in reversed(made)], "newest first"
        status, raw = _call(port, f"/api/care/backups/{made[0].name}", token=token)
        assert status == 200 and raw == made[0].read_bytes()
        status, raw = _call(port, "/api/care/backups/..%2Fcompanion.sqlite3", token=token)
        assert status == 404


def _foreign(path: Path) -> bytes:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.commit()
    db.close()
    return path.read_bytes()


def _newer(backup: Path, path: Path) -> bytes:
    shutil.copyfile(backup, path)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    return path.read_bytes()


def test_an_upload_is_refused_in_one_sentence_and_changes_nothing(
    table: Table, tmp_path: Path
) -> None:
    made = _backups(table, 1)
    refused = {
        b"": "is empty (0 bytes)",
        _foreign(tmp_path / "recipes.db"): "is not a games file of this companion",
        _newer(made[0], tmp_path / "newer.db"): "was written by a newer companion",
        b"hello": "is not a games file (not SQLite at all)",
    }
    with serve_table(table) as port:
        token = _login(port)
        for body, sentence in refused.items():
            status, raw = _call(port, "/api/care/restore", body, token, "my%20games.sqlite3")
            assert status == 422 and sentence in _said(raw)
            assert "my games.sqlite3" in _said(raw), "the sentence names the file given"
            assert _said(raw).count(". ") == 0, "one sentence"
        assert backups(table.store.path) == made, "nothing kept, nothing removed"
        assert not list((tmp_path / "care").glob("upload-*")), "no upload left behind"
        assert take_request(tmp_path) is None


def test_a_restore_from_the_page_keeps_today_s_games_and_is_done_by_the_helper(
    table: Table, tmp_path: Path
) -> None:
    database = table.store.path
    old = _backups(table, 1)[0]
    table.new_game()  # a second game, played after that backup
    with serve_table(table) as port:
        token = _login(port)
        status, raw = _call(port, "/api/care/restore", old.read_bytes(), token)
        assert status == 200, raw
        message = _said(raw)
        assert "holds 1 game and passed every check" in message
        status, raw = _call(port, "/api/care/restore", old.read_bytes(), token)
        assert status == 409 and "already busy" in _said(raw)
    kept = [p for p in backups(database) if p != old and "uploaded" not in p.name]
    assert len(kept) == 1 and kept[0].name in message, "the answer names where they are kept"
    with contextlib.closing(sqlite3.connect(kept[0])) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2, "today's games kept"
    table.store.close()
    stops: list[str] = []
    service = Service(lambda: stops.append("stop"), lambda: stops.append("start"))
    said = apply_waiting(tmp_path, database, service, lambda: pytest.fail("no update asked"))
    assert said is not None and said.startswith("Restored games-") and stops == ["stop", "start"]
    with contextlib.closing(sqlite3.connect(database)) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1, "the backup's games"


def test_every_backup_goes_to_the_stick_when_one_is_mounted(table: Table, tmp_path: Path) -> None:
    made = _backups(table, 3)
    media = tmp_path / "media"
    (media / "pi").mkdir(parents=True)
    setup = CareSetup(media_roots=[media], is_mount=lambda p: p.name == "STICK")
    with serve_table(table, care_setup=setup) as port:
        token = _login(port)
        status, raw = _call(port, "/api/care/usb", b"{}", token)
        assert status == 409 and "No USB stick is mounted" in _said(raw)
        stick = media / "pi" / "STICK"
        stick.mkdir()
        assert json.loads(_call(port, "/api/care", token=token)[1])["sticks"] == [str(stick)]
        status, raw = _call(port, "/api/care/usb", b"{}", token)
        assert status == 200 and "Copied 3 backups" in _said(raw)
        copies = sorted((stick / "hamster-table-backups").iterdir())
        assert [c.read_bytes() for c in copies] == [m.read_bytes() for m in made]
        status, raw = _call(port, "/api/care/usb", b"{}", token)
        assert "already on the stick" in _said(raw)


def test_the_logs_file_holds_lines_doctor_and_versions(table: Table) -> None:
    logs.RING.set_name("companion-ring")
    root = logging.getLogger()
    root.addHandler(logs.RING)
    logging.getLogger("companion").setLevel(logging.INFO)
    logging.getLogger("companion.camera").info("camera live at 1280x960")
    try:
        setup = CareSetup(journal=lambda _: None)  # the real doctor, as a command
        with serve_table(table, care_setup=setup) as port:
            token = _login(port)
            assert _call(port, "/api/care/logs.txt")[0] == 401
            status, raw = _call(port, "/api/care/logs.txt?lines=100", token=token)
    finally:
        root.removeHandler(logs.RING)
        logging.getLogger("companion").setLevel(logging.NOTSET)
    text = raw.decode()
    assert status == 200
    assert "camera live at 1280x960" in text and "INFO companion.camera" in text
    assert "== companion doctor ==" in text and "[ok  ] Python" in text
    assert "hamster-companion 0." in text and "== Versions ==" in text


@pytest.mark.skipif(os.geteuid() != 0, reason="root writes the source, as on the Pi")
def test_update_needs_a_source_then_leaves_a_request(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "update-home"  # root's, outside the data folder on the Pi
    monkeypatch.setenv(HOME_VARIABLE, str(home))
    with serve_table(table) as port:
        token = _login(port)
        status, raw = _call(port, "/api/care/update", b"{}", token)
        assert status == 409 and "No release source is set" in _said(raw)
        remember_source(home, WheelFolder(tmp_path / "wheels"))
        status, raw = _call(port, "/api/care", token=token)
        assert json.loads(raw)["update_source"] == f"wheels in {tmp_path / 'wheels'}"
        status, raw = _call(port, "/api/care/update", b"{}", token)
        assert status == 200 and "put back by itself" in _said(raw)
    found = take_request(tmp_path)
    assert found is not None and found.kind == "update"


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to hand the file to another user")
def test_the_page_offers_no_update_root_would_refuse(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A source file not written by root is refused by root's helper: the page must not
    offer Update from it, nor leave a request that can only fail."""
    home = tmp_path / "update-home"
    monkeypatch.setenv(HOME_VARIABLE, str(home))
    remember_source(home, WheelFolder(tmp_path / "wheels"))
    os.chown(home / "update-source.json", 65534, 65534)
    with serve_table(table) as port:
        token = _login(port)
        status, raw = _call(port, "/api/care", token=token)
        assert status == 200 and json.loads(raw)["update_source"] is None
        status, raw = _call(port, "/api/care/update", b"{}", token)
        assert status == 409 and "was not written by root" in _said(raw)
    assert take_request(tmp_path) is None


@pytest.mark.browser
@pytest.mark.parametrize("size", [(1280, 800), (800, 1280), (390, 844)])
def test_the_table_care_panel(
    browser: Browser, table: Table, tmp_path: Path, size: tuple[int, int]
) -> None:
    _backups(table, 3)
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    with serve_table(table) as port:
        context = browser.new_context(
            viewport={"width": size[0], "height": size[1]}, bypass_csp=True
        )  # bypass: axe-core is injected below, as tests/web/test_accessibility.py does
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        expect(page.locator("#care-box")).to_be_hidden()
        unlock(page)
        page.click("#care-box summary")
        rows = page.locator("#care-backups li")
        expect(rows).to_have_count(3)
        expect(rows.first).to_contain_text("2026-")
        with page.expect_download() as got:
            rows.first.get_by_role("button", name="Download").click()
        assert got.value.suggested_filename.startswith("games-")
        page.on("dialog", lambda dialog: dialog.accept())
        page.set_input_files("#care-upload", str(empty))
        said = page.locator("#care-backups-said")
        expect(said).to_contain_text("The backup empty.sqlite3 is empty (0 bytes)")
        said.scroll_into_view_if_needed()
        page.screenshot(
            path=str(shots(tmp_path) / f"care-{size[0]}x{size[1]}.png"), full_page=False
        )
        page.add_script_tag(path=str(AXE))
        found = page.evaluate(
            "async () => (await axe.run({include: ['#care-box']})).violations.map("
            "(v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target).join(', ')}`)"
        )
        assert found == []
        context.close()


def test_a_file_far_larger_than_a_games_file_is_refused_in_one_sentence(
    client: FlaskClient, token: str
) -> None:
    """Said by the server (the page says it before sending, from the file's size)."""
    answer = client.post(
        "/api/care/restore", data=bytes(65 * 1024 * 1024), headers={"X-Table-Token": token}
    )
    assert answer.status_code == 413 and "over 64 MiB" in answer.get_json()["error"]


@pytest.mark.browser
def test_the_panel_restores_copies_and_downloads_the_logs(
    browser: Browser, table: Table, tmp_path: Path
) -> None:
    made = _backups(table, 1)
    media = tmp_path / "media"
    (media / "STICK").mkdir(parents=True)
    setup = CareSetup(
        media_roots=[media],
        is_mount=lambda p: p.name == "STICK",
        doctor=lambda _config, _data: "[ok  ] the doctor's stand-in",
        journal=lambda _: None,
    )
    with serve_table(table, care_setup=setup) as port:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        unlock(page)
        page.click("#care-box summary")
        expect(page.locator("#care-stick")).to_contain_text("STICK")
        page.click("#care-usb")
        expect(page.locator("#care-backups-said")).to_contain_text("Copied 1 backup to")
        with page.expect_download() as got:
            page.click("#care-logs")
        text = Path(got.value.path()).read_text(encoding="utf-8")
        assert "[ok  ] the doctor's stand-in" in text and "== Versions ==" in text
        expect(page.locator("#care-logs-said")).to_have_text("Logs downloaded.")
        expect(page.locator("#care-update")).to_be_disabled()
        page.on("dialog", lambda dialog: dialog.accept())
        page.set_input_files("#care-upload", str(made[0]))
        expect(page.locator("#care-backups-said")).to_contain_text("passed every check")
        expect(page.locator("#care-backups li")).to_have_count(3)  # + today's, + the upload
        expect(page.locator("#care-backups li", has_text="(uploaded)")).to_have_count(1)
        page.close()
    assert take_request(tmp_path) is not None


def test_with_a_damaged_games_file_the_backups_are_still_there_to_restore(
    table: Table, tmp_path: Path
) -> None:
    """A damaged games file leaves the table running in memory: the backups in the data
    folder are still listed and restorable, the way out."""
    good = _backups(table, 1)[0]
    damaged = tmp_path / "damaged"
    (damaged / "backups").mkdir(parents=True)
    shutil.copyfile(good, damaged / "backups" / good.name)
    in_memory = Table(Store(":memory:"), GameDefaults(players=("Ann", "Ben")))
    with serve_table(in_memory, data_dir=damaged) as port:
        token = _login(port)
        listed = json.loads(_call(port, "/api/care", token=token)[1])["backups"]
        assert [b["name"] for b in listed] == [good.name]
        status, raw = _call(port, "/api/care/restore", good.read_bytes(), token)
        assert status == 200 and "(a damaged file) kept beside it by the restore" in _said(raw)
    assert take_request(damaged) is not None
