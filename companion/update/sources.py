"""Where a release comes from: a git repository (a URL or a local path) or a folder of wheels.

Why both: the installer copies a checkout to ``/opt/hamster-companion`` and pip-installs it;
a table that came from a clone updates from that repository, one at an event with no
internet from a folder of wheels (a USB stick). Each source fetches the release into a
folder of its own under the updater's home and names it, so the same release is never
installed twice and the previous one is still there to go back to.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from companion.update.releases import Release, UpdateError

WHEEL = re.compile(r"^hamster_companion-(?P<version>[^-]+)-.*\.whl$")


@dataclass(frozen=True)
class GitSource:
    """A branch (or tag) of a git repository: ``git clone --depth 1`` of it."""

    url: str
    ref: str = "main"

    def describe(self) -> str:
        return f"git {self.url} ({self.ref})"

    def fetch(self, releases: Path) -> Release:
        releases.mkdir(parents=True, exist_ok=True)
        incoming = releases / "incoming"
        shutil.rmtree(incoming, ignore_errors=True)
        # As root from a checkout a person owns: git refuses "dubious ownership" unless told
        # on its own command line that this source, chosen by root, is meant.
        clone = ["-c", "safe.directory=*", "clone", "--quiet", "--depth", "1"]
        _git(*clone, "--branch", self.ref, self.url, str(incoming))
        commit = _git("-C", str(incoming), "rev-parse", "--short=12", "HEAD").strip()
        name = f"git-{commit}"
        target = releases / name
        if target.exists():
            shutil.rmtree(incoming)
        else:
            incoming.rename(target)
        return Release(name, target)


def _git(*args: str) -> str:
    try:
        done = subprocess.run(
            ["git", *args], capture_output=True, text=True, timeout=300, check=False
        )
    except FileNotFoundError:
        raise UpdateError("git is not installed: `sudo apt install git`, then try again.") from None
    except subprocess.TimeoutExpired:
        raise UpdateError("git took over 5 minutes: check the network, then try again.") from None
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise UpdateError(
            f"git could not fetch the release ({said}): check the address and branch."
        )
    return done.stdout


@dataclass(frozen=True)
class WheelFolder:
    """The newest ``hamster_companion-*.whl`` in a folder (by version, then by time)."""

    folder: Path

    def describe(self) -> str:
        return f"wheels in {self.folder}"

    def fetch(self, releases: Path) -> Release:
        found = [p for p in _listing(self.folder) if WHEEL.match(p.name)]
        if not found:
            raise UpdateError(
                f"No hamster_companion wheel in {self.folder}: build one with "
                "`pip wheel --no-deps .` in a checkout and copy it there."
            )
        newest = max(found, key=lambda p: (_version_key(p.name), p.stat().st_mtime))
        version = WHEEL.match(newest.name)
        name = f"wheel-{version['version'] if version else newest.stem}"
        target = releases / name
        target.mkdir(parents=True, exist_ok=True)
        copy = target / newest.name
        if not copy.exists():
            shutil.copyfile(newest, copy)
        return Release(name, copy)


def _listing(folder: Path) -> list[Path]:
    try:
        return list(folder.iterdir())
    except OSError as error:
        raise UpdateError(
            f"The wheel folder {folder} cannot be read ({error.strerror}): check the path."
        ) from None


def _version_key(name: str) -> tuple[int, ...]:
    found = WHEEL.match(name)
    text = found["version"] if found else ""
    return tuple(int(part) for part in re.findall(r"\d+", text))
