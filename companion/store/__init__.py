"""The games file: one SQLite file, in modules by what they keep.

:mod:`companion.store.events` keeps the games and their events (WAL, one row per event,
migrations) and opens the file; :mod:`companion.store.backups` checks a backup in full and
restores it without ever leaving the table without its games. ``from companion.store
import Store`` is the way in for everyone else.
"""

from companion.store.backups import (
    BackupRefusedError,
    Restored,
    check_backup,
    highest_game_number,
    move_aside,
    restore,
)
from companion.store.events import (
    BACKUP_FOLDER,
    MIGRATIONS,
    SCHEMA_VERSION,
    CodeRow,
    Store,
    StoreDamagedError,
    StoredGame,
    StoreError,
    TokenRow,
    backups,
    damaged_sentence,
    event_from_row,
    salvage,
)

__all__ = [
    "BACKUP_FOLDER",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "BackupRefusedError",
    "CodeRow",
    "Restored",
    "Store",
    "StoreDamagedError",
    "StoreError",
    "StoredGame",
    "TokenRow",
    "backups",
    "check_backup",
    "damaged_sentence",
    "event_from_row",
    "highest_game_number",
    "move_aside",
    "restore",
    "salvage",
]
