"""The history's CSV export opens in a spreadsheet as text: a name is never run as a formula."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from companion import history
from companion.history_export import to_csv
from companion.store import Store
from tests.runtime.test_history import play_to_end

# Names a player could type; each would be a formula (or a cell that runs one) as typed.
NAMES = ('=HYPERLINK("http://x.example","win")', "+1+1", "-2+3", "@SUM(1)", "\tTab", "\rCr")


def test_cells_a_spreadsheet_would_run_start_with_an_apostrophe(tmp_path: Path) -> None:
    store = Store(tmp_path / "companion.sqlite3")
    try:
        game_id = play_to_end(store, "hamster-wheel", 4, names=NAMES[:4])
        plays = history.plays(store)
    finally:
        store.close()
    rows = list(csv.DictReader(io.StringIO(to_csv(plays))))
    (row,) = rows
    assert row["id"] == str(game_id)  # numbers stay numbers
    for name in ("players", "winners", "result"):
        cell = row[name]
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), (name, cell)
    assert row["players"] == "'" + "; ".join(NAMES[:4])  # kept as typed after the apostrophe


def test_every_formula_start_is_neutralised_and_plain_text_is_not() -> None:
    from companion.history_export import spreadsheet_safe

    for name in NAMES:
        assert spreadsheet_safe(name) == "'" + name
    assert spreadsheet_safe("Ann; Bob") == "Ann; Bob"
    assert spreadsheet_safe(-3) == -3  # a number cell is a number, not a formula
