"""The "tally" game the table's tests play: any seat may add a number at any time.

Why a game of its own: concurrency tests need moves that are legal in any order, and the
parts' tests (``test_table_parts.py``) and the whole table's (``test_table.py``) must
play the same one. It is registered for a test only (the ``tally`` fixtures).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.engine.camera import Watch
from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, Event
from companion.engine.readings import Note, Verdict
from companion.engine.rng import Draws
from companion.engine.session import GameHeader
from companion.engine.spec import Args, GameSpec, MoveSpec, Outcome, PhaseSpec, Presentation
from companion.engine.state import Ctx

FINISH = 999  # adding this number ends a tally game
BIG = 6  # adding this number cues "big" (the buzzer's test sound)


@dataclass(frozen=True)
class Tally:
    values: tuple[int, ...] = ()


def _add(game: Tally, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Tally:
    n = args.get("n")
    if not isinstance(n, int) or n < 0:
        raise IllegalMoveError("Add a whole number, zero or more.")
    return Tally((*game.values, n))


def _die(spec: GameSpec[Any], state: Any, seen: Any) -> Verdict:
    """A die the camera reads: sure at 0.9 and above (applied at once), else proposed for READ."""
    return Verdict(
        Event(MOVE, name="add", seat=0, args={"n": seen[0]}),
        sure=seen[1] >= 0.9,
        summary=f"The die shows {seen[0]}.",
        note=Note("info", (f"read {seen[0]}",)),
    )


def _view(game: Tally, ctx: Ctx, seat: int | None) -> dict[str, Any]:
    return {"values": list(game.values), "total": sum(game.values), "seat": seat}


TALLY: GameSpec[Tally] = GameSpec(
    name="tally",
    title="Tally",
    rule_sets=("plain",),
    min_players=1,
    max_players=4,
    setup=lambda rules, players, options, draws: Tally(),
    phases={
        "play": PhaseSpec(
            name="play",
            title="Adding up",
            next=lambda game: "play",
            moves={"add": MoveSpec(_add, any_seat=True)},
        )
    },
    first_phase="play",
    end_if=lambda game, ctx: (
        Outcome((0,), "The tally is finished.") if FINISH in game.values else None
    ),
    presentation=Presentation(
        view=_view,
        prompt=lambda game, ctx: f"Add numbers ({len(game.values)} so far).",
    ),
    camera={"die": Watch(_die)},
    cues=lambda before, after, ctx, event: ("big",) if after.values[-1:] == (BIG,) else (),
)
TALLY_HEADER = GameHeader("tally", "plain", ("Ann", "Bo"), seed=7)
