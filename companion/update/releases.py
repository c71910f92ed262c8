"""Install a release, keep the previous one, restart, check with ``doctor``, roll back.

The steps that touch the system are handed in (how a release is installed, how the
service restarts, how doctor is run), so the same logic runs on the Pi as root (pip into
the venv, ``systemctl restart companion``, ``companion doctor``) and in a test against a
bare git repository and a throw-away folder. What is installed is recorded in
``releases.json`` in the updater's home: the current release and the one before it, whose
files are kept until a later update succeeds.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from companion.errors import CompanionError

RECORD = "releases.json"


class UpdateError(CompanionError):
    """The update could not be made; what was installed before is still installed."""


@dataclass(frozen=True)
class Release:
    """A release on this machine: its name and what installs it (a wheel or a source tree)."""

    name: str
    artifact: Path


class ReleaseSource(Protocol):
    def describe(self) -> str:
        """Where releases come from, for the page and the log."""
        ...

    def fetch(self, releases: Path) -> Release:
        """The newest release, fetched into a folder under ``releases``."""
        ...


@dataclass(frozen=True)
class Updated:
    """What an update did, as one sentence for the page and the command."""

    ok: bool
    sentence: str
    current: str


class Installer(Protocol):
    def __call__(self, artifact: Path) -> None:
        """Install the release at ``artifact`` in place of the one installed; raise
        ``UpdateError`` when it cannot."""


@dataclass(frozen=True)
class PipInstaller:
    """``pip install --no-deps --force-reinstall`` into the companion's own venv (the
    dependencies stay those of the hashed lock the installer put in)."""

    python: Path = Path(sys.executable)

    def __call__(self, artifact: Path) -> None:
        command = [str(self.python), "-m", "pip", "install", "--quiet", "--no-deps"]
        command += ["--force-reinstall", "--no-build-isolation", str(artifact)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
        if done.returncode != 0:
            said = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise UpdateError(f"pip could not install {artifact.name} ({said}).")


Doctor = Callable[[], tuple[bool, str]]  # passed?, what it printed


class Updater:
    """Updates from a source, keeping the previous release to go back to.

    ``installed`` names what is installed before the first update (the installer's copy of
    the checkout, ``/opt/hamster-companion``), so even the first update has a way back."""

    def __init__(
        self,
        home: Path,
        install: Installer,
        restart: Callable[[], None],
        doctor: Doctor,
        installed: Release,
    ) -> None:
        self.home = home
        self.install = install
        self.restart = restart
        self.doctor = doctor
        self.installed = installed

    def current(self) -> Release:
        return self._record().get("current") or self.installed

    def previous(self) -> Release | None:
        return self._record().get("previous")

    def update(self, source: ReleaseSource) -> Updated:
        """Fetch the newest release; install, restart and check it; roll back on failure."""
        before = self.current()
        new = source.fetch(self.home / "releases")
        if new.name == before.name:
            return Updated(
                True, f"The companion is already at {new.name}; nothing to do.", new.name
            )
        try:
            self.install(new.artifact)
        except UpdateError as error:
            self.install(before.artifact)  # pip may have removed the old one first
            raise UpdateError(
                f"{error} {before.name} is still installed; try again later."
            ) from None
        self._write(new, before)
        self.restart()
        passed, said = self.doctor()
        if passed:
            self._prune(keep={new.artifact, before.artifact})
            return Updated(
                True, f"Updated to {new.name}; {before.name} is kept to go back to.", new.name
            )
        self.install(before.artifact)
        self._write(before, None)
        self.restart()
        return Updated(
            False,
            f"{new.name} was rolled back to {before.name}: `companion doctor` failed after "
            f"the restart ({_first_failure(said)}); fix that, then update again.",
            before.name,
        )

    def _record(self) -> dict[str, Release]:
        try:
            raw = json.loads((self.home / RECORD).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        found = {}
        for key in ("current", "previous"):
            item = raw.get(key) if isinstance(raw, dict) else None
            if isinstance(item, dict) and "name" in item and "artifact" in item:
                found[key] = Release(str(item["name"]), Path(item["artifact"]))
        return found

    def _write(self, current: Release, previous: Release | None) -> None:
        data = {
            key: {"name": release.name, "artifact": str(release.artifact)}
            for key, release in (("current", current), ("previous", previous))
            if release is not None
        }
        self.home.mkdir(parents=True, exist_ok=True)
        partial = self.home / (RECORD + ".part")
        partial.write_text(json.dumps(data, indent=1), encoding="utf-8")
        partial.replace(self.home / RECORD)

    def _prune(self, keep: set[Path]) -> None:
        """Remove the releases older than the previous one (their folders only)."""
        folder = self.home / "releases"
        kept = {p if p.is_dir() else p.parent for p in keep}
        for entry in folder.iterdir() if folder.exists() else []:
            if entry.is_dir() and entry not in kept:
                shutil.rmtree(entry, ignore_errors=True)


def _first_failure(said: str) -> str:
    for line in said.splitlines():
        if "FAIL" in line:
            return line.replace("[FAIL]", "").strip()
    lines = [line for line in said.splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no output"
