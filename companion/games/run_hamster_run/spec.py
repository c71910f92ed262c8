"""Run, Hamster, Run! declared for the engine: nine phases a round, after set-up."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.rng import Draws
from companion.engine.spec import (
    BalanceReport,
    GameSpec,
    MoveSpec,
    Outcome,
    PhaseSpec,
    Presentation,
)
from companion.engine.state import Ctx
from companion.engine.turns import in_order, whoever
from companion.games.run_hamster_run import actions, bot, corrections, odds, rounds, table
from companion.games.run_hamster_run.choices import choices
from companion.games.run_hamster_run.hand_rolls import next_dice
from companion.games.run_hamster_run.model import RULE_SETS, Belt
from companion.games.run_hamster_run.phases import Phase
from companion.games.run_hamster_run.text import happened, render
from companion.games.run_hamster_run.view import prompt, table_changes, view

NAME = "run-hamster-run"


def _must_declare(game: Belt, ctx: Ctx, draws: Draws) -> Belt:
    assert ctx.current is not None
    raise IllegalMoveError(f"{game.hamsters[ctx.current].name} must declare an action first.")


def _must_place(game: Belt, ctx: Ctx, draws: Draws) -> Belt:
    assert ctx.current is not None
    raise IllegalMoveError(f"{game.hamsters[ctx.current].name} must place their hamster first.")


def _finish_current(game: Belt, ctx: Ctx, draws: Draws) -> Belt:
    assert ctx.current is not None
    return actions.finish(game, ctx, ctx.current, {}, draws)


def _to(name: str) -> Any:
    return lambda game: name


def _always(game: Belt, ctx: Ctx) -> bool:
    """Nothing to change on the table: once nobody is offered a move, the step passes."""
    return True


V21 = ("v2.1",)  # moves only the v2.1 rules have

RESOLVE_MOVES: dict[str, MoveSpec[Belt]] = {
    "change": MoveSpec(actions.change, "take a different action (costs one Pluck chip)"),
    "run": MoveSpec(actions.run, "move through empty squares: path=[[row, lane], ...], pay"),
    "sidestep": MoveSpec(actions.sidestep, "v2.1: free step left or right", rules=V21),
    "climb": MoveSpec(actions.climb, "v2.1: climb over a neighbour: over, to, pay", rules=V21),
    "push": MoveSpec(actions.push, "push the neighbour in a direction: up/down/left/right"),
    "step": MoveSpec(actions.step_free, "v2.1 Bite/Throw: the one free step", rules=V21),
    "bite": MoveSpec(actions.bite, "v2.1: bite a neighbour: target, chip", rules=V21),
    "throw": MoveSpec(actions.throw, "throw a neighbour: target (v2.1 also: to)"),
    "rest": MoveSpec(actions.rest, "rest: to=trait that gets a chip back"),
    "finish": MoveSpec(actions.finish, "end this hamster's action", ends_turn=True),
}

PHASES: dict[str, PhaseSpec[Belt]] = {
    Phase.SETUP: PhaseSpec(
        name=Phase.SETUP,
        title="Set-up",
        next=_to(Phase.ALLOCATE),
        moves={
            "place": MoveSpec(rounds.place, "place your hamster: to=[row, lane]", ends_turn=True)
        },
        turn=whoever(rounds.placement_first),
        on_turn_end=_must_place,
        blocker=rounds.placement_blocker,
        passes=_always,  # every hamster placed
    ),
    Phase.ALLOCATE: PhaseSpec(
        name=Phase.ALLOCATE,
        title="1 Allocate Pluck",
        next=_to(Phase.INITIATIVE),
        moves={
            "allocate": MoveSpec(
                rounds.allocate, "scamper, mettle, friskiness", any_seat=True, secret=True
            )
        },
        on_begin=rounds.begin_allocation,
        on_end=rounds.reveal,
        blocker=rounds.allocation_blocker,
        new_round=True,
        passes=_always,  # every allocation in: the reveal is only an outcome
    ),
    Phase.INITIATIVE: PhaseSpec(
        name=Phase.INITIATIVE,
        title="2 Initiative",
        next=_to(Phase.DECLARE),
        on_begin=rounds.draw_initiative,
        passes=_always,  # the digital HAT's order, nothing to move on the table
    ),
    Phase.DECLARE: PhaseSpec(
        name=Phase.DECLARE,
        title="3 Declare Actions",
        next=_to(Phase.RESOLVE),
        moves={
            "declare": MoveSpec(
                actions.declare, "action (and a target, free to change)", ends_turn=True
            )
        },
        on_begin=rounds.begin_declarations,
        on_end=rounds.end_declarations,
        turn=in_order(lambda game: game.initiative[::-1]),  # the last in initiative first
        on_turn_end=_must_declare,
        passes=_always,  # every action declared
    ),
    Phase.RESOLVE: PhaseSpec(
        name=Phase.RESOLVE,
        title="4 Resolve Actions",
        next=_to(Phase.BELT),
        moves=RESOLVE_MOVES,
        turn=in_order(lambda game: game.initiative),
        on_turn_end=_finish_current,
        passes=_always,  # every hamster has resolved
    ),
    Phase.BELT: PhaseSpec(
        name=Phase.BELT,
        title="5 Move the Belt",
        next=_to(Phase.ALLIGATORS),
        on_begin=rounds.move_belt,
    ),
    Phase.ALLIGATORS: PhaseSpec(
        name=Phase.ALLIGATORS,
        title="6 Alligators",
        next=_to(Phase.FATIGUE),
        on_begin=rounds.alligators,
        passes=rounds.nothing_to_move,
    ),
    Phase.FATIGUE: PhaseSpec(
        name=Phase.FATIGUE,
        title="7 Fatigue",
        next=_to(Phase.TALLY),
        on_begin=rounds.fatigue,
        passes=rounds.nothing_to_move,
    ),
    Phase.TALLY: PhaseSpec(
        name=Phase.TALLY,
        title="8 Tally",
        next=_to(Phase.NEW_ROUND),
        on_begin=rounds.tally,
        passes=_always,
    ),
    Phase.NEW_ROUND: PhaseSpec(
        name=Phase.NEW_ROUND,
        title="9 New Round",
        next=_to(Phase.ALLOCATE),
        on_begin=rounds.new_round,
        passes=_always,
    ),
}

ROUND_PHASES = tuple(name for name in PHASES if name != Phase.SETUP)

# "The camera is right" may be tapped in any phase (in set-up, for hamsters already placed).
CORRECT = MoveSpec(
    corrections.correct, "the camera is right: places={colour: [row, lane] or 'pit'}", any_seat=True
)
for _name in PHASES:
    PHASES[_name] = replace(PHASES[_name], moves={**PHASES[_name].moves, "correct": CORRECT})


def end_if(game: Belt, ctx: Ctx) -> Outcome | None:
    """Checked at Tally: one hamster left wins; none left and the alligators win."""
    if ctx.phase != Phase.TALLY:
        return None
    living = game.living()
    if len(living) == 1:
        last = game.hamsters[living[0]]
        return Outcome(
            (living[0],), f"{last.name} ({last.colour} hamster) is the last hamster left and wins!"
        )
    if not living:
        return Outcome((), "Every hamster has been eaten: the alligators win.")
    return None


SPEC: GameSpec[Belt] = GameSpec(
    name=NAME,
    title="Run, Hamster, Run!",
    rule_sets=RULE_SETS,
    default_rules="v2.1",
    min_players=2,
    max_players=5,
    setup=rounds.setup,
    phases=PHASES,
    first_phase=Phase.SETUP,
    end_if=end_if,
    presentation=Presentation(
        view=view,
        prompt=prompt,
        text=render,
        odds_text=odds.odds_lines,
        seat_name=lambda game, seat: game.hamsters[seat].name,
        happened=happened,
        by_hand=(
            'Where a hamster stands: tap a highlighted square, or "The camera is right" when '
            "the camera sees it elsewhere (any phase, undoable).",
            "A Pluck allocation: Change on its form until the last hamster has allocated; the "
            "trait used against the alligators is on the same form.",
            "The players' own dice (classic Rest and Fatigue): the pickers beside NEXT.",
            "A changed action: pick the trait whose chip pays for it.",
            "Rest: pick the trait the chip returns to.",
        ),
    ),
    choices=choices,
    table_changes=table_changes,
    bot=bot.candidates,
    standing=table.standing,
    report=BalanceReport(
        figures=table.report_figures,
        seat_group=("start_row", table.start_rows),
        nobody_wins="alligator_wins",
    ),
    camera=table.CAMERA,
    cues=table.cues,
    cue_words={"chomp": "Chomp!"},
    next_dice=next_dice,
)
