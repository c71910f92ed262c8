"""Camera frames → the upright ring's position, roll and fallen pieces → a ``wheel`` reading.

The watcher reads the newest frame (``companion.vision.wheel.read_wheel``: the table's
markers 10-13, the ring's footprint, the rim strip's markers) and keeps a
:class:`~companion.vision.wheel.WheelTracker`, so the roll adds up past a full turn and a
push (the band moves, the strip does not turn) adds nothing. It posts a
:class:`~companion.engine.readings.WheelSeen` through the table's worker queue
(``Table.observe``): roll in turns, distance rolled, drift from the table's centre and the
fallen pieces by colour. A game that takes wheel readings decides there what they mean
(Hamster Wheel: the lowest compartment, Higher Powers, the failed-try proposal); for any
other game the table shows the reading as the *Wheel* panel.

Fallen counts only change once the new count has held for ``stable_frames`` frames, so a
piece still tumbling is not counted twice, and never from a frame with a hand in it. A frame
whose ring was read but whose pieces could not be counted (a cloth that hides a piece
colour, a piece against the ring: ``WheelReading.pieces_reason``) still moves the roll; the
last count that held stays, and the published reading says why it is not fresh. A piece
seen earlier that the rolling ring now hides from the camera is still counted
(``companion.vision.fallen_memory``). The angle
changes every frame, so the state is republished at most every ``publish_every`` seconds
unless something a player must act on changed (a fall, the drift warning, a blocked view,
pieces no longer counted or counted again).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

from companion.engine import camera
from companion.engine.readings import WHEEL, Reading, WheelSeen
from companion.engine.spec import GameSpec
from companion.engine.state import State
from companion.table import Table
from companion.vision.behind_the_ring import hidden_beyond_cm
from companion.vision.fallen_memory import FallenMemory
from companion.vision.sampled_hands import Hands
from companion.vision.steady import Steady
from companion.vision.wheel import (
    CLOTH_CLOSE_TO_SKIN,
    HAND_OVER_TABLE,
    PIECE_HUES,
    SAMPLED_HAND_LIKE_CLOTH,
    SLEEVE_OVER_TABLE,
    WHEEL_PIECE_NAMES,
    WheelReading,
    WheelTracker,
    read_wheel,
)
from companion.vision.wheel_pieces import HueWindows
from companion.watch.frames import Frame, FrameWatcher, LatestFrameWorker

Counts = tuple[tuple[str, int], ...]
G = TypeVar("G")  # the game's own state (``State.G``)


def logged_roll(spec: GameSpec[G] | None, state: State[G] | None) -> float:
    """How far the game's log says the wheel has rolled, in turns (0 for a new game, or a
    game without a rolling wheel): a watcher that starts in the middle of a game, after a
    restart, continues from it instead of from zero."""
    return 0.0 if state is None else camera.logged_roll(spec, state.G)


class WheelWatcher(FrameWatcher):
    """Follows the wheel; feed it frames with :meth:`offer` (in tests :meth:`process` a frame,
    or :meth:`take` a reading already made)."""

    what = "wheel"

    def __init__(
        self,
        table: Table,
        *,
        stable_frames: int = 5,
        publish_every: float = 0.5,
        drift_warning: float = 3.0,
        clock: Callable[[], float] = time.monotonic,
        camera_height_cm: float | None = None,
        piece_hues: Callable[[], HueWindows] | None = None,
        hands: Callable[[], Hands] | None = None,
    ) -> None:
        self.table = table
        self.camera_height_cm = camera_height_cm  # None: the ring is read as flat
        # how much table the ring hides from this camera, said with every count it makes
        self.hidden_beyond_cm = hidden_beyond_cm(camera_height_cm)
        # this table's piece colours, asked for each frame (re-sampled from the tablet
        # mid-evening); None: a typical set's
        self.piece_hues = piece_hues
        # the players' hands sampled at this table, asked for each frame too; None: none
        self.hands = hands
        self.tracker = WheelTracker(drift_warning=drift_warning)
        self.memory = FallenMemory()  # pieces the rolling ring hides, seen earlier
        self.steady_fallen: Steady[Counts] = Steady(stable_frames)
        self.fallen = dict.fromkeys(WHEEL_PIECE_NAMES, 0)
        self.worker = LatestFrameWorker(self.process, "wheel-watcher")
        self.publish_every = publish_every
        self._clock = clock
        self._game_id: int | None = None
        self._turn: tuple[int | None, int, int, int | None] | None = None
        self._hand = False  # a hand was over the table during the current turn
        # why the last frame whose ring was read had its fallen pieces uncounted ("": counted)
        self._pieces_reason = ""
        # of the count that held, how many pieces the ring hides now (seen there earlier)
        self._behind_ring = 0
        self._published: WheelSeen | None = None
        self._published_at = float("-inf")
        self._status = "wheel: waiting for the first frame"

    def process(self, frame: Frame) -> Future[bool] | None:
        """Read one frame; returns the table's future when a new reading was sent to it."""
        hues = self.piece_hues() if self.piece_hues else PIECE_HUES
        hands = self.hands() if self.hands else ()
        height = self.camera_height_cm
        return self.take(read_wheel(frame, camera_height_cm=height, piece_hues=hues, hands=hands))

    def take(self, reading: WheelReading) -> Future[bool] | None:
        """Follow one frame's reading (what :meth:`process` read from the picture)."""
        self._follow_game()
        reading = self.memory.update(reading)
        if reading.blocked and reading.reason in (HAND_OVER_TABLE, SLEEVE_OVER_TABLE):
            self._hand = True
        self.tracker.update(reading)
        if not reading.blocked:
            self._count_fallen(reading)
        wheel = self._status_of(reading)
        self._status = self._status_line(wheel, reading)
        return self._publish(wheel)

    def _follow_game(self) -> None:
        """A new game restarts the roll; a new turn forgets the hand seen in the last."""
        snap = self.table.snapshot
        game_id = snap.game_id
        if game_id != self._game_id:
            # The roll counts from the start of each game, as a wheel game would score it;
            # a game resumed (the companion restarted mid-game) continues from its log.
            self._game_id = game_id
            self.memory.forget()
            self._behind_ring = 0
            self.tracker = WheelTracker(
                drift_warning=self.tracker.drift_warning,
                total_roll_deg=360.0 * logged_roll(snap.spec, snap.state),
            )
        # Whether a hand has been over the table during this turn: pieces that fall then
        # fell in someone's try, not by themselves (the game's rule tells them apart).
        ctx = None if snap.state is None else snap.state.ctx
        turn = None if ctx is None else (game_id, ctx.round, ctx.turn, ctx.current)
        if turn != self._turn:
            self._turn, self._hand = turn, False

    def _count_fallen(self, reading: WheelReading) -> None:
        """A frame whose ring was read says whether its fallen pieces could be counted: when
        they could not, the last count that held stays (an empty count there is not "none
        fell"), and the frame neither starts nor breaks a steady streak, as a hand does not."""
        self._pieces_reason = reading.pieces_reason
        if reading.pieces_reason:
            return
        counts = self.steady_fallen.update(tuple(sorted(reading.fallen.items())))
        if counts is not None:
            self.fallen = dict(counts)
            self._behind_ring = reading.held_behind_ring

    @staticmethod
    def _status_line(wheel: WheelSeen, reading: WheelReading) -> str:
        if not wheel.seen:
            return f"wheel: not seen yet ({reading.reason})"
        turns = f"wheel: {wheel.roll_turns:+.2f} turns"
        if wheel.pieces_reason:
            return f"{turns}, fallen pieces not counted ({wheel.pieces_reason})"
        return f"{turns}, {wheel.fallen_total} fallen"

    def _status_of(self, reading: WheelReading) -> WheelSeen:
        tracker = self.tracker
        last = tracker.last
        return WheelSeen(
            seen=last is not None,
            blocked=reading.blocked,
            reason=reading.reason,
            angle_deg=last.angle_deg if last is not None else 0.0,
            roll_turns=tracker.total_roll_deg / 360.0,
            rolled_distance=tracker.rolled_distance,
            centre=last.centre if last is not None else (0.0, 0.0),
            drift=tracker.drift,
            drifted_far=tracker.drifted_far,
            fallen=dict(self.fallen),
            touched=self._hand,
            pieces_reason=self._pieces_reason,
            extra={} if last is None else {"heading_deg": round(last.heading_deg, 1)},
            roll_uncertainty_deg=tracker.roll_uncertainty_deg,
            cloth_warning=_cloth_warning(last),
            behind_ring=self._behind_ring,
            hidden_beyond_cm=self.hidden_beyond_cm,
        )

    def _publish(self, wheel: WheelSeen) -> Future[bool] | None:
        now = self._clock()
        before = self._published
        urgent = before is None or (
            (before.blocked, before.drifted_far, before.fallen, before.seen, before.pieces_reason)
            != (wheel.blocked, wheel.drifted_far, wheel.fallen, wheel.seen, wheel.pieces_reason)
        )
        if not urgent and (wheel == before or now - self._published_at < self.publish_every):
            return None
        self._published, self._published_at = wheel, now
        # Stamped with its game (not its move: the roll holds whatever was logged since),
        # so a reading taken just before NEW GAME is not judged against the new game.
        return self.table.observe(Reading(WHEEL, wheel, game_id=self._game_id))


def _cloth_warning(last: WheelReading | None) -> str:
    """Why a hand over this cloth may go unseen ("" when none would)."""
    if last is None:
        return ""
    if last.cloth_close_to_skin:
        return CLOTH_CLOSE_TO_SKIN
    return SAMPLED_HAND_LIKE_CLOTH if last.hand_close_to_cloth else ""
