"""``companion doctor`` reports under-voltage and throttling as the firmware records them.

The flags are those of ``vcgencmd get_throttled`` (bits 0-3 now, 16-19 since boot); the
readers are given a stand-in sysfs file and a stand-in ``vcgencmd``.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from companion.commands.doctor import check_power
from hardware.power import POWER_FIX, read_throttled


def test_a_healthy_pi_says_so_in_one_line() -> None:
    (finding,) = check_power(lambda: 0)
    assert finding.ok and finding.what == "power: no under-voltage or throttling since boot"


def test_under_voltage_now_and_throttling_since_boot_are_told_apart() -> None:
    now, before = check_power(lambda: 0x50001)  # under-voltage now; +16: since, +18: throttled
    assert not now.ok and now.optional
    assert now.what == "power: under-voltage now (firmware flags 0x50001)"
    assert before.what == "power: throttled since boot (not now) (firmware flags 0x50001)"
    assert now.fix == POWER_FIX and "official power supply" in now.fix


def test_heat_alone_asks_for_cooling_not_a_new_supply() -> None:
    (finding,) = check_power(lambda: 0x80000)
    assert "soft temperature limit since boot" in finding.what
    assert "heatsink" in finding.fix


def test_off_a_pi_nothing_is_claimed() -> None:
    (finding,) = check_power(lambda: None)
    assert finding.ok and "not a Raspberry Pi" in finding.what


def test_the_flags_come_from_sysfs_else_from_vcgencmd(tmp_path: Path) -> None:
    sysfs = tmp_path / "get_throttled"
    sysfs.write_text("50005\n", encoding="ascii")
    assert read_throttled(sysfs) == 0x50005

    def vcgencmd(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        assert command == ["vcgencmd", "get_throttled"]
        return subprocess.CompletedProcess(command, 0, "throttled=0x20000\n", "")

    assert read_throttled(tmp_path / "absent", run=vcgencmd) == 0x20000

    def missing(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        raise FileNotFoundError("vcgencmd")

    assert read_throttled(tmp_path / "absent", run=missing) is None
