"""Where this table's releases come from, remembered once (``companion update --git/--wheels``)
so the page's *Update* needs no address typed on a tablet."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from companion.update.releases import ReleaseSource, UpdateError
from companion.update.sources import GitSource, WheelFolder

SOURCE_FILE = "update-source.json"
NO_SOURCE = (
    "No release source is set: on the Pi run `sudo companion update --git <repository>` "
    "(or `--wheels <folder>`) once, then Update works from the page."
)


def remember_source(folder: Path, source: ReleaseSource) -> None:
    data = (
        {"git": source.url, "ref": source.ref}
        if isinstance(source, GitSource)
        else {"wheels": str(source.folder)}
        if isinstance(source, WheelFolder)
        else {}
    )
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / SOURCE_FILE
    path.unlink(missing_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    path.chmod(0o644)
    if os.geteuid() == 0:
        # `sudo companion update --git ...`: the page must still leave requests in the folder,
        # but the source file stays root's, so the page's user cannot repoint what root installs.
        owner = folder.parent.stat()
        os.chown(folder, owner.st_uid, owner.st_gid)


def remembered_source(folder: Path) -> ReleaseSource:
    path = folder / SOURCE_FILE
    try:
        if os.geteuid() == 0:
            _refuse_unless_roots(path)
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise UpdateError(NO_SOURCE) from None
    if isinstance(data, dict) and isinstance(data.get("git"), str):
        return GitSource(data["git"], str(data.get("ref") or "main"))
    if isinstance(data, dict) and isinstance(data.get("wheels"), str):
        return WheelFolder(Path(data["wheels"]))
    raise UpdateError(NO_SOURCE)


def _refuse_unless_roots(path: Path) -> None:
    """Root installs whatever this file names, so it only trusts a plain file that root
    wrote and nobody else can change: the service's user (the page) must not be able to
    point root's helper at code of its choosing."""
    status = path.lstat()
    if not stat.S_ISREG(status.st_mode) or status.st_uid != 0 or status.st_mode & 0o022:
        raise UpdateError(
            f"The remembered release source {path} was not written by root, so it is not "
            "used: run `sudo companion update --remember --git <repository>` (or `--wheels "
            "<folder>`) again on the Pi."
        )
