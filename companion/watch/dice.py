"""Camera frames → dice reader → a steady roll → a reading for the table.

Reads the newest frame on its own thread (stale ones are dropped, never queued). A roll
counts only once the stabiliser has seen it hold for N frames, so tumbling dice are never
reported. The settled roll goes to the table as a ``dice`` reading with each die's face and
confidence; what it means (apply it, ask for READ, or say the count is wrong) is decided by
the current game's rule on the table's worker, never here.

Given a place to keep examples, it also remembers the close-up of each die of the roll it
last proposed; when a person confirms that roll or types the right one, the crops and the
confirmed values go to the data folder on a background thread (``companion dice teach``
learns this table's dice from them; companion/vision/teach.py). A Rats pool of other sizes
is kept the same way, each die with its kind (companion/vision/teach_pools.py).

It also keeps the latest frame and what was read in it, for the page's camera panel and
for calibration (:meth:`jpeg`, :meth:`latest_frame`).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.engine.readings import DICE, DiceSeen, Reading
from companion.observations import describe_dice
from companion.table import Table
from companion.vision.dice import AUTO_ACCEPT, Die, face_crop, read_dice
from companion.vision.hand_in_view import hand_in_view
from companion.vision.stabiliser import DiceStabiliser
from companion.vision.teach import NOT_A_DIE, BackgroundSaver, ExampleStore, align
from companion.vision.teach_pools import POOL_EXAMPLES_DIR, PoolExampleStore, cut, pool_labels
from companion.watch.frames import CAMERA_LIVE, Frame, FrameWatcher, LatestFrameWorker
from companion.watch.pool import POOL_ACCEPT, is_pool, read_pool_dice, wanted


@dataclass(frozen=True)
class Proposal:
    """A roll proposed to the table: its frame, what was read and each die's close-up."""

    frame: Frame
    dice: tuple[Die, ...]
    crops: list[NDArray[Any]]
    sizes: tuple[int, ...] = ()  # a Rats pool's kinds, die by die (empty: all d6s)


@dataclass(frozen=True)
class FixedDie:
    """A die as a person confirmed it on the picture: centre (frame pixels), face, and its
    size when the reader had found it (None for a die they added: the roll's typical)."""

    x: float
    y: float
    value: int
    size: float | None = None


def box_of(die: Die) -> tuple[float, float, float, float]:
    """A read die's box (x, y, w, h) in its frame's pixels."""
    return (die.centre[0] - die.size / 2, die.centre[1] - die.size / 2, die.size, die.size)


@dataclass(frozen=True)
class DiceView:
    """The latest frame and what was read in it, for the page's camera panel."""

    frame: Frame
    dice: tuple[Die, ...]


class DiceWatcher(FrameWatcher):
    """Reads dice in the newest frame; feed it frames with :meth:`offer`.

    ``demo`` marks a simulated camera's dice: they are posted as demo readings, which no
    game applies without a person accepting them.
    """

    what = "dice"

    def __init__(
        self,
        table: Table,
        *,
        stable_frames: int = 5,
        auto_accept: float = AUTO_ACCEPT,
        demo: bool = False,
        camera_status: Any = None,
        examples: ExampleStore | None = None,
    ) -> None:
        self.table = table
        self.auto_accept = auto_accept
        self.demo = demo
        self.stabiliser = DiceStabiliser(stable_frames)
        self.last_roll = ""
        self._camera_status = camera_status  # e.g. the supervisor's status, for the line
        self._view: DiceView | None = None
        self._lock = threading.Lock()
        self.worker = LatestFrameWorker(self.process, "dice-watcher")
        self._status = "dice: waiting for the first frame"
        self._hand = False  # whether the newest frame had a hand in it (reading held)
        # The last proposed roll: its frame, dice and each die's close-up.
        self._proposal: Proposal | None = None
        self.saver = None if examples is None or demo else BackgroundSaver(examples)
        # The last proposed Rats pool and where its confirmed dice go (apart from the d6s').
        self._pool_proposal: Proposal | None = None
        self.pool_saver = None
        if examples is not None and self.saver is not None:
            pools = PoolExampleStore(examples.folder.parent / POOL_EXAMPLES_DIR)
            self.pool_saver = BackgroundSaver(pools)
        if self.saver is not None:
            table.listeners.on_confirmed_roll(self.confirmed)

    @property
    def status(self) -> str:
        if failing := self.failing_line():
            return failing
        camera = self._camera_status() if callable(self._camera_status) else self._status
        roll = f"; last roll: {self.last_roll}" if self.last_roll else ""
        hand = "; a hand is in the picture: reading when it has gone" if self._hand else ""
        return f"{camera}{hand}{roll}"

    def process(self, frame: Frame) -> Future[bool] | None:
        """Read one frame; returns the table's future when a settled roll was posted.

        While a hand is in the picture nothing is read (a roll still being made, dice being
        picked up, a die held in the fingers) and the frame is skipped, not counted: once
        the hand has gone, dice that moved must hold still afresh, while a roll already
        proposed and left lying is not proposed again.
        """
        self._hand = frame.ndim == 3 and hand_in_view(frame)  # read_dice names bad frames
        if self._hand:
            with self._lock:
                self._view = DiceView(frame, ())
            return None
        pool = wanted(self.table)
        if is_pool(pool):
            return self.process_pool(frame, pool)
        dice = read_dice(frame)
        with self._lock:
            self._view = DiceView(frame, tuple(dice))
        if self.stabiliser.update(dice) is None:
            return None
        if self.saver is not None:
            crops = [face_crop(frame, die.centre, die.size) for die in dice]
            with self._lock:
                self._proposal = Proposal(frame, tuple(dice), crops)
        return self.propose(dice)

    def process_pool(self, frame: Frame, pool: tuple[int, ...]) -> Future[bool] | None:
        """A Rats pool of other sizes than d6 (companion/watch/pool.py): each die's kind and
        face, posted once steady; each die's cut is kept for teaching once confirmed."""
        dice, sizes, read = read_pool_dice(frame, pool)
        with self._lock:
            self._view = DiceView(frame, tuple(dice))
        if self.stabiliser.update(dice) is None:
            return None
        if self.pool_saver is not None:
            cuts = [cut(frame, die.centre, die.radius) for die in read]
            with self._lock:
                self._pool_proposal = Proposal(frame, tuple(dice), cuts, sizes)
        self.last_roll = ", ".join(f"d{s} {d.value}" for s, d in zip(sizes, dice, strict=True))
        seen = DiceSeen(
            values=tuple(die.value for die in dice),
            confidences=tuple(die.confidence for die in dice),
            auto_accept=POOL_ACCEPT,
            demo=self.demo,
            sizes=sizes,
        )
        return self.table.observe(Reading(DICE, seen, source="camera"))

    def confirmed(
        self, values: tuple[int, ...], proposed: tuple[int, ...], sizes: tuple[int, ...] = ()
    ) -> None:
        """A person vouched for a roll (on the table's worker): keep its dice, off-thread.

        Only when the proposal the table had is the one this watcher made, and each typed
        value can be told to belong to one die (:func:`align`); each proposal is used once.
        A Rats pool's dice (``sizes``: the confirmed dice's kinds, when named) go to the pool
        examples (:func:`pool_labels`).
        """
        with self._lock:
            proposal, self._proposal = self._proposal, None
            pooled, self._pool_proposal = self._pool_proposal, None
        if pooled is not None and self.pool_saver is not None:
            faces = tuple(int(die.value or 0) for die in pooled.dice)
            labels = pool_labels(pooled.sizes, faces, values, sizes) if faces == proposed else None
            if labels is not None:
                self.pool_saver.submit(pooled.crops, labels)
                return
        if proposal is None or self.saver is None:
            return
        read = tuple(die.value for die in proposal.dice)
        if read != proposed:
            return
        matched = align(read, values)
        if matched is not None:
            boxes = [box_of(die) for die in proposal.dice]
            self.saver.submit(proposal.crops, matched, boxes, proposal.frame)

    def proposal(self) -> Proposal | None:
        """The roll last proposed, for a person to fix on its own picture."""
        with self._lock:
            return self._proposal

    def correct(self, fixed: Sequence[FixedDie], removed: Sequence[tuple[float, float]]) -> bool:
        """Keep the last proposed roll as a person fixed it on its picture: every die they
        left, changed or added, with its face and box, and each find they removed as "not a
        die", whatever count the reader had (unlike :func:`align`, which must guess which
        typed value is which die, a tap says it). False when there was no proposal to fix.
        """
        with self._lock:
            proposal, self._proposal = self._proposal, None
        if proposal is None or self.saver is None or not fixed:
            return False
        typical = float(np.median([die.size for die in proposal.dice])) if proposal.dice else 0.0
        crops, values, boxes = [], [], []
        for die in fixed:
            size = die.size or typical or min(proposal.frame.shape[:2]) / 10
            crops.append(face_crop(proposal.frame, (die.x, die.y), size))
            values.append(die.value)
            boxes.append((die.x - size / 2, die.y - size / 2, size, size))
        for x, y in removed:
            phantom = min(proposal.dice, key=lambda d: math.dist(d.centre, (x, y)), default=None)
            size = phantom.size if phantom is not None else typical
            crops.append(face_crop(proposal.frame, (x, y), size))
            values.append(NOT_A_DIE)
            boxes.append((x - size / 2, y - size / 2, size, size))
        return self.saver.submit(crops, values, boxes, proposal.frame)

    def propose(self, dice: list[Die]) -> Future[bool]:
        """Post a settled roll to the table; its game decides what the roll means."""
        self.last_roll = describe_dice([die.value for die in dice])
        seen = DiceSeen(
            values=tuple(die.value for die in dice),
            confidences=tuple(die.confidence for die in dice),
            auto_accept=self.auto_accept,
            demo=self.demo,
        )
        return self.table.observe(Reading(DICE, seen, source="camera"))

    def offline(self) -> str | None:
        """The camera's status line while it sends no pictures (offline, hung, stopped or
        still starting), else None. A watcher with no camera status (frames offered by hand,
        as in tests) is never offline."""
        if not callable(self._camera_status):
            return None
        line = str(self._camera_status())
        return None if line.startswith(CAMERA_LIVE) else line

    def latest_frame(self) -> Frame | None:
        """The newest frame as the camera delivered it (for calibration); None while the
        camera is offline, so a calibration is never taken from an old picture."""
        if self.offline() is not None:
            return None
        with self._lock:
            return None if self._view is None else self._view.frame

    def jpeg(self, width: int = 640) -> bytes | None:
        """The latest frame with each die outlined and labelled, as JPEG for the page; None
        while the camera is offline (an old picture must not look live)."""
        if self.offline() is not None:
            return None
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
