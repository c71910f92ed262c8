"""The simulated camera's picture of the table: whatever the game in play has on it.

``companion run`` on a laptop (or ``--simulate``) has no camera; this twin stands in for
it as one frame source (``hardware.camera.SimulatedSource`` calls it for every frame). It
draws what the game in play asks the camera to read, handed over as plain data by the
composition root (:class:`Table`): the wheel (``hardware.wheel_twin``) for a game that
reads the wheel, the dice the players throw (``hardware.dice_twin``) for a game waiting
for a hand roll, else the bare table. It knows no game, watcher or table: only what to
draw.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from hardware.dice_twin import DiceTwin, Look
from hardware.wheel_twin import WheelTwin

Frame = NDArray[np.uint8]

DICE, WHEEL = "dice", "wheel"  # the reading kinds (companion.engine.readings) drawn here


@dataclass(frozen=True)
class Table:
    """What is on the table now: the kinds the camera reads, the dice due (their sides),
    the game's public view, which game it is and which moment of it."""

    kinds: frozenset[str] = frozenset()
    dice: tuple[int, ...] = ()
    view: Mapping[str, Any] = field(default_factory=dict)
    game: object = None
    moment: object = None


class TableTwin:
    """Draws the table as ``look()`` describes it; call it for each frame."""

    def __init__(
        self,
        look: Callable[[], Table],
        style: Look | None = None,
        wheel_style: Look | None = None,
    ) -> None:
        self.look = look
        self.dice = DiceTwin(style)
        self.wheel = WheelTwin(wheel_style)

    def __call__(self) -> Frame:
        table = self.look()
        if WHEEL in table.kinds and "wheel" in table.view:
            return self.wheel.frame(table.view, table.game)
        sides = table.dice if DICE in table.kinds else ()
        return self.dice.frame(sides, (table.game, table.moment))
