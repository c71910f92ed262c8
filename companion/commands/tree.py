"""The whole ``companion`` command but ``run`` and ``pin`` (``companion.serve`` adds those).

One line per family: the group and its shared context live in ``group.py``, each family's
commands in a module of its own, and this module alone gathers them, so no family imports
another's commands and none imports this one.
"""

from __future__ import annotations

from companion.commands import care, doctor, files, games, history, table
from companion.commands.group import LAZY_COMMANDS, main

for command in (
    table.new,
    table.status,
    table.next_,
    table.undo,
    table.redo,
    table.move,
    table.play,
    files.replay,
    files.export,
    files.list_backups,
    files.restore_backup,
    games.simulate,
    games.list_games,
    doctor.doctor,
    care.update,
    care.care,
):
    main.add_command(command)
main.add_command(history.history_command, name="history")
LAZY_COMMANDS.update(
    dice="companion.commands.dice:dice",
    board="companion.commands.board:board",
    calibrate="companion.commands.calibrate:calibrate",
)

__all__ = ["main"]
