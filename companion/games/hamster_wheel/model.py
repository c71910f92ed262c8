"""Hamster Wheel's state: hands by colour, the upright wheel's twelve compartments, the
pieces set aside by Higher Powers, and the turn in progress.

The companion cannot see inside the compartments reliably, so what it logs there is a best
effort: every placement and pass is recorded, and when pieces fall out from somewhere it
cannot tell, the compartments that may have lost them are marked *uncertain* rather than
guessed right.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from companion.engine.words import counted

STANDARD = "standard"
RULE_SETS = (STANDARD,)

COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "white")  # one of each a set
PYRAMID = "black"  # the black pyramid, a normal piece once it has fallen out
PIECE_COLOURS = (*COLOURS, PYRAMID)
SECTIONS = 12
# Home-made wheels: the rules keep the number of compartments a setting (rulings).
MIN_SECTIONS, MAX_SECTIONS = 6, 24
SET_SIZE = len(COLOURS)
OPENING_OFFSET = 2  # the opening piece goes two compartments clockwise from the pyramid
TARGETS = ("same", "next", "next2")  # the three ways to place, as the rules name them

Hand = tuple[int, ...]  # pieces per colour, in PIECE_COLOURS order


def pieces(n: int) -> str:
    """ "1 piece", "3 pieces": for sentences on the tablet."""
    return counted(n, "piece")


def hand_of(counts: Mapping[str, int]) -> Hand:
    return tuple(int(counts.get(colour, 0)) for colour in PIECE_COLOURS)


def hand_dict(hand: Hand) -> dict[str, int]:
    return {colour: n for colour, n in zip(PIECE_COLOURS, hand, strict=True) if n}


def add(hand: Hand, colours: tuple[str, ...]) -> Hand:
    counts = list(hand)
    for colour in colours:
        counts[PIECE_COLOURS.index(colour)] += 1
    return tuple(counts)


def take(hand: Hand, colour: str) -> Hand:
    counts = list(hand)
    counts[PIECE_COLOURS.index(colour)] -= 1
    return tuple(counts)


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    hand: Hand
    team: int | None = None  # 0 or 1 in the four-player team game

    @property
    def pieces(self) -> int:
        return sum(self.hand)


@dataclass(frozen=True, slots=True)
class Wheel:
    """The ring's compartments, numbered clockwise; the pyramid started in ``pyramid_start``."""

    sections: int = SECTIONS
    pyramid_start: int = 0
    lowest: int = 0  # which compartment is at the bottom now (follows the rotation)
    turns: float = 0.0  # how far the ring has rolled since the start (signed turns)
    last: int | None = None  # compartment of the last successful placement
    contents: tuple[tuple[str, ...], ...] = ()  # colours logged in each compartment
    uncertain: frozenset[int] = frozenset()

    def holds(self, compartment: int) -> tuple[str, ...]:
        return self.contents[compartment % self.sections]

    def free(self, compartment: int) -> bool:
        return not self.holds(compartment)

    def lowest_two(self) -> tuple[int, int]:
        """The two compartments nearest the table (the constructive pass takes from these)."""
        return self.lowest % self.sections, (self.lowest + 1) % self.sections

    @property
    def pieces(self) -> int:
        return sum(len(c) for c in self.contents)


@dataclass(frozen=True, slots=True)
class Turn:
    """What the current player has done this turn (nothing yet: the turn can still pass)."""

    placed: str = ""  # colour placed
    at: int | None = None  # compartment it went into
    from_partner: bool = False  # taken from the partner's stock (team game, empty hand)
    passed: bool = False  # a constructive pass instead of a placement

    @property
    def acted(self) -> bool:
        return bool(self.placed) or self.passed


@dataclass(frozen=True, slots=True)
class HamsterWheel:
    rules: str
    players: tuple[Player, ...]
    wheel: Wheel
    teams: bool = False
    aside: tuple[str, ...] = ()  # pieces Higher Powers set aside for the next to fail
    out: tuple[str, ...] = ()  # pieces left out of the game (the split fourth set's spare)
    turn: Turn = field(default_factory=Turn)
    turns: int = 0  # turns finished
    failures: int = 0
    taken: int = 0  # pieces taken back on failures (Higher Powers pieces included)
    notes: tuple[str, ...] = ()  # what just happened, for the tablet
    last_fell: tuple[str, ...] = ()  # taken in the last failed try: may still lie on the table
    # Without a camera, what to ask after pieces fell (a failed try, Higher Powers): which
    # compartment is lowest now, and where each fallen piece came from when several
    # compartments could have lost it: (colour, the one assumed, the candidates).
    ask_lowest: bool = False
    guessed: tuple[tuple[str, int, tuple[int, ...]], ...] = ()
    first: int = 0  # the seat that starts (the shakiest hand, as the rules say)

    def with_player(self, seat: int, player: Player) -> HamsterWheel:
        players = list(self.players)
        players[seat] = player
        return replace(self, players=tuple(players))

    def partner(self, seat: int) -> int | None:
        """In the team game partners sit side by side: seats 0 and 1, seats 2 and 3."""
        return seat ^ 1 if self.teams else None

    def team_pieces(self, team: int) -> int:
        return sum(p.pieces for p in self.players if p.team == team)

    def total_pieces(self) -> int:
        """Every piece of the game, wherever it is (conserved by every move)."""
        hands = sum(p.pieces for p in self.players)
        return hands + self.wheel.pieces + len(self.aside) + len(self.out)
