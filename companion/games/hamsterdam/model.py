"""The state of a game of Hamsterdam: every player's dam, stacks, piles and the dice.

Positions on a dam are numbered from 1 at the owner's left end in moves and views; the
tuples here are indexed from 0. A stack holds plain hamsters (a count) with the special
hamsters on top. Flood tokens are in the supply, on dam cards, in flood piles, or out of
the game: a token a hamster clears leaves the game with it (ruling: "removes both from
the game"), so it does not return to the supply. Their sum never changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.evolve import evolve as replace

FULL = "full"
CLASSIC = "classic"
RULE_SETS = (FULL, CLASSIC)

# Set-up stages of a player in the full game (classic players start at PLACE).
PASS, WAIT, ARRANGE, PLACE, READY = "pass", "wait", "arrange", "place", "ready"

END_THRESHOLD = {2: 10, 3: 15, 4: 20}  # tokens in all flood piles together
TURNS_EACH = {2: 6, 3: 4, 4: 3}  # turns each player takes before redeployment
FIRST_BREACH, SECOND_BREACH = 3, 5  # tokens in a flood pile; then every further token


def rotation(players: int) -> int:
    """Turns between movement phases (ruling: two passes of the dice with two players)."""
    return 4 if players == 2 else players


def round_length(players: int) -> int:
    return TURNS_EACH[players] * players


def breaches_due(pile: int) -> int:
    """How many dam cards a flood pile of this size has flipped in all (3rd, 5th, 6th...)."""
    if pile < FIRST_BREACH:
        return 0
    if pile < SECOND_BREACH:
        return 1
    return pile - SECOND_BREACH + 2


def tokens_to_next_breach(pile: int) -> int:
    if pile < FIRST_BREACH:
        return FIRST_BREACH - pile
    if pile < SECOND_BREACH:
        return SECOND_BREACH - pile
    return 1


@dataclass(frozen=True, slots=True)
class DamCard:
    """A printed dam card: its value and the dots that pay hamsters and specials at set-up."""

    value: int
    orange: int = 0
    blue: int = 0


@dataclass(frozen=True, slots=True)
class Special:
    """One special hamster piece, face up. Used up (single-use) it becomes a plain hamster.

    ``twin`` links the two pieces a Twinsters card brings; ``stops`` is Cheekster's count of
    floods already held back (the table marks it with a token; the engine does not count
    that marker as water).
    """

    id: int
    name: str
    twin: int = -1
    stops: int = 0


@dataclass(frozen=True, slots=True)
class Spot:
    """One position of a dam: the card, the stack standing on it, the water on it."""

    card: DamCard
    plain: int = 0
    specials: tuple[Special, ...] = ()
    tokens: int = 0

    @property
    def hamsters(self) -> int:
        return self.plain + len(self.specials)

    @property
    def value(self) -> int:
        return self.card.value


@dataclass(frozen=True, slots=True)
class Player:
    """A player's dam, reinforcement pile (``rest_*``), flood pile and set-up progress."""

    name: str
    dam: tuple[Spot, ...] = ()
    rest_plain: int = 0
    rest_specials: tuple[Special, ...] = ()
    pile: int = 0
    breaches: int = 0  # dam cards flipped so far
    flipped: tuple[DamCard, ...] = ()
    lost: int = 0  # hamsters removed from the game
    stage: str = PLACE
    hand: tuple[DamCard, ...] = ()  # set-up: cards held before the dam is arranged
    passing: tuple[int, ...] = ()  # set-up: values chosen to pass (left, right)
    dealt: tuple[Special, ...] = ()  # set-up: specials to choose from
    keep: int = 0  # set-up: how many of the dealt specials are still to be kept
    mob: int = 0  # Mobster this roll: the flood comes this much higher or lower
    dodged: bool = False  # Ninjaster this roll: the roll does not flood this player
    moved: bool = False  # movement phase: the one move is made (or skipped)
    redeployed: bool = False

    @property
    def tokens_on_dam(self) -> int:
        return sum(spot.tokens for spot in self.dam)

    @property
    def hamsters(self) -> int:
        """Remaining hamsters, plain and special, on the dam and resting (the tie-break)."""
        return sum(spot.hamsters for spot in self.dam) + self.rest_plain + len(self.rest_specials)

    @property
    def water(self) -> int:
        """The score: fewest wins."""
        return self.pile + self.tokens_on_dam

    def values(self) -> frozenset[int]:
        return frozenset(spot.value for spot in self.dam)

    def with_spot(self, index: int, spot: Spot) -> Player:
        dam = list(self.dam)
        dam[index] = spot
        return replace(self, dam=tuple(dam))


@dataclass(frozen=True, slots=True)
class Flood:
    """A flood still to be resolved: which player, which position (0-based)."""

    seat: int
    index: int


@dataclass(frozen=True, slots=True)
class Hamsterdam:
    """The game data ``G``.

    ``dice`` is the roll in force (after Buffster, Spinster or Physicster); ``dry`` says
    nobody's dam shows the raw roll, so it must be rolled again. ``acted`` holds the ids of
    specials that acted since the phase began (each acts once per roll or phase).
    """

    rules: str
    players: tuple[Player, ...]
    single_use: frozenset[str]
    supply: int
    removed: int = 0  # flood tokens cleared off dams: out of the game (ruling)
    first: int = -1  # seat that rolls first every round
    turns: int = 0  # turns taken this round
    dice: tuple[int, int] | None = None
    dry: bool = False
    rerolls: int = 0
    alternative: tuple[int, int] | None = None  # Physicster's second roll, awaiting a choice
    pending: tuple[Flood, ...] = ()
    struck: tuple[Flood, ...] = ()  # every flood of this roll, resolved or not (for the view)
    acted: frozenset[int] = frozenset()
    log: tuple[str, ...] = ()
    next_id: int = 0
    deck_left: tuple[str, ...] = ()  # specials not dealt (set-up)
    roll_for_us: bool = False  # the table asked the companion to roll the flood dice

    @property
    def roller(self) -> int:
        return (max(self.first, 0) + self.turns) % len(self.players)

    @property
    def roll(self) -> int:
        return 0 if self.dice is None else self.dice[0] + self.dice[1]

    @property
    def piles(self) -> int:
        return sum(p.pile for p in self.players)

    @property
    def threshold(self) -> int:
        return END_THRESHOLD[len(self.players)]

    def with_player(self, seat: int, player: Player) -> Hamsterdam:
        players = list(self.players)
        players[seat] = player
        return replace(self, players=tuple(players))

    def note(self, sentence: str) -> Hamsterdam:
        return replace(self, log=(*self.log, sentence))

    def tokens_in_play(self) -> int:
        """Supply, dams, piles and tokens out of the game: constant for the whole game."""
        on_dams = sum(p.tokens_on_dam for p in self.players)
        return self.supply + on_dams + self.piles + self.removed
