"""Saved games and scenario files: one versioned JSON document per game.

Format (``"format": "hamster-companion/game"``, ``"version": 1``)::

    {"format": "hamster-companion/game", "version": 1,
     "game": "<a game's name>", "rules": "<its rule set>", "seed": 7,
     "players": ["Alice", "Bob"], "options": {}, "given": [],
     "events": [{"kind": "move", "seat": "Alice", "name": "place", "args": {...},
                 "given": [...]}, {"kind": "next"}, {"kind": "undo"}, ...]}

A seat may be written as the player's name or index. ``given`` lists outcomes that do not
come from the seeded generator, in the order the rules ask for them: dice rolled by hand,
or HAT draws forced by a test. The format is a public interface: it only ever grows.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from companion.engine.errors import ScenarioError
from companion.engine.events import KINDS, Event
from companion.engine.session import GameHeader

FORMAT = "hamster-companion/game"
VERSION = 1


def dumps(header: GameHeader, events: list[Event], *, indent: int | None = 1) -> str:
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "game": header.game,
        "rules": header.rules,
        "seed": header.seed,
        "players": list(header.players),
        "options": dict(header.options),
        "given": list(header.given),
        "events": [event.to_json() for event in events],
    }
    return json.dumps(doc, indent=indent)


def loads(text: str) -> tuple[GameHeader, list[Event]]:
    """Parse a saved game or scenario; raise :class:`ScenarioError` saying what is wrong."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        raise ScenarioError(
            f"The file is not valid JSON (line {error.lineno}, column {error.colno}): {error.msg}."
        ) from None
    if not isinstance(doc, dict):
        raise ScenarioError("The file must hold one JSON object with 'game' and 'events'.")
    if doc.get("format", FORMAT) != FORMAT:
        raise ScenarioError(f"The file's format is {doc.get('format')!r}, expected {FORMAT!r}.")
    version = doc.get("version", VERSION)
    if not isinstance(version, int) or version > VERSION:
        raise ScenarioError(
            f"The file is format version {version!r}; this companion reads up to {VERSION}: "
            "upgrade the companion."
        )
    for key in ("game", "players"):
        if key not in doc:
            raise ScenarioError(f"The file has no {key!r}; add it at the top level.")
    players = doc["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ScenarioError('\'players\' must be a list of names, for example ["Alice", "Bob"].')
    seed = doc.get("seed", 0)
    if not isinstance(seed, int):
        raise ScenarioError(f"'seed' must be a whole number, not {seed!r}.")
    header = GameHeader(
        game=str(doc["game"]),
        rules=str(doc.get("rules", "")),
        players=tuple(players),
        seed=seed,
        options=dict(doc.get("options") or {}),
        given=tuple(_seats_by_index(v, tuple(players)) for v in doc.get("given") or ()),
    )
    raw_events = doc.get("events", [])
    if not isinstance(raw_events, list):
        raise ScenarioError("'events' must be a list.")
    events = [_event(raw, i, header.players) for i, raw in enumerate(raw_events, start=1)]
    return header, events


def _event(raw: Any, number: int, players: tuple[str, ...]) -> Event:
    if not isinstance(raw, Mapping):
        raise ScenarioError(f'Event {number} must be an object like {{"kind": "next"}}.')
    kind = raw.get("kind", "move" if "name" in raw else None)
    if kind not in KINDS:
        raise ScenarioError(f"Event {number} has kind {kind!r}; use one of {', '.join(KINDS)}.")
    seat = raw.get("seat")
    if isinstance(seat, str):
        if seat not in players:
            raise ScenarioError(f"Event {number} names seat {seat!r}, who is not a player.")
        seat = players.index(seat)
    elif seat is not None and not (isinstance(seat, int) and 0 <= seat < len(players)):
        raise ScenarioError(f"Event {number} has seat {seat!r}; use a player's name.")
    args = raw.get("args") or {}
    if not isinstance(args, Mapping):
        raise ScenarioError(f"Event {number}: 'args' must be an object.")
    given = raw.get("given") or []
    if not isinstance(given, list):
        raise ScenarioError(f"Event {number}: 'given' must be a list.")
    return Event(
        kind=str(kind),
        name=str(raw.get("name", "")),
        seat=seat,
        args=dict(args),
        given=tuple(_seats_by_index(value, players) for value in given),
        source=str(raw.get("source", "")),
    )


def _seats_by_index(value: Any, players: tuple[str, ...]) -> Any:
    """Let scenario writers name the HAT's winner ("Alice") instead of a seat index."""
    if isinstance(value, str) and value in players:
        return players.index(value)
    if isinstance(value, list):
        return [_seats_by_index(item, players) for item in value]
    return value
