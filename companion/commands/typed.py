"""Words typed at the terminal read as a game's values: a move's ``PLAYER MOVE key=value``,
the dice rolled by hand, a line of ``companion play`` split as a shell would.

Apart from the commands because every way of typing a roll (``next --dice``, a move's
``dice=``, ``play``'s ``next 4,2``) must read it the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, Event
from companion.engine.session import Session


def parse_move(session: Session[Any], words: list[str]) -> Event:
    """`SEAT MOVE key=value ...`; values are JSON where they parse, else text; ``dice=``
    (or ``given=``) lists dice rolled by hand."""
    if len(words) < 2:
        raise IllegalMoveError(
            "Write a move as: PLAYER MOVE key=value ..., e.g. Alice run path=[[2,3]]"
        )
    who, name, *pairs = words
    players = [p.lower() for p in session.header.players]
    if who.isdigit() and int(who) < len(players):
        seat = int(who)
    elif who.lower() in players:
        seat = players.index(who.lower())
    else:
        raise IllegalMoveError(
            f"{who!r} is not a player; players: {', '.join(session.header.players)}."
        )
    args: dict[str, Any] = {}
    given: tuple[Any, ...] = ()
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep:
            raise IllegalMoveError(f"{pair!r} should be key=value.")
        value = _value(raw)
        if key in ("given", "dice"):  # dice rolled by hand: `Ann roll dice=[2,3,4]`
            given = tuple(value if isinstance(value, list) else _faces(value))
        else:
            args[key] = value
    return Event(MOVE, name=name, seat=seat, args=args, given=given, source="cli")


# In a list or a table typed without JSON's quotes: a quoted text, or a bare word
_PART = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'|[^\[\]{},:"\']+')


def _value(raw: str) -> Any:
    """A typed detail: JSON where it parses (``fell=["red"]``, ``to=[5,3]``), the same
    without JSON's quotes (``fell=[red]``, as a shell leaves ``fell=["red"]``), a text in
    single quotes without them, else the text as typed (``to=mettle``)."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        pass
    if len(raw) >= 2 and raw[0] == raw[-1] == "'":
        return raw[1:-1]
    if raw.startswith(("[", "{")):
        try:
            return json.loads(_PART.sub(_quoted, raw))
        except json.JSONDecodeError:
            pass
    return raw


def _quoted(part: re.Match[str]) -> str:
    """One part of a bare list or table as JSON: a word gets quotes, a number keeps none."""
    text = part.group(0)
    if text.startswith('"'):
        return text
    if text.startswith("'"):
        return json.dumps(text[1:-1])
    word = text.strip()
    if not word:
        return text
    try:
        json.loads(word)  # a number, true, false or null
    except json.JSONDecodeError:
        return json.dumps(word)
    return text


def typed_words(line: str) -> list[str]:
    """A line typed in ``companion play``, split into words the way a shell would, except
    that quotes inside a word stay (``fell=["red"]`` reaches the JSON reader as typed, where
    shlex dropped them), a space inside brackets does not split (``path=[[6,3], [7,3]]``)
    and a lone apostrophe (``O'Brien``) is a letter; a word wholly in quotes
    (``"Mary Ann"``) loses them."""
    words: list[str] = []
    word, quote, depth = "", "", 0
    for at, char in enumerate(line):
        if quote:
            word += char
            quote = "" if char == quote else quote
        elif char in "\"'" and char in line[at + 1 :]:
            word, quote = word + char, char
        elif char.isspace() and depth == 0:
            if word:
                words.append(word)
            word = ""
        else:
            depth += (char in "[{") - (char in "]}")
            depth = max(depth, 0)
            word += char
    if word:
        words.append(word)
    return [w[1:-1] if len(w) >= 2 and w[0] == w[-1] and w[0] in "\"'" else w for w in words]


def whole_numbers(text: str) -> tuple[int, ...] | None:
    """Dice typed as whole numbers, "4,2" or "4 2" (none for ""); None if one is not."""
    try:
        return tuple(int(face) for face in text.replace(",", " ").split())
    except ValueError:
        return None


def _faces(value: Any) -> list[Any]:
    """``dice=3,4,2`` as ``next --dice 3,4,2`` takes it (it was one text value, "3,4,2");
    anything else as it was typed, for the game to refuse in its own words."""
    faces = whole_numbers(value) if isinstance(value, str) else None
    return list(faces) if faces else [value]


def unreadable(words: Sequence[str]) -> str:
    """The sentence for typed move details (``PLAYER MOVE key=value ...``) the game's code
    could not read (the move was not recorded): the same answer the page gives."""
    move_name = words[1] if len(words) > 1 else ""
    return (
        f"The rules cannot read those details for '{move_name}'; check each value "
        "(in `companion play`, `moves` lists what each move takes)."
    )


def typed_dice(words: Sequence[str]) -> tuple[int, ...]:
    """The dice typed after ``next`` in ``companion play``: ``next 4,2``, ``next 4 2``,
    ``next --dice 4,2`` or ``next dice=4,2`` (as ``companion next --dice`` takes them)."""
    text = " ".join(words).strip()
    for prefix in ("--dice", "dice=", "given="):
        if text.startswith(prefix):
            text = text[len(prefix) :]
    faces = whole_numbers(text.strip("[] =").replace("[", " ").replace("]", " "))
    if faces is None:
        raise IllegalMoveError(
            f"After next, type the dice rolled by hand as whole numbers, e.g. next 4,2, "
            f"not {text.strip()!r}."
        )
    return faces
