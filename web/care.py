"""*Table care* behind the PIN: backups (list, download, restore from an upload, copy to a
USB stick), one file of logs, and *Update*.

Everything here needs the table PIN: a backup holds every game and name ever played, and
the logs say who joined from where. A restore or an update is not done by the page: the
service may not stop itself or write its own release (its sandbox). The page checks what
it can at once (an upload goes through :func:`companion.store.check_backup`, exactly as
``companion restore`` checks it), keeps the games as they are as a backup first, then
leaves a request for the root helper (:mod:`companion.care.requests`).
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from flask import Blueprint, Response, current_app, jsonify, request, send_file
from flask.typing import ResponseReturnValue

from companion import logs
from companion.care import bundle, usb
from companion.care.requests import (
    BUSY,
    CareRequest,
    CareRequestError,
    care_folder,
    leave_request,
    read_outcome,
    waiting,
)
from companion.config import RUN_CONFIG
from companion.errors import CompanionError
from companion.store import BACKUP_FOLDER, StoreError, backups, check_backup
from companion.update import UpdateError
from companion.update.remembered import remembered_source
from web.api import _require_control
from web.context import companion
from web.errors import ApiError

bp = Blueprint("care", __name__)
MAX_UPLOAD_BYTES = 64 * 1024 * 1024  # a games file of years of play is a few MiB
TOO_LARGE = (
    "That file is over 64 MiB, far larger than any games file: pick the backup itself "
    "(games-<date>.sqlite3, as Download gives it)."
)


def _helper_note() -> str:
    """What happens after a request is left: the helper under systemd, a person elsewhere."""
    if logs.under_journal():
        return "the table restarts in a moment to do it; reload the page in a minute"
    return "stop the companion (Ctrl-C), run `sudo companion care apply`, then start it again"


@dataclass
class CareSetup:
    """What *Table care* reaches beyond the table, each part replaceable in a test."""

    media_roots: Sequence[Path] = usb.MEDIA_ROOTS
    is_mount: Callable[[Path], bool] = os.path.ismount
    doctor: Callable[[str | None, Path], str] = bundle.doctor_text
    journal: Callable[[int], list[str] | None] = bundle.journal_lines
    helper_note: Callable[[], str] = field(default=_helper_note)


def _setup() -> CareSetup:
    found: CareSetup = current_app.extensions.setdefault("care", CareSetup())
    return found


def _database() -> Path:
    """The games file; with a damaged one the table runs in memory, and the file (with its
    backups, the way out) is the data folder's."""
    path = companion().table.store.path
    return companion().data_dir / "companion.sqlite3" if str(path) == ":memory:" else path


def _data_dir() -> Path:
    """The games file's folder: where its backups and the helper's requests live."""
    return _database().parent


STAMP = re.compile(r"games-(\d{8}-\d{6})")
SAFE_NAME = re.compile(r"[^A-Za-z0-9._ -]+")


def _made(path: Path, modified: float) -> str:
    """When a backup was made: the time in its name (a copied file's own time is the
    copy's), else the file's."""
    found = STAMP.match(path.name)
    when = (
        datetime.strptime(found[1], "%Y%m%d-%H%M%S") if found else datetime.fromtimestamp(modified)
    )
    return when.strftime("%Y-%m-%d %H:%M")


def _listed() -> list[dict[str, Any]]:
    found = []
    for path in reversed(backups(_database())):  # newest first
        info = path.stat()
        uploaded = path.name.endswith("-uploaded.sqlite3")
        made = _made(path, info.st_mtime)
        found.append({"name": path.name, "bytes": info.st_size, "made": made, "uploaded": uploaded})
    return found


def _upload_name() -> str:
    """The uploaded file's own name (for the sentences), reduced to plain characters."""
    given = Path(unquote(request.headers.get("X-File-Name", ""))).name
    plain = SAFE_NAME.sub("_", given).strip(". ")[:80]
    return plain or "the uploaded file"


@bp.get("/api/care")
def overview() -> ResponseReturnValue:
    _require_control()
    setup = _setup()
    sticks = usb.mounted_sticks(setup.media_roots, setup.is_mount)
    try:
        source: str | None = remembered_source(care_folder(_data_dir())).describe()
    except UpdateError:
        source = None
    return jsonify(
        backups=_listed(),
        sticks=[str(s) for s in sticks],
        waiting=waiting(_data_dir()),
        outcome=read_outcome(_data_dir()),
        update_source=source,
    )


@bp.get("/api/care/backups/<name>")
def download(name: str) -> Response:
    _require_control()
    chosen = next((p for p in backups(_database()) if p.name == name), None)
    if chosen is None:
        raise ApiError(404, f"There is no backup called {name}: reload the list and pick again.")
    return send_file(
        chosen, mimetype="application/vnd.sqlite3", as_attachment=True, download_name=name
    )


@bp.post("/api/care/restore")
def restore_upload() -> ResponseReturnValue:
    """Check an uploaded backup as ``companion restore`` does; if it passes, keep today's
    games as a backup, put the upload among the backups and ask the helper to restore it."""
    _require_control()
    if waiting(_data_dir()):
        raise ApiError(409, BUSY)
    request.max_content_length = MAX_UPLOAD_BYTES
    body = request.get_data(cache=False)
    folder = _data_dir() / BACKUP_FOLDER
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    upload = folder / f"games-{stamp}-uploaded.sqlite3"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        checking = care_folder(_data_dir()) / f"upload-{secrets.token_hex(4)}" / _upload_name()
        checking.parent.mkdir(parents=True)
        checking.write_bytes(body)
    except OSError as error:
        raise ApiError(
            507, f"The upload could not be kept ({error.strerror}): free some space on the card."
        ) from None
    try:
        facts = check_backup(checking)
    except StoreError as error:
        shutil.rmtree(checking.parent, ignore_errors=True)
        raise ApiError(
            422,
            str(error).replace(
                "pick another (`companion backups` lists them)", "pick another file"
            ),
        ) from None
    try:
        store = companion().table.store
        kept = (
            f"kept as {store.backup(keep=len(backups(_database())) + 2).name}"  # none removed
            if str(store.path) != ":memory:"
            else "(a damaged file) kept beside it by the restore"
        )
        os.replace(checking, upload)
        leave_request(_data_dir(), CareRequest("restore", upload.name, "the page"))
    except CompanionError as error:
        raise ApiError(503, str(error)) from None
    except OSError as error:
        raise ApiError(
            507, f"The upload could not be kept ({error.strerror}): free some space on the card."
        ) from None
    finally:
        shutil.rmtree(checking.parent, ignore_errors=True)
    return jsonify(
        message=(
            f"The file holds {facts.games} game{'s' if facts.games != 1 else ''} and passed every "
            f"check; the games as they are now are {kept}. To restore it, "
            f"{_setup().helper_note()}."
        )
    )


@bp.errorhandler(413)
def too_large(_: Exception) -> ResponseReturnValue:
    return jsonify(error=TOO_LARGE), 413


@bp.post("/api/care/usb")
def copy_to_stick() -> ResponseReturnValue:
    _require_control()
    setup = _setup()
    try:
        done = usb.copy_to_the_stick(backups(_database()), setup.media_roots, setup.is_mount)
    except usb.NoStickError as error:
        raise ApiError(409, str(error)) from None
    return jsonify(message=done.sentence())


@bp.get("/api/care/logs.txt")
def download_logs() -> Response:
    _require_control()
    try:
        count = int(request.args.get("lines", "500"))
    except ValueError:
        raise ApiError(400, "'lines' must be a whole number, such as 500.") from None
    setup = _setup()
    config_file = companion().table.store.setting(RUN_CONFIG) or None
    text = bundle.log_file(count, lambda: setup.doctor(config_file, _data_dir()), setup.journal)
    name = f"hamster-table-logs-{datetime.now().strftime('%Y%m%d-%H%M')}.txt"
    return Response(
        text,
        mimetype="text/plain",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@bp.post("/api/care/update")
def ask_update() -> ResponseReturnValue:
    _require_control()
    try:
        source = remembered_source(care_folder(_data_dir()))
        leave_request(_data_dir(), CareRequest("update", "", "the page"))
    except (UpdateError, CareRequestError) as error:
        raise ApiError(409, str(error)) from None
    return jsonify(
        message=(
            f"Update from {source.describe()} asked for: the previous release is kept, and "
            f"if `companion doctor` fails after the restart it is put back by itself; "
            f"{_setup().helper_note()}."
        )
    )
