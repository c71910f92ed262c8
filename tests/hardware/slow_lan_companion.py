"""``companion run`` on all addresses with a LAN that is slow to answer who has the name.

Run by ``tests/hardware/test_advertise.py`` as
``python -m tests.hardware.slow_lan_companion DATA PORT RELEASE``:
the machine has the address 192.168.1.20, python-zeroconf is the test's stand-in, and
asking the LAN who has a name waits until the file RELEASE exists (nobody else has it).
"""

from __future__ import annotations

import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

import companion.serve
import companion.startup.lan
from companion.advertise import LanName
from companion.network import NetworkWatch
from tests.hardware.test_advertise import stand_in


def main(data: str, port: str, release: str) -> None:
    module = stand_in()

    def slow_probe(service: Any, host: str) -> set[str]:
        while not Path(release).exists():
            time.sleep(0.05)
        return set()

    # the names `companion run` builds its parts with
    lan_name = partial(LanName, load=lambda: module, probe=slow_probe)
    vars(companion.startup.lan)["LanName"] = lan_name
    watch = partial(NetworkWatch, lambda: frozenset({"192.168.1.20"}))
    vars(companion.serve)["NetworkWatch"] = watch
    arguments = ["--data-dir", data, "run", "--simulate", "--host", "0.0.0.0", "--port", port]
    companion.serve.companion_command(arguments)


if __name__ == "__main__":
    main(*sys.argv[1:4])
