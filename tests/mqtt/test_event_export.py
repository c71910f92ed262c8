"""The day's results file: what counts in the standings is what it lists, and a name typed
at a table can never run as a formula in the organiser's spreadsheet."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from click.testing import CliRunner

from companion.mqtt.export import event_export, export_csv
from companion.serve import companion_command


def game(table: str, game_id: int, names: list[str], **extra: Any) -> dict[str, Any]:
    standings = [
        {"name": n, "rank": i + 1, "figure": f"{i} water", "leads": i == 0}
        for i, n in enumerate(names)
    ]
    return {
        "format": 1,
        "table": table,
        "game_id": game_id,
        "game": "hamsterdam",
        "title": "Hamsterdam",
        "rules": "full",
        "players": names,
        "winners": [0],
        "over": True,
        "result": f"{names[0]} wins.",
        "standings": standings,
        "sent": 100.0,
    } | extra


def test_the_export_lists_what_the_standings_count_and_nothing_else() -> None:
    results = [
        game("t1", 1, ["Ann", "Bo"]),
        game("t1", 2, ["Bo", "ann "]),
        game("shop", 1, ["Demo", "Bot"], demo=True),
    ]
    tables = {
        "t1": {**game("t1", 2, ["Bo", "ann "]), "online": True},  # also in results: once
        "t2": {**game("t2", 4, ["Cy", "Ann"], deleted=True), "online": True},
        "t3": {**game("t3", 7, ["Dee", "Ann"], over=False), "online": True},
    }
    data = event_export(tables, results, now=200.0)
    assert [(g["table"], g["game_id"]) for g in data["games"]] == [("t1", 1), ("t1", 2)]
    assert {s["player"] for s in data["standings"]} == {"Ann", "Bo", "Dee"}
    ann = next(p for p in data["players"] if p["player"] == "Ann")
    assert [(g["game_id"], g["place"], g["won"]) for g in ann["games"]] == [
        (1, 1, True),
        (2, 2, False),
    ]
    assert [t["table"] for t in data["tables"]] == ["t1", "t2", "t3"]


@pytest.mark.parametrize("name", ['=HYPERLINK("http://x")', "+1", "-2", "@SUM(A1)"])
def test_a_name_that_looks_like_a_formula_stays_text(name: str) -> None:
    data = event_export({}, [game("t1", 1, [name, "Bo"])])
    rows = list(csv.DictReader(io.StringIO(export_csv(data))))
    assert {r["player"] for r in rows} == {f"'{name}", "Bo"}
    assert all(r["kind"] in ("game", "standing") for r in rows)


def test_an_export_file_of_another_kind_is_one_sentence() -> None:
    done = CliRunner().invoke(
        companion_command, ["board", "--broker", "127.0.0.1:1", "--export", "day.xlsx"]
    )
    assert done.exit_code != 0
    assert "neither a .csv nor a .json file" in done.output
