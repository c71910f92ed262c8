"""Hamster Wheel (Zoch, 2000): a dexterity game around an upright rolling wheel.

Modules, one job each: ``model`` (state), ``moves`` (set-up and turn moves), ``view``
(tablet view, prompt, terminal board), ``choices`` (the tablet's buttons), ``bot``
(simulated players that fail with a set chance), ``table`` (report figures, cues and the
camera rule for the wheel), ``spec``. Rulings: ``docs/rules/hamster-wheel.md``.
"""

from companion.games.hamster_wheel.model import HamsterWheel
from companion.games.hamster_wheel.spec import SPEC

__all__ = ["SPEC", "HamsterWheel"]
