"""When a special hamster may act, what it is offered for, and the move that uses it.

Every special is used through one move named after it (``buffster``, ``whack_a_mole``...);
``piece`` (an id) says which of several pieces of a kind acts, else the leftmost that can.
With ``copycat=true`` Copycatster imitates it: Copycatster must stand on its owner's dam,
a special of the imitated kind must stand face up on some dam ("in play"), the imitation
follows the imitated card's timing, and Copycatster then goes to the reinforcement pile.
A single-use special (``deck.json``) turns to its plain side after use,
and every use is logged. The effects themselves live in :mod:`effects`.

Rulings applied here: "after your roll" specials serve only the roller, "after any roll"
ones anybody; each special acts once per roll or phase.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import evolve as replace
from companion.engine.rng import Draws
from companion.engine.state import Ctx
from companion.games.hamsterdam import flood, pieces
from companion.games.hamsterdam.catalogue import (
    ANY_ROLL,
    COPYABLE,
    COPYCATSTER,
    FLOOD,
    KINDS,
    MOVEMENT,
    OWN_ROLL,
    REDEPLOYMENT,
    SKIP_MOVEMENT,
)
from companion.games.hamsterdam.model import Hamsterdam, Special
from companion.games.hamsterdam.phases import Phase

Args = Mapping[str, Any]
Candidate = tuple[int, Special]  # (dam index, piece)


class Used:
    """What an effect did: which piece acted, a sentence for the log, whether it is spent."""

    __slots__ = ("game", "piece", "sentence", "spent")

    def __init__(self, game: Hamsterdam, piece: int, sentence: str, spent: bool = True) -> None:
        self.game = game
        self.piece = piece
        self.sentence = sentence
        self.spent = spent


Effect = Callable[[Hamsterdam, Ctx, int, list[Candidate], Args, Draws], Used]

FLOOD_PHASES = (Phase.FLOOD, Phase.SKIPS)


def timing_problem(game: Hamsterdam, ctx: Ctx, seat: int, name: str) -> str | None:
    """Why this special may not act now, or None when it may."""
    timing = KINDS[name].timing
    player = game.players[seat]
    rolled = ctx.phase == Phase.ROLL and game.dice is not None and not game.dry
    if timing in (OWN_ROLL, ANY_ROLL):
        if not rolled:
            return f"{name} acts after a roll, before the flood."
        if timing == OWN_ROLL and seat != game.roller:
            return f"{name} acts only after its owner's own roll."
        if game.alternative is not None:
            return "First keep the old or the new roll (Physicster)."
        return None
    if timing == FLOOD:
        if ctx.phase not in FLOOD_PHASES or not any(f.seat == seat for f in game.pending):
            return f"{name} acts only when a flood hits {player.name}'s dam."
        return None
    if timing == MOVEMENT:
        return None if ctx.phase == Phase.MOVEMENT else f"{name} acts during movement."
    if timing == SKIP_MOVEMENT:
        if ctx.phase != Phase.SKIPS or ctx.current != seat:
            return f"{name} acts instead of moving, in turn after everyone has moved."
        return None
    if timing == REDEPLOYMENT:
        if ctx.phase != Phase.REDEPLOY or player.redeployed:
            return f"{name} acts during redeployment, before {player.name} redeploys."
        return None
    return f"{name} is always in effect and is never used."


def candidates(game: Hamsterdam, seat: int, name: str) -> list[Candidate]:
    """Face-up pieces of this kind on the player's dam that have not acted yet."""
    repeats = KINDS[name].timing == FLOOD
    return [
        (index, special)
        for index, spot in enumerate(game.players[seat].dam)
        for special in spot.specials
        if special.name == name and (repeats or special.id not in game.acted)
    ]


def usable(game: Hamsterdam, ctx: Ctx, seat: int) -> list[str]:
    """The specials this player is offered now (``Copycatster as X`` for imitations)."""
    found = []
    own = {s.name for spot in game.players[seat].dam for s in spot.specials}
    copycat = bool(candidates(game, seat, COPYCATSTER))
    ways = {how for f in game.pending if f.seat == seat for how, _ in flood.options(game, f)}
    for name in sorted(COPYABLE):
        if timing_problem(game, ctx, seat, name) is not None:
            continue
        if KINDS[name].timing == FLOOD:  # only where a flood it can reach is waiting
            if name.lower() in ways:
                found.append(name)
            if f"copycat-{name.lower()}" in ways:
                found.append(f"{COPYCATSTER} as {name}")
            continue
        if name in own and candidates(game, seat, name):
            found.append(name)
        if copycat and flood.on_dams(game, name) and name != COPYCATSTER:
            found.append(f"{COPYCATSTER} as {name}")
    return found


def power(name: str, effect: Effect) -> Callable[[Hamsterdam, Ctx, int, Args, Draws], Hamsterdam]:
    """The move that uses special ``name`` (or Copycatster imitating it)."""

    def use(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
        copying = bool(args.get("copycat"))
        problem = timing_problem(game, ctx, seat, name)
        if problem:
            raise IllegalMoveError(problem)
        player = game.players[seat]
        actor = COPYCATSTER if copying else name
        found = candidates(game, seat, actor)
        if "piece" in args:  # several of a kind: the table may say which one acts
            found = [(index, s) for index, s in found if s.id == args["piece"]]
        if not found:
            raise IllegalMoveError(f"{player.name} has no {actor} ready on the dam.")
        if copying and not flood.on_dams(game, name):
            raise IllegalMoveError(f"Copycatster can only imitate a {name} standing on some dam.")
        done = effect(game, ctx, seat, found, args, draws)
        game = replace(done.game, acted=done.game.acted | {done.piece})
        if copying:
            index = pieces.locate(game.players[seat], done.piece)
            if index is not None:
                owner = game.players[seat]
                spot, piece = pieces.take(owner.dam[index], done.piece, owner.name)
                game = pieces.to_rest(
                    game.with_player(seat, owner.with_spot(index, spot)), seat, piece
                )
        elif done.spent and name in game.single_use:
            game = pieces.flip_to_plain(game, seat, done.piece)
        if KINDS[name].timing == SKIP_MOVEMENT:
            game = game.with_player(seat, replace(game.players[seat], moved=True))
        how = f"Copycatster as {name}" if copying else name
        return game.note(f"{player.name} used {how}: {done.sentence}")

    return use
