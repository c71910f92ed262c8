"""Updating with a way back, against a local bare git repository and a folder of wheels
(no network): a release whose doctor fails after the restart is rolled back by itself."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from companion.update import GitSource, Release, UpdateError, Updater, WheelFolder

PACKAGE = "tinyrelease"


def _code(version: str, healthy: bool) -> str:
    return f"VERSION = {version!r}\n\ndef doctor() -> int:\n    return {0 if healthy else 1}\n"


def _git(*args: str, cwd: Path | None = None) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
    }
    env["GIT_COMMITTER_EMAIL"] = "t@t"
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def _publish(repo: Path, work: Path, version: str, healthy: bool) -> None:
    """Commit a release of the tiny package to the bare repository's main branch."""
    (work / PACKAGE).mkdir(parents=True, exist_ok=True)
    (work / PACKAGE / "__init__.py").write_text(_code(version, healthy), encoding="utf-8")
    _git("add", "-A", cwd=work)
    _git("commit", "-q", "-m", f"release {version}", cwd=work)
    _git("push", "-q", str(repo), "HEAD:main", cwd=work)


class Site:
    """A real install target: the release's package copied (or unzipped) into a folder,
    a restart counted, and doctor run as the installed code in a new process."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.restarts = 0

    def install(self, artifact: Path) -> None:
        shutil.rmtree(self.folder / PACKAGE, ignore_errors=True)
        if artifact.suffix == ".whl":
            with zipfile.ZipFile(artifact) as wheel:
                wheel.extractall(self.folder)
        else:
            shutil.copytree(artifact / PACKAGE, self.folder / PACKAGE)

    def restart(self) -> None:
        self.restarts += 1

    def doctor(self) -> tuple[bool, str]:
        code = (
            f"import sys, {PACKAGE} as p; "
            "print('[FAIL] the camera stack' if p.doctor() else 'ok'); sys.exit(p.doctor())"
        )
        env = {**os.environ, "PYTHONPATH": str(self.folder)}
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
        )
        return done.returncode == 0, done.stdout

    def version(self) -> str:
        text = (self.folder / PACKAGE / "__init__.py").read_text(encoding="utf-8")
        return text.split("'")[1]


@pytest.fixture
def published(tmp_path: Path) -> tuple[Path, Path, Site, Updater]:
    repo, work = tmp_path / "companion.git", tmp_path / "work"
    _git("init", "-q", "--bare", "-b", "main", str(repo))
    _git("init", "-q", "-b", "main", str(work))
    _publish(repo, work, "1.0", healthy=True)
    first = tmp_path / "installed"
    _git("clone", "-q", str(repo), str(first))
    site = Site(tmp_path / "site")
    site.folder.mkdir()
    site.install(first)
    updater = Updater(
        tmp_path / "home", site.install, site.restart, site.doctor, Release("installed", first)
    )
    return repo, work, site, updater


def test_a_good_release_from_git_is_installed_and_the_previous_one_kept(
    published: tuple[Path, Path, Site, Updater],
) -> None:
    repo, work, site, updater = published
    _publish(repo, work, "1.1", healthy=True)
    done = updater.update(GitSource(str(repo)))
    assert done.ok, done.sentence
    assert site.version() == "1.1"
    assert site.restarts == 1
    assert updater.previous() == Release("installed", updater.installed.artifact)
    assert "is kept to go back to" in done.sentence
    again = updater.update(GitSource(str(repo)))
    assert again.ok and "already" in again.sentence and site.restarts == 1


def test_a_release_whose_doctor_fails_after_the_restart_is_rolled_back(
    published: tuple[Path, Path, Site, Updater],
) -> None:
    repo, work, site, updater = published
    _publish(repo, work, "1.1", healthy=True)
    assert updater.update(GitSource(str(repo))).ok
    good = updater.current()
    _publish(repo, work, "1.2", healthy=False)
    done = updater.update(GitSource(str(repo)))
    assert not done.ok
    assert site.version() == "1.1", "the table runs the release it had before"
    assert site.restarts == 3, "restarted into the new release, then back into the old one"
    assert updater.current() == good
    assert "rolled back" in done.sentence and "the camera stack" in done.sentence
    assert Path(good.artifact).exists(), "the release gone back to is still on the card"


def test_the_newest_wheel_in_a_folder_is_installed(tmp_path: Path) -> None:
    wheels = tmp_path / "stick"
    wheels.mkdir()
    for version, healthy in (("1.9.0", True), ("1.10.0", True)):
        with zipfile.ZipFile(wheels / f"hamster_companion-{version}-py3-none-any.whl", "w") as w:
            w.writestr(f"{PACKAGE}/__init__.py", _code(version, healthy))
    site = Site(tmp_path / "site")
    site.folder.mkdir()
    before = tmp_path / "before.whl"
    with zipfile.ZipFile(before, "w") as w:
        w.writestr(f"{PACKAGE}/__init__.py", _code("1.0", True))
    site.install(before)
    updater = Updater(
        tmp_path / "home", site.install, site.restart, site.doctor, Release("installed", before)
    )
    done = updater.update(WheelFolder(wheels))
    assert done.ok, done.sentence
    assert site.version() == "1.10.0", "1.10 is newer than 1.9 (not by the letters)"


def test_a_source_with_nothing_to_install_says_so_and_changes_nothing(tmp_path: Path) -> None:
    site = Site(tmp_path / "site")
    updater = Updater(
        tmp_path / "home", site.install, site.restart, site.doctor, Release("x", tmp_path)
    )
    with pytest.raises(UpdateError, match="No hamster_companion wheel in"):
        updater.update(WheelFolder(tmp_path))
    with pytest.raises(UpdateError, match="git could not fetch the release"):
        updater.update(GitSource(str(tmp_path / "nowhere.git")))
    assert site.restarts == 0


def test_a_release_that_fails_to_install_leaves_the_old_one_installed(
    published: tuple[Path, Path, Site, Updater],
) -> None:
    repo, work, site, updater = published
    _publish(repo, work, "1.1", healthy=True)
    real = site.install

    def broken(artifact: Path) -> None:
        if artifact != updater.installed.artifact:
            shutil.rmtree(site.folder / PACKAGE)  # half-way: the old one already removed
            raise UpdateError("pip could not install it (no space left).")
        real(artifact)

    updater.install = broken
    with pytest.raises(UpdateError, match="installed is still installed"):
        updater.update(GitSource(str(repo)))
    assert site.version() == "1.0" and site.restarts == 0
