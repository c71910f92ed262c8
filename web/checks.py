"""What a request may carry, checked before anything reaches the engine or the store.

A value stored in a game's log is stored for ever, so it must be plain, finite and small:
a ``NaN`` once made every later ``/api/state`` invalid JSON, even after a restart. Bodies
are parsed strictly (no ``NaN``/``Infinity``, limited nesting) and every move argument is
walked before it becomes an event.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from web.errors import ApiError

MAX_DEPTH = 6  # nesting of lists and objects in a move's arguments
MAX_ITEMS = 200  # values in all of a move's arguments together
MAX_TEXT = 200  # characters in one string
MAX_KEY = 40
MAX_INT = 2**53  # what every JSON reader keeps exactly
MAX_SEED = 2**63 - 1
COLOUR = re.compile(r"^(?:[a-z]{3,20}|#[0-9a-f]{6})$")


def _no_constant(name: str) -> Any:
    raise ApiError(400, f"Numbers must be finite: {name} is not a number a game can use.")


def parse_body(raw: bytes) -> dict[str, Any]:
    """The request's JSON object; one sentence for anything else."""
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise ApiError(400, "Send the request body as UTF-8 JSON.") from None
    except RecursionError:
        raise ApiError(400, "The request body is nested too deeply.") from None
    except ValueError:
        raise ApiError(400, "Send a JSON object as the request body.") from None
    if not isinstance(data, dict):
        raise ApiError(400, "Send a JSON object as the request body.")
    return data


def check_value(
    value: Any, where: str = "args", depth: int = 0, budget: list[int] | None = None
) -> None:
    """Raise a 400 unless ``value`` is plain JSON a game can store for ever."""
    budget = budget if budget is not None else [MAX_ITEMS]
    budget[0] -= 1
    if budget[0] < 0:
        raise ApiError(400, f"'{where}' holds too many values for a move.")
    if depth > MAX_DEPTH:
        raise ApiError(400, f"'{where}' is nested too deeply for a move.")
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if abs(value) > MAX_INT:
            raise ApiError(400, f"'{where}' holds a number too large for a move.")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ApiError(400, f"'{where}' holds a number that is not finite.")
    elif isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise ApiError(400, f"'{where}' holds text longer than {MAX_TEXT} characters.")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_value(item, f"{where}[{index}]", depth + 1, budget)
    elif isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY:
                raise ApiError(400, f"'{where}' has a key that is not a short name.")
            check_value(item, f"{where}.{key}", depth + 1, budget)
    else:  # pragma: no cover - json.loads makes nothing else
        raise ApiError(400, f"'{where}' holds a value a game cannot use.")


def check_seed(seed: Any) -> int | None:
    """A seed is a whole number from 0 to 2^63-1 (it is stored in SQLite's integer)."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ApiError(400, "'seed' must be a whole number from 0 to 9223372036854775807.")
    return seed


def check_colours(colours: Any) -> list[str]:
    """Colour names or #rrggbb only: a colour is drawn into every tablet's page."""
    if not isinstance(colours, list) or len(colours) > 12:
        raise ApiError(400, "'colours' must be a list of colour names.")
    found = []
    for colour in colours:
        text = colour.strip().lower() if isinstance(colour, str) else ""
        if not COLOUR.match(text):
            raise ApiError(400, f"{colour!r} is not a colour: use a name such as red, or #rrggbb.")
        found.append(text)
    return found
