"""Which process owns a data folder's games: the running companion, claimed with a lock.

Why: the running companion keeps its game in memory. Two companions on one games file, or
a command-line move while one runs, store events on a game the other never saw (and
``companion restore`` would replace the file under it). ``companion run`` holds the lock
for as long as it serves; the other ``run`` and the commands that change games check it
first and say, in one sentence, what to do instead. The lock is the kernel's (``flock``),
so it ends with the process, even a killed one, and never needs removing by hand.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

from companion.errors import CompanionError

LOCK_FILE = "companion.lock"  # in the data folder; holds the running companion's process id
STOP_IT = "Ctrl-C in its terminal, or `sudo systemctl stop companion` for the service"


class DataFolderBusyError(CompanionError):
    """A running companion serves the games in this data folder."""


def hold_data_folder(data_dir: Path) -> IO[str] | None:
    """Claim the data folder for this ``companion run`` until the returned file is closed.

    A folder the lock cannot be made in is left to the store, which says what is wrong
    with it; a file system without locks runs as before (None).
    """
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        handle = open(data_dir / LOCK_FILE, "a+", encoding="utf-8")  # noqa: SIM115
    except OSError:
        return None
    holder = _claim(handle)
    if holder is not None:
        handle.close()
        raise DataFolderBusyError(
            f"Another companion is already running on the games in {data_dir}{holder}; stop "
            f"it first ({STOP_IT}), or give this one its own --data-dir."
        )
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


def refuse_while_served(data_dir: Path, change: str) -> None:
    """Raise if a running companion serves these games; ``change`` says what was asked
    ("make a move", "restore a backup") for the sentence."""
    try:
        handle = open(data_dir / LOCK_FILE, encoding="utf-8")  # noqa: SIM115
    except OSError:  # no lock file: no companion has run here, or the folder is missing
        return
    with handle:  # closing releases the lock if it was ours to take
        holder = _claim(handle)
    if holder is not None:
        raise DataFolderBusyError(
            f"A companion is running on the games in {data_dir}{holder}, so this command "
            f"cannot {change} (the running table would not see it); use its page or its "
            f"buttons, or stop it first ({STOP_IT})."
        )


def _claim(handle: IO[str]) -> str | None:
    """Take the lock on ``handle``: None once taken (or if this file system has no locks),
    else who holds it, as shown in a sentence (" (process 1234)", or "" if not known)."""
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip()
        return f" (process {holder})" if holder.isdigit() else ""
    except OSError:  # a file system without locks: run as before
        return None
    return None
