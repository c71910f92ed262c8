"""Rats (John Harper): rats in the tunnels, fighting for loot and a Dominance hand."""

from companion.games.rats.spec import NAME, SPEC

__all__ = ["NAME", "SPEC"]
