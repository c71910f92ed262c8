"""Rats (John Harper): rats in the tunnels, fighting for loot and a Dominance hand."""

from companion.games.rats.spec import SPEC

__all__ = ["SPEC"]
