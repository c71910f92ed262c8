"""A table that plays itself: the game's own bot takes every turn, at a pace people can
follow, for an organiser's rehearsal of the event day or a shop window.

Why through the table's queue like any button: the bot's moves are ordinary inputs, so
the page, the event board and the camera cues show them exactly as they would a person's,
and the rules refuse what they would refuse (the bot tries its next candidate).

Why its games stay out of the record: a demo table's games are nobody's. Each one is
deleted from the history as soon as it ends (purged later like any deleted game), and
everything the table publishes is marked ``demo``, which the event board shows and its
standings and export leave out.
"""

from __future__ import annotations

import contextlib
import logging
import random
import threading
from dataclasses import replace

from companion import history
from companion.engine.errors import IllegalMoveError
from companion.errors import CompanionError
from companion.games import find_game
from companion.simulate import bot_of, bot_turn
from companion.table import Table

log = logging.getLogger(__name__)

DEMO_NOTE = (
    "Demo table: the game's own bot plays every turn by itself; its games are kept out "
    "of the history and the event's standings."
)
RESULT_PAUSE = 8  # paces a finished game stays on show before the next one starts


class DemoPlayer:
    """Plays ``table`` with its game's bot, one change every ``pace`` seconds, game after
    game, until :meth:`stop`."""

    def __init__(self, table: Table, pace: float = 1.0, seed: int | None = None) -> None:
        if pace <= 0:
            raise CompanionError("The demo's pace must be a positive number of seconds.")
        self.table = table
        self.pace = pace
        self.rng = random.Random(seed)
        self.played = 0  # changes the bot made
        self.games = 0  # games it finished
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo-table", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        while not self._stop.wait(self.pace):
            try:
                self.step()
            except (CompanionError, RuntimeError) as error:  # a refused game, a bot at a
                log.warning("demo table: %s", error)  # loss, a table closing: say so, go on

    def step(self) -> None:
        """One change: the bot's move, or a new game once the last one has been shown."""
        snap = self.table.snapshot
        state = snap.state
        if state is None or snap.header is None or snap.spec is None:
            self.table.new_game()
            return
        if not state.ctx.over:
            bot = bot_of(snap.spec)
            bot_turn(bot, state, self.rng, lambda e: self.table.submit(e).result(30))
            self.played += 1
            return
        if snap.game_id is not None:
            self._forget(snap.game_id)
        if self._stop.wait(self.pace * RESULT_PAUSE):
            return
        header = replace(snap.header, seed=self.rng.randrange(1, 2**31))
        find_game(header.game)  # still a known game (the registry's sentence if not)
        self.table.new_game(header)

    def _forget(self, game_id: int) -> None:
        """Take a finished demo game out of the history (once)."""
        with contextlib.suppress(history.HistoryError, IllegalMoveError):
            history.delete(self.table.store, game_id)
            self.games += 1
