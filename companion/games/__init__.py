"""The games the companion serves, found by their public names (as python-chess finds variants)."""

from __future__ import annotations

from typing import Any

from companion.engine.errors import UnknownGameError
from companion.engine.spec import GameSpec
from companion.games import hamster_wheel, hamsterdam, rats, run_hamster_run

#: Every game by its public name, one line per game, in the order the page offers them.
GAMES: dict[str, GameSpec[Any]] = {
    spec.name: spec
    for spec in (
        run_hamster_run.SPEC,
        hamsterdam.SPEC,
        hamster_wheel.SPEC,
        rats.SPEC,
    )
}


def find_game(name: str) -> GameSpec[Any]:
    """The game registered under ``name`` (case and spaces forgiven; empty: the first one)."""
    if not name.strip():
        return next(iter(GAMES.values()))
    key = name.strip().lower().replace(" ", "-").replace(",", "").replace("!", "")
    if key in GAMES:
        return GAMES[key]
    known = ", ".join(sorted(GAMES))
    raise UnknownGameError(f"There is no game called {name!r}; the companion knows: {known}.")
