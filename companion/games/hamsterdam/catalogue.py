"""The eighteen special hamsters as data: name, when each may act, and what it does.

Which specials carry the single-use icon is card data (``deck.json``), not code, because
the icon did not survive in the rule text; the timings below come from the seed's icons
as the rulings read them. A special acts only at its timing and only from its owner's dam.
"""

from __future__ import annotations

from dataclasses import dataclass

OWN_ROLL = "own roll"  # after the owner rolled the dice
ANY_ROLL = "any roll"  # after anyone's roll, before the flood
FLOOD = "flood"  # while stopping a flood at (or next to) its card
MOVEMENT = "movement"  # during the movement phase, besides the normal move
SKIP_MOVEMENT = "skip movement"  # instead of moving, after everyone else has moved
REDEPLOYMENT = "redeployment"  # during redeployment
PASSIVE = "passive"  # never used: always in effect

BLOBSTER = "Blobster"
BOMBSTER = "Bombster"
BUFFSTER = "Buffster"
CHEEKSTER = "Cheekster"
CONTRACTSTER = "Contractster"
COPYCATSTER = "Copycatster"
HUCKSTER = "Huckster"
JANITSTER = "Janitster"
MOBSTER = "Mobster"
MOMSTER = "Momster"
NAPSTER = "Napster"
NINJASTER = "Ninjaster"
PHYSICSTER = "Physicster"
SPEEDSTER = "Speedster"
SPINSTER = "Spinster"
SWIMSTER = "Swimster"
TWINSTERS = "Twinsters"
WHACK_A_MOLE = "Whack-a-Mole"


@dataclass(frozen=True, slots=True)
class Kind:
    """What a special hamster card allows, in the companion's own words."""

    name: str
    timing: str
    help: str

    @property
    def move(self) -> str:
        """The engine move that uses this special (``Whack-a-Mole`` → ``whack_a_mole``)."""
        return self.name.lower().replace("-", "_")


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind(BLOBSTER, FLOOD, "stops a flood on its card or a neighbouring card, then rests"),
        Kind(BOMBSTER, SKIP_MOVEMENT, "instead of moving: start a flood on another player's dam"),
        Kind(BUFFSTER, OWN_ROLL, "after your roll: turn both dice upside down"),
        Kind(CHEEKSTER, FLOOD, "holds back two floods on its card before it rests"),
        Kind(CONTRACTSTER, SKIP_MOVEMENT, "instead of moving: shift a flood token one card"),
        Kind(COPYCATSTER, PASSIVE, "does what another special in play does, then rests"),
        Kind(HUCKSTER, SKIP_MOVEMENT, "instead of moving: move another player's plain hamster"),
        Kind(JANITSTER, REDEPLOYMENT, "leaves the game to mop every token off your dam"),
        Kind(MOBSTER, ANY_ROLL, "after any roll: your flood comes one higher or lower"),
        Kind(MOMSTER, SKIP_MOVEMENT, "instead of moving: two resting hamsters join its card"),
        Kind(NAPSTER, ANY_ROLL, "after any roll: step one card left or right"),
        Kind(NINJASTER, ANY_ROLL, "after any roll: rest, and this roll does not flood you"),
        Kind(PHYSICSTER, OWN_ROLL, "after your roll: roll again and keep either result"),
        Kind(SPEEDSTER, MOVEMENT, "an extra move during movement, to any card of your dam"),
        Kind(SPINSTER, OWN_ROLL, "after your roll: set one die to the face you like"),
        Kind(SWIMSTER, PASSIVE, "may stand on a flood token without clearing it"),
        Kind(
            TWINSTERS, PASSIVE, "a pair of hamsters: when one leaves the dam, the other rests too"
        ),
        Kind(WHACK_A_MOLE, OWN_ROLL, "after your roll: roll again and jump to that card"),
    )
}

MOVE_TO_KIND = {kind.move: kind.name for kind in KINDS.values()}

# Copycatster takes on the timing of the special it imitates; passives cannot be copied.
COPYABLE = frozenset(name for name, kind in KINDS.items() if kind.timing != PASSIVE)
