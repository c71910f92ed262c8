"""Where this table's releases come from, remembered once (``companion update --git/--wheels``)
so the page's *Update* needs no address typed on a tablet."""

from __future__ import annotations

import json
import os
from pathlib import Path

from companion.update.releases import UpdateError
from companion.update.sources import GitSource, ReleaseSource, WheelFolder

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
    (folder / SOURCE_FILE).write_text(json.dumps(data), encoding="utf-8")
    if os.geteuid() == 0:  # `sudo companion update --git ...`: the page must still write here
        owner = folder.parent.stat()
        for path in (folder, folder / SOURCE_FILE):
            os.chown(path, owner.st_uid, owner.st_gid)


def remembered_source(folder: Path) -> ReleaseSource:
    try:
        data = json.loads((folder / SOURCE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise UpdateError(NO_SOURCE) from None
    if isinstance(data, dict) and isinstance(data.get("git"), str):
        return GitSource(data["git"], str(data.get("ref") or "main"))
    if isinstance(data, dict) and isinstance(data.get("wheels"), str):
        return WheelFolder(Path(data["wheels"]))
    raise UpdateError(NO_SOURCE)
