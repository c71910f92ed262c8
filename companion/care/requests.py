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
import secrets
import stat
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
    """Write the request where the helper looks; refuses while another is waiting.

    The finished file is linked into place (``os.link`` fails when the name exists), so of
    two tablets asking at once the second is refused, never silently replacing the first."""
    folder = care_folder(data_dir)
    target = folder / REQUEST_FILE
    if target.exists():
        raise CareRequestError(BUSY)
    partial = folder / f"{REQUEST_FILE}.{secrets.token_hex(4)}.part"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial.write_text(json.dumps(request.to_json()), encoding="utf-8")
        os.link(partial, target)  # the helper never sees half a request
    except FileExistsError:
        raise CareRequestError(BUSY) from None
    except OSError as error:
        raise CareRequestError(
            f"The request could not be written in {folder} ({error.strerror}): free some "
            "space on the card and try again."
        ) from None
    finally:
        partial.unlink(missing_ok=True)
    return target


def take_request(data_dir: Path) -> CareRequest | None:
    """The waiting request, removed from the folder (None: nothing is waiting)."""
    target = care_folder(data_dir) / REQUEST_FILE
    try:
        raw = json.loads(_read_plain(target))
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


def _read_plain(path: Path) -> str:
    """A small plain file's text, never through a link nor from a pipe (which would hold
    root's helper for ever): the page's user can put anything under this name."""
    handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(handle, "rb") as found:
        if not stat.S_ISREG(os.fstat(found.fileno()).st_mode):
            raise ValueError(f"{path} is not a plain file")
        return found.read(64 * 1024).decode("utf-8")


def waiting(data_dir: Path) -> bool:
    return (care_folder(data_dir) / REQUEST_FILE).exists()


def write_outcome(data_dir: Path, ok: bool, sentence: str) -> None:
    """What the helper did, for the page's *Table care* panel to show after the restart.

    Written as root into a folder the page's user owns: through a new file of its own
    (``O_EXCL|O_NOFOLLOW``, so a planted link is never written through) put in place by
    ``os.replace``, which swaps the name, never the file a planted link points at."""
    folder = care_folder(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    if not stat.S_ISDIR(folder.lstat().st_mode):
        raise CareRequestError(
            f"{folder} is a link, not a folder, so nothing was written through it: remove it "
            "and ask again from the page."
        )
    partial = folder / f"{OUTCOME_FILE}.{secrets.token_hex(4)}.part"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    handle = os.open(partial, flags, 0o644)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(json.dumps({"ok": ok, "sentence": sentence}))
        os.replace(partial, folder / OUTCOME_FILE)
    finally:
        partial.unlink(missing_ok=True)
    hand_back(data_dir)


HANDED_BACK = (REQUEST_FILE, OUTCOME_FILE)


def hand_back(data_dir: Path) -> None:
    """As root, give the care folder and the files the helper wrote there to the data
    folder's owner (the service's user): a folder or outcome root made there would refuse
    the page's next request. Only known names, only plain files, never through a link:
    the page's user can plant anything in this folder (``ln -s /etc/shadow``)."""
    folder = care_folder(data_dir)
    if os.geteuid() != 0:
        return
    owner = data_dir.stat()
    for path in [folder, *(folder / name for name in HANDED_BACK)]:
        try:
            found = path.lstat()
        except FileNotFoundError:
            continue
        wanted = stat.S_ISDIR if path == folder else stat.S_ISREG
        if wanted(found.st_mode):
            os.chown(path, owner.st_uid, owner.st_gid, follow_symlinks=False)


def read_outcome(data_dir: Path) -> dict[str, object] | None:
    try:
        found = json.loads((care_folder(data_dir) / OUTCOME_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None
