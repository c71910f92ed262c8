"""The hashed locks must satisfy pyproject.toml, so what `make run`, `make test`, CI and the
Pi installer install is what the project asks for (a lock left stale after a change to
pyproject.toml would install something else, or fail on a fresh machine)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version


def environment_for(**overrides: str) -> dict[str, str]:
    """This machine's marker environment with ``overrides``, as plain strings."""
    return {**{key: str(value) for key, value in default_environment().items()}, **overrides}


ROOT = Path(__file__).resolve().parents[1]
LOCKS = ROOT / "requirements"
PIN = re.compile(r"^([A-Za-z0-9_.-]+)==([^ ;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def pins(lock: Path, environment: Mapping[str, str]) -> dict[str, Version]:
    """The versions a lock installs in ``environment`` (markers decide between forks)."""
    found: dict[str, Version] = {}
    for line in lock.read_text().splitlines():
        match = PIN.match(line)
        if not match:
            continue
        name, version, marker = match.groups()
        if marker and not Requirement(f"x; {marker}").marker.evaluate(environment):  # type: ignore[union-attr]
            continue
        found[canonicalize_name(name)] = Version(version)
    return found


def wanted(extras: tuple[str, ...] = ()) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lines = list(project["dependencies"])
    for extra in extras:
        lines += project["optional-dependencies"][extra]
    return [Requirement(line) for line in lines]


def every_line_is_hashed(lock: Path) -> bool:
    text = lock.read_text()
    return all(
        "--hash=sha256:" in block for block in re.split(r"\n(?=[A-Za-z0-9])", text) if "==" in block
    )


def _check(lock: Path, requirements: list[Requirement], environment: Mapping[str, str]) -> None:
    installed = pins(lock, environment)
    for requirement in requirements:
        name = canonicalize_name(requirement.name)
        if requirement.marker and not requirement.marker.evaluate(environment):
            continue
        assert name in installed, f"{lock.name} does not install {name}: run `make lock`"
        assert requirement.specifier.contains(installed[name], prereleases=True), (
            f"{lock.name} pins {name}=={installed[name]}, pyproject.toml asks for "
            f"{requirement}: run `make lock`"
        )


@pytest.mark.parametrize("python", ["3.11", "3.12", "3.13"])
def test_the_dev_lock_satisfies_pyproject_and_the_build(python: str) -> None:
    environment = environment_for(python_version=python, python_full_version=f"{python}.0")
    requirements = [*wanted(("dev",)), Requirement("setuptools>=68"), Requirement("wheel")]
    _check(LOCKS / "dev.lock", requirements, environment)


@pytest.mark.parametrize(("release", "python"), [("bookworm", "3.11"), ("trixie", "3.13")])
def test_each_pi_lock_satisfies_pyproject_with_apts_numpy(release: str, python: str) -> None:
    """A Pi lock leaves numpy out (apt's numpy, which picamera2 is built against): the
    version its constraint names must still satisfy pyproject.toml."""
    environment = environment_for(
        python_version=python,
        python_full_version=f"{python}.0",
        platform_machine="aarch64",
        sys_platform="linux",
    )
    lock = LOCKS / f"pi-{release}.lock"
    constraint = Requirement(
        next(
            line
            for line in (LOCKS / f"pi-{release}.constraints").read_text().splitlines()
            if line.startswith("numpy")
        )
    )
    assert "numpy" not in pins(lock, environment)
    runtime = [requirement for requirement in wanted() if requirement.name != "numpy"]
    _check(lock, runtime, environment)
    numpy = next(requirement for requirement in wanted() if requirement.name == "numpy")
    (apt_numpy,) = constraint.specifier
    assert numpy.specifier.contains(apt_numpy.version)


@pytest.mark.parametrize("lock", sorted(LOCKS.glob("*.lock")), ids=lambda path: path.name)
def test_every_pin_carries_its_hashes(lock: Path) -> None:
    assert every_line_is_hashed(lock)
    assert pins(lock, environment_for())
