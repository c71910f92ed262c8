"""The players' dice as a twin: whenever the game waits for a hand roll, dice are thrown.

The game in play says which dice the players roll now (``GameSpec.camera``'s ``dice``
hook, handed here as plain sides such as ``(6, 6)``); the twin acts as the players: it
throws that many dice with faces of its own choosing, shows them tumbling for a few frames
and then lying still (with fresh sensor noise on every frame), until the game moves on.
The faces are the twin's, never the game's: the camera has to read them, exactly as on a
real table. Rendering is ``hardware.simulator``'s; only the choice of scene is here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from hardware.simulator import Conditions, DiceScene, Die, random_dice_scene, render_dice
from hardware.simulator.poly_dice import STYLE_OF, TRAINED, render_pool

Frame = NDArray[np.uint8]
BGR = tuple[int, int, int]


@dataclass(frozen=True)
class Look:
    """How a twin's table looks: the seed of its draws, the light, the noise, the dice.

    ``dice`` lists (body, pips) colours to paint the dice with; empty keeps the simulator's
    own palette. A bench gives a look the readers were never trained on.
    """

    seed: int = 1
    size: tuple[int, int] = (640, 480)
    noise: float = 2.0
    uneven_light: float = 0.3
    perspective: float = 0.0
    dice: tuple[tuple[BGR, BGR], ...] = ()
    # numeral styles of a Rats pool's d4-d10 (hardware.simulator.poly_dice names); empty:
    # the styles the pool reader was trained on
    pool_styles: tuple[str, ...] = ()

    def conditions(self) -> Conditions:
        return Conditions(
            size=self.size,
            noise=self.noise,
            uneven_light=self.uneven_light,
            perspective=self.perspective,
        )


class DiceTwin:
    """Throws the dice a game waits for and draws them; ``thrown`` is the truth of the roll.

    Each new ``moment`` (the game's state) with dice due is a new throw: ``tumble`` frames
    of dice in motion, then the settled roll, drawn once and shown with fresh noise.
    """

    def __init__(self, look: Look | None = None, tumble: int = 3) -> None:
        self.look = look or Look()
        self._rng = np.random.default_rng(self.look.seed)
        self._conditions = self.look.conditions()
        self.tumble = tumble
        self._moment: object = None
        self._count = 0
        self._frames = 0
        self._still: Frame | None = None
        self.thrown: tuple[int, ...] = ()  # the faces lying on the table now

    def frame(self, sides: tuple[int, ...], moment: object) -> Frame:
        """The table now: dice tumbling or lying still, or bare when none are due."""
        if not sides:
            self.thrown, self._moment, self._count, self._still = (), moment, 0, None
            return self._draw(DiceScene(dice=()))
        if moment != self._moment or len(sides) != self._count:
            self._moment, self._count, self._frames, self._still = moment, len(sides), 0, None
            self.thrown = ()
        self._frames += 1
        pool = any(side != 6 for side in sides)  # a Rats pool: d4s to d10s, drawn as such
        if self._frames <= self.tumble:
            return self._pool(sides)[1] if pool else self._draw(self._scene(len(sides)))
        if self._still is None and pool:
            self.thrown, self._still = self._pool(sides)
        if self._still is None:
            scene = self._scene(len(sides))
            self.thrown = tuple(die.value for die in scene.dice)
            self._still = self._draw(scene)
        noise = self._rng.normal(0.0, 1.5, self._still.shape)
        return np.clip(self._still + noise, 0, 255).astype(np.uint8)

    def _scene(self, count: int) -> DiceScene:
        scene = random_dice_scene(self._rng, count)
        palette = self.look.dice
        if not palette:
            return scene
        painted: list[Die] = []
        for die in scene.dice:
            body, pips = palette[int(self._rng.integers(len(palette)))]
            painted.append(replace(die, colour=body, pip_colour=pips))
        return replace(scene, dice=tuple(painted))

    def _pool(self, sides: tuple[int, ...]) -> tuple[tuple[int, ...], Frame]:
        """Dice of several sizes thrown (hardware/simulator/poly_dice.py): faces and picture."""
        named = self.look.pool_styles
        styles = tuple(STYLE_OF[name] for name in named) if named else TRAINED
        scene = render_pool(self._rng, sides, size=self.look.size, styles=styles)
        return tuple(die.face for die in scene.dice), scene.frame

    def _draw(self, scene: DiceScene) -> Frame:
        return render_dice(scene, self._rng, self._conditions).frame
