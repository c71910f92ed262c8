"""Settings files: defaults, overrides and one clear sentence for each mistake."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.config import ConfigError, load_config


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "companion.toml"
    path.write_text(text)
    return path


def test_defaults_without_a_file(tmp_path: Path) -> None:
    config = load_config(None, data_dir=tmp_path)
    assert config.web.port == 8080 and config.buttons.next_pin == 17
    assert config.database == tmp_path / "companion.sqlite3"
    # Both are off switches now: the game in play says what the camera reads.
    assert config.camera.watch_board is True and config.camera.watch_wheel is True


def test_values_override_defaults(tmp_path: Path) -> None:
    config = load_config(
        write(
            tmp_path,
            "[web]\nport = 9000\n[buttons]\nled_pin = 23\nbounce_time = 0.1\n"
            '[game]\nplayers = ["Ann", "Bo"]\nevery_stop = true\n',
        )
    )
    assert config.web.port == 9000 and config.buttons.led_pin == 23
    assert config.buttons.bounce_time == 0.1 and config.game.players == ("Ann", "Bo")
    assert config.game.every_stop and not load_config(None).game.every_stop


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[web]\nport = 'eighty'\n", "'web.port' must be a whole number"),
        ("[webb]\nport = 1\n", "unknown setting 'webb'"),
        ("[buttons]\npull_up = 1\n", "'buttons.pull_up' must be true or false"),
        ("web = 3\n", "'web' must be a [web] table"),
        ("[web\n", "not valid TOML"),
        ("[game]\nplayers = 'Ann'\n", "'game.players' must be a list"),
        ("[camera]\nwatch_board = 'yes'\n", "'camera.watch_board' must be true or false"),
        ("[camera]\nsource = 'webcam'\n", "'camera.source' must be one of auto, picamera2"),
        ("[camera]\nstable_frames = 0\n", "'camera.stable_frames' must be between 1 and 100"),
    ],
)
def test_mistakes_are_named(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("[", r"\[")):
        load_config(write(tmp_path, text))


def test_missing_file_says_how_to_fix(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="leave out --config"):
        load_config(tmp_path / "nope.toml")


@pytest.mark.parametrize(
    ("section", "mistake", "says"),
    [
        ("web", "threads = 0", "'web.threads' must be between 1 and 256"),
        ("web", "threads = -3", "'web.threads' must be between 1 and 256"),
        ("web", 'pin = "12a"', "at least 6 digits, or a passphrase"),
        ("web", 'pin = "1234"', "at least 6 digits"),
        ("game", 'game = "chess"', "There is no game called 'chess'"),
        ("game", 'rules = "v9"', "is not a rule set of"),
        ("buttons", "next_pin = 1", "buttons.next_pin must be a BCM GPIO number"),
    ],
)
def test_config_mistakes_are_one_sentence_at_start(
    tmp_path: Path, section: str, mistake: str, says: str
) -> None:
    path = tmp_path / "companion.toml"
    path.write_text(f"[{section}]\n{mistake}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=re.escape(says)) as raised:
        load_config(path)
    assert str(path) in str(raised.value) and "\n" not in str(raised.value)


def test_a_long_passphrase_is_a_good_pin(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[web]\npin = "correct horse battery"\n', encoding="utf-8")
    assert load_config(path).web.pin == "correct horse battery"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[web]\ntoken_hours = nan\n", "number of hours"),
        ("[web]\ntoken_hours = inf\n", "number of hours"),
        ("[web]\ntoken_hours = -1\n", "number of hours"),
        ("[web]\ntoken_hours = 0\n", "more than 0"),
        ("[camera]\nwheel_drift = -1\n", "number of table squares"),
        ("[camera]\nwheel_drift = nan\n", "number of table squares"),
    ],
)
def test_number_settings_name_their_unit_and_refuse_what_cannot_work(
    tmp_path: Path, text: str, says: str
) -> None:
    """A token of nan hours made every login a 500, and of 0 hours a login that was
    already over; each is refused in the unit the setting is measured in."""
    path = tmp_path / "companion.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=says):
        load_config(path)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[game]\nplayers = []\n", "'game.players' must name 2 to 5 players"),
        ("[game]\nplayers = ['Ann']\n", "'game.players' must name 2 to 5 players"),
        ("[game]\nplayers = ['Ann', ' ']\n", "'game.players' must name 2 to 5 players"),
        ('[game]\ngame = "rats"\nplayers = ["A", "B", "C"]\n', "must name 4 to 6 players"),
        ("[game]\nplayers = ['Ann', 'ann']\n", "'game.players' names a player twice"),
        ("[camera]\nwidth = 0\n", "'camera.width' must be between 64 and 8192 pixels"),
        ("[camera]\nheight = 96000\n", "'camera.height' must be between 64 and 8192 pixels"),
        ("[camera]\nsource = 'folder'\n", "reads the pictures named by 'camera.device'"),
    ],
)
def test_settings_the_first_start_would_trip_on_are_named_in_the_file(
    tmp_path: Path, text: str, says: str
) -> None:
    """Players the game refuses stopped the first start with the engine's sentence ("needs
    2 to 5 players, not 1"), naming neither the file nor the key; a folder camera without a
    device read the folder "0" and stayed offline; a width of 0 reached the camera. Each is
    now one sentence at start naming the key."""
    path = write(tmp_path, text)
    with pytest.raises(ConfigError, match=re.escape(says)) as raised:
        load_config(path)
    assert str(path) in str(raised.value) and "\n" not in str(raised.value)


def test_more_players_than_the_game_takes_are_not_a_mistake(tmp_path: Path) -> None:
    """The table starts with the first max_players names, so a long list is fine."""
    path = write(tmp_path, '[game]\nplayers = ["A", "B", "C", "D", "E", "F", "G"]\n')
    assert len(load_config(path).game.players) == 7
