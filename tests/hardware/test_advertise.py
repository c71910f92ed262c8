"""The page by name on the LAN (``hamster-table.local``), and never a failure without it.

The stand-in mirrors python-zeroconf's API as the companion uses it (src/zeroconf/_core.py
``Zeroconf(ip_version=...)``, ``register_service(info, allow_name_change=...)``,
``unregister_service``, ``close``; src/zeroconf/_services/info.py ``ServiceInfo``). The one
test with the real library builds the ServiceInfo and checks that its registry indexes it
under the server name, which is where the query handler looks up A answers
(``_add_address_answers`` in src/zeroconf/_handlers/query_handler.py); no packet is sent.
"""

from __future__ import annotations

import functools
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import types
import urllib.request
import uuid
from pathlib import Path
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner

from companion.advertise import SERVICE_TYPE, LanName, advertise, remember, remembered
from companion.config import ConfigError, load_config
from companion.network import NetworkWatch
from companion.serve import companion_command
from companion.startup.lan import LateLanName, announce
from tests.camera.camera_scenes import config_file


class StandInZeroconf:
    registered: ClassVar[list[Any]] = []
    calls: ClassVar[list[str]] = []
    fail: ClassVar[Exception | None] = None

    def __init__(self, ip_version: Any = None) -> None:
        self.calls.append(f"open {ip_version}")

    def register_service(self, info: Any, allow_name_change: bool = False) -> None:
        if self.fail is not None:
            raise self.fail
        self.calls.append(f"register allow_name_change={allow_name_change}")
        self.registered.append(info)

    def update_service(self, info: Any) -> None:
        self.calls.append(f"update {info[1]['addresses']}")
        self.registered.append(info)

    def unregister_service(self, info: Any) -> None:
        self.calls.append("unregister")

    def close(self) -> None:
        self.calls.append("close")


def stand_in(**kwargs: Any) -> Any:
    StandInZeroconf.registered, StandInZeroconf.calls = [], []
    StandInZeroconf.fail = kwargs.get("fail")
    return types.SimpleNamespace(
        Zeroconf=StandInZeroconf,
        ServiceInfo=lambda *args, **kw: (args, kw),
        IPVersion=types.SimpleNamespace(V4Only="V4Only"),
    )


def test_the_page_is_announced_by_name_and_withdrawn() -> None:
    module = stand_in()
    advert, line = advertise("hamster-table", 8080, address="192.168.1.20", load=lambda: module)
    assert advert is not None and line == (
        "Also at: http://hamster-table.local:8080/ (announced on the LAN)"
    )
    ((args, info),) = StandInZeroconf.registered
    assert args == (SERVICE_TYPE, f"Hamster table (hamster-table).{SERVICE_TYPE}")
    assert info["server"] == "hamster-table.local." and info["port"] == 8080
    assert info["addresses"] == [socket.inet_aton("192.168.1.20")]
    advert.close()
    assert StandInZeroconf.calls == [
        "open V4Only",
        "register allow_name_change=True",
        "unregister",
        "close",
    ]


def test_without_the_library_a_network_or_a_socket_it_is_off_with_a_reason() -> None:
    def missing() -> Any:
        raise ImportError("No module named 'zeroconf'")

    assert advertise("hamster-table", 8080, address="10.0.0.2", load=missing) == (
        None,
        "hamster-table.local: off (python-zeroconf is not installed)",
    )
    module = stand_in(fail=OSError(19, "No such device"))
    advert, line = advertise("hamster-table", 8080, address="10.0.0.2", load=lambda: module)
    assert advert is None and "off (OSError" in line
    assert StandInZeroconf.calls[-1] == "close"  # the half-open socket is freed
    assert advertise("", 8080)[1] == "LAN name: off (web.lan_name is empty)"


def test_a_page_listening_on_loopback_only_is_not_announced(tmp_path: Path) -> None:
    config = load_config(config_file(tmp_path, ""), data_dir=tmp_path)
    assert announce(config, "127.0.0.1", 8080) == (
        None,
        "  hamster-table: off (listening on 127.0.0.1 only)",
    )


def test_the_lan_name_must_be_one_dns_label(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[web]\nlan_name = "Hamster Table"\n')
    with pytest.raises(ConfigError, match="one DNS label"):
        load_config(path, data_dir=tmp_path)


def test_the_real_library_answers_for_the_name() -> None:
    zeroconf = pytest.importorskip("zeroconf")
    from zeroconf._services.registry import ServiceRegistry

    info = zeroconf.ServiceInfo(
        SERVICE_TYPE,
        f"Hamster table (hamster-table).{SERVICE_TYPE}",
        addresses=[socket.inet_aton("192.168.1.20")],
        port=8080,
        properties={"path": "/"},
        server="hamster-table.local.",
    )
    registry = ServiceRegistry()
    registry.async_add(info)
    assert registry.async_get_infos_server("hamster-table.local.") == [info]
    assert info.parsed_addresses() == ["192.168.1.20"]


def test_doctor_says_whether_the_name_can_be_announced(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.commands.doctor import check_lan_name

    monkeypatch.setitem(sys.modules, "zeroconf", None)  # makes `import zeroconf` fail
    (finding,) = check_lan_name("hamster-table")
    assert not finding.ok and finding.optional
    assert finding.what.startswith("hamster-table.local cannot be announced")


def test_the_name_follows_the_address_and_comes_late_when_the_wifi_does() -> None:
    """No address at start (Wi-Fi still joining): the name is announced at the first
    address seen; a new lease moves the record, with no restart."""
    module = stand_in()
    lan = LanName("hamster-table", 8080, load=lambda: module)
    assert lan.follow(set()) == "" and lan.advert is None
    assert lan.follow({"fe80::2", "192.168.1.20"}) == (
        "Also at: http://hamster-table.local:8080/ (announced on the LAN)"
    )
    lan.follow({"192.168.1.20"})  # the same address: nothing sent
    lan.follow({"10.0.0.7"})
    assert StandInZeroconf.calls[1:] == [
        "register allow_name_change=True",
        f"update {[socket.inet_aton('10.0.0.7')]}",
    ]
    assert lan.page_note() == "On the LAN this table is http://hamster-table.local:8080/."
    lan.close()
    assert StandInZeroconf.calls[-2:] == ["unregister", "close"]


def test_a_name_another_machine_answers_for_is_left_to_it() -> None:
    module = stand_in()
    others = {"hamster-table.local.": {"192.168.1.30"}, "hamster-table-2.local.": set()}
    asked: list[str] = []

    def probe(_: Any, host: str) -> set[str]:
        asked.append(host)
        return others.get(host, set()) | {"192.168.1.20"}  # our own answer never counts

    advert, line = advertise(
        "hamster-table", 8080, address="192.168.1.20", load=lambda: module, probe=probe
    )
    assert advert is not None and advert.name == "hamster-table-2"
    assert asked == ["hamster-table.local.", "hamster-table-2.local."]
    assert line == (
        "Also at: http://hamster-table-2.local:8080/ (announced on the LAN) "
        "(hamster-table.local is another machine's)"
    )
    ((_, info),) = StandInZeroconf.registered
    assert info["server"] == "hamster-table-2.local."


def test_two_tables_on_one_network_get_two_names() -> None:
    """Two real python-zeroconf instances talking multicast over loopback: the second
    table hears the first answer for the name and takes NAME-2."""
    zeroconf = pytest.importorskip("zeroconf")
    on_loopback = types.SimpleNamespace(
        ServiceInfo=zeroconf.ServiceInfo,
        IPVersion=zeroconf.IPVersion,
        AddressResolverIPv4=zeroconf.AddressResolverIPv4,
        Zeroconf=functools.partial(zeroconf.Zeroconf, interfaces=["127.0.0.1"]),
    )
    name = f"hamster-test-{uuid.uuid4().hex[:8]}"  # nobody else's test run holds it
    first, _ = advertise(name, 8080, address="10.1.2.3", load=lambda: on_loopback)
    assert first is not None
    try:
        second, line = advertise(name, 8080, address="10.1.2.4", load=lambda: on_loopback)
        assert second is not None
        second.close()
    finally:
        first.close()
    assert (first.name, second.name) == (name, f"{name}-2")
    assert line.endswith(f"({name}.local is another machine's)")


def test_companion_pin_gives_the_name_the_running_table_got(tmp_path: Path) -> None:
    """``companion pin`` is another process: the running companion leaves the name it got
    (NAME-2 after a clash) in the data folder, and takes it away when it stops."""
    module = stand_in()
    lan = LanName("hamster-table", 8080, load=lambda: module, probe=lambda _, host: set())
    lan.follow({"192.168.1.20"})
    remember(tmp_path, lan)
    assert remembered(tmp_path) == "http://hamster-table.local:8080/"
    shown = CliRunner().invoke(companion_command, ["--data-dir", str(tmp_path), "pin"])
    assert "Also at: http://hamster-table.local:8080/ (announced on the LAN)" in shown.output
    remember(tmp_path, None)
    assert remembered(tmp_path) is None


def test_the_page_answers_while_the_lan_is_still_asked_for_the_name(tmp_path: Path) -> None:
    """The LAN takes ~2 s to say who has NAME.local; the first page must not wait for it
    (issue 28). Here the LAN answers only when the test says so."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = int(free.getsockname()[1])
    release = tmp_path / "release"
    command = [sys.executable, "-m", "tests.hardware.slow_lan_companion", str(tmp_path), str(port)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [*command, str(release)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    late = threading.Timer(30, release.touch)  # a companion that waits for the LAN still ends
    late.start()
    try:
        banner = [process.stdout.readline() for _ in range(3)]
        assert "table PIN" in banner[0], banner
        page = _page(port)
        assert "On the LAN this table is" not in page  # the LAN has not answered yet
        assert remembered(tmp_path) is None
        release.touch()
        lines = iter(process.stdout.readline, "")
        url = f"http://hamster-table.local:{port}/"
        assert any(f"Also at: {url} (announced on the LAN)" in line for line in lines)
        assert f"On the LAN this table is {url}." in _page(port)
        assert remembered(tmp_path) == url  # for `companion pin`
    finally:
        late.cancel()
        release.touch()
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=20)
    assert process.returncode == 0
    assert remembered(tmp_path) is None


def _page(port: int) -> str:
    """The table's page, once the server answers (it starts a moment after the banner)."""
    for _ in range(200):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                return str(answer.read().decode())
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing answered on port {port}")


def test_the_name_is_left_for_companion_pin_before_the_console_says_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The console's "Also at:" line is the sign the name is claimed: `companion pin`, asked
    the moment it appears, already finds the name (it was written after the line, and the
    slow-LAN test above read the note too early once under load)."""
    module = stand_in()
    lan = LanName("hamster-table", 8080, load=lambda: module, probe=lambda _, host: set())
    watch = NetworkWatch(lambda: frozenset({"192.168.1.20"}))
    late = LateLanName(lan, "192.168.1.20", watch, None, None, tmp_path)
    seen_when_said: list[str | None] = []
    monkeypatch.setattr(
        "companion.startup.lan.click.secho",
        lambda line, **_: seen_when_said.append(remembered(tmp_path)),
    )
    late.claim()
    assert seen_when_said == ["http://hamster-table.local:8080/"]
    lan.close()
