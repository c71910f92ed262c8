"""Restores a backup, killing itself with SIGKILL just before its N-th file-system step.

Run by tests/runtime/test_restore.py as
``python tests/runtime/restore_worker.py DB BACKUP N`` (N < 0: no
kill). A step is any call that opens, copies, syncs, renames or removes a file on the way
(``sqlite3.connect``, ``os.replace``, ``os.unlink``, ``os.fsync``, ``shutil.copyfile``), so
trying every N puts a power cut between every two of them.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.store import restore


def killing_at(step: int) -> None:
    count = [0]

    def wrap(module: Any, name: str) -> None:
        real: Callable[..., Any] = getattr(module, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            if count[0] == step:
                os.kill(os.getpid(), signal.SIGKILL)
            count[0] += 1
            return real(*args, **kwargs)

        setattr(module, name, counted)

    for module, name in (
        (sqlite3, "connect"),
        (os, "replace"),
        (os, "unlink"),
        (os, "fsync"),
        (shutil, "copyfile"),
    ):
        wrap(module, name)


def main(db: str, backup: str, step: int) -> int:
    if step >= 0:
        killing_at(step)
    done = restore(Path(db), Path(backup))
    print(done.sentence(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
