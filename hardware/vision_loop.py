"""Camera frames → dice reader → a stable roll → the table.

Runs on the camera supervisor's delivery thread and only ever looks at the newest frame
(stale ones are dropped upstream). A roll counts only once the stabiliser has seen it hold
for N frames, so tumbling dice are never reported. Then:

- every die read with confidence at or above ``auto_accept`` (the reader's documented
  ``AUTO_ACCEPT``): the roll is applied at once, logged with source "camera";
- otherwise: it waits on the tablet as a one-tap confirmation (the READ button accepts).

A die that cannot be read is never guessed: the page says which one to check.

The same frames feed the belt and wheel watchers (``listeners``): each is handed the frame
first and reads it on its own thread, so the dice are never slowed down by them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.observations import describe_dice, dice_event, dice_needed
from companion.table import Observation, Table
from companion.vision.dice import AUTO_ACCEPT, Die, read_dice
from companion.vision.stabiliser import DiceStabiliser
from hardware.camera import CameraSupervisor, FrameSource

Frame = NDArray[np.uint8]


@dataclass(frozen=True)
class DiceView:
    """The latest frame and what was read in it, for the page's camera panel."""

    frame: Frame
    dice: tuple[Die, ...]


class DiceWatcher:
    def __init__(
        self,
        table: Table,
        source: FrameSource,
        *,
        stable_frames: int = 5,
        auto_accept: float = AUTO_ACCEPT,
        supervisor_options: dict[str, Any] | None = None,
        listeners: Sequence[Callable[[Frame], None]] = (),
    ) -> None:
        self.table = table
        self.listeners = tuple(listeners)  # must not block: e.g. BoardWatcher.offer
        self.auto_accept = auto_accept
        self.stabiliser = DiceStabiliser(stable_frames)
        self.last_roll = ""
        self._view: DiceView | None = None
        self._lock = threading.Lock()
        self.supervisor = CameraSupervisor(source, self._on_frame, **(supervisor_options or {}))

    def start(self) -> None:
        self.supervisor.start()

    def stop(self) -> None:
        self.supervisor.stop()

    @property
    def status(self) -> str:
        roll = f"; last roll: {self.last_roll}" if self.last_roll else ""
        return f"{self.supervisor.status}{roll}"

    def _on_frame(self, frame: Frame) -> None:
        for listener in self.listeners:
            listener(frame)
        dice = read_dice(frame)
        with self._lock:
            self._view = DiceView(frame, tuple(dice))
        values = self.stabiliser.update(dice)
        if values is not None:
            self.propose(dice)

    def propose(self, dice: list[Die]) -> Future[Any] | None:
        """A settled roll: apply it, ask for a tap, or say which die to check."""
        values = [die.value for die in dice]
        self.last_roll = describe_dice(values)
        if any(value is None for value in values):
            self.last_roll += " Check the die marked ?; type the roll if it stays unreadable."
            return None
        snapshot = self.table.snapshot
        if snapshot.spec is None or snapshot.state is None:
            return None
        event = dice_event(snapshot.spec, snapshot.state, [int(v) for v in values if v])
        if event is None:
            return None
        needed = dice_needed(snapshot.spec, snapshot.state)
        if needed is not None and needed != len(values):
            # A stray die, or something the reader took for one: never a silent wrong roll.
            self.last_roll += (
                f" The roll takes {needed} dice but the camera sees {len(values)}:"
                " move other dice out of view, or type the roll."
            )
            return None
        if min(die.confidence for die in dice) >= self.auto_accept:
            return self.table.submit(event, source="camera")
        return self.table.observe(Observation(event, self.last_roll + " Press READ to accept."))

    def latest_frame(self) -> Frame | None:
        """The newest frame as the camera delivered it (for calibration)."""
        with self._lock:
            return None if self._view is None else self._view.frame

    def jpeg(self, width: int = 640) -> bytes | None:
        """The latest frame with each die outlined and labelled, as JPEG for the page."""
        with self._lock:
            view = self._view
        if view is None:
            return None
        frame: NDArray[Any] = view.frame.copy()
        for die in view.dice:
            x, y = int(die.centre[0]), int(die.centre[1])
            half = int(die.size / 2)
            sure = die.value is not None and die.confidence >= self.auto_accept
            colour = (80, 200, 80) if sure else (40, 160, 240)
            cv2.rectangle(frame, (x - half, y - half), (x + half, y + half), colour, 2)
            label = str(die.value) if die.value is not None else "?"
            cv2.putText(
                frame, label, (x - half, y - half - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.8, colour, 2
            )
        scale = width / frame.shape[1]
        if scale < 1:
            frame = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return bytes(encoded) if ok else None


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
