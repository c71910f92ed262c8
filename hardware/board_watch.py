"""Camera frames → belt reading → comparison with the game → a read-only note on the tablet.

While a Run, Hamster, Run! game is on the table, the watcher reads the belt from the newest
frame (stale frames are dropped, never queued: see ``hardware.frame_worker``) with the
saved calibration, waits until the same reading has held for ``stable_frames`` frames, and
compares it with where the game has each hamster and the asterisk strip. The result goes to
the table through its worker queue (``Table.observe_board``), and the tablet lists the
differences. It never changes the game: the camera proposes, people dispose, and for pieces
people do it by moving the piece back or entering the move the camera saw.
"""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path

from calibration.geometry import CalibrationError, locate_board
from calibration.watched import WatchedCalibration
from companion.camera_notes import BoardCheck
from companion.games.run_hamster_run import spec as run_hamster_run_spec
from companion.table import Table
from companion.vision.board import BoardReading, read_board
from companion.vision.board_check import compare_board
from companion.vision.steady import Steady
from hardware.frame_worker import Frame, FrameWatcher, LatestFrameWorker

RUN_HAMSTER_RUN = run_hamster_run_spec.NAME


class BoardWatcher(FrameWatcher):
    """Compares the belt the camera sees with the game; feed it frames with :meth:`offer`."""

    def __init__(self, table: Table, calibration_path: Path, *, stable_frames: int = 5) -> None:
        self.table = table
        self.calibration = WatchedCalibration(calibration_path)
        self.steady: Steady[BoardReading] = Steady(stable_frames)
        self.worker = LatestFrameWorker(self.process, "board-watcher")
        self._published: BoardCheck | None = None
        self._status = "board check: waiting for the first frame"

    def process(self, frame: Frame) -> Future[bool] | None:
        """Read one frame; returns the table's future when a new note was sent to it."""
        state = self.table.public_state(with_log=False)
        if state.get("game") != RUN_HAMSTER_RUN:
            self.steady.reset()
            self._status = "board check: waiting for a Run, Hamster, Run! game"
            return self._publish(None)
        height, width = frame.shape[:2]
        try:
            calibration = self.calibration.get((width, height))
        except CalibrationError as error:
            self.steady.reset()
            self._status = f"board check off: {error}"
            return self._publish(None)
        profiles = calibration.colour_profiles
        reading = self.steady.update(read_board(frame, locate_board(frame), profiles))
        if reading is None:
            return None
        check = compare_board(
            reading, state["view"], profiles, game_id=state["game_id"], seq=state["seq"]
        )
        count = len(check.differences)
        self._status = {
            "agree": "board check: the camera agrees with the board",
            "blocked": f"board check: {check.notes[0]}",
            "differ": f"board check: {count} difference{'s' if count != 1 else ''}",
        }[check.status]
        return self._publish(check)

    def _publish(self, check: BoardCheck | None) -> Future[bool] | None:
        if check == self._published:
            return None
        self._published = check
        return self.table.observe_board(check)
