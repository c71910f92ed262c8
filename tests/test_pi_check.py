"""``make pi-check``'s plumbing, without qemu: the shim set covers every command the
installer calls that a chroot cannot serve, the shims log and answer as documented, the
options parse, and the test tools come hashed from the dev lock."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from pi.check.roots import Root, chroot_command, mmdebstrap_command
from pi.check.run import DEFAULT_TESTS, RELEASES, TEST_TOOLS, lock_entries, parse_args, steps

ROOT = Path(__file__).resolve().parent.parent
SHIMS = ROOT / "pi" / "check" / "shims"
#: Commands that need a booted system manager, the firmware or Raspberry Pi OS's own tools:
#: none works in a chroot, so pi-check must shim any the installer calls.
NEEDS_A_BOOTED_PI = (
    "systemctl", "journalctl", "hostnamectl", "timedatectl", "loginctl", "raspi-config",
    "vcgencmd", "rpi-update", "reboot", "udevadm", "systemd-run",
)  # fmt: skip


def installer_commands() -> set[str]:
    """Every word install.sh runs or passes, outside comments and quoted messages."""
    words = set()
    for line in (ROOT / "systemd" / "install.sh").read_text(encoding="utf-8").splitlines():
        line = re.sub(r'"[^"]*"|\'[^\']*\'', "", line.split("#", 1)[0])
        words.update(re.findall(r"[A-Za-z][\w.-]*", line))
    return words


def test_every_command_a_chroot_cannot_serve_has_a_shim() -> None:
    called = installer_commands() & set(NEEDS_A_BOOTED_PI)
    assert "systemctl" in called  # the reader sees the installer's calls
    missing = sorted(name for name in called if not (SHIMS / name).is_file())
    assert missing == [], f"add a shim to pi/check/shims for {missing}"
    for shim in SHIMS.iterdir():
        assert os.access(shim, os.X_OK), f"{shim.name} is not executable"
        assert "pi-check shim" in shim.read_text(encoding="utf-8")


def _shim(tmp_path: Path, name: str, *args: str) -> tuple[subprocess.CompletedProcess[str], str]:
    """Run one shim with its log redirected into ``tmp_path``."""
    text = (SHIMS / name).read_text(encoding="utf-8")
    log = tmp_path / "shims.log"
    shim = tmp_path / name
    shim.write_text(text.replace("/var/log/pi-check-shims.log", str(log)), encoding="utf-8")
    shim.chmod(0o755)
    done = subprocess.run([str(shim), *args], capture_output=True, text=True, timeout=30)
    return done, log.read_text(encoding="utf-8") if log.exists() else ""


def test_systemctl_records_what_it_was_asked_and_says_the_service_is_not_running(
    tmp_path: Path,
) -> None:
    restart, log = _shim(tmp_path, "systemctl", "restart", "companion.service")
    assert restart.returncode == 0 and "recorded, not done" in restart.stdout
    active, log = _shim(tmp_path, "systemctl", "is-active", "--quiet", "companion.service")
    assert active.returncode == 3  # systemd's "inactive": no service runs in a chroot
    unknown, log = _shim(tmp_path, "systemctl", "mask", "companion.service")
    assert unknown.returncode == 1 and "add it to pi/check/shims" in unknown.stderr
    assert log.splitlines() == [
        "systemctl restart companion.service",
        "systemctl is-active --quiet companion.service",
        "systemctl mask companion.service",
    ]


def test_the_options_parse() -> None:
    args = parse_args([])
    assert args.release == list(RELEASES) and args.tests == list(DEFAULT_TESTS)
    assert not args.rebuild
    args = parse_args(["--release", "trixie", "--rebuild", "--tests", "tests/cli"])
    assert args.release == ["trixie"] and args.rebuild and args.tests == ["tests/cli"]
    with pytest.raises(SystemExit):
        parse_args(["--release", "bullseye"])


def test_the_default_tests_exist_and_take_no_browser() -> None:
    for name in DEFAULT_TESTS:
        assert (ROOT / name).exists(), name
    tests = next(script for step, script, *_ in steps(list(DEFAULT_TESTS)) if step == "tests")
    assert "not browser" in tests


def test_the_test_tools_come_hashed_from_the_dev_lock() -> None:
    lock = (ROOT / "requirements" / "dev.lock").read_text(encoding="utf-8")
    entries = lock_entries(lock, TEST_TOOLS)
    for name in TEST_TOOLS:
        hashed = rf"^{name}==\S+ \\\n((?:    --hash=sha256:\w+(?: \\)?\n)+)"
        assert re.search(hashed, entries, re.M), f"{name} has no hashed entry"
    with pytest.raises(ValueError, match="not in the dev lock"):
        lock_entries(lock, ("no-such-package",))


def test_install_steps_put_the_shims_first_and_tests_run_off_the_network() -> None:
    root = Root("bookworm", cache=Path("/tmp/roots"))
    by_name = {name: (network, shims) for name, _script, network, shims in steps(["tests/cli"])}
    assert by_name["install"] == (True, True) and by_name["tests"][0] is False
    command = chroot_command(root, "true", network=False, shims=True)
    assert command[:4] == ["unshare", "--mount", "--fork", "--net"]
    assert "PATH=/usr/local/pi-check/shims:" in command[-1] and "ip link set lo up" in command[-1]
    build = mmdebstrap_command("trixie", Path("out.tar"))
    assert "--arch=arm64" in build and "deb http://deb.debian.org/debian trixie main" in build
