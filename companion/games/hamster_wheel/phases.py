"""The phases of Hamster Wheel, by name: the spec's keys and every check of the phase now.

A ``StrEnum``: a phase is still its plain name in the log, the view and the page, while the
rules name it as ``Phase.PLAY`` and a misspelt one fails at import, not in play.
"""

from enum import StrEnum


class Phase(StrEnum):
    PLAY = "play"
