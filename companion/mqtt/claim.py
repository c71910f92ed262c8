"""Who may publish under a table name: the rules two tables with the same name follow.

Why a claim at all: two Pis still called "raspberrypi" (or two configs copied from one)
would otherwise overwrite each other's retained state on the event board, and when one
stopped its "offline" would make the other look gone while it was still playing.

The rules, which every table applies alike so that both sides reach the same answer:

* A table reads what the broker keeps under the name it wants before it says anything
  there. A state from another data folder (``origin``) while the name is ``online`` means
  the name is held: the newcomer takes the next free one, ``NAME-2``, ``NAME-3`` and so on.
* Two tables that claimed the same name at the same moment (neither saw the other's
  retained state) each see the other's live state: the one that started later (``since``,
  then ``instance`` to break a tie) steps aside the same way; the other publishes its
  own state again at once, so the board shows it and not the newcomer's.
* A state from the same data folder is this table's own, left by an earlier run: a
  restart is never a clash.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

CLASH = "clash"  # <prefix>/<table>/clash: a newcomer tells the holder it stepped aside
MAX_TRIES = 50  # NAME-2 .. NAME-50: far beyond any café's tables


@dataclass(frozen=True)
class Claimant:
    """One running table as its state payload describes it."""

    origin: str  # its data folder's id (the same across restarts)
    instance: str  # this run's id (new at every start)
    since: float  # when this run began to claim its name

    def yields_to(self, other: Claimant) -> bool:
        """Whether this table must leave the name to ``other`` (the earlier claim wins)."""
        return (other.since, other.instance) < (self.since, self.instance)


def claimant(payload: bytes) -> Claimant | None:
    """The table a state payload comes from (None: not a state, or from a table too old
    to say, which then counts as having been there first)."""
    try:
        data: Any = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("origin"), str):
        return None
    since = data.get("since")
    return Claimant(
        origin=data["origin"],
        instance=str(data.get("instance") or ""),
        since=float(since) if isinstance(since, int | float) else 0.0,
    )


def next_name(wanted: str, current: str) -> str:
    """The name to try after ``current`` was found taken: ``NAME-2``, then ``NAME-3``."""
    match = re.fullmatch(re.escape(wanted) + r"-(\d+)", current)
    number = int(match.group(1)) + 1 if match else 2
    return f"{wanted}-{number}"


def clash_payload(wanted: str, taken: str, origin: str, instance: str) -> bytes:
    """What a newcomer tells the holder of ``wanted``: it now publishes as ``taken``."""
    data = {"wanted": wanted, "table": taken, "origin": origin, "instance": instance}
    return json.dumps(data, separators=(",", ":")).encode()


def stepped_aside(wanted: str, taken: str, where: str) -> str:
    """The newcomer's sentence, on its page, in its log and in ``doctor``."""
    return (
        f"another table already publishes as {wanted!r} on {where}, so this table "
        f"publishes as {taken!r}: give each table its own name "
        '([mqtt] table = "..." in the config)'
    )


def kept_name(wanted: str, other: str, where: str) -> str:
    """The holder's sentence: a namesake turned up and was moved aside."""
    return (
        f"another table also asked for the name {wanted!r} on {where}; it publishes as "
        f"{other!r} instead, so the board keeps the two apart: give each table its own "
        'name ([mqtt] table = "..." in the config)'
    )


def name_check(
    tables: Mapping[str, Mapping[str, Any]], name: str, origin: str | None, where: str
) -> str:
    """What ``doctor`` says about this table's name on the board now ("": nothing wrong).

    ``tables`` is the board (:meth:`companion.mqtt.board.Board.tables`), ``origin`` this
    data folder's (None: it never published)."""
    held = tables.get(name)
    if held and held.get("online") and held.get("origin") not in (None, origin):
        taken = next_name(name, name)
        return stepped_aside(name, taken, where).replace("publishes as", "would publish as")
    for other, state in tables.items():
        if state.get("wanted") == name and state.get("online") and state.get("origin") != origin:
            return kept_name(name, other, where)
    return ""
