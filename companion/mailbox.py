"""A one-frame mailbox: run a slow reader on the newest frame only, on its own thread.

One camera feeds several readers (dice, belt, wheel) that each take 10-40 ms a frame on a
Pi. Chained on the camera's delivery thread they would slow the dice down; queued, they
would fall ever further behind and judge the board from a picture of seconds ago. So each
reader gets a one-frame mailbox: :meth:`LatestFrameWorker.offer` never blocks and never
queues, a frame still waiting when a newer one arrives is dropped (and counted), and the
worker thread always reads the newest frame there is. The camera devices use the same
mailbox to hand frames on (``hardware.camera``), which is why it lives outside the
watchers: a device imports no watcher.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

log = logging.getLogger(__name__)

Frame = NDArray[np.uint8]

# How a camera's status line starts while pictures arrive (the supervisor in
# hardware/camera.py writes it; the page's camera panel goes by the same words). Any other
# line (offline, hung, stopped, starting) means the last picture kept is old.
CAMERA_LIVE = "camera live"


@dataclass
class WorkerStats:
    """How many frames were offered, read, dropped unread, and failed (for the status line)."""

    offered: int = 0
    handled: int = 0
    dropped: int = 0
    errors: int = 0
    failing: int = 0  # frames in a row that failed (0 once one is read)
    last_error: str = ""


class LatestFrameWorker:
    """Calls ``handle(frame)`` on a thread of its own, always with the newest frame offered."""

    def __init__(self, handle: Callable[[Frame], object], name: str) -> None:
        self._handle = handle
        self.name = name
        self.stats = WorkerStats()
        self._ready = threading.Condition()
        self._waiting: Frame | None = None
        self._stopping = False
        self._thread: threading.Thread | None = None

    def offer(self, frame: Frame) -> None:
        """Hand over a frame; replaces (drops) one that is still waiting. Never blocks long."""
        with self._ready:
            self.stats.offered += 1
            if self._waiting is not None:
                self.stats.dropped += 1
            self._waiting = frame
            self._ready.notify_all()

    def start(self) -> None:
        with self._ready:
            if self._thread is not None:
                return
            self._stopping = False
            self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop after the frame being read (if any); a waiting frame is left unread."""
        with self._ready:
            thread, self._thread = self._thread, None
            self._stopping = True
            self._ready.notify_all()
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():
                log.warning("%s did not stop within %.1f s", self.name, timeout)

    def _run(self) -> None:
        while True:
            with self._ready:
                self._ready.wait_for(lambda: self._waiting is not None or self._stopping)
                if self._stopping:
                    return
                frame, self._waiting = self._waiting, None
            assert frame is not None
            try:
                self._handle(frame)
            except Exception as error:
                # A vision bug must not stop the watcher: log it, read the next frame. A
                # streak is logged at its start and every 100 frames, not 15 times a second.
                with self._ready:
                    self.stats.errors += 1
                    self.stats.failing += 1
                    self.stats.last_error = f"{type(error).__name__}: {error}"[:160]
                    streak = self.stats.failing
                if streak == 1 or streak % 100 == 0:
                    log.exception("%s failed on a frame (%d in a row)", self.name, streak)
            else:
                with self._ready:
                    self.stats.failing = 0
            with self._ready:
                self.stats.handled += 1
                self._ready.notify_all()

    def wait_handled(self, count: int, timeout: float | None = None) -> bool:
        """Block until ``count`` frames have been read in all; False on timeout."""
        with self._ready:
            return self._ready.wait_for(lambda: self.stats.handled >= count, timeout)
