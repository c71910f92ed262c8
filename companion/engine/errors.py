"""Errors a person at the table can read and act on."""

from companion.errors import CompanionError


class IllegalMoveError(CompanionError, ValueError):
    """The rules forbid this move.

    The message is one sentence naming the broken rule, written for the players
    (it is shown as-is on the tablet and in the terminal).
    """


class UnknownGameError(CompanionError, LookupError):
    """No game or rule set with that name is registered."""


class ScenarioError(CompanionError, ValueError):
    """A saved game or scenario file cannot be read; the message says where and why."""
