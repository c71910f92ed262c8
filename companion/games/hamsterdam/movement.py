"""Movement after each rotation of the dice, the skip-movement specials, and redeployment.

Movement: each player may move one hamster one card left or right; landing on a flood
token takes the hamster and the token out of the game (Swimster may share the card).
Specials that skip movement then act one player after another in turn order, starting
with the first player. Redeployment (after the round's last movement, ruling): clear water
by removing hamsters from the game, then stand every remaining hamster, resting ones
included, anew; Janitster may mop the dam first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import evolve as replace
from companion.engine.rng import Draws
from companion.engine.state import Ctx
from companion.games.hamsterdam import flood, pieces
from companion.games.hamsterdam.catalogue import COPYCATSTER, KINDS, SKIP_MOVEMENT
from companion.games.hamsterdam.layout import default_layout, lay_out, pool, spread_layout
from companion.games.hamsterdam.model import PLACE, READY, Hamsterdam
from companion.games.hamsterdam.naming import card
from companion.games.hamsterdam.turns import after_movement

Args = Mapping[str, Any]

SKIPPERS = tuple(name for name, kind in KINDS.items() if kind.timing == SKIP_MOVEMENT)


def begin_movement(game: Hamsterdam, ctx: Ctx, draws: Draws) -> Hamsterdam:
    players = tuple(replace(p, moved=False) for p in game.players)
    return replace(game, players=players, acted=frozenset(), pending=(), struck=())


def move(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """The one move: ``from`` and ``to`` positions next to each other, which ``hamster``."""
    player = game.players[seat]
    if player.moved:
        raise IllegalMoveError(f"{player.name} has already made the one move of this phase.")
    source = pieces.index_of(player, args.get("from"), "the hamster's card")
    target = pieces.index_of(player, args.get("to"), "the destination")
    if abs(source - target) != 1:
        raise IllegalMoveError("A hamster moves one card left or right.")
    spot, piece = pieces.take(player.dam[source], args.get("hamster"), player.name)
    game = game.with_player(seat, replace(player.with_spot(source, spot), moved=True))
    return pieces.land(game, seat, target, piece)


# ----------------------------------------------------------------------------- skips
def can_skip(game: Hamsterdam, seat: int) -> bool:
    """Still to act after movement: did not move and has a skip-movement special ready."""
    player = game.players[seat]
    if player.moved:
        return False
    here = {s.name for spot in player.dam for s in spot.specials if s.id not in game.acted}
    if here & set(SKIPPERS):
        return True
    return COPYCATSTER in here and any(flood.on_dams(game, name) for name in SKIPPERS)


def after_moves(game: Hamsterdam) -> str:
    """Skip-movement specials get their own step only when someone can use one."""
    if any(can_skip(game, seat) for seat in range(len(game.players))):
        return "skips"
    return after_movement(game)


def begin_skips(game: Hamsterdam, ctx: Ctx, draws: Draws) -> Hamsterdam:
    return replace(game, acted=frozenset())


def first_skipper(game: Hamsterdam, ctx: Ctx) -> int | None:
    return next((s for s in flood.order_from(game, game.first) if can_skip(game, s)), None)


def pass_skip(game: Hamsterdam, ctx: Ctx, draws: Draws) -> Hamsterdam:
    """NEXT during a player's skip turn: they use no special (and do not move either)."""
    assert ctx.current is not None
    return game.with_player(ctx.current, replace(game.players[ctx.current], moved=True))


def finish_skips(game: Hamsterdam, ctx: Ctx, draws: Draws) -> Hamsterdam:
    """Floods a Bombster started and nobody resolved are resolved the plain way.

    A breach such a flood causes is flipped during this step (``flip``, offered on the page
    and in the prompt); NEXT does not flip it, because games stored before that was offered
    left it to the next breach step and must still replay the same way.
    """
    return replace(flood.resolve_all(game, only_forced=False), pending=())


# ----------------------------------------------------------------------------- redeploy
def begin_redeploy(game: Hamsterdam, ctx: Ctx, draws: Draws) -> Hamsterdam:
    players = tuple(replace(p, redeployed=False) for p in game.players)
    return replace(game, players=players, acted=frozenset())


def _not_yet(game: Hamsterdam, seat: int) -> None:
    if game.players[seat].redeployed:
        raise IllegalMoveError(f"{game.players[seat].name} has already redeployed this round.")


def clear(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Remove a hamster from the game to clear a token: ``at``, ``hamster``, ``from``."""
    _not_yet(game, seat)
    player = game.players[seat]
    at = pieces.index_of(player, args.get("at"), "the wet card")
    source = args.get("from", "rest")
    if source == "rest":
        player, piece = pieces.take_from_rest(player, args.get("hamster"))
    else:
        index = pieces.index_of(player, source, "where the hamster stands")
        spot, piece = pieces.take(player.dam[index], args.get("hamster"), player.name)
        player = player.with_spot(index, spot)
    game = pieces.clear_token(game.with_player(seat, player), seat, at)
    game = pieces.remove(game, seat, piece)
    return game.note(
        f"{player.name} gave {pieces.piece_name(piece)} "
        f"to clear the water on card {card(player, at)}."
    )


def redeploy(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Stand every remaining hamster anew: ``stacks`` and ``specials`` as at set-up."""
    _not_yet(game, seat)
    game = lay_out(game, seat, args.get("stacks", ()), args.get("specials", []))
    return game.with_player(seat, replace(game.players[seat], redeployed=True, stage=READY))


def lift(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Pick every hamster up off the dam, to stand them anew one at a time (``stand``).

    The step-wise redeployment the tablet's buttons drive; water is cleared first (``clear``,
    Janitster), since a lifted Janitster can no longer mop. Lifting never finishes the
    redeployment by itself, even when no card is dry: the player may still clear water with
    a resting hamster, then stand the others (``spread`` or NEXT finishes).
    """
    _not_yet(game, seat)
    player = game.players[seat]
    if player.stage == PLACE:
        raise IllegalMoveError(f"{player.name} has already picked up their hamsters.")
    plain, specials = pool(player)
    dam = tuple(replace(spot, plain=0, specials=()) for spot in player.dam)
    player = replace(player, dam=dam, rest_plain=plain, rest_specials=specials, stage=PLACE)
    return game.with_player(seat, player)


def finish_redeploy(game: Hamsterdam, ctx: Ctx, draws: Draws) -> Hamsterdam:
    """NEXT: players who have not redeployed get the default arrangement.

    One who picked up their hamsters (``lift``) keeps those already standing anew.
    """
    for seat, player in enumerate(game.players):
        if not player.redeployed:
            layout = spread_layout if player.stage == PLACE else default_layout
            stacks, specials = layout(player)
            game = lay_out(game, seat, stacks, specials)
    players = tuple(replace(p, redeployed=True, stage=READY) for p in game.players)
    return replace(game, players=players)
