"""What the page asks the root helper to do: restore a backup, or update the companion.

Why a helper: the service runs as the ``companion`` user in a sandbox
(``ProtectSystem=strict``) that may neither stop itself for a restore nor write the
installed release for an update. The page checks what it can at once (a backup goes
through the same :func:`companion.store.check_backup` as ``companion restore``), then
leaves one small request file in the data folder; the helper (``companion care apply``,
started as root by ``companion-care.path`` when the file appears, or run by hand) does
it, and writes what happened beside it for the page to show.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from companion.errors import CompanionError

CARE_FOLDER = "care"
REQUEST_FILE = "request.json"
OUTCOME_FILE = "outcome.json"
Kind = Literal["restore", "update"]
BUSY = (
    "The table is already busy with a restore or an update: wait a minute for it to finish, "
    "then reload the page."
)


class CareRequestError(CompanionError):
    """A request cannot be left, or the one left cannot be read."""


@dataclass(frozen=True)
class CareRequest:
    kind: Kind
    backup: str = ""  # restore: the backup's file name in the backups folder
    asked: str = ""  # who asked, for the outcome ("the page", "the command line")

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "backup": self.backup, "asked": self.asked}


def care_folder(data_dir: Path) -> Path:
    return data_dir / CARE_FOLDER


def leave_request(data_dir: Path, request: CareRequest) -> Path:
    """Write the request where the helper looks; refuses while another is waiting."""
    folder = care_folder(data_dir)
    target = folder / REQUEST_FILE
    if target.exists():
        raise CareRequestError(BUSY)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / (REQUEST_FILE + ".part")
        partial.write_text(json.dumps(request.to_json()), encoding="utf-8")
        os.replace(partial, target)  # the helper never sees half a request
    except OSError as error:
        raise CareRequestError(
            f"The request could not be written in {folder} ({error.strerror}): free some "
            "space on the card and try again."
        ) from None
    return target


def take_request(data_dir: Path) -> CareRequest | None:
    """The waiting request, removed from the folder (None: nothing is waiting)."""
    target = care_folder(data_dir) / REQUEST_FILE
    try:
        raw = json.loads(target.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        target.unlink(missing_ok=True)
        raise CareRequestError(
            f"The request in {target} could not be read; it was removed: ask again from the page."
        ) from None
    target.unlink(missing_ok=True)
    kind = raw.get("kind") if isinstance(raw, dict) else None
    if kind not in ("restore", "update"):
        raise CareRequestError(f"The request in {target} asks for nothing known; ask again.")
    return CareRequest(kind, str(raw.get("backup", "")), str(raw.get("asked", "")))


def waiting(data_dir: Path) -> bool:
    return (care_folder(data_dir) / REQUEST_FILE).exists()


def write_outcome(data_dir: Path, ok: bool, sentence: str) -> None:
    """What the helper did, for the page's *Table care* panel to show after the restart."""
    folder = care_folder(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / OUTCOME_FILE).write_text(
        json.dumps({"ok": ok, "sentence": sentence}), encoding="utf-8"
    )
    hand_back(data_dir)


def hand_back(data_dir: Path) -> None:
    """As root, give the care folder and its files to the data folder's owner (the
    service's user): a folder root made there would refuse the page's next request."""
    folder = care_folder(data_dir)
    if os.geteuid() != 0 or not folder.exists():
        return
    owner = data_dir.stat()
    for path in [folder, *(p for p in folder.iterdir() if p.is_file())]:
        os.chown(path, owner.st_uid, owner.st_gid)  # releases/ stays root's, as /opt is


def read_outcome(data_dir: Path) -> dict[str, object] | None:
    try:
        found = json.loads((care_folder(data_dir) / OUTCOME_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None
