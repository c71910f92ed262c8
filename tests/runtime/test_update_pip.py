"""The updater with pip itself, as on the Pi: real wheels built here from a local folder,
installed by :class:`PipInstaller` into a throw-away venv (no network, no index), and a
release whose ``doctor`` command fails after the restart put back by pip."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

from companion.update import Release, Updater, WheelFolder
from companion.update.releases import PipInstaller

PYPROJECT = """[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "hamster-companion"
version = "{version}"

[project.scripts]
tiny-doctor = "tinyrelease:doctor"

[tool.setuptools]
packages = ["tinyrelease"]
"""


def _wheel(work: Path, wheels: Path, version: str, healthy: bool) -> Path:
    """A real wheel of a tiny "hamster-companion" built by pip from a source folder."""
    source = work / f"src-{version}"
    (source / "tinyrelease").mkdir(parents=True)
    (source / "pyproject.toml").write_text(PYPROJECT.format(version=version), encoding="utf-8")
    body = "0" if healthy else "print('[FAIL] camera: the new release cannot open it') or 1"
    (source / "tinyrelease" / "__init__.py").write_text(
        f"VERSION = {version!r}\n\ndef doctor() -> int:\n    return {body}\n", encoding="utf-8"
    )
    command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
    command += ["--no-build-isolation", "--no-index", "-w", str(wheels), str(source)]
    subprocess.run(command, check=True, capture_output=True)
    return next(wheels.glob(f"hamster_companion-{version}-*.whl"))


@pytest.fixture
def target(tmp_path: Path) -> Path:
    """A venv of its own (pip from Python's bundled wheel: no network)."""
    folder = tmp_path / "venv"
    venv.create(folder, with_pip=True)
    return folder


@pytest.mark.slow  # a venv and three wheels built: ~15 s of CPU
def test_pip_installs_the_newest_wheel_and_puts_the_old_one_back_when_doctor_fails(
    tmp_path: Path, target: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stick, kept = tmp_path / "stick", tmp_path / "kept"
    stick.mkdir()
    kept.mkdir()
    first = _wheel(tmp_path, kept, "1.0", healthy=True)
    python = target / "bin" / "python"
    install = PipInstaller(python)
    monkeypatch.setenv("PIP_NO_INDEX", "1")  # pip never looks for anything on a network
    install(first)
    restarts: list[str] = []

    def doctor() -> tuple[bool, str]:
        done = subprocess.run(
            [str(target / "bin" / "tiny-doctor")], capture_output=True, text=True, check=False
        )
        return done.returncode == 0, done.stdout

    def installed() -> str:
        done = subprocess.run(
            [str(python), "-c", "import tinyrelease; print(tinyrelease.VERSION)"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        return done.stdout.strip()

    updater = Updater(
        tmp_path / "home", install, lambda: restarts.append("restart"), doctor,
        Release("installed", first),
    )  # fmt: skip
    _wheel(tmp_path, stick, "1.1", healthy=True)
    assert updater.update(WheelFolder(stick)).ok
    assert installed() == "1.1"
    _wheel(tmp_path, stick, "1.2", healthy=False)
    done = updater.update(WheelFolder(stick))
    assert not done.ok and "camera: the new release cannot open it" in done.sentence
    assert installed() == "1.1", "pip put the release before back"
    assert restarts == ["restart"] * 3
