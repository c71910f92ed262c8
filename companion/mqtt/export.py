"""The event day's results in one file: every table's finished games, each player's place
in each, and the standings across tables, as JSON (for a program) or CSV (a spreadsheet).

Why from the board and not from each table's history: the organiser has one machine at
the front desk and the broker keeps every table's finished games (``results/<id>``), so
the whole day is one command (``companion board --export FILE``) or one download on
``/board``, without walking to each Pi. What counts is what the standings count: games a
table deleted from its history and demo tables' games are left out.

Names come from the tables (typed by players), so a CSV cell that a spreadsheet would run
as a formula (``=``, ``+``, ``-``, ``@`` first) is written with a leading apostrophe.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Iterable, Mapping
from typing import Any

from companion.history_export import spreadsheet_safe
from companion.mqtt.board import Board, tournament

EXPORT_FORMAT = 1
CSV_COLUMNS = (
    "kind",
    "table",
    "game_id",
    "game",
    "rules",
    "player",
    "place",
    "figure",
    "won",
    "result",
    "wins",
    "beaten",
    "leading",
    "games",
)


def finished_games(
    tables: Mapping[str, Mapping[str, Any]], results: Iterable[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Every finished game that counts, once, by table then game id."""
    games: dict[tuple[str, Any], Mapping[str, Any]] = {}
    for result in results:
        games[(str(result.get("table")), result.get("game_id"))] = result
    for name, state in tables.items():
        if state.get("over") and state.get("game") is not None:
            games.setdefault((name, state.get("game_id")), {**state, "table": name})
    kept = [g for g in games.values() if not g.get("demo") and not g.get("deleted")]
    return [_game(g) for g in sorted(kept, key=lambda g: (str(g["table"]), _id(g)))]


def _id(game: Mapping[str, Any]) -> int:
    value = game.get("game_id")
    return value if isinstance(value, int) else -1


def _game(state: Mapping[str, Any]) -> dict[str, Any]:
    players = [str(p) for p in state.get("players") or []]
    winners = [players[s] for s in state.get("winners") or [] if 0 <= s < len(players)]
    return {
        "table": str(state.get("table")),
        "game_id": state.get("game_id"),
        "game": state.get("title") or state.get("game"),
        "rules": state.get("rules"),
        "players": players,
        "winners": winners,
        "result": state.get("result") or "",
        "places": [
            {
                "player": str(entry.get("name")),
                "place": int(entry.get("rank", 1)),
                "figure": entry.get("figure") or "",
                "won": bool(entry.get("leads")),
            }
            for entry in state.get("standings") or []
        ],
        "finished_at": state.get("sent"),
    }


def event_export(
    tables: Mapping[str, Mapping[str, Any]],
    results: Iterable[Mapping[str, Any]],
    now: float | None = None,
) -> dict[str, Any]:
    """The whole day as data: tables now, finished games, standings, players' results."""
    results = list(results)
    games = finished_games(tables, results)
    players: dict[str, dict[str, Any]] = {}
    for game in games:
        for place in game["places"]:
            key = place["player"].strip().casefold()
            entry = players.setdefault(key, {"player": place["player"].strip(), "games": []})
            entry["games"].append(
                {"table": game["table"], "game_id": game["game_id"], "game": game["game"]}
                | {k: place[k] for k in ("place", "figure", "won")}
            )
    return {
        "format": EXPORT_FORMAT,
        "exported": time.time() if now is None else now,
        "tables": [
            {
                "table": name,
                "online": bool(state.get("online")),
                "game": state.get("title") or state.get("game"),
                "over": bool(state.get("over")),
                "demo": bool(state.get("demo")),
                "asked_for": state.get("wanted") or None,
            }
            for name, state in tables.items()
        ],
        "games": games,
        "standings": [
            {"place": place, "player": t.name, "wins": t.wins, "beaten": t.beaten}
            | {"leading": t.leading, "games": t.games}
            for place, t in enumerate(tournament(tables, results), 1)
        ],
        "players": sorted(players.values(), key=lambda p: p["player"].casefold()),
    }


def board_export(board: Board) -> dict[str, Any]:
    """The event's results as a board fed from the broker has them now."""
    return event_export(board.tables(), board.results())


def cell(value: Any) -> object:
    """A CSV cell a spreadsheet shows as text, never runs as a formula (the history's
    export's own rule)."""
    return spreadsheet_safe("" if value is None else str(value))


def export_csv(export: Mapping[str, Any]) -> str:
    """One row per player per finished game (``kind`` game), then one per line of the
    standings (``kind`` standing); every row says what it is."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for game in export["games"]:
        for place in game["places"]:
            row = {"kind": "game", **game, **place, "won": "yes" if place["won"] else "no"}
            writer.writerow([cell(row.get(column, "")) for column in CSV_COLUMNS])
    for standing in export["standings"]:
        row = {"kind": "standing", **standing}
        writer.writerow([cell(row.get(column, "")) for column in CSV_COLUMNS])
    return out.getvalue()
