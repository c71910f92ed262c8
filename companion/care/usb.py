"""Copying every backup of the games file to a USB stick, when one is plugged in.

Why a stick: the backups live on the same SD card as the games file, and SD cards are
what dies on a Pi. Desktop Raspberry Pi OS mounts a stick under ``/media/<user>/<label>``
(udisks2); other systems use ``/run/media/<user>/<label>`` or ``/media/<label>``. The roots
searched are a parameter so a test can hand in a temporary folder as the "stick".
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.errors import CompanionError

MEDIA_ROOTS: tuple[Path, ...] = (Path("/media"), Path("/run/media"))
FOLDER_ON_STICK = "hamster-table-backups"


class NoStickError(CompanionError):
    """No removable medium is mounted, or it cannot be written."""


@dataclass(frozen=True)
class Copied:
    stick: Path
    copied: int
    already: int

    def sentence(self) -> str:
        where = self.stick / FOLDER_ON_STICK
        if not self.copied:
            return f"Every backup was already on the stick ({where}); nothing new to copy."
        extra = f", {self.already} already there" if self.already else ""
        return f"Copied {self.copied} backup{'s' if self.copied != 1 else ''} to {where}{extra}."


def mounted_sticks(
    roots: Sequence[Path] = MEDIA_ROOTS, is_mount: Callable[[Path], bool] = os.path.ismount
) -> list[Path]:
    """Mounted media under ``roots`` (one or two folders down: ``/media/LABEL`` or
    ``/media/USER/LABEL``), sorted by path."""
    found: set[Path] = set()
    for root in roots:
        for first in _folders(root):
            if is_mount(first):
                found.add(first)
                continue
            found.update(second for second in _folders(first) if is_mount(second))
    return sorted(found)


def _folders(folder: Path) -> Iterable[Path]:
    try:
        return [entry for entry in folder.iterdir() if entry.is_dir()]
    except OSError:  # not there, or not ours to read
        return []


def copy_to_stick(backups: Sequence[Path], stick: Path) -> Copied:
    """Copy every backup not yet on ``stick`` (same name and size) into its folder there,
    each flushed to the stick before the next, so pulling it out loses at most one."""
    target = stick / FOLDER_ON_STICK
    try:
        target.mkdir(exist_ok=True)
        copied = already = 0
        for backup in backups:
            there = target / backup.name
            if there.exists() and there.stat().st_size == backup.stat().st_size:
                already += 1
                continue
            partial = there.with_name(there.name + ".part")
            shutil.copyfile(backup, partial)
            with partial.open("rb") as file:
                os.fsync(file.fileno())
            partial.replace(there)
            copied += 1
    except OSError as error:
        raise NoStickError(
            f"The backups could not be copied to {stick} ({error.strerror or error}): check "
            "the stick is not full or read-only, then try again."
        ) from None
    return Copied(stick, copied, already)


def copy_to_the_stick(
    backups: Sequence[Path],
    roots: Sequence[Path] = MEDIA_ROOTS,
    is_mount: Callable[[Path], bool] = os.path.ismount,
) -> Copied:
    """Copy every backup to the one stick plugged in; one sentence when there is none,
    or more than one (which one was meant cannot be guessed)."""
    sticks = mounted_sticks(roots, is_mount)
    if not sticks:
        raise NoStickError(
            "No USB stick is mounted: plug one into the Pi and wait a few seconds for it to "
            "appear, then try again."
        )
    if len(sticks) > 1:
        names = ", ".join(str(s) for s in sticks)
        raise NoStickError(
            f"More than one stick is mounted ({names}): leave only one in and try again."
        )
    if not backups:
        raise NoStickError(
            "There are no backups to copy yet: the companion makes one each day and at each "
            "game's end."
        )
    return copy_to_stick(backups, sticks[0])
