"""The play history as files other tools read: CSV for a spreadsheet, and BG Stats plays.

BG Stats documents one way in for plays made elsewhere: a link
``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>`` that opens the
app's import dialog for one play (https://www.bgstatsapp.com/support/push-plays-to-bg-stats-
from-other-apps-or-websites/). It documents no file of many plays, so the BG Stats export
is a JSON file holding, for each game, that documented JSON and its ready-made link: open
the links on the phone with BG Stats, or hand the JSON to any tool that speaks it. Only
the fields that page documents are written.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any
from urllib.parse import quote

from companion.history import Play

BGSTATS_DOC = (
    "https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/"
)
BGSTATS_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
CSV_COLUMNS = (
    "id",
    "date",
    "game",
    "rules",
    "players",
    "colours",
    "winners",
    "result",
    "minutes",
    "rounds",
    "figures",
)


def local_time(seconds: float) -> str:
    """The format BG Stats documents for ``playDate``, in the table's own time zone."""
    return datetime.fromtimestamp(seconds).strftime("%Y-%m-%d %H:%M:%S")


def minutes(play: Play) -> int | None:
    return None if play.seconds is None else round(play.seconds / 60)


def figure_name(key: str) -> str:
    """``speed_at_end`` -> ``speed at end``: the games' own names, readable."""
    return key.replace("_", " ")


def figure_value(value: float | str) -> str:
    if isinstance(value, str):
        return value
    return f"{value:g}" if value == int(value) else f"{value:.2f}"


def figures_text(figures: Mapping[str, float | str]) -> str:
    return "; ".join(f"{figure_name(k)} {figure_value(v)}" for k, v in figures.items())


# A cell starting with one of these is run as a formula by Excel, LibreOffice or Sheets
# (OWASP's CSV injection rule): a player named "=HYPERLINK(...)" must stay a name.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: object) -> object:
    """A text cell a spreadsheet would run, with a leading apostrophe (shown as typed);
    numbers and every other text unchanged."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def to_csv(plays: Iterable[Play]) -> str:
    """One row per game, with a header; names and figures joined by "; "."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for play in plays:
        time_taken = minutes(play)
        row: list[object] = [
            play.id,
            local_time(play.started),
            play.title,
            play.rules,
            "; ".join(play.players),
            "; ".join(play.colours),
            "; ".join(play.winner_names),
            play.result,
            "" if time_taken is None else time_taken,
            play.rounds,
            figures_text(play.figures),
        ]
        writer.writerow([spreadsheet_safe(cell) for cell in row])
    return out.getvalue()


def bgstats_play(play: Play) -> dict[str, Any]:
    """One play in the JSON BG Stats documents for its import link.

    These games keep no points, so ``noPoints`` is set and no score is sent; the rule set
    goes in ``board`` (the board or variant used), a seat's colour in ``role``, the game's
    own result sentence and figures in ``comments``. The start player is the one the game
    names (Hamsterdam's roll-off winner); a game that names none sends no ``startPlayer``
    rather than call seat 1 the start player.
    """
    players = []
    for seat, name in enumerate(play.players):
        won = seat in play.winners
        player: dict[str, Any] = {
            "name": name,
            "sourcePlayerId": name.strip().casefold(),
            "winner": won,
        }
        if play.start_player is not None:
            player["startPlayer"] = seat == play.start_player
        if seat < len(play.colours) and play.colours[seat]:
            # Only a colour that was chosen: an empty role would show as a blank role in
            # the app for every player of a game started without colours.
            player["role"] = play.colours[seat]
        if play.winners:
            player["rank"] = 1 if won else 2
        players.append(player)
    comments = play.result
    if play.figures:
        comments = f"{comments} ({figures_text(play.figures)})"
    data: dict[str, Any] = {
        "playDate": local_time(play.started),
        "board": play.rules,
        "comments": comments,
        "game": {
            "name": play.title,
            "sourceGameId": play.game,
            "highestWins": not play.lowest_wins,
            "noPoints": True,
        },
        "players": players,
    }
    time_taken = minutes(play)
    if time_taken is not None:
        data["durationMin"] = time_taken
    return data


def bgstats_link(play: Play) -> str:
    """The documented link that opens BG Stats' import dialog with this play."""
    return _link(bgstats_play(play))


def _link(data: Mapping[str, Any]) -> str:
    return BGSTATS_LINK + quote(json.dumps(data, separators=(",", ":")), safe="")


def bgstats_file(plays: Iterable[Play]) -> dict[str, Any]:
    """Every play in BG Stats' documented JSON, each with its import link."""
    return {
        "format": "BG Stats createPlay data, one entry per game",
        "documentation": BGSTATS_DOC,
        "plays": [{"data": data, "link": _link(data)} for data in map(bgstats_play, plays)],
    }
