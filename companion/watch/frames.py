"""What every camera watcher shares: the newest frame only, and a status line.

Each watcher reads frames through a one-frame mailbox (:mod:`companion.mailbox`): a frame
still waiting when a newer one arrives is dropped, never queued, so a watcher never judges
the table from a picture of seconds ago.
"""

from __future__ import annotations

from companion.mailbox import CAMERA_LIVE, Frame, LatestFrameWorker, WorkerStats

__all__ = ["CAMERA_LIVE", "Frame", "FrameWatcher", "LatestFrameWorker", "WorkerStats"]

# Frames in a row that failed before the status line says so: one odd frame is not news,
# a reader failing on every picture looks frozen on the page unless it is said.
FAILING_AFTER = 3


class FrameWatcher:
    """What every camera-fed reader shares: a :class:`LatestFrameWorker` and a status line.

    Subclasses set ``self.worker`` (calling their own ``process``) and ``self._status``.
    """

    worker: LatestFrameWorker
    _status: str
    what = "camera reader"  # how the status line names this reader ("dice", "wheel")

    def offer(self, frame: Frame) -> None:
        """For the camera's delivery thread: never blocks, never queues."""
        self.worker.offer(frame)

    def start(self) -> None:
        self.worker.start()

    def stop(self) -> None:
        self.worker.stop()

    @property
    def status(self) -> str:
        """One line for the page's device list."""
        return self.failing_line() or self._status

    def failing_line(self) -> str | None:
        """The status line while this reader fails on every picture, else None."""
        stats = self.worker.stats
        if stats.failing < FAILING_AFTER:
            return None
        return (
            f"{self.what}: fails on every picture ({stats.last_error}); the companion's "
            "log has the details"
        )
