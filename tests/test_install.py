"""The Pi installer checks the system before it changes anything, and can say what it
would do without doing it (``make install-check``); the service backs off a failing start.

The installer is run here only in its check mode, with every system command it could call
replaced by a stub that records being called: check mode must call none of them.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTALL = ROOT / "systemd" / "install.sh"
CHANGES_THE_SYSTEM = (
    "apt-get", "useradd", "usermod", "rsync", "systemctl", "install", "cp", "mkdir", "pip",
    "python3", "sudo",
)  # fmt: skip


def _installer(
    tmp_path: Path, *args: str, release: str, arch: str
) -> subprocess.CompletedProcess[str]:
    stubs = tmp_path / "stubs"
    stubs.mkdir(exist_ok=True)
    called = tmp_path / "called"
    for name in CHANGES_THE_SYSTEM:
        stub = stubs / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{called}"\n', encoding="utf-8")
        stub.chmod(0o755)
    os_release = tmp_path / "os-release"
    os_release.write_text(f"ID=debian\nVERSION_CODENAME={release}\n", encoding="utf-8")
    env = {
        **os.environ,
        "PATH": f"{stubs}:{os.environ['PATH']}",
        "OS_RELEASE": str(os_release),
        "ARCH": arch,
    }
    return subprocess.run(
        ["bash", str(INSTALL), *args], capture_output=True, text=True, env=env, timeout=60
    )


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_check_mode_says_every_step_and_changes_nothing(tmp_path: Path, release: str) -> None:
    done = _installer(tmp_path, "--check", release=release, arch="arm64")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith(f"Check only: Raspberry Pi OS {release} on arm64 is supported")
    assert "would run: apt-get install" in out and "python3-picamera2" in out
    assert f"requirements/pi-{release}.lock" in out
    assert "would run: systemctl enable companion.service" in out
    assert "then companion pin" in out
    assert not (tmp_path / "called").exists(), (tmp_path / "called").read_text()


def test_another_release_or_a_32_bit_system_is_one_sentence_before_anything(
    tmp_path: Path,
) -> None:
    old = _installer(tmp_path, "--check", release="bullseye", arch="arm64")
    assert old.returncode == 2 and old.stdout == ""
    assert old.stderr.strip() == (
        "This is Debian 'bullseye'; the companion installs on Raspberry Pi OS bookworm or "
        "trixie: flash one of those and run this again."
    )
    armhf = _installer(tmp_path, release="bookworm", arch="armhf")
    assert armhf.returncode == 2 and armhf.stdout == ""
    assert armhf.stderr.strip() == (
        "This system is 'armhf'; the companion installs on 64-bit Raspberry Pi OS (arm64): "
        "flash the 64-bit image and run this again."
    )
    typo = _installer(tmp_path, "--chek", release="bookworm", arch="arm64")
    assert typo.returncode == 2 and "the only one is --check" in typo.stderr
    assert not (tmp_path / "called").exists()


def test_a_start_that_keeps_failing_backs_off_and_stops() -> None:
    """Before, a persistent failure restarted every 3 s for ever, filling the journal."""
    unit = (ROOT / "systemd" / "companion.service").read_text(encoding="utf-8")
    section = unit.split("[Service]")[0]  # StartLimit* belong to [Unit]
    values = dict(
        line.split("=", 1) for line in section.splitlines() if line.startswith("StartLimit")
    )
    burst, interval = int(values["StartLimitBurst"]), int(values["StartLimitIntervalSec"])
    restart = int(next(line for line in unit.splitlines() if line.startswith("RestartSec="))[11:])
    assert burst >= 3 and burst * restart < interval  # the limit is reached, not outrun


def test_the_update_source_is_remembered_by_root() -> None:
    """Root's helper refuses a source file the page's user wrote: remembered as that user
    (``sudo -u companion``), the page's Update could never work."""
    text = INSTALL.read_text(encoding="utf-8").replace("\\\n", " ")
    (line,) = [line for line in text.splitlines() if "update --remember" in line]
    assert "sudo -u" not in line and "companion" in line


def test_the_data_folder_is_made_before_the_pin_is_shown(tmp_path: Path) -> None:
    """Found by `make pi-check`: the folder came only from systemd's StateDirectory=, so when
    the service did not start, step 6's `companion pin` failed with 'cannot be made'."""
    out = _installer(tmp_path, "--check", release="bookworm", arch="arm64").stdout
    made = out.index("would run: install -d -o companion -g companion /var/lib/hamster-companion")
    assert made < out.index("then companion pin")
