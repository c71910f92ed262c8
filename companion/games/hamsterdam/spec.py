"""Hamsterdam declared for the engine: set-up, then turns of roll, flood, breach and dice.

NEXT steps a turn through roll (one press reads the dice, the next floods) → flood →
breach (full game only) → pass the dice. After every rotation of the dice comes movement,
then, only if someone kept a skip-movement special ready, those specials one player at a
time; after the round's last turn, redeployment and a "new round" stop that starts the
round counter. Every NEXT does the plain thing the table would do when nobody chose
otherwise: read the dice, plug with plain hamsters, flip the cheaper end, spread hamsters.

Set-up and redeployment have one-shot moves (``pass_cards``, ``arrange``, ``place``,
``redeploy``) for scripts and the terminal, and step-wise ones (``pass_card``,
``lay_card``, ``keep_special``, ``lift``, ``stand``, ``spread``) that the tablet's buttons
can offer without listing every combination (see :mod:`choices`).
"""

from __future__ import annotations

from collections.abc import Callable

from companion.engine.camera import Watch
from companion.engine.events import Event
from companion.engine.readings import DICE
from companion.engine.spec import (
    BalanceReport,
    GameSpec,
    MoveSpec,
    PhaseSpec,
    Presentation,
)
from companion.engine.state import Ctx, State
from companion.engine.turns import whoever
from companion.games.hamsterdam import (
    bot,
    breach,
    effects,
    flood,
    movement,
    powers,
    setup,
    turns,
)
from companion.games.hamsterdam.catalogue import (
    ANY_ROLL,
    FLOOD,
    KINDS,
    MOVEMENT,
    OWN_ROLL,
    REDEPLOYMENT,
    SKIP_MOVEMENT,
)
from companion.games.hamsterdam.changes import table_changes
from companion.games.hamsterdam.choices import choices
from companion.games.hamsterdam.model import FULL, RULE_SETS, Hamsterdam
from companion.games.hamsterdam.phases import Phase
from companion.games.hamsterdam.scoring import end_if, report_figures, standing
from companion.games.hamsterdam.text import happened, render
from companion.games.hamsterdam.view import odds_lines, prompt, view
from companion.observations import roll_from_dice

NAME = "hamsterdam"


def _to(name: str) -> Callable[[Hamsterdam], str]:
    return lambda game: name


def _always(game: Hamsterdam, ctx: Ctx) -> bool:
    return True


def _rolled(game: Hamsterdam, ctx: Ctx) -> bool:
    """The roll is in (and no Physicster choice of rolls waits) and nobody is to roll."""
    return ctx.current is None and game.dice is not None and game.alternative is None


def _specials(timing: str, *, any_seat: bool = True) -> dict[str, MoveSpec[Hamsterdam]]:
    """One move per special of this timing; ``copycat=true`` lets Copycatster imitate it."""
    return {
        kind.move: MoveSpec(
            powers.power(name, effects.EFFECTS[name]),
            f"{kind.help} (copycat=true: Copycatster imitates it)",
            ends_turn=not any_seat,
            any_seat=any_seat,
        )
        for name, kind in KINDS.items()
        if kind.timing == timing
    }


FLIP: dict[str, MoveSpec[Hamsterdam]] = {
    "flip": MoveSpec(breach.flip, "end=left or right, sacrifice=hamster", any_seat=True)
}

FLOOD_MOVES: dict[str, MoveSpec[Hamsterdam]] = {
    "plug": MoveSpec(flood.plug, "plug the flood: at, hamster (plain or a special)", any_seat=True),
    "water": MoveSpec(flood.water, "let the water in where nobody stands: at", any_seat=True),
    **_specials(FLOOD),
}

# Placing one hamster at a time (set-up, and redeployment after ``lift``), or the rest at once.
STANDING: dict[str, MoveSpec[Hamsterdam]] = {
    "stand": MoveSpec(setup.stand, "a resting hamster onto a card: at, hamster", any_seat=True),
    "spread": MoveSpec(setup.spread, "the resting hamsters, the plain way", any_seat=True),
}

PHASES: dict[str, PhaseSpec[Hamsterdam]] = {
    Phase.SETUP: PhaseSpec(
        name=Phase.SETUP,
        title="Set-up",
        next=_to(Phase.ROUND),
        moves={
            "pass_cards": MoveSpec(
                setup.pass_cards,
                "full: cards=[to the left, to the right]",
                any_seat=True,
                secret=True,
            ),
            "pass_card": MoveSpec(
                setup.pass_card,
                "full: card (first to the left, then to the right)",
                any_seat=True,
                secret=True,
            ),
            "lay_card": MoveSpec(
                setup.lay_card, "full: card, the next one from the left", any_seat=True
            ),
            "keep_special": MoveSpec(
                setup.keep_special,
                "full: special (id or name) to keep",
                any_seat=True,
                secret=True,
            ),
            "arrange": MoveSpec(
                setup.arrange,
                "full: order=[values left to right], keep=[specials]",
                any_seat=True,
                secret=True,
            ),
            "place": MoveSpec(
                setup.place, "stacks=[plain per position], specials=[[name, at]]", any_seat=True
            ),
            **STANDING,
            "arrange_all": MoveSpec(
                setup.arrange_all, "everyone with specials kept: the rest in order", any_seat=True
            ),
            "spread_all": MoveSpec(
                setup.spread_all, "everyone placing: the rest the plain way", any_seat=True
            ),
            "roll_off": MoveSpec(
                setup.roll_off, "everyone rolls two dice for first (or first=seat)", any_seat=True
            ),
        },
        blocker=setup.blocker,
        on_end=setup.finish,
        passes=_always,  # every dam ready and the first player named: on to the first roll
    ),
    Phase.ROUND: PhaseSpec(
        name=Phase.ROUND,
        title="New round",
        next=_to(Phase.ROLL),
        on_begin=turns.begin_round,
        new_round=True,
        passes=_always,
    ),
    Phase.ROLL: PhaseSpec(
        name=Phase.ROLL,
        title="1 Roll the dice",
        next=_to(Phase.FLOOD),
        moves={
            "roll": MoveSpec(turns.roll, "enter the two dice", ends_turn=True, any_seat=True),
            "keep_roll": MoveSpec(
                effects.keep_roll, "after Physicster: use=old or new", any_seat=True
            ),
            **_specials(OWN_ROLL),
            **_specials(ANY_ROLL),
        },
        on_begin=turns.begin_roll,
        turn=whoever(turns.roller_until_rolled),
        on_turn_end=turns.roll_on_next,
        blocker=turns.roll_blocker,
        passes=_rolled,  # the dice are in and no after-roll special is held
    ),
    Phase.FLOOD: PhaseSpec(
        name=Phase.FLOOD,
        title="2 Flood",
        next=lambda game: Phase.BREACH if game.rules == FULL else Phase.DICE,
        moves=FLOOD_MOVES,
        on_begin=flood.begin,
        on_end=flood.finish,
        passes=_always,
    ),
    Phase.BREACH: PhaseSpec(
        name=Phase.BREACH,
        title="3 Breaches",
        next=_to(Phase.DICE),
        moves=FLIP,
        on_end=breach.finish,
        passes=_always,  # no breach to flip a card for
    ),
    Phase.DICE: PhaseSpec(
        name=Phase.DICE,
        title="4 Pass the dice",
        next=turns.after_dice,
        on_end=turns.pass_dice,
        passes=_always,
    ),
    Phase.MOVEMENT: PhaseSpec(
        name=Phase.MOVEMENT,
        title="Movement",
        next=movement.after_moves,
        moves={
            "move": MoveSpec(movement.move, "from, to (next card), hamster", any_seat=True),
            **_specials(MOVEMENT),
        },
        on_begin=movement.begin_movement,
        passes=_always,  # nobody has a hamster that can move
    ),
    Phase.SKIPS: PhaseSpec(
        name=Phase.SKIPS,
        title="Specials instead of moving",
        next=turns.after_movement,
        # A Bombster flood may fill a flood pile: the breach it causes is offered at once.
        moves={**_specials(SKIP_MOVEMENT, any_seat=False), **FLOOD_MOVES, **FLIP},
        on_begin=movement.begin_skips,
        turn=whoever(movement.first_skipper),
        on_turn_end=movement.pass_skip,
        on_end=movement.finish_skips,
        passes=_always,  # no special left to use instead of moving
    ),
    Phase.REDEPLOY: PhaseSpec(
        name=Phase.REDEPLOY,
        title="Redeployment",
        next=_to(Phase.ROUND),
        moves={
            "clear": MoveSpec(
                movement.clear, "a hamster leaves to clear water: at, hamster, from", any_seat=True
            ),
            "redeploy": MoveSpec(
                movement.redeploy,
                "stacks=[plain per position], specials=[[name, at]]",
                any_seat=True,
            ),
            "lift": MoveSpec(
                movement.lift, "pick every hamster up to stand them anew", any_seat=True
            ),
            **STANDING,
            **_specials(REDEPLOYMENT),
        },
        on_begin=movement.begin_redeploy,
        on_end=movement.finish_redeploy,
        passes=_always,  # nothing left to redeploy
    ),
}


def two_dice_due(state: State[Hamsterdam]) -> tuple[int, ...]:
    """The 2d6 the roller throws while the roll phase waits for them, or the roll-off's
    dice (the camera reads them; the twin throws them)."""
    game = state.G
    if state.ctx.phase == Phase.SETUP:  # the roll-off for the first player: two each
        return (6,) * len(setup.roll_off_dice(game))
    if state.ctx.phase != Phase.ROLL or (game.dice is not None and not game.dry):
        return ()
    return (6, 6)


def breach_cue(before: Hamsterdam, after: Hamsterdam, ctx: Ctx, event: Event) -> tuple[str, ...]:
    """A dam card flipped by a breach gets the buzzer's alarm and is said aloud."""
    flipped = sum(p.breaches for p in after.players) > sum(p.breaches for p in before.players)
    return ("breach",) if flipped else ()


SPEC: GameSpec[Hamsterdam] = GameSpec(
    name=NAME,
    title="Hamsterdam",
    rule_sets=RULE_SETS,
    default_rules=FULL,
    min_players=2,
    max_players=4,
    setup=setup.setup,
    phases=PHASES,
    first_phase=Phase.SETUP,
    end_if=end_if,
    presentation=Presentation(
        view=view,
        prompt=prompt,
        text=render,
        odds_text=odds_lines,
        seat_name=lambda game, seat: game.players[seat].name,
        happened=happened,
        by_hand=(
            "The flood roll and the roll-off: the dice pickers (the camera's reading waits for "
            "READ when it is not sure).",
            "Every pass, dam card, special, plug and step: its own button; a wrong one: Undo.",
            "Who won the roll-off: tap the winner instead of entering the dice.",
        ),
    ),
    choices=choices,
    table_changes=table_changes,
    bot=bot.candidates,
    report=BalanceReport(figures=report_figures),
    start_player=lambda game: game.first if game.first >= 0 else None,  # the roll-off's
    lowest_wins=True,  # the least water wins
    standing=standing,
    camera={DICE: Watch(roll_from_dice, dice=two_dice_due)},
    cues=breach_cue,
    cue_words={"breach": "A dam breaks!"},
    next_dice=lambda game, ctx: setup.roll_off_dice(game) if ctx.phase == Phase.SETUP else [],
)
