"""The dice camera's simulated twin: dice tumble, settle and are read, with no camera.

Used by ``companion run`` on a machine that is not a Pi and has no camera, so the camera
panel and the dice reader can be tried; its rolls are marked as demo readings, which never
land in a game without a person accepting them.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

Frame = NDArray[np.uint8]


class DemoDice:
    """A scripted demo for a machine without a camera: dice tumble, settle, and are read.

    Each cycle shows ``tumble`` frames of dice in motion, then ``rest`` frames of a settled
    roll, rendered by the simulator (perspective, light and noise included).
    """

    def __init__(self, seed: int = 1, count: int = 2, tumble: int = 8, rest: int = 40) -> None:
        from hardware.simulator import Conditions, random_dice_scene, render_dice

        self._rng = np.random.default_rng(seed)
        self._scene = random_dice_scene
        self._render = render_dice
        self._conditions = Conditions(size=(640, 480), noise=2.0, uneven_light=0.3)
        self._count = count
        self._tumble, self._rest = tumble, rest
        self._frame_no = 0
        self._settled: Frame | None = None

    def __call__(self) -> Frame:
        position = self._frame_no % (self._tumble + self._rest)
        self._frame_no += 1
        if position < self._tumble:
            self._settled = None
            scene = self._scene(self._rng, self._count)
            return self._render(scene, self._rng, self._conditions).frame
        if self._settled is None:
            scene = self._scene(self._rng, self._count)
            self._settled = self._render(scene, self._rng, self._conditions).frame
        noise = self._rng.normal(0, 1.5, self._settled.shape)
        return np.clip(self._settled + noise, 0, 255).astype(np.uint8)
