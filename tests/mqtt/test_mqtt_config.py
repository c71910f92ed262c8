"""The [mqtt] section: a table joins an event's broker, and each mistake is one sentence."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.config import ConfigError, load_config
from companion.mqtt.connect import Broker, BrokerError, parse_broker
from companion.serve import companion_command


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "companion.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_without_a_broker_the_table_publishes_nothing(tmp_path: Path) -> None:
    assert not load_config(None, data_dir=tmp_path).mqtt.enabled


def test_an_event_setup_with_a_password_file(tmp_path: Path) -> None:
    secret = tmp_path / "broker.pass"
    secret.write_text("tables-only\n", encoding="utf-8")
    config = load_config(
        write(
            tmp_path,
            f'[mqtt]\nhost = "event-pi.local"\ntable = "table-3"\nusername = "tables"\n'
            f'password_file = "{secret}"\n',
        )
    )
    assert config.mqtt.enabled and config.mqtt.broker_port == 1883
    broker = Broker.from_config(config.mqtt)
    assert (broker.address, broker.username, broker.password) == (
        "event-pi.local:1883",
        "tables",
        "tables-only",
    )
    tls = load_config(write(tmp_path, '[mqtt]\nhost = "h"\ntls = true\n')).mqtt
    assert tls.broker_port == 8883


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('table = "table/3"', "'mqtt.table' must be one topic level"),
        ('table = "#"', 'no "/", "+" or "#"'),
        ('prefix = ""', "'mqtt.prefix' must be one topic level"),
        ("port = 70000", "'mqtt.port' must be a port"),
        ('username = "u"\npassword = "p"\npassword_file = "/etc/hostname"', "not both"),
        ('password = "p"', "'mqtt.username' is missing"),
        ('username = "u"\npassword_file = "/no/such/file"', "not a readable file"),
        ("tls = 1", "must be true or false"),
    ],
)
def test_each_mistake_is_one_sentence_naming_the_key(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, f'[mqtt]\nhost = "event-pi"\n{text}\n'))
    message = str(caught.value)
    assert words in message
    assert "\n" not in message and message.endswith(".")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("event-pi", ("event-pi", 1883)), ("10.0.0.5:1884", ("10.0.0.5", 1884))],
)
def test_broker_addresses(text: str, expected: tuple[str, int]) -> None:
    assert parse_broker(text) == expected


@pytest.mark.parametrize("text", ["event-pi:port", "event-pi:0", ":1883"])
def test_a_bad_broker_address_is_one_sentence(text: str) -> None:
    with pytest.raises(BrokerError, match=r"^.+(HOST|port).+\.$"):
        parse_broker(text)


def test_the_board_without_a_broker_says_how_to_give_one(tmp_path: Path) -> None:
    result = CliRunner().invoke(companion_command, ["--data-dir", str(tmp_path), "board", "--once"])
    assert result.exit_code == 2
    assert "use --broker HOST[:PORT], or set host in the [mqtt] section" in result.output


def test_a_broker_nobody_answers_is_one_sentence(tmp_path: Path) -> None:
    from tests.mqtt.mosquitto import free_port

    port = free_port()  # nothing listens there
    result = CliRunner().invoke(
        companion_command,
        [
            "--data-dir",
            str(tmp_path),
            "board",
            "--broker",
            f"127.0.0.1:{port}",
            "--once",
            "--timeout",
            "1",
        ],
    )
    assert result.exit_code == 2
    assert f"No answer from a broker at 127.0.0.1:{port}" in result.output
    assert len(result.output.strip().splitlines()) == 1
