"""What a sensor tells the table, and what a game makes of it.

The camera watchers turn frames into *readings*: plain data about what is on the table
(dice faces and how sure the reader is, where the pieces stand, how far the wheel rolled).
They never decide what a reading means. The table's one worker hands each reading to the
rule the current game declares for its kind (``GameSpec.readings``) and gets back a
:class:`Verdict`: a change to apply at once, a change to propose (it waits for READ or a
tap), and/or a read-only note for the tablet. Because that happens on the worker, the rule
always judges the reading against the state that is current, never one a tablet move has
already replaced.

Reading kinds used today: ``dice`` (:class:`DiceSeen`), ``belt`` (:class:`BeltSeen`) and
``wheel`` (:class:`WheelSeen`). A new camera feature is a new kind here and a rule in the
games that use it; the table needs no change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.engine.events import Event

DICE = "dice"
BELT = "belt"
WHEEL = "wheel"

DRIFT_HINT = "Wheel drifted: push it back to the centre."


@dataclass(frozen=True)
class Reading:
    """One steady reading, stamped with the game state the watcher saw when it took it.

    ``game_id``/``seq`` are ``None`` for readings that do not depend on the state (dice): a
    reading stamped with an older state than the current one is dropped by the table,
    because the change since may already have settled it.
    """

    kind: str
    data: Any
    game_id: int | None = None
    seq: int | None = None
    source: str = "camera"


@dataclass(frozen=True)
class Note:
    """A read-only line (or panel) for the tablet: shown beside the game, never logged."""

    status: str  # a word the page styles by: "agree", "differ", "blocked", "info", ...
    lines: tuple[str, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)  # extra figures for the page

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "lines": list(self.lines), **self.data}


@dataclass(frozen=True)
class Verdict:
    """What a reading means for the game now.

    ``event`` is the change the reading stands for (``None``: nothing to change). It is
    applied at once when ``sure``, otherwise it waits as a proposal for READ or a tap,
    with ``summary`` as the sentence the tablet shows. ``note`` replaces the tablet's note
    for this reading kind (``None`` clears it).
    """

    event: Event | None = None
    sure: bool = False
    summary: str = ""
    note: Note | None = None


@dataclass(frozen=True)
class DiceSeen:
    """Dice that have held still: a face (``None``: unreadable) and a confidence each.

    ``auto_accept`` is the reader's own threshold: at or above it for every die, the roll
    may be applied without asking. ``demo`` marks the simulated demo camera's dice, which
    must never land in a real game without a person accepting them.
    """

    values: tuple[int | None, ...]
    confidences: tuple[float, ...]
    auto_accept: float = 1.0
    demo: bool = False
    # each die's sides where the camera read kinds too (a Rats pool of d4-d10); empty: d6s
    sizes: tuple[int, ...] = ()

    @property
    def sure(self) -> bool:
        return (
            not self.demo
            and bool(self.values)
            and all(v is not None for v in self.values)
            and min(self.confidences) >= self.auto_accept
        )


Square = tuple[int, int]


@dataclass(frozen=True)
class BeltSeen:
    """Where the camera sees each coloured piece on a belt or grid (steady over frames).

    ``pieces`` maps a colour to its square (row, lane); ``in_pit`` lists colours seen in the
    Pit; ``marker_row`` is the row of a strip or marker when the board has one;
    ``blocked`` gives the reason the view could not be read (a hand), ``colours`` the colours
    the calibration knows (a colour it does not know cannot be checked).
    """

    pieces: Mapping[str, Square] = field(default_factory=dict)
    in_pit: frozenset[str] = frozenset()
    marker_row: int | None = None
    blocked: str = ""
    colours: frozenset[str] = frozenset()


@dataclass(frozen=True)
class WheelSeen:
    """The Hamster Wheel as the camera follows it (see ``companion.watch.wheel``).

    ``roll_turns`` is how far the ring has rolled since the game began (signed turns),
    ``angle_deg`` where its rim points now, ``rolled_distance`` the distance along the
    table, ``drift`` its offset from the table's centre and ``drifted_far`` whether it
    should be pushed back; ``fallen`` counts pieces lying outside it by colour, once the
    count has held for several frames. ``blocked`` says the last frame could not be read
    (a hand); the other fields then keep the last good measurement. ``pieces_reason`` says
    why the last frame's fallen pieces were not counted although the ring was read (a cloth
    that hides a piece colour, a piece against the ring): ``fallen`` then keeps the last
    count that held.
    """

    seen: bool
    blocked: bool = False
    reason: str = ""
    angle_deg: float = 0.0
    roll_turns: float = 0.0
    rolled_distance: float = 0.0
    centre: tuple[float, float] = (0.0, 0.0)
    drift: tuple[float, float] = (0.0, 0.0)
    drifted_far: bool = False
    fallen: Mapping[str, int] = field(default_factory=dict)
    touched: bool = False  # a hand was over the table during the turn in progress
    pieces_reason: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)  # e.g. the lowest compartment
    roll_uncertainty_deg: float = 0.0  # how far off the roll could be (about 2 sigma)
    cloth_warning: str = ""  # why some hands over this cloth may go unseen ("" if none)
    # Of ``fallen``, pieces the ring now hides from the camera, counted where it saw them
    # before the ring rolled in front (``companion.vision.fallen_memory``).
    behind_ring: int = 0
    # How far beyond its middle the standing ring hides the table from this camera (cm, on
    # the side away from it; ``companion.vision.behind_the_ring``); None: height not set.
    hidden_beyond_cm: float | None = None

    @property
    def fallen_total(self) -> int:
        return sum(self.fallen.values())

    @property
    def behind_ring_line(self) -> str:
        """Where to look for the pieces counted but out of view ("" when none are)."""
        if not self.behind_ring or self.pieces_reason:
            return ""
        pieces = "1 of them is" if self.behind_ring == 1 else f"{self.behind_ring} of them are"
        return f"{pieces} hidden behind the ring."

    @property
    def look_behind_line(self) -> str:
        """Where the camera never looks, said with every count it makes: a piece that fell
        straight behind the standing ring was never in a picture, so no count includes it
        ("" while nothing is counted: the players then count everything themselves)."""
        if not self.seen or self.pieces_reason:
            return ""
        where = "on the side away from the camera"
        if self.hidden_beyond_cm is not None:
            where = f"up to about {self.hidden_beyond_cm:.0f} cm beyond its middle, {where}"
        return f"The camera cannot see the table just behind the ring ({where}): look there too."

    @property
    def drift_distance(self) -> float:
        return float((self.drift[0] ** 2 + self.drift[1] ** 2) ** 0.5)

    @property
    def hint(self) -> str:
        return DRIFT_HINT if self.drifted_far else ""

    @property
    def uncounted(self) -> str:
        """The sentence for the tablet while the fallen pieces are not counted, else "":
        the count shown would be an old one, so the reason (and what to do) is said instead."""
        if not self.pieces_reason:
            return ""
        return f"Fallen pieces not counted just now: {self.pieces_reason.rstrip('. ')}."

    def figures(self) -> dict[str, Any]:
        """The measurements as JSON-ready data, rounded for the page."""
        return {
            "seen": self.seen,
            "blocked": self.blocked,
            "reason": self.reason,
            "angle_deg": round(self.angle_deg, 1),
            "roll_turns": round(self.roll_turns, 2),
            "rolled_distance": round(self.rolled_distance, 2),
            "centre": [round(v, 2) for v in self.centre],
            "drift": [round(v, 2) for v in self.drift],
            "drift_distance": round(self.drift_distance, 2),
            "drifted_far": self.drifted_far,
            "hint": self.hint,
            "fallen": dict(self.fallen),
            "fallen_total": self.fallen_total,
            "pieces_reason": self.pieces_reason,
            "roll_uncertainty_deg": round(self.roll_uncertainty_deg, 2),
            "cloth_warning": self.cloth_warning,
            "behind_ring": self.behind_ring,
            "behind_ring_line": self.behind_ring_line,
            "hidden_beyond_cm": self.hidden_beyond_cm,
            "look_behind_line": self.look_behind_line,
            **self.extra,
        }

    def note(self) -> Note:
        """The wheel panel for a game that takes no wheel readings (the figures as read)."""
        status = "blocked" if self.blocked else "differ" if self.drifted_far else "info"
        said = (self.hint, self.uncounted, self.behind_ring_line, self.cloth_warning)
        lines = tuple(line for line in said if line)
        return Note(status, lines, self.figures())
