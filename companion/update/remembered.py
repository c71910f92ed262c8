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
HOME = Path("/var/lib/hamster-companion-care")
HOME_VARIABLE = "HAMSTER_UPDATE_HOME"  # another home, for a test
NO_SOURCE = (
    "No release source is set: on the Pi run `sudo companion update --git <repository>` "
    "(or `--wheels <folder>`) once, then Update works from the page."
)


def update_home() -> Path:
    """The updater's home: its releases, ``releases.json`` and the remembered source.

    Not in the data folder, which the service's user (the page) owns: whatever is there it
    could replace, and root pip-installs what this folder names. A root-only folder (0755:
    the page reads which source Update fetches from, and nothing in it is ever chowned)."""
    return Path(os.environ.get(HOME_VARIABLE) or HOME)


def own_home(home: Path) -> Path:
    """``home``, made if missing, refused unless it is a real folder only this user (root on
    the Pi) can write: otherwise the page's user could put a release of its choosing in it."""
    try:
        home.mkdir(mode=0o755, parents=True, exist_ok=True)
        found = home.lstat()
    except OSError as error:
        raise UpdateError(
            f"The update folder {home} cannot be made ({error.strerror}): run the update as "
            "root (`sudo companion update ...`)."
        ) from None
    mine = found.st_uid == os.geteuid() and not found.st_mode & 0o022
    if not stat.S_ISDIR(found.st_mode) or not mine:
        raise UpdateError(
            f"The update folder {home} is not a folder only root can write, so nothing in it "
            f"is trusted: remove it (`sudo rm -r {home}`) and update again."
        )
    home.chmod(0o755)  # under sudo's umask 077 the page could not read which source is set
    return home


def remember_source(folder: Path, source: ReleaseSource) -> None:
    data = (
        {"git": source.url, "ref": source.ref}
        if isinstance(source, GitSource)
        else {"wheels": str(source.folder)}
        if isinstance(source, WheelFolder)
        else {}
    )
    own_home(folder)
    path = folder / SOURCE_FILE
    partial = folder / (SOURCE_FILE + ".part")
    partial.unlink(missing_ok=True)
    partial.write_text(json.dumps(data), encoding="utf-8")
    partial.chmod(0o644)
    os.replace(partial, path)


def remembered_source(folder: Path, *, for_root: bool | None = None) -> ReleaseSource:
    """The source ``companion update`` remembered. ``for_root`` (as root, by default):
    only one root wrote; the page asks for it too, so it never offers an Update that root's
    helper would refuse."""
    path = folder / SOURCE_FILE
    try:
        if os.geteuid() == 0 if for_root is None else for_root:
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
