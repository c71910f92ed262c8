"""Dam breaches (full game only): a big enough flood pile flips a card at an end of the dam.

Ruling: the 3rd token into a player's flood pile flips a card, then the 5th, then every
token after that; a token that reaches the pile from a flipped card counts too, so one
breach can cause the next (against the seed, which counts water that "breaks through").
The owner chooses the end. The flipped card leaves the dam; its hamsters move one card
inward. The seed says to "sacrifice a hamster" when that card holds a flood token; the
ruling adds that the token goes with it (one hamster per token, so a card Contractster
stacked ends dry), and the others land. Flipping the last card of a dam sends its
hamsters to the reinforcement pile, a case the seed does not cover.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import evolve as replace
from companion.engine.rng import Draws
from companion.engine.state import Ctx
from companion.games.hamsterdam import pieces
from companion.games.hamsterdam.catalogue import SWIMSTER
from companion.games.hamsterdam.model import CLASSIC, Hamsterdam, Player, Spot, breaches_due

Args = Mapping[str, Any]
LEFT, RIGHT = "left", "right"


def due(player: Player) -> int:
    """Breaches this player still has to resolve."""
    if not player.dam:
        return 0
    return max(0, breaches_due(player.pile) - player.breaches)


def waiting(game: Hamsterdam) -> list[str]:
    """Who has a breach to resolve now (nobody in the classic game: it has no breaches)."""
    if game.rules == CLASSIC:
        return []
    return [p.name for p in game.players if due(p)]


def _sacrifice_ref(spot: Spot, wanted: object) -> object:
    """The hamster to sacrifice: the one asked for if it is there, else a plain one."""
    if wanted is not None:
        return wanted
    if spot.plain:
        return None
    return next(s.id for s in reversed(spot.specials) if s.name != SWIMSTER)


def _needs_sacrifice(spot: Spot) -> bool:
    return spot.tokens > 0 and (spot.plain > 0 or any(s.name != SWIMSTER for s in spot.specials))


def flip_end(game: Hamsterdam, seat: int, end: str, sacrifice: object = None) -> Hamsterdam:
    player = game.players[seat]
    if not due(player) or game.rules == CLASSIC:
        raise IllegalMoveError(f"{player.name} has no breach to resolve now.")
    if end not in (LEFT, RIGHT):
        raise IllegalMoveError("Flip the dam card at the left or the right end.")
    index = 0 if end == LEFT else len(player.dam) - 1
    gone = player.dam[index]
    dam = player.dam[:index] + player.dam[index + 1 :]
    player = replace(
        player,
        dam=dam,
        pile=player.pile + gone.tokens,
        breaches=player.breaches + 1,
        flipped=(*player.flipped, gone.card),
    )
    game = game.with_player(seat, player).note(
        f"Breach! {player.name}'s {gone.value} card flipped at the {end} end."
    )
    movers: list[pieces.Piece] = [None] * gone.plain + list(gone.specials)
    if not dam:
        for piece in movers:
            game = pieces.to_rest(game, seat, piece)
        return game
    inward = 0 if end == LEFT else len(dam) - 1
    for piece in movers:
        game = pieces.put(game, seat, inward, piece)
    asked = sacrifice
    while _needs_sacrifice(game.players[seat].dam[inward]):
        player = game.players[seat]
        spot, piece = pieces.take(
            player.dam[inward], _sacrifice_ref(player.dam[inward], asked), player.name
        )
        asked = None
        game = game.with_player(seat, player.with_spot(inward, spot))
        game = pieces.clear_token(game, seat, inward)
        game = pieces.remove(game, seat, piece)
        game = game.note(
            f"{player.name} sacrificed {pieces.piece_name(piece)} to the water on the "
            f"{spot.value} card."
        )
    return game


def default_end(player: Player) -> str:
    """The cheaper end to lose: no water on it, then fewer hamsters, then the left."""
    first, last = player.dam[0], player.dam[-1]
    return LEFT if (first.tokens, first.hamsters) <= (last.tokens, last.hamsters) else RIGHT


def flip(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Resolve one breach: ``end`` left or right, optionally which hamster to ``sacrifice``."""
    end = args.get("end")
    player = game.players[seat]
    if end is None and player.dam:
        end = default_end(player)
    return flip_end(game, seat, str(end), args.get("sacrifice"))


def finish(game: Hamsterdam, ctx: Ctx, draws: Draws) -> Hamsterdam:
    """NEXT flips what is still due, from the roller on, until the game may end."""
    count = len(game.players)
    for seat in ((game.roller + k) % count for k in range(count)):
        while due(game.players[seat]) and game.piles < game.threshold:
            game = flip_end(game, seat, default_end(game.players[seat]))
    return game
