"""The ``companion`` command, one module per family of commands.

``group`` holds the click group, its context and ``fail``; ``table`` (new, status, next, undo,
redo, move, play), ``files`` (replay, export, backups, restore), ``games`` (games, simulate),
``history``, ``dice``, ``board`` (the event board), ``calibrate`` and ``doctor`` hold the
commands; ``tree`` gathers them. ``companion.serve`` adds ``run`` and ``pin``.
"""
