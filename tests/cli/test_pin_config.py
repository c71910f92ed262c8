"""The table PIN on the command line is the one the page asks for, whatever config the
command was given: a PIN set in the config file the table runs with is found without
--config (before, `history delete` answered "There is no table PIN yet: `companion pin`
makes one", and `companion pin` then made a second PIN the page never accepted)."""

from __future__ import annotations

import random
from pathlib import Path

from click.testing import CliRunner

from companion.engine.session import GameHeader
from companion.games import GAMES
from companion.saved import start_game
from companion.serve import companion_command
from companion.simulate import play_session
from companion.startup.games import remember_config
from companion.store import Store

PIN = "424242"


def finished_table(folder: Path, config_file: Path | None) -> None:
    """A data folder with one finished game, last run as `companion run` would have
    (``--config config_file``, or none)."""
    store = Store(folder / "companion.sqlite3")
    spec = GAMES["hamster-wheel"]
    _, session = start_game(store, GameHeader(spec.name, spec.rules_default, ("Ann", "Bo"), 3))
    play_session(session, random.Random(3), 20_000)
    remember_config(store, None if config_file is None else str(config_file))
    store.close()


def companion(folder: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(companion_command, ["--data-dir", str(folder), *args])
    return result.exit_code, result.output


def test_a_pin_set_in_the_tables_config_is_found_without_config(tmp_path: Path) -> None:
    config = tmp_path / "companion.toml"
    config.write_text(f'[web]\npin = "{PIN}"\n', encoding="utf-8")
    finished_table(tmp_path, config)
    code, out = companion(tmp_path, "pin")
    assert code == 0 and f"table PIN: {PIN}" in out
    code, out = companion(tmp_path, "history", "delete", "1", "--pin", "111111")
    assert code == 2 and "not right" in out and str(config) in out
    assert "no table PIN" not in out.casefold()
    code, out = companion(tmp_path, "history", "delete", "1", "--pin", PIN)
    assert code == 0 and "Game 1 deleted" in out
    store = Store(tmp_path / "companion.sqlite3")
    try:
        assert store.setting("table_pin") is None  # no second PIN was ever made
    finally:
        store.close()


def test_with_no_pin_anywhere_the_sentence_says_what_was_read(tmp_path: Path) -> None:
    finished_table(tmp_path, None)
    code, out = companion(tmp_path, "history", "delete", "1", "--pin", PIN)
    assert code == 2 and "Nothing was deleted" in out
    assert "read: no config file and the games file" in out and "--config FILE" in out
