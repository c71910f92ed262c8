"""How a game is declared: phases, turn orders and moves, as data plus small functions.

Modelled on boardgame.io: a phase has moves, optional ``on_begin``/``on_end`` hooks, a
``blocker`` that says why it cannot end yet, the name of the ``next`` phase and an optional
turn order given as ``(first, next)`` functions (``None`` ends the phase's turns).
Rule sets of one game share the spec; the game's data carries its rule set.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from companion.engine.camera import ReadingRule, Watch
from companion.engine.events import Event
from companion.engine.rng import Draws
from companion.engine.state import Ctx, State

G = TypeVar("G")

Args = Mapping[str, Any]
MoveFn = Callable[[G, Ctx, int, Args, Draws], G]
Hook = Callable[[G, Ctx, Draws], G]
SeatFn = Callable[[G, Ctx], "int | None"]


def added(before: Any, after: Any) -> list[Any]:
    """The entries at the end of ``after`` that ``before`` (the same list, a change
    earlier) lacked; a list kept to its last few entries may have lost some at its start.
    For ``Presentation.happened``."""
    if not isinstance(after, list):
        return []
    old = before if isinstance(before, list) else []
    for overlap in range(min(len(old), len(after)), -1, -1):
        if old[len(old) - overlap :] == after[:overlap]:
            return after[overlap:]
    return after


@dataclass(frozen=True)
class MoveSpec(Generic[G]):
    """A move: validates and returns the new game data, or raises ``IllegalMoveError``."""

    fn: MoveFn[G]
    help: str = ""
    ends_turn: bool = False  # the mover's turn ends after this move
    any_seat: bool = False  # any seat may make it, not only the current one (who may act)
    # Its arguments are hidden from everyone but the mover while its phase lasts (who may
    # see): a Pluck allocation, a card passed face down. Kept apart from ``any_seat`` as
    # boardgame.io keeps ``redact`` apart from who may move: Hamsterdam's plugs are made by
    # any seat in the open.
    secret: bool = False
    # the rule sets that have this move (Run, Hamster, Run!'s Bite only in v2.1); empty: all
    rules: tuple[str, ...] = ()
    # offered at every step (Rats' card bought for 1 Hate "at any time"): it is no decision
    # that holds a step which otherwise passes on its own, as the players may make it later
    any_time: bool = False


@dataclass(frozen=True)
class TurnOrder(Generic[G]):
    """Who acts first in a phase and who acts after the current seat."""

    first: SeatFn[G]
    next: SeatFn[G]


@dataclass(frozen=True)
class PhaseSpec(Generic[G]):
    """One phase of a round."""

    name: str
    title: str
    next: Callable[[G], str]
    moves: Mapping[str, MoveSpec[G]] = field(default_factory=dict)
    on_begin: Hook[G] | None = None
    on_end: Hook[G] | None = None
    turn: TurnOrder[G] | None = None
    on_turn_end: Hook[G] | None = None  # NEXT pressed while a seat is acting
    blocker: Callable[[G, Ctx], str | None] | None = None
    new_round: bool = False  # entering this phase starts a new round
    # when this holds and nobody is offered a move, nobody has a decision here: the tablet
    # presses NEXT itself once the outcome has been on screen a moment (a table may keep
    # every stop instead). None: NEXT here is always the players' own.
    passes: Callable[[G, Ctx], bool] | None = None


@dataclass(frozen=True)
class Outcome:
    winners: tuple[int, ...]
    result: str


@dataclass(frozen=True)
class Standing:
    """Where one seat stands now: ``rank`` 1 leads (equal ranks share the place), and the
    public figure that decides it in a few words ("2 water", "7 pieces left")."""

    rank: int
    figure: str = ""


#: A random but plausible player: the candidate events for a state, best first.
Bot = Callable[[State[G], random.Random], Iterator[Event]]
Cues = Callable[[G, G, Ctx, Event], tuple[str, ...]]


@dataclass(frozen=True)
class BalanceReport(Generic[G]):
    """What ``companion simulate`` reports for a game beyond wins by seat and rounds.

    ``figures`` gives the game's own numbers at the end of a game (belt speed, flood
    water, pieces taken ...), averaged and maxed over the games; ``seat_group`` names a
    per-seat property whose win rate is reported too (``("start_row", fn)`` gives each
    seat's start row); ``nobody_wins`` names the rate of games nobody won, when that has
    a meaning in the game (the alligators win).
    """

    figures: Callable[[G], Mapping[str, float]] | None = None
    seat_group: tuple[str, Callable[[G], tuple[int, ...]]] | None = None
    nobody_wins: str = ""


@dataclass(frozen=True)
class SetupOption:
    """A choice the table makes when it starts a game (the page draws a field for it).

    ``choices`` lists ``(value, label)`` pairs for a pick; without them the option is a
    whole number from ``minimum`` to ``maximum``. The game's ``setup`` still checks the
    value: this only tells the page and the API what to offer.
    """

    label: str
    default: Any
    choices: tuple[tuple[str, str], ...] = ()
    minimum: int = 0
    maximum: int = 0

    def check(self, name: str, value: Any) -> Any:
        """The value if it is one this option takes; else ``ValueError`` with a sentence."""
        if self.choices:
            allowed = [v for v, _ in self.choices]
            if value not in allowed:
                raise ValueError(f"'{name}' is one of: {', '.join(allowed)}.")
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"'{name}' is a whole number from {self.minimum} to {self.maximum}.")
        if not self.minimum <= value <= self.maximum:
            raise ValueError(f"'{name}' is a whole number from {self.minimum} to {self.maximum}.")
        return value

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"label": self.label, "default": self.default}
        if self.choices:
            data["choices"] = [{"value": v, "label": label} for v, label in self.choices]
        else:
            data["minimum"], data["maximum"] = self.minimum, self.maximum
        return data


@dataclass(frozen=True)
class Presentation(Generic[G]):
    """How a game shows itself to people: the page's view, the prompt, the terminal's board.

    Kept apart from the rules because nothing here may change what is legal: the engine
    reads only ``seat_name`` (for an error that names a player), everything else is for the
    page, the terminal and the voice.
    """

    # the public view (secrets of other seats hidden): what the page's board module draws
    view: Callable[[G, Ctx, int | None], dict[str, Any]]
    # what the table must do now, one sentence (the page's headline, said aloud)
    prompt: Callable[[G, Ctx], str]
    text: Callable[[G, Ctx], str] | None = None  # the board as plain text, for the terminal
    # the odds shown where the decision is made, as terminal lines (``--no-odds`` hides them)
    odds_text: Callable[[G, Ctx], list[str]] | None = None
    seat_name: Callable[[G, int], str] | None = None  # for messages that name a player
    # what a change did, in words, from the public view before and after it: the terminal
    # says it after each move (the page's board module says the same from its view); the
    # outcome of a test, the lines a game logs. None: the notes and the board say it all
    happened: Callable[[Mapping[str, Any], Mapping[str, Any]], list[str]] | None = None
    # what a person can put right by hand in this game, one sentence each (the page lists
    # them under "Fix it by hand", beside Undo/Redo, which every game has)
    by_hand: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameSpec(Generic[G]):
    """A whole game: set-up, phases, the end condition and what players may see."""

    name: str
    title: str
    rule_sets: tuple[str, ...]
    min_players: int
    max_players: int
    setup: Callable[[str, tuple[str, ...], Args, Draws], G]
    phases: Mapping[str, PhaseSpec[G]]
    first_phase: str
    end_if: Callable[[G, Ctx], Outcome | None]
    presentation: Presentation[G]  # the view, prompt and words for people, apart from rules
    default_rules: str = ""
    # candidate moves for the tablet's buttons; the engine filters out illegal ones
    choices: Callable[[G, Ctx], list[dict[str, Any]]] | None = None
    # after an undo or redo: what to change on the real table (before, after) -> sentence
    table_changes: Callable[[G, G], str] | None = None
    # --- what the rest of the companion needs from a game (the seam: nothing outside the
    # game's package knows its name) ---
    # random but plausible player for ``companion simulate`` and the property tests
    bot: Bot[G] | None = None
    report: BalanceReport[G] = field(default_factory=BalanceReport)
    # a finished game's figures as its history shows them, in players' words (numbers or
    # short texts such as each Rat's Dominance hand); None: the report's figures
    key_figures: Callable[[G], Mapping[str, float | str]] | None = None
    # the seat that started the game (Hamsterdam's roll-off winner), for exports such as BG
    # Stats'; None (or a game without it): no one start player to name
    start_player: Callable[[G], int | None] | None = None
    # the least wins (Hamsterdam's water), for exports that ask whether the highest does
    lowest_wins: bool = False
    # the page's board module: web/static/games/<board>.js (default: the game's name)
    board: str = ""
    # what the camera reads for this game, by reading kind (companion.engine.readings):
    # each kind's rule and what its watcher and twin need (companion.engine.camera); the
    # camera rig runs exactly these watchers while the game is on the table
    camera: Mapping[str, Watch[G]] = field(default_factory=dict)
    # table cues for a change (before, after, ctx after, event): names such as "chomp"
    # that the buzzer, light or voice turn into something players notice
    cues: Cues[G] | None = None
    # what each of those cues says aloud (the Pi's speaker, the tablet's speech): "chomp" ->
    # "Chomp!"; a cue missing here is said as its name
    cue_words: Mapping[str, str] = field(default_factory=dict)
    # what the READ button means when the camera proposes nothing: (G, ctx, the camera's
    # notes by reading kind) -> the event to apply, or None ("nothing to read"); it raises
    # IllegalMoveError with its own sentence when the notes say READ cannot be trusted now
    on_read: Callable[[G, Ctx, Mapping[str, Any]], Event | None] | None = None
    # the dice the players roll that the next NEXT takes, by label ("Ann's fatigue die"):
    # the page shows a picker per die beside NEXT and the button waits for them
    next_dice: Callable[[G, Ctx], list[str]] | None = None
    # choices made at the start beyond rules, players and "roll for us" (the page draws them)
    options: Mapping[str, SetupOption] = field(default_factory=dict)
    # who leads now, one Standing per seat from public facts only (the event board and a
    # tournament's standings); None: level until the end, then the winners first
    standing: Callable[[G, Ctx], tuple[Standing, ...]] | None = None

    @property
    def rules_default(self) -> str:
        return self.default_rules or self.rule_sets[0]

    @property
    def board_name(self) -> str:
        return self.board or self.name

    @property
    def readings(self) -> Mapping[str, ReadingRule[G]]:
        """The rule for each reading kind the game takes (from :attr:`camera`)."""
        return {kind: watch.rule for kind, watch in self.camera.items()}
