"""What each special hamster does, given the piece that acts (see :mod:`powers`).

Rulings: Mobster and Ninjaster change the roll for their owner only; Buffster, Spinster
and Physicster change the dice for everybody, but the re-roll rule has already looked at
the raw roll. Interpretations the seed leaves open, chosen here: Contractster shifts a
token on its owner's dam and not onto hamsters (only Swimster may share a card with
water); Huckster and Napster move one card; Momster adds up to two plain hamsters;
Whack-a-Mole lands on the leftmost card of the rolled value; Copycatster imitating
Cheekster or Janitster holds one flood or mops the dam, then rests.
"""

from __future__ import annotations

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import evolve as replace
from companion.engine.rng import Draws
from companion.engine.state import Ctx
from companion.games.hamsterdam import flood, pieces
from companion.games.hamsterdam.catalogue import (
    BLOBSTER,
    BOMBSTER,
    BUFFSTER,
    CHEEKSTER,
    CONTRACTSTER,
    HUCKSTER,
    JANITSTER,
    MOBSTER,
    MOMSTER,
    NAPSTER,
    NINJASTER,
    PHYSICSTER,
    SPEEDSTER,
    SPINSTER,
    SWIMSTER,
    WHACK_A_MOLE,
)
from companion.games.hamsterdam.model import Flood, Hamsterdam, Special
from companion.games.hamsterdam.naming import card
from companion.games.hamsterdam.powers import Args, Candidate, Effect, Used


# ----------------------------------------------------------------------------- helpers
def _lift(game: Hamsterdam, seat: int, index: int, piece_id: int) -> tuple[Hamsterdam, Special]:
    player = game.players[seat]
    spot, piece = pieces.take(player.dam[index], piece_id, player.name)
    assert piece is not None
    return game.with_player(seat, player.with_spot(index, spot)), piece


def _rest(game: Hamsterdam, seat: int, index: int, piece_id: int) -> Hamsterdam:
    game, piece = _lift(game, seat, index, piece_id)
    return pieces.to_rest(game, seat, piece)


def _die_face(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
        raise IllegalMoveError(f"{what} must be a die face from 1 to 6.")
    return value


def _other_seat(game: Hamsterdam, seat: int, value: object) -> int:
    if isinstance(value, str):
        named = value.lower()
        value = next((s for s, p in enumerate(game.players) if p.name.lower() == named), value)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < len(game.players):
        raise IllegalMoveError(f"{value!r} is not a player at this table.")
    if value == seat:
        raise IllegalMoveError("This special works on another player's dam, not your own.")
    return value


def _step(player_dam_len: int, source: int, target: object, name: str) -> int:
    if (
        not isinstance(target, int)
        or isinstance(target, bool)
        or not 1 <= target <= player_dam_len
        or abs(target - 1 - source) != 1
    ):
        raise IllegalMoveError(f"{name} moves one card left or right (position {source + 1} ± 1).")
    return target - 1


# ----------------------------------------------------------------------------- roll
def buffster(
    game: Hamsterdam, ctx: Ctx, seat: int, found: list[Candidate], args: Args, draws: Draws
) -> Used:
    assert game.dice is not None
    a, b = game.dice
    flipped = (7 - a, 7 - b)
    return Used(
        replace(game, dice=flipped),
        found[0][1].id,
        f"the dice turned over from {a}+{b} to {flipped[0]}+{flipped[1]}.",
    )


def spinster(
    game: Hamsterdam, ctx: Ctx, seat: int, found: list[Candidate], args: Args, draws: Draws
) -> Used:
    assert game.dice is not None
    which = args.get("die")
    if which not in (1, 2):
        raise IllegalMoveError("Spinster turns die 1 or die 2.")
    face = _die_face(args.get("to"), "Spinster's new face")
    dice = (face, game.dice[1]) if which == 1 else (game.dice[0], face)
    return Used(
        replace(game, dice=dice),
        found[0][1].id,
        f"die {which} now shows {face}: the roll is {dice[0] + dice[1]}.",
    )


def physicster(
    game: Hamsterdam, ctx: Ctx, seat: int, found: list[Candidate], args: Args, draws: Draws
) -> Used:
    name = game.players[seat].name
    why, own = f"{name}'s Physicster re-roll", game.roll_for_us  # the player's own dice
    dice = (draws.hand_die(why, companion_rolls=own), draws.hand_die(why, companion_rolls=own))
    return Used(
        replace(game, alternative=dice),
        found[0][1].id,
        f"re-rolled {dice[0]}+{dice[1]}; keep the old or the new roll.",
    )


def keep_roll(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """After Physicster: ``use`` "new" or "old"."""
    if game.alternative is None or seat != game.roller:
        raise IllegalMoveError("Only the roller chooses, and only after a Physicster re-roll.")
    use = args.get("use")
    if use not in ("new", "old"):
        raise IllegalMoveError("Keep the 'old' or the 'new' roll.")
    dice = game.alternative if use == "new" else game.dice
    assert dice is not None
    game = replace(game, dice=dice, alternative=None)
    return game.note(f"{game.players[seat].name} keeps the {use} roll: {dice[0] + dice[1]}.")


def whack_a_mole(
    game: Hamsterdam, ctx: Ctx, seat: int, found: list[Candidate], args: Args, draws: Draws
) -> Used:
    index, piece = found[0]
    name = game.players[seat].name
    why, own = f"{name}'s Whack-a-Mole roll", game.roll_for_us  # the player's own dice
    value = draws.hand_die(why, companion_rolls=own) + draws.hand_die(why, companion_rolls=own)
    game, lifted = _lift(game, seat, index, piece.id)
    targets = [i for i, spot in enumerate(game.players[seat].dam) if spot.value == value]
    if not targets:
        game = pieces.to_rest(game, seat, lifted)
        return Used(game, piece.id, f"rolled {value}, not on the dam: it rests.", spent=False)
    game = pieces.land(game, seat, targets[0], lifted)
    return Used(
        game, piece.id, f"rolled {value} and jumped to card {card(game.players[seat], targets[0])}."
    )


def mobster(
    game: Hamsterdam, ctx: Ctx, seat: int, found: list[Candidate], args: Args, draws: Draws
) -> Used:
    by = args.get("by")
    if by not in (1, -1):
        raise IllegalMoveError("Mobster counts the roll as 1 higher (by=1) or lower (by=-1).")
    player = game.players[seat]
    if player.mob or player.dodged:
        raise IllegalMoveError(f"{player.name}'s flood value is already changed for this roll.")
    value = game.roll + by
    if not 2 <= value <= 12:
        raise IllegalMoveError(f"Mobster cannot make the roll {value}: two dice show 2 to 12.")
    game = game.with_player(seat, replace(player, mob=by))
    return Used(game, found[0][1].id, f"{player.name} floods at {value} this roll.")


def ninjaster(
    game: Hamsterdam, ctx: Ctx, seat: int, found: list[Candidate], args: Args, draws: Draws
) -> Used:
    index, piece = found[0]
    game = _rest(game, seat, index, piece.id)
    player = game.players[seat]
    game = game.with_player(seat, replace(player, dodged=True))
    return Used(game, piece.id, f"this roll does not flood {player.name}.")


def napster(
    game: Hamsterdam, ctx: Ctx, seat: int, found: list[Candidate], args: Args, draws: Draws
) -> Used:
    to = args.get("to")
    index, piece = next(
        ((i, p) for i, p in found if isinstance(to, int) and abs(to - 1 - i) == 1), found[0]
    )
    target = _step(len(game.players[seat].dam), index, to, "Napster")
    game, lifted = _lift(game, seat, index, piece.id)
    return Used(
        pieces.land(game, seat, target, lifted),
        piece.id,
        f"stepped to card {card(game.players[seat], target)}.",
    )


# ----------------------------------------------------------------------------- flood
def _near(found: list[Candidate], target: Flood, reach: int) -> Candidate:
    for index, piece in found:
        if abs(index - target.index) <= reach:
            return index, piece
    span = "on or next to" if reach else "on"
    raise IllegalMoveError(f"That special must stand {span} the flooded card.")


def blobster(
    game: Hamsterdam, ctx: Ctx, seat: int, found: list[Candidate], args: Args, draws: Draws
) -> Used:
    target = flood.find(game, seat, args.get("at"))
    index, piece = _near(found, target, 1)
    game = _rest(flood.settled(game, target), seat, index, piece.id)
    value = game.players[seat].dam[target.index].value
    return Used(game, piece.id, f"stopped the flood at the {value} card and rests.", spent=False)


def cheekster(
    game: Hamsterdam, ctx: Ctx, seat: int, found: list[Candidate], args: Args, draws: Draws
) -> Used:
    target = flood.find(game, seat, args.get("at"))
    index, piece = _near(found, target, 0)
    game = flood.settled(game, target)
    if piece.stops == 0 and not args.get("copycat"):
        player = game.players[seat]
        spot = player.dam[index]
        specials = tuple(replace(s, stops=1) if s.id == piece.id else s for s in spot.specials)
        game = game.with_player(seat, player.with_spot(index, replace(spot, specials=specials)))
        return Used(game, piece.id, "held back its first flood (mark it).", spent=False)
    game = _rest(game, seat, index, piece.id)
    return Used(game, piece.id, "held back a flood and rests.", spent=False)


# ----------------------------------------------------------------------------- movement
def speedster(
    game: Hamsterdam, ctx: Ctx, seat: int, found: list[Candidate], args: Args, draws: Draws
) -> Used:
    index, piece = found[0]
    target = pieces.index_of(game.players[seat], args.get("to"), "Speedster's destination")
    if target == index:
        raise IllegalMoveError("Speedster must move to another card.")
    game, lifted = _lift(game, seat, index, piece.id)
    return Used(
        pieces.land(game, seat, target, lifted),
        piece.id,
        f"dashed to card {card(game.players[seat], target)}.",
    )


def bombster(
    game: Hamsterdam, ctx: Ctx, seat: int, found: list[Candidate], args: Args, draws: Draws
) -> Used:
    victim = _other_seat(game, seat, args.get("target"))
    index = pieces.index_of(game.players[victim], args.get("at"), "Bombster's target")
    hit = Flood(victim, index)
    game = replace(game, pending=(*game.pending, hit), struck=(*game.struck, hit))
    victim_player = game.players[victim]
    return Used(
        game,
        found[0][1].id,
        f"a flood hits {victim_player.name}'s {victim_player.dam[index].value} card.",
    )


def contractster(
    game: Hamsterdam, ctx: Ctx, seat: int, found: list[Candidate], args: Args, draws: Draws
) -> Used:
    player = game.players[seat]
    source = pieces.index_of(player, args.get("from"), "the token's card")
    target = _step(len(player.dam), source, args.get("to"), "A flood token")
    if not player.dam[source].tokens:
        raise IllegalMoveError(f"There is no flood token on {player.name}'s position {source + 1}.")
    landing = player.dam[target]
    if landing.plain or any(s.name != SWIMSTER for s in landing.specials):
        raise IllegalMoveError(
            "Contractster cannot push water onto hamsters (only Swimster shares)."
        )
    player = player.with_spot(
        source, replace(player.dam[source], tokens=player.dam[source].tokens - 1)
    )
    player = player.with_spot(target, replace(landing, tokens=landing.tokens + 1))
    return Used(
        game.with_player(seat, player),
        found[0][1].id,
        f"moved a flood token from card {card(player, source)} to {card(player, target)}.",
    )


def huckster(
    game: Hamsterdam, ctx: Ctx, seat: int, found: list[Candidate], args: Args, draws: Draws
) -> Used:
    victim = _other_seat(game, seat, args.get("target"))
    player = game.players[victim]
    source = pieces.index_of(player, args.get("from"), "the hamster's card")
    target = _step(len(player.dam), source, args.get("to"), "Huckster's hamster")
    spot, piece = pieces.take(player.dam[source], None, player.name)
    game = game.with_player(victim, player.with_spot(source, spot))
    game = pieces.land(game, victim, target, piece)
    return Used(
        game,
        found[0][1].id,
        f"moved a plain hamster of {player.name}'s from {source + 1} to {target + 1}.",
    )


def momster(
    game: Hamsterdam, ctx: Ctx, seat: int, found: list[Candidate], args: Args, draws: Draws
) -> Used:
    index, piece = found[0]
    player = game.players[seat]
    count = min(2, player.rest_plain)
    if not count:
        raise IllegalMoveError(f"{player.name} has no plain hamster resting for Momster to call.")
    spot = player.dam[index]
    player = replace(player, rest_plain=player.rest_plain - count)
    player = player.with_spot(index, replace(spot, plain=spot.plain + count))
    return Used(
        game.with_player(seat, player),
        piece.id,
        f"called {count} resting hamster(s) to card {card(player, index)}.",
    )


# ----------------------------------------------------------------------------- redeploy
def janitster(
    game: Hamsterdam, ctx: Ctx, seat: int, found: list[Candidate], args: Args, draws: Draws
) -> Used:
    index, piece = found[0]
    player = game.players[seat]
    mopped = player.tokens_on_dam
    player = replace(player, dam=tuple(replace(s, tokens=0) for s in player.dam))
    game = replace(game.with_player(seat, player), removed=game.removed + mopped)
    if not args.get("copycat"):
        game, lifted = _lift(game, seat, index, piece.id)
        game = pieces.remove(game, seat, lifted)
    return Used(game, piece.id, f"mopped {mopped} flood token(s) off the dam.", spent=False)


EFFECTS: dict[str, Effect] = {
    BLOBSTER: blobster,
    BOMBSTER: bombster,
    BUFFSTER: buffster,
    CHEEKSTER: cheekster,
    CONTRACTSTER: contractster,
    HUCKSTER: huckster,
    JANITSTER: janitster,
    MOBSTER: mobster,
    MOMSTER: momster,
    NAPSTER: napster,
    NINJASTER: ninjaster,
    PHYSICSTER: physicster,
    SPEEDSTER: speedster,
    SPINSTER: spinster,
    WHACK_A_MOLE: whack_a_mole,
}
