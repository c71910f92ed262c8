"""The drawing in docs/architecture.md, checked against the imports.

One direction of dependency: ``web``, ``hardware`` and ``calibration`` use ``companion``,
never the reverse; ``companion/serve.py`` and the start-up modules it composes
(``companion/startup/``) are the only code that wires web and hardware together; the
engine imports no device or web library; and nothing outside a game's own package (and
its page board) names the game.
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
STARTUP = "companion/startup/"  # the parts the composition root starts, one module per family


def modules(folder: str) -> Iterator[Path]:
    yield from sorted((ROOT / folder).rglob("*.py"))


def imports(path: Path, *, names: bool = False) -> set[str]:
    """Every module a file imports, at any depth (lazy imports inside functions count too);
    with ``names``, ``from companion import cli`` counts as ``companion.cli``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if names:
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
            else:
                found.add(node.module)
    return found


def offenders(folder: str, forbidden: tuple[str, ...], allowed: tuple[str, ...] = ()) -> list[str]:
    bad = []
    for path in modules(folder):
        name = path.relative_to(ROOT).as_posix()
        if name in allowed or any(a.endswith("/") and name.startswith(a) for a in allowed):
            continue
        for module in imports(path):
            if any(module == f or module.startswith(f"{f}.") for f in forbidden):
                bad.append(f"{name} imports {module}")
    return bad


# The command line's families that check or drive the devices and calibration from a terminal.
DEVICE_COMMANDS = ("companion/commands/doctor.py", "companion/commands/calibrate.py")


def test_the_companion_imports_no_web_device_or_calibration_code() -> None:
    faces = (COMPOSITION_ROOT, STARTUP, *DEVICE_COMMANDS)
    assert offenders("companion", ("web", "hardware", "calibration"), faces) == []
    assert offenders("companion", ("web",), (COMPOSITION_ROOT, STARTUP)) == []


def test_only_the_composition_root_imports_both_web_and_hardware() -> None:
    """The root and its start-up modules wire web and hardware; each start-up module
    keeps to one side where it can (the camera's knows no web, the page's no device)."""
    both = [
        path.relative_to(ROOT).as_posix()
        for folder in ("companion", "web", "hardware", "calibration")
        for path in modules(folder)
        if {m.split(".")[0] for m in imports(path)} >= {"web", "hardware"}
    ]
    stray = [name for name in both if name != COMPOSITION_ROOT and not name.startswith(STARTUP)]
    assert stray == []
    wiring = {m.split(".")[0] for m in imports(ROOT / COMPOSITION_ROOT)}
    for path in modules(STARTUP):
        wiring |= {m.split(".")[0] for m in imports(path)}
    assert wiring >= {"web", "hardware"}, "the composition root wires web and hardware"


def test_the_web_layer_takes_the_table_never_a_device() -> None:
    assert offenders("web", ("hardware",)) == []


def test_devices_know_no_game_and_no_vision() -> None:
    """The simulator draws the table from :mod:`companion.tabletop`, not from the vision
    that reads it; devices never know a game."""
    assert offenders("hardware", ("companion.games", "companion.vision")) == []


RUNTIME = (
    "companion.watch",
    "companion.table",
    "companion.worker",
    "companion.hub",
    "companion.public",
    "companion.proposals",
    "companion.listeners",
    "companion.store",
    "companion.mqtt",
    "companion.history",
    "companion.serve",
    "companion.startup",
    "companion.commands",
    "calibration",
    "web",
)


def test_devices_import_nothing_from_the_runtime() -> None:
    """A device delivers frames or presses to a callback: it knows no watcher, table, store,
    event board or calibration (the camera rig in companion/watch wires them)."""
    assert offenders("hardware", RUNTIME) == []


FIRST_PARTY = ("companion", "web", "hardware", "calibration")


def may_import_table() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """docs/architecture.md's "may import" table: (paths, allowed) per row, each a tuple of
    the names in backticks (first-party modules only, before any "never"; the "everything"
    row of the composition root is skipped)."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## The parts", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("folder", "---") or cells[2].startswith("everything"):
            continue
        paths = tuple(p.replace("<game>/", "") for p in re.findall(r"`([^`]+)`", cells[0]))
        allowed_part = cells[2].partition("never")[0]
        allowed = tuple(
            m for m in re.findall(r"`([^`]+)`", allowed_part) if "." in m or m in FIRST_PARTY
        )
        rows.append((paths, allowed))
    return rows


def own_row(relative: str) -> tuple[str, tuple[str, ...]] | None:
    """The most specific row naming a module: (its path, what it may import)."""
    best: tuple[str, tuple[str, ...]] | None = None
    for paths, allowed in may_import_table():
        for path in paths:
            covers = relative == path or (path.endswith("/") and relative.startswith(path))
            if covers and (best is None or len(path) > len(best[0])):
                best = (path, allowed)
    return best


def module_of(path: str) -> str:
    return path.removesuffix("/").removesuffix(".py").replace("/", ".")


@pytest.mark.parametrize("row", [row[0][0] for row in may_import_table()])
def test_the_may_import_table_holds(row: str) -> None:
    """Every module a row covers imports only its own folder and the modules it lists."""
    found = []
    for paths, _allowed in may_import_table():
        if paths[0] != row:
            continue
        for path in paths:
            files = [ROOT / path] if path.endswith(".py") else modules(path)
            for file in files:
                relative = file.relative_to(ROOT).as_posix()
                held = own_row(relative)
                if held is None or held[0] != path:
                    continue  # a more specific row holds it
                allowed = (*held[1], *map(module_of, paths))  # and its own row's
                for name in sorted(imports(file, names=True)):
                    if name.split(".")[0] not in FIRST_PARTY:
                        continue
                    if not any(name == a or name.startswith(f"{a}.") for a in allowed):
                        found.append(f"{relative} imports {name}")
    assert found == []


def test_the_may_import_table_covers_every_folder() -> None:
    listed = {path for paths, _allowed in may_import_table() for path in paths}
    for folder in (
        "companion/engine/",
        "companion/games/",
        "companion/vision/",
        "companion/watch/",
        "companion/mqtt/",
        "web/",
        "hardware/",
        "calibration/",
    ):
        assert folder in listed


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


PACKAGES = ("companion", "web", "hardware", "calibration")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _typing_only(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:``: imports for the type checker, never run."""
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def import_graph() -> dict[str, set[str]]:
    """Which of our modules each of our modules imports, at any depth of its code (an
    import inside a function counts: moving it there does not open a circle, it hides it)."""
    files = {module_name(path): path for folder in PACKAGES for path in modules(folder)}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        found: set[str] = set()
        stack: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
        while stack:
            node = stack.pop()
            if _typing_only(node):
                continue
            stack.extend(ast.iter_child_nodes(node))
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:  # `from companion import cli` imports a module
                    submodule = f"{node.module}.{alias.name}"
                    found.add(submodule if submodule in files else node.module)
        graph[name] = {module for module in found if module in files and module != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_the_imports_make_no_circle() -> None:
    """A circle of imports means two modules that cannot be understood (or loaded) apart;
    one hidden by an import inside a function is still a circle."""
    assert circles(import_graph()) == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


LONGEST_FUNCTION = 65  # lines, the house rule (../shared/DESIGN.md)


def long_functions() -> dict[str, int]:
    """Every function outside tests/ longer than the rule: "path:name" -> its lines."""
    found: dict[str, int] = {}
    checked = ("bench", "calibration", "companion", "hardware", "pi", "tools", "training", "web")
    for folder in checked:
        for path in modules(folder):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    if lines > LONGEST_FUNCTION:
                        found[f"{path.relative_to(ROOT).as_posix()}:{node.name}"] = lines
    return found


def test_no_function_outside_the_tests_is_over_65_lines() -> None:
    """A function that long does several jobs: split it into named steps (issue 29)."""
    found = long_functions()
    assert not found, f"split these into named steps of at most {LONGEST_FUNCTION} lines: {found}"
