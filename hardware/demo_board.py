"""The overhead belt camera's simulated twin, so the belt check also runs on a laptop.

Without a camera, ``companion run`` simulates the table; the dice camera's twin shows no
belt, and the belt check needs both a picture of the belt and a calibration made from one,
so on a laptop the tablet's "camera vs board" note would never appear. This twin draws the
belt as the game has it right now (its public view, a plain mapping), through one fixed
simulated camera (tilt, uneven light and sensor noise from ``hardware.simulator``), as if
the players always moved the real pieces at once, and delivers each frame to a callback
(the camera rig's belt watcher). Like every device it knows no watcher, table or
calibration code: the composition root makes its calibration the way a player makes one
(every colour on :data:`CALIBRATION_CELLS`, from :attr:`BeltCamera.calibration_frame`) and
keeps it in a demo folder, never over the user's own calibration file, so markers, colour
profiles, steady readings, the comparison and the note on the tablet all run for real.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from companion.config import CALIBRATION_FILE
from hardware.simulator import HAMSTER_COLOURS, BeltScene, Conditions, render_belt

log = logging.getLogger(__name__)

Frame = NDArray[np.uint8]
Where = tuple[int, int] | Literal["pit"]

DEMO_FOLDER = "demo-belt"  # under the data dir, beside (never over) the real calibration
SIZE = (640, 480)  # what the demo dice camera gives too: cheap to draw and to read
FPS = 2.0  # enough for a steady reading a few seconds after a move
SEED = 7
# Calibration as the page asks for it: every colour on a known square (row 2, one a lane).
CALIBRATION_CELLS = {colour: (2, lane) for lane, colour in enumerate(HAMSTER_COLOURS, start=1)}


def demo_calibration_path(data_dir: Path) -> Path:
    """Where the twin keeps its calibration: a folder of its own, so a real one survives."""
    return data_dir / DEMO_FOLDER / CALIBRATION_FILE


def scene_for(view: Mapping[str, Any]) -> BeltScene:
    """The game's public view as a belt scene: unplaced and eaten hamsters are off the table."""
    hamsters: dict[str, Where] = {}
    for hamster in view.get("hamsters", []):
        if hamster.get("eaten"):
            continue
        if hamster.get("in_pit"):
            hamsters[hamster["colour"]] = "pit"
        elif hamster.get("row") and hamster.get("lane"):
            hamsters[hamster["colour"]] = (int(hamster["row"]), int(hamster["lane"]))
    return BeltScene(hamsters=hamsters, asterisk_row=int(view.get("asterisk_row") or 5))


class BeltCamera:
    """One simulated camera fixed above the belt: the same pose for every frame it takes.

    A scene is drawn once (a real belt does not change between frames either) and each frame
    adds fresh sensor noise, so the reader sees a live picture, as from a real camera.
    """

    def __init__(self, seed: int = SEED, size: tuple[int, int] = SIZE) -> None:
        conditions = Conditions(size=size, perspective=0.3, uneven_light=0.3, noise=2.0)
        rendered = render_belt(
            BeltScene(CALIBRATION_CELLS), np.random.default_rng(seed), conditions
        )
        self.calibration_frame: Frame = rendered.frame
        pose = tuple(tuple(float(v) for v in row) for row in rendered.board_to_image)
        self.conditions = replace(conditions, board_to_image=pose)
        self._seed = seed
        self._noise = np.random.default_rng(seed + 1)
        self._scene: BeltScene | None = None
        self._still: Frame | None = None

    def frame(self, scene: BeltScene) -> Frame:
        """A picture of ``scene`` as this camera takes it now."""
        if scene != self._scene or self._still is None:
            self._still = self._draw(scene)
            self._scene = scene
        noise = self._noise.normal(0.0, 1.5, self._still.shape)
        return np.clip(self._still + noise, 0, 255).astype(np.uint8)

    def _draw(self, scene: BeltScene) -> Frame:
        # Seeded per scene, so the same positions give the same picture. A crowded Pit can
        # defeat the simulator's random spacing of pieces there: try the next seed.
        for attempt in range(10):
            rng = np.random.default_rng(self._seed + attempt)
            try:
                return render_belt(scene, rng, self.conditions).frame
            except ValueError:
                continue
        raise ValueError("The simulated belt camera could not draw the hamsters in the Pit.")


class DemoBelt:
    """Draws the belt ~2 times a second and delivers each picture to ``deliver``.

    ``view`` gives the game's public view now (None: no game with a belt is on the table,
    so nothing is drawn); ``moment`` names the state the view belongs to, so a picture of a
    state that changed while it was drawn is dropped, as a real camera would already show
    the new positions. Started and stopped like any device (``start``, ``stop``, ``status``).
    """

    def __init__(
        self,
        view: Callable[[], Mapping[str, Any] | None],
        moment: Callable[[], object],
        deliver: Callable[[Frame], None],
        *,
        fps: float = FPS,
        seed: int = SEED,
    ) -> None:
        if fps <= 0:
            raise ValueError(f"fps must be a positive number of frames per second, not {fps!r}.")
        self.camera = BeltCamera(seed)
        self._view, self._moment, self._deliver = view, moment, deliver
        self.frames_offered = 0
        self.latest: Frame | None = None
        self._interval = 1.0 / fps
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def status(self) -> str:
        return f"simulated belt camera: {self.frames_offered} pictures drawn"

    def frame(self) -> Frame | None:
        """The belt as the game has it now; None when the game on the table has no belt."""
        view = self._view()
        return None if view is None else self.camera.frame(scene_for(view))

    def feed_once(self) -> bool:
        """Draw the belt and deliver it; False when nothing was delivered."""
        moment = self._moment()
        frame = self.frame()
        if frame is None or self._moment() != moment:
            return False
        self.latest = frame
        self._deliver(frame)
        self.frames_offered += 1
        return True

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="demo-belt", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop drawing (after the frame being drawn, if any)."""
        self._stopping.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():
                log.warning("demo-belt did not stop within %.1f s", timeout)

    def _run(self) -> None:
        while not self._stopping.wait(self._interval):
            try:
                self.feed_once()
            except Exception:
                # A drawing bug must not end the demo: log it, draw the next frame.
                log.exception("the simulated belt camera failed on a frame")
