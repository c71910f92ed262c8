"""The pure heart of the engine: ``step(spec, state, event) -> (state, outcome)``.

Nothing here mutates a state; the same event applied to the same state always gives the
same result (its randomness comes from the state's generator or the event's given
outcomes), which is what makes replay, undo and crash recovery exact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from companion.engine.errors import IllegalMoveError, UnknownGameError
from companion.engine.events import MOVE, NEXT, Event
from companion.engine.evolve import copier_for
from companion.engine.read_args import ReadArgs, unused_sentence
from companion.engine.rng import Draws, seed_state
from companion.engine.spec import GameSpec, PhaseSpec
from companion.engine.state import Ctx, State

G = TypeVar("G")

_copy_ctx = copier_for(Ctx)  # every step copies the context at least once: skip the wrapper

Outcome = tuple[dict[str, Any], ...]


def initial_state(
    spec: GameSpec[G],
    rules: str,
    players: Sequence[str],
    seed: int,
    options: Mapping[str, Any] | None = None,
    given: Sequence[Any] = (),
) -> tuple[State[G], Outcome]:
    """Set up a new game and enter its first phase."""
    if rules not in spec.rule_sets:
        known = ", ".join(spec.rule_sets)
        raise UnknownGameError(f"{spec.title} has no rule set {rules!r}; choose one of: {known}.")
    if not spec.min_players <= len(players) <= spec.max_players:
        raise IllegalMoveError(
            f"{spec.title} needs {spec.min_players} to {spec.max_players} players, "
            f"not {len(players)}."
        )
    if len(set(players)) != len(players):
        raise IllegalMoveError("Every player needs a different name.")
    draws = Draws(seed_state(seed), given)
    game = spec.setup(rules, tuple(players), options or {}, draws)
    g, ctx = _enter(spec, game, Ctx(phase=spec.first_phase, round=0), spec.first_phase, draws)
    return State(g, ctx, draws.state), tuple(draws.outcome)


def apply(spec: GameSpec[G], state: State[G], event: Event) -> State[G]:
    """Apply one event and return the new state (see :func:`step` for the outcome too)."""
    return step(spec, state, event)[0]


def step(
    spec: GameSpec[G],
    state: State[G],
    event: Event,
    *,
    record: bool = True,
    strict: bool = False,
) -> tuple[State[G], Outcome]:
    """Apply a move or a NEXT; raise :class:`IllegalMoveError` (and change nothing) if illegal.

    ``strict`` (a move being made now, not one replayed from a game's log) also refuses a
    detail the move never looked at: it would be stored for ever and change nothing, most
    often a misspelt name. A game stored before this check still replays.
    """
    ctx = state.ctx
    if ctx.over:
        raise IllegalMoveError(f"The game is over ({ctx.result}); start a new game or undo.")
    draws = Draws(state.rng, event.given, record=record)
    phase = spec.phases[ctx.phase]
    if event.kind == MOVE:
        game, ctx = _move(spec, phase, state.G, ctx, event, draws, strict)
    elif event.kind == NEXT:
        game, ctx = _next(spec, phase, state.G, ctx, draws)
    else:
        raise IllegalMoveError(
            f"{event.kind!r} is not a move; undo and redo go through the session."
        )
    if event.given and draws.unused_given:
        raise IllegalMoveError(
            f"{draws.unused_given} given outcome(s) were not needed by this "
            f"{event.name or event.kind}; remove them."
        )
    ended = spec.end_if(game, ctx)
    if ended is None:
        ctx = _copy_ctx(ctx, seq=ctx.seq + 1)
    else:
        ctx = _copy_ctx(ctx, seq=ctx.seq + 1, over=True, winners=ended.winners, result=ended.result)
    return State(game, ctx, draws.state), tuple(draws.outcome) if record else ()


def _move(
    spec: GameSpec[G],
    phase: PhaseSpec[G],
    game: G,
    ctx: Ctx,
    event: Event,
    draws: Draws,
    strict: bool = False,
) -> tuple[G, Ctx]:
    move = phase.moves.get(event.name)
    if move is None:
        allowed = ", ".join(sorted(phase.moves)) or "only NEXT"
        raise IllegalMoveError(
            f"You cannot {event.name or 'do that'} during {phase.title}; allowed now: {allowed}."
        )
    if event.seat is None:
        raise IllegalMoveError(f"Say which player makes the move {event.name!r}.")
    if not move.any_seat and event.seat != ctx.current:
        name = spec.presentation.seat_name or (lambda game, seat: f"seat {seat}")
        if ctx.current is None:
            raise IllegalMoveError(f"Nobody is to {event.name} now: press NEXT ({phase.title}).")
        raise IllegalMoveError(
            f"It is {name(game, ctx.current)}'s turn, not {name(game, event.seat)}'s, "
            f"to {event.name}."
        )
    if strict:
        args = ReadArgs(event.args)
        game = move.fn(game, ctx, event.seat, args, draws)
        if unused := args.unused():
            raise IllegalMoveError(unused_sentence(event.name, unused, args.read))
    else:
        game = move.fn(game, ctx, event.seat, event.args, draws)
    if move.ends_turn and phase.turn is not None:
        ctx = _copy_ctx(ctx, current=phase.turn.next(game, ctx), turn=ctx.turn + 1)
    return game, ctx


def _next(spec: GameSpec[G], phase: PhaseSpec[G], game: G, ctx: Ctx, draws: Draws) -> tuple[G, Ctx]:
    if ctx.current is not None and phase.turn is not None:
        if phase.on_turn_end is not None:
            game = phase.on_turn_end(game, ctx, draws)
        return game, _copy_ctx(ctx, current=phase.turn.next(game, ctx), turn=ctx.turn + 1)
    if phase.blocker is not None:
        reason = phase.blocker(game, ctx)
        if reason:
            raise IllegalMoveError(reason)
    if phase.on_end is not None:
        game = phase.on_end(game, ctx, draws)
    return _enter(spec, game, ctx, phase.next(game), draws)


def _enter(spec: GameSpec[G], game: G, ctx: Ctx, name: str, draws: Draws) -> tuple[G, Ctx]:
    phase = spec.phases[name]
    ctx = _copy_ctx(
        ctx,
        phase=name,
        current=None,
        turn=0,
        round=ctx.round + 1 if phase.new_round else ctx.round,
    )
    if phase.on_begin is not None:
        game = phase.on_begin(game, ctx, draws)
    if phase.turn is not None:
        first = phase.turn.first(game, ctx)
        if first is not None:
            ctx = _copy_ctx(ctx, current=first)
    return game, ctx
