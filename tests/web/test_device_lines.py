"""The start-up lines name each device once: 'keyboard: keyboard: ...' read as a glitch."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.startup.buttons import start_keyboard
from companion.store import Store
from companion.table import Table


def test_keyboard_line_does_not_repeat_its_own_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status = start_keyboard(Table(Store(tmp_path / "games.sqlite3")))
    assert not status.startswith("keyboard")
    assert "not a terminal" in status
