"""The state of a game of Run, Hamster, Run!: belt, Pit, speed pool and each hamster's Pluck.

Coordinates follow ``shared/rules/run-hamster-run.md``: a square is (row, lane); row 1 is
the strip next to the Alligator Pit, row 10 the far end, lanes 1..5 across. Row 0 is the Pit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import copier_for

CLASSIC = "classic"
V21 = "v2.1"
RULE_SETS = (CLASSIC, V21)

ROWS = 10
LANES = 5
PIT = 0
NOT_PLACED = -1
START_ROWS = range(1, 6)  # ruling: hamsters start on rows 1..5
ASTERISK_STRIP = 4  # the strip with asterisks starts fifth from the Pit (row 5)
CHIPS = 7

SCAMPER, METTLE, FRISK = 0, 1, 2
TRAITS = ("scamper", "mettle", "friskiness")
TRAIT_TITLES = ("Scamper", "Mettle", "Friskiness")
TRAIT_ALIASES = {"scamper": 0, "s": 0, "mettle": 1, "m": 1, "friskiness": 2, "frisk": 2, "f": 2}

REST, RUN, PUSH, THROW, BITE = "rest", "run", "push", "throw", "bite"
ACTIONS = {CLASSIC: (REST, RUN, PUSH, THROW), V21: (BITE, RUN, THROW, REST)}

COLOURS = ("red", "blue", "yellow", "green", "purple")

# Directions as (row step, lane step): "down" is toward the Pit.
DIRECTIONS = {"up": (1, 0), "down": (-1, 0), "left": (0, -1), "right": (0, 1)}

Square = tuple[int, int]
Trio = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Hamster:
    """One hamster and its Pluck chips.

    ``traits`` counts every chip allocated to Scamper, Mettle and Friskiness; ``down`` counts
    the face-down (flipped, already used) chips among them. A chip in the Fatigue pile is in
    neither. While not eaten, ``sum(traits) + fatigue == 7``.
    """

    name: str
    colour: str
    row: int = NOT_PLACED
    lane: int = 0
    eaten: bool = False
    traits: Trio = (0, 0, 0)
    down: Trio = (0, 0, 0)
    fatigue: int = 0
    allocation: Trio | None = None  # secret until every hamster has allocated
    loss_order: Trio = (FRISK, SCAMPER, METTLE)  # which trait gives up chips first
    chomp_trait: int | None = None  # v2.1: tested against the alligators (None: the largest)
    declared: str = ""
    did: str = ""  # the action actually taken this round (after any change)
    start_row: int = 0

    @property
    def pluck(self) -> int:
        return self.traits[0] + self.traits[1] + self.traits[2]

    @property
    def in_pit(self) -> bool:
        return self.row == PIT and not self.eaten

    @property
    def on_belt(self) -> bool:
        return self.row >= 1 and not self.eaten

    @property
    def in_play(self) -> bool:
        return not self.eaten

    @property
    def passed_out(self) -> bool:
        return not self.eaten and self.pluck == 0

    @property
    def square(self) -> Square:
        return (self.row, self.lane)

    def up(self, trait: int) -> int:
        """Face-up chips in a trait: the only ones that may be flipped or spent."""
        return self.traits[trait] - self.down[trait]


@dataclass(frozen=True, slots=True)
class TestRecord:
    """A HAT test as the tablet shows it: who, with how many chips, and who won."""

    round: int
    trait: str
    initiator: str
    defender: str
    initiator_chips: int
    defender_chips: int
    winner: str
    why: str

    @property
    def initiator_odds(self) -> float:
        total = self.initiator_chips + self.defender_chips
        return 1.0 if total == 0 else self.initiator_chips / total


@dataclass(frozen=True, slots=True)
class Resolution:
    """What the hamster resolving its action has done so far this turn."""

    seat: int
    action: str
    changed: bool = False
    acted: bool = False
    pushing: tuple[int, int, int] | None = None  # (object seat, row step, lane step)
    lost_push: bool = False
    pushed: bool = False
    sidestep_used: bool = False
    free_step_used: bool = False
    challenged: bool = False
    finished: bool = False  # a Throw or Rest that ends the turn has happened


@dataclass(frozen=True, slots=True)
class Belt:
    """The game data ``G`` for Run, Hamster, Run!"""

    rules: str
    hamsters: tuple[Hamster, ...]
    strips: tuple[int, ...] = tuple(range(ROWS))  # strips[r - 1] is the strip now at row r
    speed: int = 1
    alligators: int = 1
    placement: tuple[int, ...] = ()
    initiative: tuple[int, ...] = ()  # highest first
    resolution: Resolution | None = None
    tests: tuple[TestRecord, ...] = ()
    notes: tuple[str, ...] = ()  # what the table must do for the phase just computed
    roll_for_us: bool = False  # the table asked the companion to roll the players' dice

    @property
    def asterisk_row(self) -> int:
        return self.strips.index(ASTERISK_STRIP) + 1

    def occupant(self, row: int, lane: int) -> int | None:
        """The seat of the hamster on a belt square, if any (the Pit is never 'occupied')."""
        for seat, hamster in enumerate(self.hamsters):
            if hamster.row == row and hamster.lane == lane and not hamster.eaten and row >= 1:
                return seat
        return None

    def with_hamster(self, seat: int, hamster: Hamster, **changes: Any) -> Belt:
        """A copy with one hamster replaced (and any other fields changed at the same time)."""
        hamsters = self.hamsters
        return _copy_belt(
            self, hamsters=(*hamsters[:seat], hamster, *hamsters[seat + 1 :]), **changes
        )

    def living(self) -> list[int]:
        return [seat for seat, h in enumerate(self.hamsters) if not h.eaten]

    def in_pit(self) -> list[int]:
        return [seat for seat, h in enumerate(self.hamsters) if h.in_pit]

    def note(self, *sentences: str) -> Belt:
        return _copy_belt(self, notes=self.notes + sentences)


_copy_belt = copier_for(Belt)  # the hottest copy in a game: skip evolve's own overhead


def on_board(row: int, lane: int) -> bool:
    return 1 <= row <= ROWS and 1 <= lane <= LANES


def adjacent(a: Square, b: Square) -> bool:
    """Orthogonal neighbours on the belt (ruling: steps and adjacency are orthogonal)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def trait_index(value: object, what: str = "trait") -> int:
    """Read a trait name from a move's arguments."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 2:
        return value
    if isinstance(value, str) and value.lower() in TRAIT_ALIASES:
        return TRAIT_ALIASES[value.lower()]
    raise IllegalMoveError(f"{value!r} is not a {what}: use scamper, mettle or friskiness.")
