"""The drawing in docs/architecture.md, checked against the imports.

One direction of dependency: ``web``, ``hardware`` and ``calibration`` use ``companion``,
never the reverse; ``companion/serve.py`` is the one module that wires web and hardware
together; the engine imports no device or web library; and nothing outside a game's own
package (and its page board) names the game.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
COMPOSITION_ROOT = "companion/serve.py"


def modules(folder: str) -> Iterator[Path]:
    yield from sorted((ROOT / folder).rglob("*.py"))


def imports(path: Path) -> set[str]:
    """Every module a file imports, at any depth (lazy imports inside functions count too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def offenders(folder: str, forbidden: tuple[str, ...], allowed: tuple[str, ...] = ()) -> list[str]:
    bad = []
    for path in modules(folder):
        name = path.relative_to(ROOT).as_posix()
        if name in allowed:
            continue
        for module in imports(path):
            if any(module == f or module.startswith(f"{f}.") for f in forbidden):
                bad.append(f"{name} imports {module}")
    return bad


def test_the_companion_imports_no_web_device_or_calibration_code() -> None:
    assert offenders("companion", ("web", "hardware", "calibration"), (COMPOSITION_ROOT,)) == []


def test_only_the_composition_root_imports_both_web_and_hardware() -> None:
    both = [
        path.relative_to(ROOT).as_posix()
        for folder in ("companion", "web", "hardware", "calibration")
        for path in modules(folder)
        if {m.split(".")[0] for m in imports(path)} >= {"web", "hardware"}
    ]
    assert both == [COMPOSITION_ROOT]


def test_the_web_layer_takes_the_table_never_a_device() -> None:
    assert offenders("web", ("hardware",)) == []


def test_devices_know_no_game_and_no_vision() -> None:
    """The simulator draws the table from :mod:`companion.tabletop`, not from the vision
    that reads it; devices never know a game."""
    assert offenders("hardware", ("companion.games", "companion.vision")) == []


def test_the_engine_is_pure() -> None:
    device_or_web = ("flask", "gpiozero", "picamera2", "cv2", "hypercorn", "numpy")
    assert offenders("companion/engine", (*device_or_web, "companion.games")) == []


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_is_named_only_in_its_own_package_and_board(name: str) -> None:
    """Adding a game is one package, one registry line and one board module."""
    spec = GAMES[name]
    package = spec.setup.__module__.rsplit(".", 1)[0].replace(".", "/")
    own = (package + "/", "companion/games/__init__.py", f"web/static/games/{spec.board_name}.")
    pattern = re.compile(rf"[\"'/]{re.escape(name)}[\"'./]")
    found = []
    for folder in ("companion", "web", "hardware", "calibration"):
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix not in (".py", ".js", ".css", ".html") or relative.startswith(own):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{relative}:{number}: {line.strip()}")
    assert found == []
