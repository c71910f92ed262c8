"""What a person can ask of the table without naming a move: the one list of intents.

Buttons, the terminal's keys, the tablet's controls and the table itself all speak this
vocabulary, so a new button is one line here plus its pin in the config.
"""

from __future__ import annotations

from typing import Final

NEXT_INTENT: Final = "next"  # the phase or turn is done: go on
UNDO_INTENT: Final = "undo"  # take back the last change
REDO_INTENT: Final = "redo"  # put it back again
READ: Final = "read"  # accept what the camera proposes

INTENTS: Final = (NEXT_INTENT, UNDO_INTENT, REDO_INTENT, READ)
