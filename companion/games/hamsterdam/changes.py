"""After an undo or redo: what to change on the real table so it matches the game again.

Undo steps the log back, not the pieces: a plug undone leaves the hamster in the
reinforcement pile on the table, a breach undone leaves the card flipped out of the dam.
The page puts this sentence above the prompt (``GameSpec.table_changes``). It names, for
each player, only what differs, as it must be now: the row of dam cards, what stands on
each card (hamsters, specials, water), the reinforcement pile and the flood pile.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine.words import counted, listed
from companion.games.hamsterdam.model import Hamsterdam, Player, Special, Spot
from companion.games.hamsterdam.naming import card


def _contents(plain: int, specials: Sequence[Special], tokens: int) -> str:
    """What stands on a card or in a pile: plain hamsters, specials (Cheekster's used
    stop marked), flood tokens; "nothing" when empty."""
    parts = [counted(plain, "hamster", "hamsters")] if plain else []
    parts += [f"{s.name} (one stop marked)" if s.stops else s.name for s in specials]
    if tokens:
        parts.append(counted(tokens, "flood token", "flood tokens"))
    return listed(parts) or "nothing"


def _spot_contents(spot: Spot) -> str:
    return _contents(spot.plain, spot.specials, spot.tokens)


def _aligned(old: Player, new: Player) -> dict[int, int]:
    """Each card of the new dam matched to the same card of the old one (new index -> old).

    The dam only changes by whole cards at an end (a breach, or a card laid at set-up), so
    one row is a run of the other; a card with no match is one that came back or was laid.
    """
    before = [spot.card for spot in old.dam]
    after = [spot.card for spot in new.dam]
    for offset in range(len(before) - len(after) + 1):
        if before[offset : offset + len(after)] == after:
            return {i: i + offset for i in range(len(after))}
    for offset in range(len(after) - len(before) + 1):
        if after[offset : offset + len(before)] == before:
            return {i + offset: i for i in range(len(before))}
    return {}


def _player_changes(old: Player, new: Player) -> list[str]:
    name = new.name
    found = []
    if [s.card for s in old.dam] != [s.card for s in new.dam]:
        row = " ".join(str(spot.value) for spot in new.dam) or "no cards"
        found.append(f"{name}'s dam runs {row} (left to right)")
    matched = _aligned(old, new)
    for index, spot in enumerate(new.dam):
        was = matched.get(index)
        if was is None:
            changed = bool(spot.hamsters or spot.tokens)
        else:
            earlier = old.dam[was]
            changed = (earlier.plain, earlier.specials, earlier.tokens) != (
                spot.plain,
                spot.specials,
                spot.tokens,
            )
        if changed:
            found.append(f"{name}'s card {card(new, index)} holds {_spot_contents(spot)}")
    if (old.rest_plain, old.rest_specials) != (new.rest_plain, new.rest_specials):
        resting = _contents(new.rest_plain, new.rest_specials, 0)
        found.append(f"{name}'s reinforcements: {resting}")
    if old.pile != new.pile:
        found.append(f"{name}'s flood pile holds {counted(new.pile, 'token', 'tokens')}")
    return found


def table_changes(before: Hamsterdam, after: Hamsterdam) -> str:
    """One sentence: what to put where after an undo or redo ("" when nothing moved)."""
    found = [
        change
        for old, new in zip(before.players, after.players, strict=True)
        for change in _player_changes(old, new)
    ]
    if not found:
        return ""
    return f"Make the table match: {'; '.join(found)}."
