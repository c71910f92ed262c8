"""The root helper's work: carry out the request the page left (a restore or an update).

Run by ``companion care apply`` (as root, from ``companion-care.path``, or by hand). A
restore is ``companion restore``'s own :func:`companion.store.restore` with the service
stopped around it; an update is :class:`companion.update.Updater`'s. What happened is
written for the page either way, in one sentence.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.care.requests import CareRequest, take_request, write_outcome
from companion.data_lock import hold_data_folder, refuse_while_served
from companion.errors import CompanionError
from companion.store import BACKUP_FOLDER, restore
from companion.update import ReleaseSource, Updater


@dataclass(frozen=True)
class Service:
    """How the helper stops and starts the companion (``systemctl`` on the Pi)."""

    stop: Callable[[], None]
    start: Callable[[], None]


def apply_waiting(
    data_dir: Path,
    database: Path,
    service: Service,
    updater: Callable[[], tuple[Updater, ReleaseSource]],
) -> str | None:
    """Carry out the waiting request, if any; returns its sentence (None: none waited)."""
    try:
        request = take_request(data_dir)
        if request is None:
            return None
        ok, sentence = _carry_out(request, data_dir, database, service, updater)
    except CompanionError as error:
        ok, sentence = False, str(error)
    write_outcome(data_dir, ok, sentence)
    return sentence


def _carry_out(
    request: CareRequest,
    data_dir: Path,
    database: Path,
    service: Service,
    updater: Callable[[], tuple[Updater, ReleaseSource]],
) -> tuple[bool, str]:
    if request.kind == "update":
        found, source = updater()
        done = found.update(source)
        return done.ok, done.sentence
    backup = data_dir / BACKUP_FOLDER / Path(request.backup).name
    service.stop()
    try:
        refuse_while_served(data_dir, "restore a backup")  # the stop did not take
        held = hold_data_folder(data_dir)
        try:
            restored = restore(database, backup)
        finally:
            if held is not None:
                held.close()
        _hand_back(database, data_dir)
    finally:
        service.start()
    return True, restored.sentence()


def _hand_back(database: Path, data_dir: Path) -> None:
    """Files made by root in the data folder go back to its owner (the service's user)."""
    owner = data_dir.stat()
    for path in data_dir.glob(database.name + "*"):
        if path.stat().st_uid != owner.st_uid and os.geteuid() == 0:
            os.chown(path, owner.st_uid, owner.st_gid)
