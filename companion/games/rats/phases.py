"""The phases of Rats, by name: the spec's keys and every check of the phase now.

A ``StrEnum``: a phase is still its plain name in the log, the view and the page, while the
rules name it as ``Phase.CREATE`` and a misspelt one fails at import, not in play.
"""

from enum import StrEnum


class Phase(StrEnum):
    CREATE = "create"
    TUNNEL = "tunnel"
    NEST = "nest"
    END = "end"
