"""A real mosquitto (Debian's package) on 127.0.0.1, for the event-board tests and bench.

Each broker gets a free port and its own folder; :meth:`Mosquitto.kill` is ``kill -9``
(no goodbye to any client, no retained state saved: persistence is off, as on a broker
that lost its power), and :meth:`Mosquitto.start` brings it back on the same port.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

MOSQUITTO = Path("/usr/sbin/mosquitto")
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
MISSING = (
    "mosquitto is not installed (Debian: `sudo apt-get install mosquitto`); "
    "the event-board tests need a real broker"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Mosquitto:
    """One broker process; ``users`` (name -> password) turns anonymous access off;
    ``persistence`` keeps sessions over a clean :meth:`stop` (never over a :meth:`kill`);
    ``tls`` (certificate chain, key) makes the listener speak TLS."""

    def __init__(
        self,
        folder: Path,
        users: dict[str, str] | None = None,
        *,
        persistence: bool = False,
        tls: tuple[Path, Path] | None = None,
    ) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        folder.mkdir(parents=True, exist_ok=True)
        lines = [f"listener {self.port} 127.0.0.1", f"persistence {str(persistence).lower()}"]
        if persistence:  # sessions and retained states kept across a clean stop
            lines.append(f"persistence_location {folder}/")
        if tls is not None:  # (certificate chain, key): this listener speaks TLS only
            lines += [f"certfile {tls[0]}", f"keyfile {tls[1]}"]
        if os.geteuid() == 0:  # as root (CI) mosquitto would switch to its own user, which
            lines.append("user root")  # cannot read a password file in pytest's 0700 folder
        if users:
            passwords = folder / "passwords"
            passwords.touch(mode=0o600)
            for name, password in users.items():
                subprocess.run(
                    [MOSQUITTO_PASSWD, "-b", str(passwords), name, password],
                    check=True,
                    capture_output=True,
                )
            lines += ["allow_anonymous false", f"password_file {passwords}"]
        else:
            lines.append("allow_anonymous true")
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def start(self, timeout: float = 10.0) -> None:
        """Start and wait until the port answers (the same port after a kill)."""
        with (self.folder / "mosquitto.log").open("ab") as log:  # the child keeps its copy
            self.process = subprocess.Popen(
                [str(MOSQUITTO), "-c", str(self.conf)], stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto stopped at start; see {self.folder}/mosquitto.log")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on {self.port} within {timeout} s")

    def kill(self) -> None:
        """``kill -9``: the broker vanishes mid-game, as with a pulled plug."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None
