"""How this table plays, kept with the table rather than on each tablet.

Why here and not in a tablet's own storage: a step nobody decides anything in passes on its
own after a moment (:mod:`companion.engine.passing`), and a table that would rather press
NEXT at every stop must get that on every tablet and phone at once, including one that joins
later or was wiped. So the choice is kept in the games file's settings table (it survives a
restart); until anyone changes it there, the config's ``[game] every_stop`` says (default:
steps pass on their own).
"""

from __future__ import annotations

from companion.store import Store, StoreError

#: The settings-table key that keeps the choice ("1": every stop, "0": steps pass on their own).
EVERY_STOP = "every_stop"
#: The refusal of an automatic NEXT from a page that had not yet heard of the table's choice.
KEEPS_EVERY_STOP = "This table keeps every stop: press NEXT when the table is ready."


class TableSettings:
    """The table's own settings in one games file, with the config's defaults under them.

    Read once at start and kept here, so each snapshot reads them without touching SQLite;
    a games file that may not be written (kept damaged as it is) keeps the config's."""

    def __init__(
        self, store: Store, *, every_stop: bool = False, refuse_writes: str | None = None
    ) -> None:
        self._file = store
        self._refuse_writes = refuse_writes
        kept = None if refuse_writes else store.setting(EVERY_STOP)
        #: Whether the table keeps every stop (no step passes on its own).
        self.every_stop = every_stop if kept is None else kept == "1"

    def keep_every_stop(self, on: bool) -> None:
        if self._refuse_writes:
            raise StoreError(self._refuse_writes)
        self._file.set_setting(EVERY_STOP, "1" if on else "0")
        self.every_stop = on
