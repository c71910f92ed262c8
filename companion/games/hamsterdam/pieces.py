"""Moving hamster pieces between stacks, the reinforcement pile and out of the game.

Every rule that touches a piece goes through here, so the two invariants hold in one
place: a Twinster never leaves the dam without its twin, and no hamster but Swimster
stands on a card with a flood token (landing there clears one token and the hamster).
"""

from __future__ import annotations

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import evolve as replace
from companion.games.hamsterdam.catalogue import SWIMSTER
from companion.games.hamsterdam.model import Hamsterdam, Player, Special, Spot

Piece = Special | None  # None is a plain hamster

PLAIN_WORDS = frozenset({"", "plain", "normal", "hamster"})


def index_of(player: Player, value: object, what: str = "position") -> int:
    """A dam position named in a move (1 = the left end) as a 0-based index."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= len(player.dam):
        return value - 1
    raise IllegalMoveError(
        f"{player.name}'s dam has positions 1 to {len(player.dam)}; {value!r} is not one ({what})."
    )


def piece_name(piece: Piece) -> str:
    return "a plain hamster" if piece is None else piece.name


def _matches(special: Special, ref: object) -> bool:
    if isinstance(ref, int) and not isinstance(ref, bool):
        return special.id == ref
    return isinstance(ref, str) and special.name.lower() == ref.lower()


def take(spot: Spot, ref: object, owner: str) -> tuple[Spot, Piece]:
    """Lift one hamster off a stack: a plain one by default, else the named special."""
    if ref is None or (isinstance(ref, str) and ref.lower() in PLAIN_WORDS):
        if spot.plain == 0:
            raise IllegalMoveError(f"{owner} has no plain hamster on the {spot.value} card.")
        return replace(spot, plain=spot.plain - 1), None
    for i in range(len(spot.specials) - 1, -1, -1):  # the topmost match
        if _matches(spot.specials[i], ref):
            special = spot.specials[i]
            rest = spot.specials[:i] + spot.specials[i + 1 :]
            return replace(spot, specials=rest), special
    raise IllegalMoveError(f"{owner} has no {ref} on the {spot.value} card.")


def take_from_rest(player: Player, ref: object) -> tuple[Player, Piece]:
    if ref is None or (isinstance(ref, str) and ref.lower() in PLAIN_WORDS):
        if player.rest_plain == 0:
            raise IllegalMoveError(f"{player.name} has no plain hamster in the reinforcement pile.")
        return replace(player, rest_plain=player.rest_plain - 1), None
    for i, special in enumerate(player.rest_specials):
        if _matches(special, ref):
            rest = player.rest_specials[:i] + player.rest_specials[i + 1 :]
            return replace(player, rest_specials=rest), special
    raise IllegalMoveError(f"{player.name} has no {ref} in the reinforcement pile.")


def locate(player: Player, special_id: int) -> int | None:
    """The dam index holding this special, or None when it is not on the dam."""
    for index, spot in enumerate(player.dam):
        if any(s.id == special_id for s in spot.specials):
            return index
    return None


def _twin_leaves(game: Hamsterdam, seat: int, piece: Piece) -> Hamsterdam:
    """The other Twinster follows to the reinforcement pile (Twinsters leave together)."""
    if piece is None or piece.twin < 0:
        return game
    player = game.players[seat]
    index = locate(player, piece.twin)
    if index is None:
        return game
    spot, twin = take(player.dam[index], piece.twin, player.name)
    player = player.with_spot(index, spot)
    player = replace(player, rest_specials=(*player.rest_specials, twin))
    return game.with_player(seat, player)


def to_rest(game: Hamsterdam, seat: int, piece: Piece) -> Hamsterdam:
    """Put a lifted hamster on its owner's reinforcement pile (special side still up)."""
    player = game.players[seat]
    if piece is None:
        player = replace(player, rest_plain=player.rest_plain + 1)
    else:
        player = replace(player, rest_specials=(*player.rest_specials, replace(piece, stops=0)))
    return _twin_leaves(game.with_player(seat, player), seat, piece)


def remove(game: Hamsterdam, seat: int, piece: Piece) -> Hamsterdam:
    """Take a lifted hamster out of the game for good."""
    player = game.players[seat]
    game = game.with_player(seat, replace(player, lost=player.lost + 1))
    return _twin_leaves(game, seat, piece)


def clear_token(game: Hamsterdam, seat: int, index: int) -> Hamsterdam:
    """One flood token on a dam card is cleared: it leaves the game (ruling)."""
    player = game.players[seat]
    spot = player.dam[index]
    if spot.tokens == 0:
        raise IllegalMoveError(f"There is no flood token on {player.name}'s {spot.value} card.")
    player = player.with_spot(index, replace(spot, tokens=spot.tokens - 1))
    return replace(game.with_player(seat, player), removed=game.removed + 1)


def put(game: Hamsterdam, seat: int, index: int, piece: Piece) -> Hamsterdam:
    """Stand a hamster on a card (specials on top), ignoring any water there."""
    player = game.players[seat]
    spot = player.dam[index]
    if piece is None:
        spot = replace(spot, plain=spot.plain + 1)
    else:
        spot = replace(spot, specials=(*spot.specials, piece))
    return game.with_player(seat, player.with_spot(index, spot))


def land(game: Hamsterdam, seat: int, index: int, piece: Piece) -> Hamsterdam:
    """A hamster moved onto a card: on a flood token, both leave the game (Swimster stays)."""
    spot = game.players[seat].dam[index]
    if spot.tokens and not (piece is not None and piece.name == SWIMSTER):
        game = clear_token(game, seat, index)
        game = remove(game, seat, piece)
        name = game.players[seat].name
        who = "plain hamster" if piece is None else piece.name  # "Bo's plain hamster"
        return game.note(
            f"{name}'s {who} cleared a flood token on the {spot.value} card and left the game."
        )
    return put(game, seat, index, piece)


def flip_to_plain(game: Hamsterdam, seat: int, special_id: int) -> Hamsterdam:
    """A single-use special shows its plain side: it stays where it is as a plain hamster."""
    player = game.players[seat]
    index = locate(player, special_id)
    if index is not None:
        spot = player.dam[index]
        specials = tuple(s for s in spot.specials if s.id != special_id)
        spot = replace(spot, specials=specials, plain=spot.plain + 1)
        return game.with_player(seat, player.with_spot(index, spot))
    if any(s.id == special_id for s in player.rest_specials):
        rest = tuple(s for s in player.rest_specials if s.id != special_id)
        return game.with_player(
            seat, replace(player, rest_specials=rest, rest_plain=player.rest_plain + 1)
        )
    return game  # it already left the game
