"""The JSON API the page uses: read the state, log in with the PIN, change the game."""

from __future__ import annotations

import json
import logging
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, TypeVar

from flask import Blueprint, Response, jsonify, request
from flask.typing import ResponseReturnValue

from companion.engine.errors import IllegalMoveError, UnknownGameError
from companion.engine.events import MOVE, NEXT, Event
from companion.engine.redact import is_secret, public_event
from companion.engine.session import GameHeader
from companion.errors import CompanionError
from companion.games import GAMES, find_game
from companion.intents import INTENTS
from companion.joining import svg_qr
from companion.public import public_state
from companion.worker import TableClosedError
from web.auth import (
    TOKEN_HEADER,
    AccessNotSavedError,
    Grant,
    ThrottledError,
    WrongPinError,
    WrongSeatCodeError,
)
from web.checks import check_colours, check_seed, check_value, parse_body
from web.context import companion
from web.errors import ApiError

log = logging.getLogger(__name__)
bp = Blueprint("api", __name__, url_prefix="/api")

WAIT_SECONDS = 10.0
T = TypeVar("T")
# NEXT (UNDO, REDO, READ) carrying the change the page showed ("at", and its "game") applies
# only if the game is still there: two tablets pressing NEXT together must not step the
# game twice (the second NEXT skipped the players' moment to answer the first, e.g. a
# flood's specials). The table checks it on its worker, in line with the buttons, phones
# and camera, so it is one or the other, never both.
NO_EVENT_BOARD = (
    "This table is on no event's broker: set host in the [mqtt] section of its config "
    "(docs/event-board.md), or run `companion board --broker HOST`."
)
MAX_GIVEN = 60  # a Rats pool can grow past thirty dice; every one is a given face


def _body() -> dict[str, Any]:
    return parse_body(request.get_data(cache=True))


def _token() -> str | None:
    return request.headers.get(TOKEN_HEADER)


def _grant() -> Grant | None:
    return companion().grant(_token())


def _require_control() -> None:
    if not companion().pin.allows(_token()):
        raise ApiError(401, "Enter the table PIN to control the game; watching needs none.")


def _state_for_requester(with_log: bool = True) -> dict[str, Any]:
    """The public state as this requester may see it: a seat its own secrets, the PIN
    holder the secret buttons players enter in turn, a watcher neither."""
    grant = _grant()
    seat = grant.seat if grant is not None else None
    control = grant is not None and grant.table
    return public_state(companion().table.snapshot, seat, control, with_log=with_log)


def _offered(event: Event) -> bool:
    """Whether ``event`` is one of the moves the page offered as a button just now."""
    legal = public_state(companion().table.snapshot, None, True, with_log=False).get("legal") or []
    return any(
        (c["seat"], c["name"], c["args"]) == (event.seat, event.name, event.args) for c in legal
    )


def _answer(submitted: Future[T]) -> T:
    """The table worker's answer to a request, waited for as long as a tablet will wait.

    Every request that queues work on the table fails the same three ways, and each gets
    the same sentence wherever it was asked: the table is stopping, the games file refused
    (full card, read-only, damaged), or the worker is still busy. Anything else — a
    refused move, a bug — is left to the caller, which knows what was asked.
    """
    try:
        return submitted.result(timeout=WAIT_SECONDS)
    except TableClosedError:
        raise ApiError(503, "The companion is shutting down; try again in a moment.") from None
    except IllegalMoveError:
        raise
    except CompanionError as error:  # the games file: full card, read-only, damaged
        raise ApiError(503, str(error)) from None
    except FutureTimeout:
        raise ApiError(503, "The companion is busy; try again in a moment.") from None


def _apply(
    intent: str | Event, shown: tuple[int | None, int] | None = None, auto: bool = False
) -> ResponseReturnValue:
    table = companion().table
    try:
        event = _answer(table.submit(intent, source="tablet", shown=shown, auto=auto))
    except IllegalMoveError as error:
        raise ApiError(409, str(error)) from None
    except ApiError:
        raise
    except Exception:
        # Not a refusal. For a button the page offered, that is a bug in the game's code:
        # logged loudly with its traceback. For details typed by hand, the game could not
        # read them. Either way the table's worker changed nothing.
        if isinstance(intent, Event) and not _offered(intent):
            log.warning("api: the game could not read %r", _loggable(intent), exc_info=True)
            raise ApiError(
                400,
                f"The rules cannot read those details for '{intent.name}'; "
                "use one of the offered buttons or check each value.",
            ) from None
        log.exception("api: applying %r failed", _loggable(intent))
        raise ApiError(
            500, "The companion could not apply that (a bug, now in its log); nothing changed."
        ) from None
    return jsonify(event=_event_for_requester(event), state=_state_for_requester(with_log=False))


def _loggable(intent: str | Event) -> object:
    """What the log may say of an input: a secret move without its arguments (the journal
    is no place for a Pluck allocation or the specials a player kept)."""
    snap = companion().table.snapshot
    if not isinstance(intent, Event) or snap.spec is None or snap.state is None:
        return intent
    if is_secret(snap.spec, snap.state, intent):
        return public_event(snap.spec, snap.state, intent, False, None)
    return intent


def _event_for_requester(event: Event) -> dict[str, Any]:
    """The applied event as the requester may see it: a card dealt to a phone stays that
    phone's, even in the answer to the tablet that pressed the button."""
    snap = companion().table.snapshot
    grant = _grant()
    seat = None if grant is None else grant.seat
    if snap.spec is None or snap.state is None:
        return event.to_json()
    shown = public_event(snap.spec, snap.state, event, False, seat)
    shown.pop("undone", None)
    return shown


@bp.get("/state")
def state() -> ResponseReturnValue:
    data = _state_for_requester()
    grant = _grant()
    data["control"] = grant is not None and grant.table
    data["seat"] = None if grant is None else grant.seat
    data["devices"] = companion().devices()
    return jsonify(data)


@bp.get("/devices")
def devices() -> ResponseReturnValue:
    """One line per device (buttons, camera, keyboard), polled by the page's camera panel."""
    return jsonify(companion().devices())


@bp.get("/board")
def event_board() -> ResponseReturnValue:
    """Every table at the event and the standings across them, polled by ``/board``.
    Public facts only (what each table publishes), so no token is asked for."""
    board = companion().event_board
    if board is None:
        return jsonify(off=NO_EVENT_BOARD, tables=[], standings=[])
    return jsonify(board())


@bp.get("/board/export.<kind>")
def event_export(kind: str) -> ResponseReturnValue:
    """The event's results as one file (``kind``: csv or json), for the organiser."""
    from companion.mqtt.export import export_csv

    export = companion().event_export
    if export is None:
        return jsonify(error=NO_EVENT_BOARD), 404
    if kind not in ("csv", "json"):
        return jsonify(error="The event's results download as export.csv or export.json."), 404
    data = export()
    stamp = time.strftime("%Y-%m-%d-%H%M", time.localtime(data["exported"]))
    body = export_csv(data) if kind == "csv" else json.dumps(data, indent=2)
    kinds = {"csv": "text/csv; charset=utf-8", "json": "application/json"}
    response = Response(body, content_type=kinds[kind])
    response.headers["Content-Disposition"] = f'attachment; filename="event-{stamp}.{kind}"'
    return response


@bp.get("/vision")
def vision() -> ResponseReturnValue:
    """The camera's read-only notes by reading kind, polled by the page between events.

    They change without a game event (a hand moves a piece, the wheel rolls), so the live
    stream, whose ids are event numbers, does not carry them on its own.
    """
    data = public_state(companion().table.snapshot, with_log=False)
    return jsonify(camera=data.get("camera") or {})


@bp.get("/games")
def games() -> ResponseReturnValue:
    return jsonify(
        games=[
            {
                "name": spec.name,
                "title": spec.title,
                "rules": list(spec.rule_sets),
                "default_rules": spec.rules_default,
                "min_players": spec.min_players,
                "max_players": spec.max_players,
                "options": {name: o.to_json() for name, o in spec.options.items()},
            }
            for spec in GAMES.values()
        ]
    )


@bp.post("/login")
def login() -> ResponseReturnValue:
    pin = _body().get("pin")
    if not isinstance(pin, str) or not 0 < len(pin) <= 64:
        raise ApiError(400, "Type the table PIN; it is shown on the companion's screen and log.")
    client = request.remote_addr or "unknown"
    pins = companion().pin
    try:
        token = pins.login(client, pin)
    except ThrottledError as wait:
        raise ApiError(429, str(wait)) from None
    except WrongPinError:
        raise ApiError(
            403, "That PIN is not right; look at the companion's screen or log."
        ) from None
    return jsonify(token=token, expires_in=round(pins.token_seconds))


@bp.get("/seats")
def seats() -> ResponseReturnValue:
    """Each seat's join code, address and QR code, for the tablet to show (PIN holders only:
    whoever sees a seat's code can act for that seat)."""
    _require_control()
    table, pins = companion().table, companion().pin
    game_id = table.game_id
    if game_id is None:
        raise ApiError(409, "Start a game first; each seat's code belongs to one game.")
    players = public_state(table.snapshot, with_log=False).get("players") or []
    found = []
    for seat, name in enumerate(players):
        code = pins.seat_code(game_id, seat)
        url = f"{request.host_url}seat/{code}"
        found.append({"seat": seat, "name": name, "code": code, "url": url, "svg": svg_qr(url, 4)})
    return jsonify(game_id=game_id, seats=found)


@bp.post("/join")
def join() -> ResponseReturnValue:
    """A phone joins its seat with the code the tablet shows: no PIN, only that seat."""
    code = _body().get("code")
    if not isinstance(code, str) or not 0 < len(code) <= 16:
        raise ApiError(
            400, "Scan your seat's code on the tablet, or type the six letters under it."
        )
    pins, playing = companion().pin, companion().table.game_id
    try:
        token, seat, game_id = pins.join(request.remote_addr or "unknown", code, playing)
    except ThrottledError as wait:  # a phone typed no PIN: say what the wait is for
        raise ApiError(
            429,
            f"Too many wrong codes or PINs were tried at this table: wait "
            f"{max(1, round(wait.seconds))} s, then scan your seat's code again.",
        ) from None
    except WrongSeatCodeError as error:
        raise ApiError(403, str(error)) from None
    return jsonify(token=token, seat=seat, game_id=game_id, expires_in=round(pins.token_seconds))


@bp.post("/logout")
def logout() -> ResponseReturnValue:
    """Lock this tablet (its token ends), or with ``{"all": true}`` every tablet and phone."""
    body = _body()
    pins = companion().pin
    if body.get("all") is True:
        _require_control()
        try:
            return jsonify(ended=pins.revoke_all())
        except AccessNotSavedError as error:
            raise ApiError(503, str(error)) from None
    return jsonify(ended=int(pins.revoke(_token())))


@bp.post("/intent")
def intent() -> ResponseReturnValue:
    _require_control()
    body = _body()
    name = body.get("intent")
    if name not in INTENTS:
        raise ApiError(400, f"'intent' must be one of: {', '.join(INTENTS)}.")
    given = body.get("given")
    chosen: str | Event = str(name)
    if given is not None and name == "next":  # dice the players rolled, for NEXT to take
        chosen = Event(NEXT, given=_checked_dice(given))
    auto = body.get("auto", False)
    if not isinstance(auto, bool):
        raise ApiError(400, "'auto' is true (the page passes a step nobody decides in) or false.")
    at, game = body.get("at"), body.get("game")
    if at is None:
        return _apply(chosen, auto=auto)
    if isinstance(at, bool) or not isinstance(at, int) or at < 0:
        raise ApiError(400, "'at' is the number of the last change the page shows.")
    if game is not None and (isinstance(game, bool) or not isinstance(game, int)):
        raise ApiError(400, "'game' is the number of the game the page shows.")
    return _apply(chosen, shown=(game, at), auto=auto)


@bp.post("/settings")
def settings() -> ResponseReturnValue:
    """Change how the whole table plays (every tablet and phone): ``every_stop`` true keeps
    every stop for NEXT, false lets a step nobody decides in pass on its own."""
    _require_control()
    every_stop = _body().get("every_stop")
    if not isinstance(every_stop, bool):
        raise ApiError(400, "'every_stop' is true (press NEXT at every stop) or false.")
    _answer(companion().table.keep_every_stop(every_stop))
    return jsonify(state=_state_for_requester(with_log=False))


def _checked_dice(given: object) -> tuple[int, ...]:
    if (
        not isinstance(given, list)
        or len(given) > MAX_GIVEN
        or not all(isinstance(g, int) and not isinstance(g, bool) and 1 <= g <= 20 for g in given)
    ):
        raise ApiError(400, "'given' lists the dice as whole numbers, for example [3, 5].")
    return tuple(given)


@bp.post("/move")
def move() -> ResponseReturnValue:
    grant = _grant()
    if grant is None:
        raise ApiError(
            401, "Enter the table PIN to control the game, or scan your seat's code on the tablet."
        )
    body = _body()
    name, seat, args = body.get("name"), body.get("seat"), body.get("args", {})
    if not isinstance(name, str) or not name or len(name) > 40:
        raise ApiError(400, "Say which move: 'name' is text such as \"run\".")
    if not isinstance(args, dict):
        raise ApiError(400, "'args' must be an object.")
    check_value(args)
    players = public_state(companion().table.snapshot, with_log=False).get("players") or []
    if isinstance(seat, str) and seat in players:
        seat = players.index(seat)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(players):
        raise ApiError(400, "'seat' must name a player of this game.")
    if not grant.table and seat != grant.seat:
        mine = players[grant.seat] if grant.seat is not None and grant.seat < len(players) else "?"
        raise ApiError(403, f"This phone is {mine}'s seat: it can only make {mine}'s moves.")
    given = _checked_dice(body.get("given", []))
    return _apply(Event(MOVE, name=name, seat=seat, args=args, given=given))


@bp.post("/game")
def new_game() -> ResponseReturnValue:
    _require_control()
    body = _body()
    game = body.get("game", "")  # left out: the first game, as ``companion run`` starts
    if not isinstance(game, str):
        known = ", ".join(sorted(GAMES))
        raise ApiError(400, f"'game' is missing: name the game to start, one of: {known}.")
    try:
        spec = find_game(game)
    except UnknownGameError as error:
        raise ApiError(400, str(error)) from None
    players = body.get("players")
    if not isinstance(players, list) or not all(
        isinstance(p, str) and len(p.strip()) <= 24 for p in players
    ):
        raise ApiError(400, "'players' must be a list of names (1 to 24 letters each).")
    if not all(p.strip() for p in players):
        # A blank name would be stored for ever as a player called "" (names are stripped).
        raise ApiError(
            400, "A player's name is blank: type a name for each player (1 to 24 letters)."
        )
    rules = body.get("rules") or spec.rules_default
    if not isinstance(rules, str) or len(rules) > 40:
        raise ApiError(400, "'rules' names a rule set, such as \"v2.1\".")
    options: dict[str, Any] = {}
    colours = body.get("colours")
    if colours:
        options["colours"] = check_colours(colours)
    roll_for_us = body.get("roll_for_us", False)
    if not isinstance(roll_for_us, bool):
        raise ApiError(400, "'roll_for_us' is true or false.")
    if roll_for_us:
        options["roll_for_us"] = True
    demo = body.get("demo", False)
    if not isinstance(demo, bool):
        raise ApiError(400, "'demo' is true (the simulated camera's dice play) or false.")
    if demo:
        options["demo"] = True
    chosen = body.get("options") or {}
    if not isinstance(chosen, dict):
        raise ApiError(400, "'options' is an object such as {\"rounds\": 8}.")
    for name, value in chosen.items():
        option = spec.options.get(name)
        if option is None:
            known = ", ".join(spec.options) or "none"
            raise ApiError(400, f"{spec.title} has no option {name!r}; its options: {known}.")
        try:
            options[name] = option.check(name, value)
        except ValueError as error:
            raise ApiError(400, str(error)) from None
    seed = check_seed(body.get("seed"))
    table = companion().table
    header = table.default_header(seed)
    header = GameHeader(
        spec.name, str(rules), tuple(p.strip() for p in players), header.seed, options
    )
    try:
        game_id = table.new_game(header)
    except (IllegalMoveError, UnknownGameError) as error:
        raise ApiError(409, str(error)) from None
    return jsonify(game_id=game_id, state=_state_for_requester())
