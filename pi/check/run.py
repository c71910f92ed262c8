"""``make pi-check``: the real installer, ``doctor``, the page and a test subset on arm64.

For each Debian release the Pi locks name (Bookworm, Trixie): a fresh arm64 root (see
``roots``), then, inside it under qemu-user, the steps below, each timed and logged to
``.cache/pi-roots/logs/<release>/<step>.log``. Only the system commands a chroot cannot
serve are replaced, by the one shim set in ``pi/check/shims`` (each logs what it was asked).
Needs root (chroot, mounts) and Debian's mmdebstrap and qemu-user-static.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from pi.check.roots import (
    CHECKOUT,
    TOOLS,
    Root,
    binfmt_ready,
    chroot_command,
    mmdebstrap_command,
    unpack,
)

RELEASES = ("bookworm", "trixie")
PREFIX = "/opt/hamster-companion"
#: The test runner and its helpers, from the hashed dev lock (the Pi lock has none of them).
TEST_TOOLS = ("pytest", "iniconfig", "pluggy", "pygments", "hypothesis", "sortedcontainers")
#: Non-browser tests that touch what differs on arm64 (numpy/OpenCV from a Pi lock, gpiozero,
#: the installer and its locks, the command line) and fit in minutes under qemu; the whole
#: non-browser suite takes hours there. ``--tests`` picks others.
DEFAULT_TESTS = (
    "tests/test_lock.py",
    "tests/test_install.py",
    "tests/test_service.py",
    "tests/cli",
    "tests/hardware/test_buttons.py",
    "tests/hardware/test_camera_choice.py",
    "tests/vision/test_wheel.py",
)


@dataclass
class Outcome:
    """One step in one root: whether it passed, how long it took, one line on what it saw."""

    step: str
    passed: bool
    seconds: float
    summary: str


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="pi-check", description=__doc__)
    parser.add_argument(
        "--release", action="append", choices=RELEASES, help="only this release (repeatable)"
    )
    parser.add_argument("--rebuild", action="store_true", help="build the roots anew")
    parser.add_argument(
        "--tests", nargs="+", default=list(DEFAULT_TESTS), help="test files or folders to run"
    )
    args = parser.parse_args(argv)
    args.release = args.release or list(RELEASES)
    return args


def lock_entries(lock: str, names: tuple[str, ...]) -> str:
    """The hashed entries of ``names`` cut out of a pip-compile lock's text."""
    found = []
    for name in names:
        match = re.search(rf"^{re.escape(name)}==.*?(?=^\S|\Z)", lock, re.M | re.S)
        if match is None:
            raise ValueError(f"{name} is not in the dev lock; add it to pyproject's dev extra.")
        found.append(match.group(0).strip())
    return "\n".join(found) + "\n"


def steps(tests: list[str]) -> list[tuple[str, str, bool, bool]]:
    """(name, bash script, network, shims first on PATH) for each step, in order."""
    as_user = f"sudo -u companion HAMSTER_DATA=/var/lib/hamster-companion {PREFIX}/.venv/bin"
    config = "--config /etc/hamster-companion/companion.toml"
    return [
        ("prepare", "groupadd --system --force gpio  # Raspberry Pi OS has it", False, False),
        ("install-check", f"cd {CHECKOUT} && bash systemd/install.sh --check", False, True),
        ("install", f"cd {CHECKOUT} && bash systemd/install.sh", True, True),
        ("doctor", f"cd /tmp && {as_user}/companion {config} doctor", False, False),
        ("smoke", f"bash {TOOLS}/inside/smoke.sh", False, False),
        (
            "test-tools",
            f"{PREFIX}/.venv/bin/pip install --quiet --require-hashes --no-deps "
            f"-r {TOOLS}/test-tools.lock",
            True,
            False,
        ),
        (
            "tests",
            f"cd {PREFIX} && .venv/bin/python -m pytest -p no:cacheprovider "
            f"-m 'not browser and not slow' {' '.join(tests)}",
            False,
            False,
        ),
    ]


def summary_of(step: str, output: str) -> str:
    """The line that says what a step found: pytest's tally, doctor's verdict, the last ok."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    if step == "tests":
        tallies = [line for line in lines if re.search(r"\d+ (passed|failed|error)", line)]
        return tallies[-1] if tallies else (lines[-1] if lines else "")
    if step == "install":
        shimmed = [line for line in lines if "apt-get shim:" in line or "pi-check shim" in line]
        done = [line for line in lines if line.startswith("Done.")] or lines[-1:] or [""]
        return f"{len(shimmed)} shim notes; {done[-1][:100]}"
    return lines[-1][:160] if lines else ""


def run_step(root: Root, step: tuple[str, str, bool, bool], logs: Path) -> Outcome:
    name, script, network, shims = step
    began = time.monotonic()
    done = subprocess.run(
        chroot_command(root, script, network=network, shims=shims),
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.monotonic() - began
    output = done.stdout + done.stderr
    (logs / f"{name}.log").write_text(output, encoding="utf-8")
    # The installer runs doctor and pin with `|| true`: an error they print is a failure.
    errors = [line for line in output.splitlines() if line.startswith("Error:")]
    summary = errors[0][:160] if errors else summary_of(name, output)
    return Outcome(name, done.returncode == 0 and not errors, seconds, summary)


def build(root: Root, rebuild: bool) -> Outcome | None:
    """The cached root, built with mmdebstrap when missing (or asked to); None if cached."""
    if root.tarball.exists() and not rebuild:
        return None
    root.cache.mkdir(parents=True, exist_ok=True)
    part = root.tarball.with_suffix(".tar.part")
    began = time.monotonic()
    done = subprocess.run(
        mmdebstrap_command(root.release, part), capture_output=True, text=True, check=False
    )
    seconds = time.monotonic() - began
    if done.returncode == 0:
        part.replace(root.tarball)
    tail = (done.stdout + done.stderr).strip().splitlines()[-1:] or [""]
    return Outcome("build root", done.returncode == 0, seconds, tail[0])


#: A failure here leaves nothing for the later steps to check.
NEEDED = {"prepare", "install"}


def check_root(release: str, args: argparse.Namespace, checkout: Path) -> list[Outcome]:
    root = Root(release)
    built = build(root, args.rebuild)
    outcomes = [built] if built else []
    if built and not built.passed:
        return outcomes
    began = time.monotonic()
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=checkout, capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    unpack(root, checkout, files)
    lock = (checkout / "requirements/dev.lock").read_text(encoding="utf-8")
    tools = root.path / TOOLS.lstrip("/") / "test-tools.lock"
    tools.write_text(lock_entries(lock, TEST_TOOLS), encoding="utf-8")
    outcomes.append(Outcome("unpack root", True, time.monotonic() - began, str(root.path)))
    logs = root.cache / "logs" / release
    logs.mkdir(parents=True, exist_ok=True)
    for step in steps(args.tests):
        outcome = run_step(root, step, logs)
        outcomes.append(outcome)
        print(f"  {release:9} {_line(outcome)}", flush=True)
        if not outcome.passed and outcome.step in NEEDED:
            break
    return outcomes


def _line(outcome: Outcome) -> str:
    verdict = "pass" if outcome.passed else "FAIL"
    return f"{verdict}  {outcome.step:13} {outcome.seconds:7.0f} s  {outcome.summary}"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    problem = binfmt_ready()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    checkout = Path.cwd()
    results: dict[str, list[Outcome]] = {}
    for release in args.release:
        print(f"{release}: arm64 Debian root under qemu (logs in .cache/pi-roots/logs/{release}/)")
        began = time.monotonic()
        results[release] = check_root(release, args, checkout)
        total = time.monotonic() - began
        passed = sum(outcome.passed for outcome in results[release])
        print(f"{release}: {passed} of {len(results[release])} steps passed, {total:.0f} s wall")
    print("\npi-check summary (plain Debian arm64 under qemu-user; see docs/pi.md):")
    for release, outcomes in results.items():
        for outcome in outcomes:
            print(f"  {release:9} {_line(outcome)}")
    return 0 if all(o.passed for outs in results.values() for o in outs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
