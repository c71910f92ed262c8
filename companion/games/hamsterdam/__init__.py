"""Hamsterdam (2019): the full game (card passing, breaches, dealt specials) and classic.

Modules, one job each: ``model`` (state), ``deck`` + ``deck.json`` (editable card data),
``catalogue`` (the 18 specials), ``setup``, ``turns`` (roll, dice), ``flood``, ``breach``,
``movement`` (movement, skip-movement specials, redeployment), ``powers`` (special effects),
``layout`` (standing hamsters on a dam), ``scoring``, ``view``, ``text``, ``bot``,
``choices`` (the tablet's legal-move buttons), ``spec``.

Where the project's rulings (``shared/rules/hamsterdam.md``) go beyond or against the seed
text, the rulings win: a token reaching the flood pile from a flipped card counts toward the
next breach although the seed counts tokens that "break through"; a breach's sacrifice also
removes the flood token; the game ends the moment the threshold is reached, even in the
middle of a flood; movement comes before redeployment at the end of a round.
"""

from companion.games.hamsterdam import bot
from companion.games.hamsterdam.model import Hamsterdam
from companion.games.hamsterdam.spec import SPEC

__all__ = ["SPEC", "Hamsterdam", "bot"]
