"""The phases of Hamsterdam, by name: the spec's keys and every check of the phase now.

A ``StrEnum``: a phase is still its plain name in the log, the view and the page, while the
rules name it as ``Phase.SETUP`` and a misspelt one fails at import, not in play.
"""

from enum import StrEnum


class Phase(StrEnum):
    SETUP = "setup"
    ROUND = "round"
    ROLL = "roll"
    FLOOD = "flood"
    BREACH = "breach"
    DICE = "dice"
    MOVEMENT = "movement"
    SKIPS = "skips"
    REDEPLOY = "redeploy"
