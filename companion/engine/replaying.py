"""Whether the engine is rebuilding a stored game from its log, for checks added later.

Why: a rule check added after games were stored (say, refusing a push the hamster cannot
pay for) must refuse the move when it is made now, but a game stored before the check,
in which the players made that move, must still load: a game that no longer replays
is a lost evening. Such a check asks :func:`is_replaying` and lets the stored move stand.
It is set while a stored game is rebuilt (:meth:`companion.engine.session.Session.replay`),
while a redo re-applies a move already made, and while ``companion replay`` reads a game
file; offered buttons, bots, simulations and moves made at the table all see the check.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_REPLAYING: ContextVar[bool] = ContextVar("replaying", default=False)


def is_replaying() -> bool:
    """True while a stored game's log is being replayed."""
    return _REPLAYING.get()


@contextmanager
def replaying() -> Iterator[None]:
    """Mark the code inside as rebuilding a stored game (thread- and task-local)."""
    token = _REPLAYING.set(True)
    try:
        yield
    finally:
        _REPLAYING.reset(token)
