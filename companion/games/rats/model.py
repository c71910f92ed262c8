"""Rats' state: each rat's dice, wounds, Hate and cards; the challenge or scrap under way.

Everything is a frozen dataclass so that undo, replay and the simulator can copy states
freely. A *contest* is one everybody-rolls moment (a tunnel challenge, or a Rat vs Rat
scrap): who rolls, what each die shows, which re-rolls have been paid for, and who has
finished spending Hate. Dice are kept as their sizes (4, 6, 8, 10); a pool is sorted so
the same dice always look the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

STANDARD = "standard"
RULE_SETS = (STANDARD,)
DEFAULT_ROUNDS = 10
PHYSICAL, PHONE = "physical", "phone"  # where the cards are: a real deck, or dealt to phones
DECK_MODES = (PHYSICAL, PHONE)
LOOT_ITEMS = ("d4", "d6", "d8", "d10", "hate")
DRAWS_PER_ROUND = 5  # Hate spent on drawing, per rat per round (a ruling)
REROLL_COST, DRAW_COST = 2, 1

# stages of a tunnel turn
CARD, ROLL, HATE, BURROW, SETTLE, DONE = "card", "roll", "hate", "burrow", "settle", "done"
# stages of the nest
SCRAP, CHALLENGES, MATE, STEAL = "scrap", "challenges", "mate", "steal"


@dataclass(frozen=True, slots=True)
class Rat:
    player: str
    name: str = ""  # the rat's own name, given at creation
    pool: tuple[int, ...] = ()
    wounds: tuple[int, ...] = ()
    hate: int = 0
    hand: tuple[str, ...] = ()  # the cards themselves (phone deck only)
    hand_count: int = 0  # cards in hand (both decks)
    dominance: tuple[str, ...] = ()
    draws: int = 0  # cards bought with Hate this round
    created: bool = False

    @property
    def title(self) -> str:
        return self.name or self.player

    @property
    def owner(self) -> str:
        """The player first and their rat second ("Bo (Rat2)"), for a result that goes into
        the history, its exports and the event's board, which count players, not rats."""
        if not self.name or self.name == self.player:
            return self.player
        return f"{self.player} ({self.name})"

    @property
    def dice(self) -> int:
        """Dice the rat owns, in its pool and on its wounds card."""
        return len(self.pool) + len(self.wounds)


@dataclass(frozen=True, slots=True)
class Roll:
    """One rat's dice in a contest: the sizes rolled and the face each shows."""

    sizes: tuple[int, ...]
    faces: tuple[int | None, ...]
    rerolled: frozenset[tuple[int, int]] = frozenset()  # (paying seat, die index) used

    @property
    def complete(self) -> bool:
        return all(face is not None for face in self.faces)

    @property
    def shown(self) -> tuple[int, ...]:
        return tuple(face for face in self.faces if face is not None)

    @property
    def missing(self) -> int:
        return sum(1 for face in self.faces if face is None)


@dataclass(frozen=True, slots=True)
class Contest:
    """Everyone involved rolls everything; then a window in which Hate buys re-rolls."""

    rolls: tuple[Roll | None, ...]  # by seat; None for a rat not in it
    done_spending: frozenset[int] = frozenset()

    @property
    def rollers(self) -> tuple[int, ...]:
        return tuple(seat for seat, roll in enumerate(self.rolls) if roll is not None)

    @property
    def all_in(self) -> bool:
        return all(roll is None or roll.complete for roll in self.rolls)

    def roll(self, seat: int) -> Roll:
        found = self.rolls[seat]
        if found is None:
            raise KeyError(seat)
        return found

    def with_roll(self, seat: int, roll: Roll) -> Contest:
        rolls = list(self.rolls)
        rolls[seat] = roll
        return replace(self, rolls=tuple(rolls))


@dataclass(frozen=True, slots=True)
class Challenge:
    """The tunnel card in play and what became of it."""

    card: str
    kind: str  # fight, sneak or think
    difficulty: int
    contest: Contest
    winner: int | None = None
    passed: tuple[int, ...] = ()  # in loot order
    failed: tuple[int, ...] = ()
    resolved: bool = False


@dataclass(frozen=True, slots=True)
class Settle:
    """After a challenge: loot picks still due (in order) and wound dice still to choose."""

    loot_order: tuple[int, ...] = ()
    loot_left: tuple[str, ...] = LOOT_ITEMS
    looted: tuple[tuple[int, str], ...] = ()  # (seat, item) as taken
    wounds_due: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Turn:
    """The tunnel turn of the current rat."""

    stage: str = CARD
    card: str = ""
    challenge: Challenge | None = None
    settle: Settle = field(default_factory=Settle)


@dataclass(frozen=True, slots=True)
class Fight:
    """Rat vs Rat: two rats roll, compare, wound, and the winner takes its pick."""

    attacker: int
    defender: int
    contest: Contest
    mandatory: bool = False
    rounds: int = 1  # how many times they have rolled (a full tie rolls again)
    wounds_due: tuple[int, ...] = ()
    winner: int | None = None
    spoils_taken: bool = False
    result: str = ""
    empty_handed: bool = False  # a draw between rats with no dice left to roll: it just ends

    @property
    def over(self) -> bool:
        if self.wounds_due:
            return False
        return self.empty_handed or (self.winner is not None and self.spoils_taken)


@dataclass(frozen=True, slots=True)
class Nest:
    stage: str = SCRAP
    dominant: int = 0
    fight: Fight | None = None
    scrapped: bool = False  # the mandatory scrap has been fought
    challenged: frozenset[int] = frozenset()  # rats that used their one challenge
    pending: tuple[int, int] | None = None  # (challenger, challenged) awaiting an answer
    mated: int | None = None
    offers: tuple[tuple[int, int], ...] = ()  # (seat, die size) put forward to be stolen
    victims: tuple[int, ...] = ()  # rats that must put a die forward
    stolen: tuple[int, int] | None = None  # (seat, die size) the Dominant Rat took


@dataclass(frozen=True, slots=True)
class Rats:
    rules: str
    rats: tuple[Rat, ...]
    deck_mode: str = PHYSICAL
    rounds: int = DEFAULT_ROUNDS
    roll_for_us: bool = False
    deck: tuple[str, ...] = ()  # phone deck: the draw pile, top first
    deck_count: int = 52  # cards in the draw pile (both decks)
    discard: tuple[str, ...] = ()  # known discards (every discard with the phone deck)
    discard_count: int = 0
    turn: Turn = field(default_factory=Turn)
    nest: Nest | None = None
    finished: bool = False
    notes: tuple[str, ...] = ()  # what just happened, for the tablet
    hate_spent: int = 0  # over the game, for the balance report
    pools_by_round: tuple[float, ...] = ()  # mean dice in a pool after each round (report)
    challenges: int = 0
    passes: int = 0

    def with_rat(self, seat: int, rat: Rat) -> Rats:
        rats = list(self.rats)
        rats[seat] = rat
        return replace(self, rats=tuple(rats))

    def title(self, seat: int) -> str:
        return self.rats[seat].title

    def seats_named(self) -> str:
        """ "0 Ann, 1 Bob, 2 Cat": a move names a rat by its seat number, which the terminal
        shows nowhere, so a refusal of a bad seat lists them."""
        return ", ".join(f"{seat} {rat.title}" for seat, rat in enumerate(self.rats))

    def contest(self) -> Contest | None:
        """The everybody-rolls moment under way, in the tunnel or in the nest."""
        if self.nest is not None and self.nest.fight is not None:
            return self.nest.fight.contest
        if self.turn.challenge is not None and not self.turn.challenge.resolved:
            return self.turn.challenge.contest
        return None

    def total_dice(self) -> int:
        return sum(rat.dice for rat in self.rats)
