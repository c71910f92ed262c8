"""The page by name on the LAN (``hamster-table.local``), and never a failure without it.

The stand-in mirrors python-zeroconf's API as the companion uses it (src/zeroconf/_core.py
``Zeroconf(ip_version=...)``, ``register_service(info, allow_name_change=...)``,
``unregister_service``, ``close``; src/zeroconf/_services/info.py ``ServiceInfo``). The one
test with the real library builds the ServiceInfo and checks that its registry indexes it
under the server name, which is where the query handler looks up A answers
(``_add_address_answers`` in src/zeroconf/_handlers/query_handler.py); no packet is sent.
"""

from __future__ import annotations

import socket
import sys
import types
from pathlib import Path
from typing import Any, ClassVar

import pytest

from companion.advertise import SERVICE_TYPE, advertise
from companion.config import ConfigError, load_config
from companion.serve import announce
from tests.camera_scenes import config_file


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
