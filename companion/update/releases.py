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
import os
import re
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
        """Fetch the newest release; install, restart and check it; roll back on failure.

        ``doctor`` is run once before anything changes: a check that already failed (no
        camera on this Pi, a card nearly full) says nothing about the new release, so only
        a check that newly fails after the restart rolls it back."""
        before = self.current()
        new = source.fetch(self.home / "releases")
        if new.name == before.name:
            return Updated(
                True, f"The companion is already at {new.name}; nothing to do.", new.name
            )
        baseline = _failures(self.doctor()[1])
        try:
            self.install(new.artifact)
        except UpdateError as error:
            stuck = self._go_back(before)  # pip may have removed the old one first
            if stuck:
                raise UpdateError(
                    f"{error} Putting {before.name} back failed too ({stuck}): "
                    "reinstall with `sudo make install` in the checkout."
                ) from None
            raise UpdateError(
                f"{error} {before.name} is still installed; try again later."
            ) from None
        self._write(new, before)
        self.restart()
        passed, said = self.doctor()
        after = _failures(said)
        newly = [line for key, line in after.items() if key not in baseline]
        if passed or (after and not newly):
            self._prune(keep={new.artifact, before.artifact})
            still = f" (`companion doctor` still reports, as before: {_first_failure(said)})"
            return Updated(
                True,
                f"Updated to {new.name}; {before.name} is kept to go back to"
                f"{'' if passed else still}.",
                new.name,
            )
        why = newly[0] if newly else _first_failure(said)
        stuck = self._go_back(before)
        self.restart()
        if stuck:
            return Updated(
                False,
                f"{new.name} failed `companion doctor` after the restart ({why}), and putting "
                f"{before.name} back failed too ({stuck}): {new.name} is still installed; "
                "reinstall with `sudo make install` in the checkout.",
                new.name,
            )
        self._write(before, None)
        return Updated(
            False,
            f"{new.name} was rolled back to {before.name}: `companion doctor` failed after "
            f"the restart ({why}); fix that, then update again.",
            before.name,
        )

    def _go_back(self, before: Release) -> str:
        """Install ``before`` again; what went wrong, or "" when it is back."""
        try:
            self.install(before.artifact)
        except (UpdateError, OSError) as error:
            return str(error).rstrip(".")
        return ""

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
        partial.unlink(missing_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        with os.fdopen(os.open(partial, flags, 0o644), "w", encoding="utf-8") as out:
            out.write(json.dumps(data, indent=1))
        os.replace(partial, self.home / RECORD)

    def _prune(self, keep: set[Path]) -> None:
        """Remove the releases older than the previous one (their folders only)."""
        folder = self.home / "releases"
        kept = {p if p.is_dir() else p.parent for p in keep}
        if folder.is_symlink() or not folder.is_dir():
            return
        for entry in folder.iterdir():
            if entry.is_dir() and not entry.is_symlink() and entry not in kept:
                shutil.rmtree(entry, ignore_errors=True)


def _failures(said: str) -> dict[str, str]:
    """The checks doctor marked failed, each under a key with its figures left out (a
    card's free megabytes differ between two runs of the same failing check)."""
    found = [line.replace("[FAIL]", "").strip() for line in said.splitlines() if "FAIL" in line]
    return {re.sub(r"\d+(\.\d+)?", "#", line): line for line in found}


def _first_failure(said: str) -> str:
    for line in said.splitlines():
        if "FAIL" in line:
            return line.replace("[FAIL]", "").strip()
    lines = [line for line in said.splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no output"
