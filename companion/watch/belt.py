"""Camera frames → belt reading → a steady ``belt`` reading for the table.

While the game on the table takes belt readings (its spec lists a ``belt`` rule, as Run,
Hamster, Run! does), the watcher reads the belt from the newest frame (stale frames are
dropped, never queued: see :mod:`companion.watch.frames`) with the saved calibration,
waits until the same reading has held for ``stable_frames`` frames, and posts it stamped
with the game state it saw. The game's rule compares it with the game on the table's
worker, and the tablet lists the differences; a reading stamped with an older state is
dropped there. Nothing here knows a particular game.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future

from companion.engine.readings import BELT, BeltSeen, Reading
from companion.errors import CompanionError
from companion.table import Table
from companion.vision.board import BoardReading, read_board
from companion.vision.sampled_hands import Hands
from companion.vision.steady import Steady
from companion.watch.calibrated import CameraCalibration
from companion.watch.frames import Frame, FrameWatcher, LatestFrameWorker


def belt_seen(reading: BoardReading, colours: frozenset[str]) -> BeltSeen:
    """The vision's belt reading as the plain data the table and games take."""
    return BeltSeen(
        pieces=dict(reading.hamsters),
        in_pit=reading.in_pit,
        marker_row=reading.asterisk_row,
        blocked=reading.reason or "view blocked" if reading.blocked else "",
        colours=colours,
    )


class BeltWatcher(FrameWatcher):
    """Reads the belt for the game's belt check; feed it frames with :meth:`offer`."""

    what = "board check"

    def __init__(
        self,
        table: Table,
        calibration: CameraCalibration,
        *,
        stable_frames: int = 5,
        hands: Callable[[], Hands] | None = None,
    ) -> None:
        self.table = table
        self.calibration = calibration
        # the players' hands sampled at this table, asked for each frame; None: none
        self.hands = hands
        self.steady: Steady[BoardReading] = Steady(stable_frames)
        self.worker = LatestFrameWorker(self.process, "belt-watcher")
        self._posted: tuple[BeltSeen | None, tuple[int | None, int]] | None = None
        self._status = "board check: waiting for the first frame"

    def wanted(self) -> bool:
        """Whether the game on the table takes belt readings at all."""
        spec = self.table.snapshot.spec
        return spec is not None and BELT in spec.readings

    def process(self, frame: Frame) -> Future[bool] | None:
        """Read one frame; returns the table's future when a new reading was posted."""
        stamp = self.table.current_stamp()
        if not self.wanted():
            self.steady.reset()
            self._status = "board check: waiting for a game played on a belt"
            return self._post(None, stamp)
        height, width = frame.shape[:2]
        try:
            calibration = self.calibration.get((width, height))
        except CompanionError as error:
            self.steady.reset()
            self._status = f"board check off: {error}"
            return self._post(None, stamp)
        profiles = calibration.colour_profiles
        cloth = calibration.cloth.chroma if getattr(calibration, "cloth", None) else None
        located = self.calibration.locate(frame)
        hands = self.hands() if self.hands else ()
        reading = self.steady.update(read_board(frame, located, profiles, cloth, hands))
        if reading is None:
            return None
        seen = belt_seen(reading, frozenset(profiles))
        self._status = "board check: reading the belt"
        return self._post(seen, stamp)

    @property
    def status(self) -> str:
        """One line for the device list: what the game made of the latest reading."""
        if failing := self.failing_line():
            return failing
        note = self.table.snapshot.notes.get(BELT)
        if note is None or not self._posted or self._posted[0] is None:
            return self._status
        if note.status == "agree":
            return "board check: the camera agrees with the board"
        if note.status == "differ":
            count = len(note.lines)
            return f"board check: {count} difference{'s' if count != 1 else ''}"
        return f"board check: {note.lines[0] if note.lines else note.status}"

    def _post(self, seen: BeltSeen | None, stamp: tuple[int | None, int]) -> Future[bool] | None:
        """Post a reading unless the same one was already posted for the same state."""
        if self._posted == (seen, stamp):
            return None
        if seen is None and (self._posted is None or self._posted[0] is None):
            return None  # nothing posted to withdraw
        self._posted = (seen, stamp)
        game_id, seq = stamp
        return self.table.observe(Reading(BELT, seen, game_id=game_id, seq=seq))
