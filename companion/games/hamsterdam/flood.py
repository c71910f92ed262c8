"""Floods: where the roll breaks through, and each player's way of stopping it.

A flood at a position must be plugged when a hamster stands there (that hamster goes to
the reinforcement pile; a special may plug as if plain), or stopped by Blobster or
Cheekster. Only on an empty card does water come: a token on the card, or, when one is
already there, a token into the flood pile. Floods with a single possible outcome are
resolved at once; NEXT resolves the rest the plain way (plain hamster first, else water).

The seed does not say what happens when the box runs out of flood tokens, which random
four-player games often reach because cleared tokens leave the game (ruling); the engine
keeps counting, the supply goes below zero, and the log asks for a stand-in marker.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import evolve as replace
from companion.engine.rng import Draws
from companion.engine.state import Ctx
from companion.games.hamsterdam import pieces
from companion.games.hamsterdam.catalogue import BLOBSTER, CHEEKSTER, COPYCATSTER
from companion.games.hamsterdam.model import Flood, Hamsterdam

Args = Mapping[str, Any]
Option = tuple[str, int | None]  # (how, special id or None)

PLUG, WATER, BLOB, CHEEK, COPY_BLOB, COPY_CHEEK = (
    "plug",
    "water",
    "blobster",
    "cheekster",
    "copycat-blobster",
    "copycat-cheekster",
)


def order_from(game: Hamsterdam, start: int) -> list[int]:
    count = len(game.players)
    return [(start + k) % count for k in range(count)]


def flood_value(game: Hamsterdam, seat: int) -> int | None:
    """The value that floods this player now (Mobster shifts it, Ninjaster cancels it)."""
    player = game.players[seat]
    if player.dodged or game.dice is None:
        return None
    value = game.roll + player.mob
    return value if 2 <= value <= 12 else game.roll


def floods_for_roll(game: Hamsterdam) -> tuple[Flood, ...]:
    """Every copy of the flooding value on every dam, starting with the roller."""
    found = []
    for seat in order_from(game, game.roller):
        value = flood_value(game, seat)
        found += [
            Flood(seat, i) for i, spot in enumerate(game.players[seat].dam) if spot.value == value
        ]
    return tuple(found)


def on_dams(game: Hamsterdam, name: str) -> bool:
    """A special of this kind stands face up on some dam: Copycatster may imitate it."""
    return any(s.name == name for p in game.players for spot in p.dam for s in spot.specials)


def options(game: Hamsterdam, flood: Flood) -> list[Option]:
    """Every legal way to resolve one flood, the default first."""
    player = game.players[flood.seat]
    spot = player.dam[flood.index]
    found: list[Option] = []
    if spot.plain:
        found.append((PLUG, None))
    found += [(PLUG, s.id) for s in reversed(spot.specials)]
    if not spot.hamsters:
        found.append((WATER, None))
    near = range(max(0, flood.index - 1), min(len(player.dam), flood.index + 2))
    for i in near:
        for special in player.dam[i].specials:
            if special.name == BLOBSTER:
                found.append((BLOB, special.id))
            if special.name == COPYCATSTER and on_dams(game, BLOBSTER):
                found.append((COPY_BLOB, special.id))
            if i == flood.index and special.name == CHEEKSTER:
                found.append((CHEEK, special.id))
            if i == flood.index and special.name == COPYCATSTER and on_dams(game, CHEEKSTER):
                found.append((COPY_CHEEK, special.id))
    return found


def find(game: Hamsterdam, seat: int, at: object) -> Flood:
    """The pending flood a player names by its position (the only one if not named)."""
    mine = [f for f in game.pending if f.seat == seat]
    name = game.players[seat].name
    if not mine:
        raise IllegalMoveError(f"{name} has no flood to stop now.")
    if at is None and len(mine) == 1:
        return mine[0]
    index = pieces.index_of(game.players[seat], at)
    for flood in mine:
        if flood.index == index:
            return flood
    where = ", ".join(str(f.index + 1) for f in mine)
    raise IllegalMoveError(f"{name}'s flood is at position {where}, not {at}.")


def settled(game: Hamsterdam, flood: Flood) -> Hamsterdam:
    pending = list(game.pending)
    pending.remove(flood)
    return replace(game, pending=tuple(pending))


def let_water_in(game: Hamsterdam, flood: Flood) -> Hamsterdam:
    player = game.players[flood.seat]
    spot = player.dam[flood.index]
    if spot.hamsters:
        raise IllegalMoveError(
            f"{player.name} must plug the {spot.value} card: a hamster stands there."
        )
    game = replace(settled(game, flood), supply=game.supply - 1)
    if game.supply < 0:
        game = game.note("The box has no flood token left: use a stand-in marker.")
    if spot.tokens == 0:
        player = player.with_spot(flood.index, replace(spot, tokens=1))
        return game.with_player(flood.seat, player)
    game = game.with_player(flood.seat, replace(player, pile=player.pile + 1))
    return game.note(f"Water broke through {player.name}'s {spot.value} card into the flood pile.")


def plug_with(game: Hamsterdam, flood: Flood, ref: object) -> Hamsterdam:
    player = game.players[flood.seat]
    spot, piece = pieces.take(player.dam[flood.index], ref, player.name)
    game = settled(game.with_player(flood.seat, player.with_spot(flood.index, spot)), flood)
    return pieces.to_rest(game, flood.seat, piece)


def plug(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Plug the hole: ``at`` the flooded position, ``hamster`` plain (default) or a special."""
    return plug_with(game, find(game, seat, args.get("at")), args.get("hamster"))


def water(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Nobody stands there (and no special is used): the water comes."""
    return let_water_in(game, find(game, seat, args.get("at")))


def resolve_default(game: Hamsterdam, flood: Flood) -> Hamsterdam:
    how, special = options(game, flood)[0]
    if how == WATER:
        return let_water_in(game, flood)
    return plug_with(game, flood, special)


def resolve_all(game: Hamsterdam, only_forced: bool) -> Hamsterdam:
    """Resolve pending floods in order, stopping as soon as the end threshold is reached."""
    for flood in game.pending:
        if game.piles >= game.threshold:
            break
        if not only_forced or len(options(game, flood)) == 1:
            game = resolve_default(game, flood)
    return game


def begin(game: Hamsterdam, ctx: Ctx, draws: Draws) -> Hamsterdam:
    hits = floods_for_roll(game)
    game = replace(game, pending=hits, struck=hits, acted=frozenset())
    return resolve_all(game, only_forced=True)


def finish(game: Hamsterdam, ctx: Ctx, draws: Draws) -> Hamsterdam:
    return resolve_all(game, only_forced=False)
