"""The phases of Run, Hamster, Run!, by name: the spec's keys and every check of the phase now.

A ``StrEnum``: a phase is still its plain name in the log, the view and the page, while the
rules name it as ``Phase.SETUP`` and a misspelt one fails at import, not in play.
"""

from enum import StrEnum


class Phase(StrEnum):
    SETUP = "setup"
    ALLOCATE = "allocate"
    INITIATIVE = "initiative"
    DECLARE = "declare"
    RESOLVE = "resolve"
    BELT = "belt"
    ALLIGATORS = "alligators"
    FATIGUE = "fatigue"
    TALLY = "tally"
    NEW_ROUND = "new_round"
