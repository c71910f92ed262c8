"""What Run, Hamster, Run! gives the rest of the table: report figures, cues, camera rules.

The engine and the runtime know nothing about belts or alligators; whatever they need
from this game they find on its spec, filled from here.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.engine.camera import Watch
from companion.engine.events import NEXT, Event
from companion.engine.readings import BELT, DICE
from companion.engine.spec import Standing
from companion.engine.standing import ranked
from companion.engine.state import Ctx, State
from companion.games.run_hamster_run.camera import check_belt
from companion.games.run_hamster_run.hand_rolls import next_dice
from companion.games.run_hamster_run.model import NOT_PLACED, PIT, Belt, Hamster
from companion.observations import roll_from_dice


def belt_pieces(game: Belt) -> Mapping[str, tuple[int, int] | None]:
    """Each hamster still racing, by colour: its square, or None before it is placed.
    Eaten hamsters and those in the Alligator Pit are not on the belt to be sampled."""
    return {
        h.colour: None if h.row == NOT_PLACED else (h.row, h.lane)
        for h in game.hamsters
        if not h.eaten and not h.in_pit
    }


def report_figures(game: Belt) -> Mapping[str, float]:
    """The balance report's own figures: the belt's speed and the alligators at the end."""
    return {"speed_at_end": game.speed, "alligators_at_end": game.alligators}


def start_rows(game: Belt) -> tuple[int, ...]:
    """Each seat's start row, so the report can say whether the start row matters."""
    return tuple(hamster.start_row for hamster in game.hamsters)


def cues(before: Belt, after: Belt, ctx: Ctx, event: Event) -> tuple[str, ...]:
    """An alligator's Chomp! gets the buzzer's own sound when NEXT brings it."""
    chomped = any("Chomp!" in note for note in after.notes)
    if event.kind == NEXT and chomped and after.notes != before.notes:
        return ("chomp",)
    return ()


def hand_dice(state: State[Belt]) -> tuple[int, ...]:
    """The d6s the players roll by hand for the next NEXT (classic's Rest and Fatigue dice)."""
    return (6,) * len(next_dice(state.G, state.ctx))


#: What the camera reads in this game: the belt (checked against the game) and the dice.
CAMERA: dict[str, Watch[Belt]] = {
    BELT: Watch(check_belt, pieces=belt_pieces),
    DICE: Watch(roll_from_dice, dice=hand_dice),
}


def standing(game: Belt, ctx: Ctx) -> tuple[Standing, ...]:
    """The last hamster left wins, so the living lead the eaten, and among the living the
    one furthest from the Pit (the alligators eat from row 1 up)."""
    hamsters = game.hamsters
    ranks = ranked([(h.eaten, -h.row) for h in hamsters])
    return tuple(
        Standing(rank, _where(h, ctx.over)) for rank, h in zip(ranks, hamsters, strict=True)
    )


def _where(hamster: Hamster, over: bool) -> str:
    """Where a hamster is; at the end, the one still alive is simply the last one left
    (it may sit in the Pit, which would read as a loss beside the winner's name)."""
    if over and not hamster.eaten:
        return "last hamster left"
    if hamster.eaten:
        return "eaten"
    if hamster.row == NOT_PLACED:
        return "not placed"
    return "in the Pit" if hamster.row == PIT else f"row {hamster.row}"
