"""The companion's settings: a TOML file with defaults for everything.

A bad file never half-starts the companion: :class:`ConfigError` names the file, the key and
what would be accepted, in one sentence.
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any, Final, TypeVar

from companion.errors import CompanionError
from companion.games import find_game
from companion.logs import LEVELS as LOG_LEVELS

T = TypeVar("T")

DEFAULT_DATA_DIR = Path(os.environ.get("HAMSTER_DATA", "~/.local/share/hamster-companion"))
CALIBRATION_FILE = "calibration.json"  # the camera's calibration, in the data folder


class ConfigError(CompanionError, ValueError):
    """The configuration cannot be used; the message says which key and how to fix it."""


@dataclass(frozen=True)
class WebConfig:
    host: str = "0.0.0.0"
    port: int = 8080
    pin: str = ""  # empty: generated at first start and kept in the data file
    threads: int = 16  # for the API and page; live streams need none (they run on the loop)
    https_port: int = 0  # e.g. 8443: also serve HTTPS (self-signed) so tablets keep awake
    max_streams: int = 256  # open live pages at once; more get a clear "close a tab"
    hosts: tuple[str, ...] = ()  # extra names the page may be opened by (beside the Pi's own)
    any_host: bool = False  # answer to any Host name (behind a reverse proxy that checks it)
    token_hours: float = 24.0  # how long an unlocked tablet stays unlocked
    lan_name: str = "hamster-table"  # announced as hamster-table.local (mDNS); "" = off


#: GPIO numbers on the 40-pin header that are free for buttons (0 and 1 belong to HAT EEPROMs).
HEADER_GPIOS: Final = range(2, 28)


@dataclass(frozen=True)
class ButtonsConfig:
    """Where the buttons, LED and buzzer are wired, and how presses are interpreted.

    Pins are BCM GPIO numbers. ``pull_up=True`` means each button connects its pin to ground
    (the usual wiring, no external resistor). ``bounce_time`` is how long a level must hold
    before it counts (a shorter glitch is no press); ``hold_time`` is how long BACK must be
    held to redo.
    """

    next_pin: int = 17
    back_pin: int = 27
    read_pin: int = 22
    pull_up: bool = True
    bounce_time: float = 0.03
    hold_time: float = 1.0
    led_pin: int | None = None
    buzzer_pin: int | None = None

    def __post_init__(self) -> None:
        problem = _first_problem({f.name: getattr(self, f.name) for f in fields(self)})
        if problem is not None:
            raise ConfigError(problem)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, section: str = "buttons") -> ButtonsConfig:
        """Build a config from a TOML table, failing with one sentence that names the bad key.

        Missing keys keep their defaults, so an empty table means "the standard wiring".
        """
        known = [f.name for f in fields(cls)]
        for key in data:
            if key not in known:
                raise ConfigError(f"Unknown key {section}.{key}; use one of: {', '.join(known)}.")
        values: dict[str, Any] = {f.name: f.default for f in fields(cls)}
        values.update(data)
        problem = _first_problem(values, section)
        if problem is not None:
            raise ConfigError(problem)
        for key in ("bounce_time", "hold_time"):
            values[key] = float(values[key])
        return cls(**values)

    @property
    def pins(self) -> dict[str, int]:
        """Every pin in use, by the config key that claims it."""
        named = {
            "next_pin": self.next_pin,
            "back_pin": self.back_pin,
            "read_pin": self.read_pin,
            "led_pin": self.led_pin,
            "buzzer_pin": self.buzzer_pin,
        }
        return {key: pin for key, pin in named.items() if pin is not None}


def _check_value(section: str, key: str, value: object) -> str | None:
    """Type check one key; returns the sentence to show, or None when the value is fine."""
    if key.endswith("_pin"):
        optional = key in ("led_pin", "buzzer_pin")
        if optional and value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value not in HEADER_GPIOS:
            hint = " (or leave it out for none)" if optional else ""
            return f"{section}.{key} must be a BCM GPIO number from 2 to 27{hint}, not {value!r}."
    elif key == "pull_up":
        if not isinstance(value, bool):
            return (
                f"{section}.pull_up must be true (button wired to ground) or false "
                f"(button wired to 3.3 V), not {value!r}."
            )
    elif key in ("bounce_time", "hold_time"):
        limit = 0.5 if key == "bounce_time" else 10.0
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not 0.0 <= value <= limit
        ):
            return f"{section}.{key} must be a number of seconds from 0 to {limit}, not {value!r}."
    return None


def _first_problem(current: Mapping[str, Any], section: str = "buttons") -> str | None:
    """Every check, per key first and then across keys; the first problem's sentence or None."""
    for key, value in current.items():
        problem = _check_value(section, key, value)
        if problem is not None:
            return problem
    if current["hold_time"] <= current["bounce_time"]:
        return (
            f"{section}.hold_time ({current['hold_time']} s) must be longer than "
            f"{section}.bounce_time ({current['bounce_time']} s); raise hold_time."
        )
    seen: dict[int, str] = {}
    for key in ("next_pin", "back_pin", "read_pin", "led_pin", "buzzer_pin"):
        pin = current[key]
        if pin is None:
            continue
        if pin in seen:
            return (
                f"{section}.{key} uses GPIO {pin}, which {section}.{seen[pin]} already uses; "
                f"give each button, LED and buzzer its own pin."
            )
        seen[pin] = key
    return None


CAMERA_SOURCES = ("auto", "picamera2", "usb", "folder", "simulated", "none")
MAX_STABLE_FRAMES = 100
#: Picture sizes a camera can be asked for, in pixels (the largest Pi sensor is 4608 wide);
#: outside them is a typo such as 12800, which the camera would refuse at every restart.
CAMERA_SIZES: Final = (64, 8192)


@dataclass(frozen=True)
class CameraConfig:
    source: str = "auto"  # auto, picamera2, usb, folder, simulated, none
    device: str = "0"  # USB index (0 = /dev/video0) or a path; 'folder' needs its folder
    width: int = 1280
    height: int = 960
    stable_frames: int = 5  # a reading (dice, belt, fallen pieces) must hold this many frames
    watch_board: bool = True  # compare the belt with the game (needs a saved calibration)
    # Off switches: the camera reads what the game in play declares (GameSpec.camera);
    # false keeps a kind off whatever the game (watch_wheel used to turn the wheel on).
    watch_wheel: bool = True  # follow a rolling wheel (table markers 10-13, rim strip)
    wheel_drift: float = 3.0  # table squares off the centre before "push it back"
    # The camera's height over the table, lens to cloth (50-100 cm): the wheel reader then
    # sees the ring's top where it stands, a diameter up; 0 reads the ring as flat.
    height_cm: float = 0.0


@dataclass(frozen=True)
class BackupConfig:
    keep: int = 10  # backups kept in <data dir>/backups (the oldest are removed)
    daily: bool = True  # also one a day while the companion runs (besides one per game end)


#: espeak-ng's speed range in words a minute (its own limits: slower or faster is refused).
VOICE_SPEEDS: Final = (80, 450)


@dataclass(frozen=True)
class VoiceConfig:
    """Spoken cues on the Pi's audio out (off by default: not every table wants a voice)."""

    enabled: bool = False  # say the phase, whose turn it is and the game's cues at each change
    voice: str = "en"  # an espeak-ng voice (`espeak-ng --voices`): en, en-gb, en-us+f3 ...
    speed: int = 160  # words a minute


#: One MQTT topic level: no wildcards, no separators, no leading '$' (the broker's own).
TOPIC_LEVEL: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


@dataclass(frozen=True)
class MqttConfig:
    """This table on an event's MQTT broker (off while ``host`` is empty).

    Only the public state is published (``companion.mqtt``); the password is read here and
    sent to the broker alone.
    """

    host: str = ""  # the broker, e.g. "event-pi.local" or "192.168.1.10"; empty: off
    port: int = 0  # 0: 1883, or 8883 with tls
    table: str = ""  # this table's name in topics (hamster/<table>/...); empty: the Pi's name
    username: str = ""  # when the broker asks for one
    password: str = ""
    password_file: str = ""  # a file holding the password (kept out of the config file)
    tls: bool = False  # encrypt the connection (the broker's port for TLS, usually 8883)
    ca_file: str = ""  # the broker's certificate authority; empty: the system's
    prefix: str = "hamster"  # the first topic level every table of the event shares

    @property
    def enabled(self) -> bool:
        return bool(self.host)

    @property
    def broker_port(self) -> int:
        return self.port or (8883 if self.tls else 1883)


@dataclass(frozen=True)
class GameDefaults:
    game: str = ""  # empty: the first game the companion knows (``companion games``)
    rules: str = ""
    players: tuple[str, ...] = ("Red", "Blue", "Yellow", "Green")
    # true: no step passes on its own, the table presses NEXT at every stop; the page behind
    # the PIN changes it for the table (kept in the games file, over this default)
    every_stop: bool = False


@dataclass(frozen=True)
class Config:
    data_dir: Path = DEFAULT_DATA_DIR
    log_level: str = ""  # debug, info, warning, error; "": info in the journal, else warning
    web: WebConfig = field(default_factory=WebConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    game: GameDefaults = field(default_factory=GameDefaults)
    backups: BackupConfig = field(default_factory=BackupConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    mqtt: MqttConfig = field(default_factory=MqttConfig)

    @property
    def database(self) -> Path:
        return self.data_dir.expanduser() / "companion.sqlite3"

    @property
    def calibration_file(self) -> Path:
        return self.data_dir.expanduser() / CALIBRATION_FILE


#: The store setting that keeps the config file `companion run` last started with, so a
#: command given without --config (`companion pin`, `history delete`) reads the same PIN.
RUN_CONFIG = "run_config_file"


def load_config(path: Path | str | None = None, *, data_dir: Path | str | None = None) -> Config:
    """Read a TOML file over the defaults (no file: defaults)."""
    config = Config()
    if path is not None:
        path = Path(path)
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(
                f"No config file at {path}; create it or leave out --config."
            ) from None
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"{path} is not valid TOML: {error}.") from None
        except UnicodeDecodeError:
            raise ConfigError(
                f"{path} is not a text file in UTF-8: save it as UTF-8 text, or point --config "
                "at the TOML settings file."
            ) from None
        except OSError as error:
            raise ConfigError(
                f"Cannot read the config file {path} ({error.strerror}); check the path and "
                "that the companion's user may read it."
            ) from None
        config = _merge(config, raw, str(path), "")
        _check_camera(config.camera, str(path))
        _check_web(config.web, str(path))
        _check_game(config.game, str(path))
        _check_voice(config.voice, str(path))
        if config.log_level and config.log_level not in LOG_LEVELS:
            raise ConfigError(
                f"{path}: 'log_level' must be one of {', '.join(LOG_LEVELS)}, not "
                f"{config.log_level!r}; or leave it out."
            )
        problem = mqtt_problem(config.mqtt)
        if problem is not None:
            raise ConfigError(f"{path}: {problem}")
    if data_dir is not None:
        config = replace(config, data_dir=Path(data_dir))
    return replace(config, data_dir=config.data_dir.expanduser())


def _merge(current: T, raw: dict[str, Any], source: str, prefix: str) -> T:
    assert is_dataclass(current) and not isinstance(current, type)
    known = {f.name: f for f in fields(current)}
    changes: dict[str, Any] = {}
    for key, value in raw.items():
        name = f"{prefix}{key}"
        if key not in known:
            choices = ", ".join(sorted(known))
            raise ConfigError(f"{source}: unknown setting {name!r}; known here: {choices}.")
        old = getattr(current, key)
        if is_dataclass(old):
            if not isinstance(value, dict):
                raise ConfigError(f"{source}: {name!r} must be a [{name}] table.")
            changes[key] = _merge(old, value, source, f"{name}.")
        else:
            changes[key] = _coerce(old, value, source, name, known[key].type)
    try:
        return replace(current, **changes)
    except ConfigError as error:  # a section that checks its values together (the pins)
        raise ConfigError(f"{source}: {error}") from None


def _coerce(old: Any, value: Any, source: str, name: str, declared: Any) -> Any:
    optional = "None" in str(declared)
    if value is None or (optional and value in ("", "none")):
        if optional:
            return None
        raise ConfigError(f"{source}: {name!r} needs a value.")
    if isinstance(old, Path):
        if not isinstance(value, str):
            raise ConfigError(f"{source}: {name!r} must be a path in quotes.")
        return Path(value)
    if isinstance(old, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{source}: {name!r} must be true or false, not {value!r}.")
        return value
    if isinstance(old, int) or "int" in str(declared):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{source}: {name!r} must be a whole number, not {value!r}.")
        return value
    if isinstance(old, float):
        unit = FLOAT_UNITS.get(name.rsplit(".", 1)[-1], "a number")
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or value < 0
        ):
            raise ConfigError(f"{source}: {name!r} must be {unit}, not {value!r}.")
        return float(value)
    if isinstance(old, tuple):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{source}: {name!r} must be a list of names in quotes.")
        return tuple(value)
    if not isinstance(value, str):
        raise ConfigError(f"{source}: {name!r} must be text in quotes, not {value!r}.")
    return value


# What each number setting measures, for the sentence that refuses a bad one.
FLOAT_UNITS = {
    "token_hours": "a number of hours",
    "bounce_time": "a number of seconds",
    "hold_time": "a number of seconds",
    "wheel_drift": "a number of table squares",
    "height_cm": "a number of centimetres",
}
# An unlocked tablet stays unlocked at most this long (a year); more is surely a typo.
MAX_TOKEN_HOURS = 24.0 * 365

MIN_PIN_DIGITS = 6
MIN_PASSPHRASE = 12


def pin_problem(pin: str) -> str | None:
    """Why a configured PIN is too weak to guard the table (None: it is fine).

    Six digits or more, or a passphrase of twelve characters or more: with the throttle,
    either takes a guesser far longer than an evening.
    """
    if not pin or (pin.isdigit() and len(pin) >= MIN_PIN_DIGITS):
        return None
    if not pin.isdigit() and len(pin) >= MIN_PASSPHRASE and pin.strip() == pin:
        return None
    return (
        f"'web.pin' must be at least {MIN_PIN_DIGITS} digits, or a passphrase of at least "
        f"{MIN_PASSPHRASE} characters (or leave it out to have one made)"
    )


def _check_web(web: WebConfig, source: str) -> None:
    if not 0.0 < web.token_hours <= MAX_TOKEN_HOURS:
        raise ConfigError(
            f"{source}: 'web.token_hours' must be more than 0 and at most {MAX_TOKEN_HOURS:.0f} "
            f"hours, not {web.token_hours}; 24 keeps a tablet unlocked for a day."
        )
    if not 1 <= web.threads <= 256:
        raise ConfigError(
            f"{source}: 'web.threads' must be between 1 and 256, not {web.threads}; 16 is plenty."
        )
    if not 1 <= web.max_streams <= 10_000:
        raise ConfigError(
            f"{source}: 'web.max_streams' must be between 1 and 10000, not {web.max_streams}."
        )
    for name, port in (("port", web.port), ("https_port", web.https_port)):
        if not (0 < port < 65536 or (name == "https_port" and port == 0)):
            raise ConfigError(f"{source}: 'web.{name}' must be a port from 1 to 65535, not {port}.")
    problem = pin_problem(web.pin)
    if problem is not None:
        raise ConfigError(f"{source}: {problem}.")
    if web.lan_name and not re.fullmatch(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?", web.lan_name):
        raise ConfigError(
            f"{source}: 'web.lan_name' must be one DNS label (a-z, 0-9, '-', at most 63), "
            f'not {web.lan_name!r}; e.g. "hamster-table", or "" for no name.'
        )


def _check_game(game: GameDefaults, source: str) -> None:
    """The default game and rule set must exist: say so at start, not at the first NEW GAME."""
    try:
        spec = find_game(game.game)
    except CompanionError as error:
        raise ConfigError(f"{source}: 'game.game': {error}") from None
    if game.rules and game.rules not in spec.rule_sets:
        known = ", ".join(spec.rule_sets)
        raise ConfigError(
            f"{source}: 'game.rules' {game.rules!r} is not a rule set of {spec.title}; "
            f"choose one of: {known}."
        )
    # The table starts its first game with these names (the first max_players of them), so
    # a list the game refuses would stop the first start with the engine's sentence, which
    # names neither the file nor the key.
    players = [name.strip() for name in game.players[: spec.max_players]]
    if len(players) < spec.min_players or not all(players):
        raise ConfigError(
            f"{source}: 'game.players' must name {spec.min_players} to {spec.max_players} "
            f"players for {spec.title}, not {list(game.players)!r}; e.g. "
            f'players = ["Red", "Blue", "Yellow", "Green"].'
        )
    if len({name.lower() for name in players}) != len(players):
        raise ConfigError(
            f"{source}: 'game.players' names a player twice ({list(game.players)!r}); "
            "give every player a different name."
        )


def _check_camera(camera: CameraConfig, source: str) -> None:
    """Values of the right type that still cannot work: say so before anything starts."""
    if camera.source not in CAMERA_SOURCES:
        raise ConfigError(
            f"{source}: 'camera.source' must be one of {', '.join(CAMERA_SOURCES)}, "
            f"not {camera.source!r}."
        )
    if not 1 <= camera.stable_frames <= MAX_STABLE_FRAMES:
        raise ConfigError(
            f"{source}: 'camera.stable_frames' must be between 1 and {MAX_STABLE_FRAMES} "
            f"frames, not {camera.stable_frames!r}."
        )
    low, high = CAMERA_SIZES
    for key in ("width", "height"):
        value = getattr(camera, key)
        if not low <= value <= high:
            raise ConfigError(
                f"{source}: 'camera.{key}' must be between {low} and {high} pixels, not "
                f"{value!r}; the default is {getattr(CameraConfig, key)}."
            )
    if camera.source == "folder" and (not camera.device or camera.device.isdigit()):
        # device's default is the first webcam's number; a folder source would read "0" as
        # a path and stay offline with a reason that names no setting.
        raise ConfigError(
            f"{source}: 'camera.source' = \"folder\" reads the pictures named by "
            f"'camera.device', which is {camera.device!r}; set device = \"/path/to/photos\" "
            "(a folder of images or a video file)."
        )


def _check_voice(voice: VoiceConfig, source: str) -> None:
    """A voice espeak-ng would refuse fails at start, not silently at the first NEXT."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_+-]{0,39}", voice.voice):
        raise ConfigError(
            f"{source}: 'voice.voice' must be an espeak-ng voice name such as \"en\" or "
            f'"en-gb" (see `espeak-ng --voices`), not {voice.voice!r}.'
        )
    low, high = VOICE_SPEEDS
    if not low <= voice.speed <= high:
        raise ConfigError(
            f"{source}: 'voice.speed' must be between {low} and {high} words a minute, "
            f"not {voice.speed!r}."
        )


def mqtt_problem(mqtt: MqttConfig) -> str | None:
    """Why the [mqtt] settings cannot work, in one sentence (None: they can).

    Checked at start so a typo in a table name or a missing password file is said once,
    in the terminal, rather than as a table that silently never shows on the event board.
    """
    if not 0 <= mqtt.port < 65536:
        return f"'mqtt.port' must be a port from 1 to 65535 (or 0 for the usual), not {mqtt.port}."
    for key in ("table", "prefix"):
        value = getattr(mqtt, key)
        if (value or key == "prefix") and not TOPIC_LEVEL.fullmatch(value):
            return (
                f"'mqtt.{key}' must be one topic level of letters, digits, '-', '_' or '.' "
                f'(at most 64, no "/", "+" or "#"), not {value!r}; e.g. "table-3".'
            )
    if mqtt.password and mqtt.password_file:
        return "Give 'mqtt.password' or 'mqtt.password_file', not both; keep the file."
    if (mqtt.password or mqtt.password_file) and not mqtt.username:
        return "'mqtt.username' is missing: a broker password goes with a user name."
    for key in ("password_file", "ca_file"):
        value = getattr(mqtt, key)
        if value and not Path(value).expanduser().is_file():
            return f"'mqtt.{key}' names {value!r}, which is not a readable file; check the path."
    return None


def mqtt_password(mqtt: MqttConfig) -> str:
    """The broker password: from the config, or the first line of its password file."""
    if not mqtt.password_file:
        return mqtt.password
    try:
        text = Path(mqtt.password_file).expanduser().read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ConfigError(
            f"'mqtt.password_file' {mqtt.password_file!r} is not UTF-8 text; put the password "
            "on its first line as plain text."
        ) from None
    except OSError as error:
        raise ConfigError(
            f"Cannot read 'mqtt.password_file' {mqtt.password_file!r} ({error.strerror}); "
            "check the path and that the companion's user may read it."
        ) from None
    return text.splitlines()[0] if text else ""
