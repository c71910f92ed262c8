"""The History page and its API: finished games, per-player stats, exports, delete/undo.

Reading the history is watching, so it needs no PIN. Deleting a game needs the table PIN
typed for that deletion (even on an unlocked tablet: the history is everybody's), checked
with the same throttle as logging in. The answer carries a one-time undo ticket, so the
page's Undo works without keeping the PIN, for as long as the deleted game is kept.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from companion import history
from companion.history_export import bgstats_file, bgstats_link, figures_text, to_csv
from companion.store import Store, StoreError
from web.auth import TOKEN_HEADER, ThrottledError, WrongPinError
from web.checks import parse_body
from web.context import companion
from web.errors import ApiError

bp = Blueprint("history", __name__)
TICKETS = "history_undo_tickets"


def _store() -> Store:
    return companion().table.store


@contextmanager
def _answers() -> Iterator[None]:
    """A history request's errors as answers: a request that cannot be done is a conflict
    (its sentence says why), a store that cannot be read or written is unavailable."""
    try:
        yield
    except history.HistoryError as error:
        raise ApiError(409, str(error)) from None
    except StoreError as error:
        raise ApiError(503, str(error)) from None


def _plays() -> list[history.Play]:
    with _answers():
        return history.plays(_store())


def _shown(play: history.Play) -> dict[str, Any]:
    """A play as the page lists it: the summary plus the texts people read."""
    data = play.to_json()
    data["date"] = datetime.fromtimestamp(play.started).strftime("%Y-%m-%d %H:%M")
    data["length"] = history.length_text(play.seconds)
    data["figures_text"] = figures_text(play.figures)
    data["bgstats_link"] = bgstats_link(play)
    return data


@bp.get("/history")
def page() -> ResponseReturnValue:
    return render_template("history.html")


@bp.get("/api/history")
def listing() -> ResponseReturnValue:
    found = _plays()
    return jsonify(
        plays=[_shown(p) for p in found],
        stats=[s.to_json() for s in history.player_stats(found)],
        undo_seconds=history.UNDO_SECONDS,
    )


@bp.get("/api/history/last-players")
def last_players() -> ResponseReturnValue:
    """The latest game's names and colours, for the new-game form's "Same players again"."""
    found = history.last_players(_store())
    if found is None:
        raise ApiError(404, "No game has been played yet: type the players' names.")
    return jsonify(players=list(found[0]), colours=list(found[1]))


def _download(text: str, mimetype: str, name: str) -> Response:
    return Response(
        text,
        mimetype=mimetype,
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@bp.get("/api/history/plays.csv")
def export_csv() -> Response:
    return _download(to_csv(_plays()), "text/csv", "hamster-history.csv")


@bp.get("/api/history/bgstats.json")
def export_bgstats() -> Response:
    text = json.dumps(bgstats_file(_plays()), indent=1, ensure_ascii=False)
    return _download(text, "application/json", "hamster-history-bgstats.json")


def _check_pin(pin: object) -> None:
    """The table PIN, throttled like a login; the token the check makes is ended at once."""
    if not isinstance(pin, str) or not 0 < len(pin) <= 64:
        raise ApiError(400, "Type the table PIN to delete a game; it is on the companion's screen.")
    pins = companion().pin
    try:
        pins.revoke(pins.login(request.remote_addr or "unknown", pin))
    except ThrottledError as wait:
        raise ApiError(429, str(wait)) from None
    except WrongPinError:
        raise ApiError(403, "That PIN is not right; nothing was deleted.") from None


def _tickets(app: Flask) -> dict[str, tuple[int, float]]:
    found: dict[str, tuple[int, float]] = app.extensions.setdefault(TICKETS, {})
    now = time.time()
    for key in [k for k, (_, until) in found.items() if until < now]:
        del found[key]
    return found


@bp.post("/api/history/<int:game_id>/delete")
def delete(game_id: int) -> ResponseReturnValue:
    _check_pin(parse_body(request.get_data(cache=True)).get("pin"))
    with _answers():
        history.delete(_store(), game_id)
    ticket = secrets.token_urlsafe(16)
    _tickets(current_app)[ticket] = (game_id, time.time() + history.UNDO_SECONDS)
    return jsonify(
        deleted=game_id,
        undo=ticket,
        undo_seconds=history.UNDO_SECONDS,
        message=f"Game {game_id} deleted.",
    )


@bp.post("/api/history/<int:game_id>/undelete")
def undelete(game_id: int) -> ResponseReturnValue:
    """Undo a deletion: with the ticket the deletion gave, or from an unlocked tablet."""
    ticket = parse_body(request.get_data(cache=True)).get("undo")
    tickets = _tickets(current_app)
    held = isinstance(ticket, str) and tickets.get(ticket, (None, 0.0))[0] == game_id
    if not held and not companion().pin.allows(request.headers.get(TOKEN_HEADER)):
        raise ApiError(401, "Undo from the tablet that deleted the game, or unlock with the PIN.")
    with _answers():
        history.undelete(_store(), game_id)
    if held:
        del tickets[str(ticket)]
    return jsonify(restored=game_id, message=f"Game {game_id} is back in the history.")
