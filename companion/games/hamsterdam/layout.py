"""Standing a player's hamsters on their dam: at set-up and at every redeployment.

Both take every remaining hamster (on the dam and resting) and arrange them anew; no
hamster may be put on a card with a flood token, except Swimster (ruling on
redeployment). Hamsters that fit nowhere stay in the reinforcement pile.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import evolve as replace
from companion.games.hamsterdam.catalogue import SWIMSTER
from companion.games.hamsterdam.model import Hamsterdam, Player, Special


def chance(value: int) -> int:
    """Ways out of 36 that two dice show ``value``."""
    return 6 - abs(7 - value) if 2 <= value <= 12 else 0


def pool(player: Player) -> tuple[int, tuple[Special, ...]]:
    """Every hamster the player still has: plain count and special pieces."""
    plain = player.rest_plain + sum(spot.plain for spot in player.dam)
    specials = tuple(s for spot in player.dam for s in spot.specials) + player.rest_specials
    return plain, specials


def _whole(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise IllegalMoveError(f"{what} must be a whole number of hamsters.")
    return value


def lay_out(
    game: Hamsterdam, seat: int, stacks: Sequence[object], specials: Sequence[object]
) -> Hamsterdam:
    """Arrange all of a player's hamsters: ``stacks`` plain counts, ``specials`` [ref, at]."""
    player = game.players[seat]
    plain, pieces = pool(player)
    if (
        not isinstance(stacks, Sequence)
        or isinstance(stacks, str)
        or len(stacks) != len(player.dam)
    ):
        raise IllegalMoveError(
            f"Give {player.name} one plain-hamster count per dam position ({len(player.dam)})."
        )
    counts = [_whole(v, f"Position {i + 1}'s count") for i, v in enumerate(stacks)]
    dry = [spot.tokens == 0 for spot in player.dam]
    for i, count in enumerate(counts):
        if count and not dry[i]:
            raise IllegalMoveError(
                f"No hamster may be put on {player.name}'s {player.dam[i].value} card: "
                "it has a flood token."
            )
    if sum(counts) > plain:
        raise IllegalMoveError(f"{player.name} has only {plain} plain hamsters, not {sum(counts)}.")
    if sum(counts) < plain and any(dry):
        raise IllegalMoveError(
            f"{player.name} must place every plain hamster ({plain}), not {sum(counts)}."
        )
    left = list(pieces)
    on_spot: list[list[Special]] = [[] for _ in player.dam]
    if not isinstance(specials, Sequence) or isinstance(specials, str):
        raise IllegalMoveError(
            "Give the special hamsters as a list of [name, position] (an empty list for none)."
        )
    for entry in specials:
        if not isinstance(entry, Sequence) or isinstance(entry, str) or len(entry) != 2:
            raise IllegalMoveError("Write each special hamster as [name, position].")
        ref, at = entry
        match = next((s for s in left if s.id == ref or s.name.lower() == str(ref).lower()), None)
        if match is None:
            raise IllegalMoveError(f"{player.name} has no {ref} left to place.")
        if not isinstance(at, int) or isinstance(at, bool) or not 1 <= at <= len(player.dam):
            raise IllegalMoveError(f"{match.name} needs a position from 1 to {len(player.dam)}.")
        if not dry[at - 1] and match.name != SWIMSTER:
            raise IllegalMoveError(
                f"{match.name} may not stand on the {player.dam[at - 1].value} card: "
                "it has a flood token (only Swimster may)."
            )
        left.remove(match)
        on_spot[at - 1].append(match)
    if left and any(dry):
        names = ", ".join(s.name for s in left)
        raise IllegalMoveError(f"{player.name} must also place: {names}.")
    dam = tuple(
        replace(spot, plain=counts[i], specials=tuple(on_spot[i]))
        for i, spot in enumerate(player.dam)
    )
    placed = replace(
        player,
        dam=dam,
        rest_plain=plain - sum(counts),
        rest_specials=tuple(left),
    )
    return game.with_player(seat, placed)


def default_layout(player: Player) -> tuple[list[int], list[list[int]]]:
    """A sensible arrangement: hamsters spread toward the values two dice roll most."""
    plain, pieces = pool(player)
    counts = [0] * len(player.dam)
    open_spots = [i for i, spot in enumerate(player.dam) if spot.tokens == 0]
    if not open_spots:
        return counts, [[s.id, 1] for s in pieces if s.name == SWIMSTER and player.dam]
    for _ in range(plain):
        best = max(open_spots, key=lambda i: chance(player.dam[i].value) / (counts[i] + 1))
        counts[best] += 1
    ranked = sorted(open_spots, key=lambda i: -chance(player.dam[i].value))
    placed = [[s.id, ranked[k % len(ranked)] + 1] for k, s in enumerate(pieces)]
    return counts, placed


def spread_layout(player: Player) -> tuple[list[int], list[list[int]]]:
    """Like :func:`default_layout`, but the hamsters already standing stay where they are.

    This finishes a step-wise placement ("spread the rest"): only resting hamsters move.
    """
    counts = [spot.plain for spot in player.dam]
    placed = [[s.id, i + 1] for i, spot in enumerate(player.dam) for s in spot.specials]
    open_spots = [i for i, spot in enumerate(player.dam) if spot.tokens == 0]
    if not player.dam:
        return counts, placed
    swimmers = [s for s in player.rest_specials if s.name == SWIMSTER]
    if not open_spots:
        return counts, placed + [[s.id, 1] for s in swimmers]
    for _ in range(player.rest_plain):
        best = max(open_spots, key=lambda i: chance(player.dam[i].value) / (counts[i] + 1))
        counts[best] += 1
    ranked = sorted(open_spots, key=lambda i: -chance(player.dam[i].value))
    placed += [[s.id, ranked[k % len(ranked)] + 1] for k, s in enumerate(player.rest_specials)]
    return counts, placed
