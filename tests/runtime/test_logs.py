"""The companion's log lines reach the terminal or the journal, with their level.

Before, nothing configured logging: ``log.info`` lines (the camera going live, a backup
made, the exposure locked) were dropped and warnings came bare, with no level or logger, so
``journalctl -p warning`` could not find them.
"""

from __future__ import annotations

import io
import logging
import os
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import logs
from companion.config import ConfigError, load_config


@pytest.fixture(autouse=True)
def _leave_logging_as_found() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in ("companion", "web", "hardware")}
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, old in levels.items():
        logging.getLogger(name).setLevel(old)
    logging.captureWarnings(False)


def test_under_systemd_each_line_carries_its_journal_priority() -> None:
    out = io.StringIO()
    logs.configure("info", journal=True, stream=out)
    logging.getLogger("companion.backups").info("backup made")
    logging.getLogger("hardware.camera").warning("camera hangs")
    logging.getLogger("web.api").error("first line\nsecond line")
    assert out.getvalue().splitlines() == [
        "<6>companion.backups: backup made",
        "<4>hardware.camera: camera hangs",
        "<3>web.api: first line",
        "<3>second line",
    ]


def test_in_a_terminal_each_line_names_its_level_and_logger() -> None:
    out = io.StringIO()
    logs.configure("info", journal=False, stream=out)
    logging.getLogger("companion").info("camera locked at 1/60 s")
    assert out.getvalue() == "INFO companion: camera locked at 1/60 s\n"


def test_the_level_setting_decides_what_is_written_and_twice_is_once() -> None:
    out = io.StringIO()
    logs.configure("info", journal=False, stream=out)
    logs.configure("warning", journal=False, stream=out)
    logging.getLogger("companion.mqtt").info("broker connected")
    logging.getLogger("companion.mqtt").warning("broker gone")
    logging.getLogger("companion.mqtt").debug("packet")
    assert out.getvalue() == "WARNING companion.mqtt: broker gone\n"
    logs.configure("debug", journal=False, stream=out)
    logging.getLogger("companion.mqtt").debug("packet")
    logging.getLogger("zeroconf").info("a library's chatter stays out")
    assert out.getvalue().endswith("DEBUG companion.mqtt: packet\n")


def test_by_default_the_journal_keeps_info_and_a_terminal_only_warnings() -> None:
    journal, terminal = io.StringIO(), io.StringIO()
    logs.configure(journal=True, stream=journal)
    logging.getLogger("companion").info("backup made")
    logs.configure(journal=False, stream=terminal)
    logging.getLogger("companion").info("backup made")
    logging.getLogger("companion").warning("disk nearly full")
    assert journal.getvalue() == "<6>companion: backup made\n"
    assert terminal.getvalue() == "WARNING companion: disk nearly full\n"


def test_systemd_is_recognised_by_its_journal_stream() -> None:
    assert logs.under_journal({"JOURNAL_STREAM": "8:12345"})
    assert not logs.under_journal({})
    assert [logs.priority(level) for level in (10, 20, 30, 40, 50)] == [7, 6, 4, 3, 2]


def test_a_log_level_the_companion_does_not_know_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('log_level = "verbose"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert str(error.value) == (
        f"{path}: 'log_level' must be one of debug, info, warning, error, not 'verbose'; "
        "or leave it out."
    )
    path.write_text('log_level = "debug"\n', encoding="utf-8")
    assert load_config(path).log_level == "debug"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_service_logs_reach_the_journal_with_levels_and_no_pin(tmp_path: Path) -> None:
    """``companion run`` as systemd starts it: info lines arrive with ``<6>``, and the PIN,
    which the journal would keep for months, is left to ``companion pin``."""
    port = _free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "JOURNAL_STREAM": "8:12345"}
    command = [sys.executable, "-m", "companion", "--data-dir", str(tmp_path), "run"]
    process = subprocess.Popen(
        [*command, "--simulate", "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    seen: list[str] = []
    try:
        assert process.stdout is not None and process.stderr is not None
        banner = process.stdout.readline()
        while not any("Running on" in line for line in seen):  # hypercorn's own line
            line = process.stderr.readline()
            assert line, f"companion run stopped: {seen}"
            seen.append(line.rstrip("\n"))
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=30) as answer:
            assert answer.status == 200
        # The camera starts once the page is served: its line follows the server's.
        while not any("camera live" in line for line in seen):
            line = process.stderr.readline()
            assert line, f"companion run stopped: {seen}"
            seen.append(line.rstrip("\n"))
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
    lines = [*seen, *err.splitlines()]
    assert "table PIN: shown by `companion pin`" in banner
    assert f"<6>companion.http: Running on http://127.0.0.1:{port} (CTRL + C to quit)" in lines
    assert any(line.startswith("<6>hardware.camera: camera live: ") for line in lines), lines
    assert all(line.startswith("<") for line in lines if line), lines


def test_the_companion_keeps_its_last_lines_for_download_logs() -> None:
    """Where the journal cannot be read (a terminal, a user outside systemd-journal), the
    page's *Download logs* gives the lines the companion kept itself, once each."""
    logs.configure("info", journal=True, stream=io.StringIO())
    logs.configure("info", journal=True, stream=io.StringIO())  # a second run: no doubles
    logging.getLogger("companion.backups").info("backup made: games-ring.sqlite3")
    logging.getLogger("companion.camera").warning("camera hangs")
    kept = logs.RING.last(2)
    assert kept[0].endswith("INFO companion.backups: backup made: games-ring.sqlite3")
    assert kept[1].endswith("WARNING companion.camera: camera hangs")
    assert sum("games-ring" in line for line in logs.RING.last(100)) == 1
