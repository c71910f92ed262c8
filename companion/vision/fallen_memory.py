"""Remember where fallen pieces lie, so a piece the rolling ring comes to hide is still
counted.

The ring stands a diameter tall. From a camera off to one side its top covers a strip of
table beyond its footprint, and as it rolls that strip moves over pieces that fell
earlier. One frame cannot count such a piece: the reader sees nothing there (rendered
rooms: most of the counts that fell short were short by a piece the ring had rolled in
front of). The table, though, does not change where nobody touches it. So a piece seen
earlier, now missing where the ring hides the table, is still there; a piece missing
where the table is in view was taken away; a piece the footprint has reached was pushed
along by the ring and is counted again where it comes to rest.

What a memory cannot know is said, not guessed: after a hand has been over the table, a
remembered piece still hidden may have been picked up, so the count waits (with that
reason) until the ring uncovers its place. A piece that fell straight into the hidden
strip was never seen and stays uncounted: no single camera above the table sees it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.tabletop import WHEEL_DEPTH
from companion.vision.wheel import HAND_OVER_TABLE, SLEEVE_OVER_TABLE, WheelReading
from companion.vision.wheel_pieces import FallenPiece

# A piece seen again within this distance (table units; a piece is 0.5 across and lies
# still) of where it was remembered is the same piece.
SAME_PLACE = 0.5
# A remembered piece whose middle lies within this of the ring's outline as the camera
# sees it (table units: the margin the count leaves round the ring, 0.2, and half a piece)
# cannot be seen whole, so its absence says nothing.
HIDDEN_REACH = 0.45
# Within this of the ring's footprint (table units) a piece is in the rolling ring's way:
# pushed along, it comes to rest somewhere new and is counted there.
PUSHED_REACH = 0.6
# A piece counted in one frame only is not remembered: it may be a piece still tumbling,
# or something passing.
SEEN_TO_REMEMBER = 2

TOUCHED_BEHIND_RING = (
    "a piece seen earlier lies where the ring hides the table, and a hand has been over "
    "the table since: it is counted again when the ring rolls on, or enter what fell on "
    "the tablet"
)


@dataclass(frozen=True)
class Remembered:
    """A piece seen on the table: its set, where, in how many readings, and whether a hand
    has been over the table since it was last seen."""

    colour: str
    x: float
    y: float
    seen: int = 1
    touched: bool = False


class FallenMemory:
    """Feed every reading in order (:meth:`update`); it returns the reading with the
    pieces the ring hides now, seen earlier, counted in."""

    def __init__(self) -> None:
        self.pieces: list[Remembered] = []

    def forget(self) -> None:
        """Start again (a new game)."""
        self.pieces = []

    def update(self, reading: WheelReading) -> WheelReading:
        """The reading with remembered pieces hidden behind the ring added to its count
        (``held_behind_ring`` says how many), or with the reason it cannot be trusted.
        A blocked reading or one whose pieces were not counted leaves the memory as it
        was, except that a hand over the table marks every remembered piece touched."""
        if reading.blocked:
            if reading.reason in (HAND_OVER_TABLE, SLEEVE_OVER_TABLE):
                self.pieces = [replace(p, touched=True) for p in self.pieces]
            return reading
        if reading.pieces_reason or not reading.ring_outline:
            return reading
        outline = np.array(reading.ring_outline, np.float32).reshape(-1, 1, 2)
        ring = np.asarray(cv2.convexHull(outline), np.float32)
        held = [p for p in self.pieces if not _seen_again(p, reading.fallen_at)]
        held = [p for p in held if p.seen >= SEEN_TO_REMEMBER and _hidden(p, ring, reading)]
        self.pieces = [*_followed(self.pieces, reading.fallen_at), *held]
        if any(p.touched for p in held):
            return replace(reading, fallen={}, fallen_at=(), pieces_reason=TOUCHED_BEHIND_RING)
        if not held:
            return reading
        fallen = dict(reading.fallen)
        for piece in held:
            fallen[piece.colour] = fallen.get(piece.colour, 0) + 1
        return replace(reading, fallen=fallen, held_behind_ring=len(held))


def _seen_again(piece: Remembered, seen: tuple[FallenPiece, ...]) -> bool:
    return any(_same(piece, other) for other in seen)


def _same(piece: Remembered, other: FallenPiece) -> bool:
    near = math.hypot(piece.x - other.x, piece.y - other.y) <= SAME_PLACE
    return other.colour == piece.colour and near


def _followed(before: list[Remembered], seen: tuple[FallenPiece, ...]) -> list[Remembered]:
    """The pieces seen in this reading, each with how often it has been seen (one more
    than the remembered piece it matches, each remembered piece matched at most once)."""
    left = list(before)
    now = []
    for piece in seen:
        match = next((p for p in left if _same(p, piece)), None)
        if match is not None:
            left.remove(match)
        count = 1 if match is None else match.seen + 1
        now.append(Remembered(piece.colour, piece.x, piece.y, count))
    return now


def _hidden(piece: Remembered, ring: NDArray[np.float32], reading: WheelReading) -> bool:
    """Whether the ring as the camera sees it (``ring``, its outline's hull in table units)
    covers the piece's place (so not seeing it says nothing) while its footprint has not
    reached it (it would have been pushed)."""
    inside = cv2.pointPolygonTest(ring, (piece.x, piece.y), True) >= -HIDDEN_REACH
    return inside and not _in_the_way(piece, reading)


def _in_the_way(piece: Remembered, reading: WheelReading) -> bool:
    """Whether the piece lies on or against the ring's footprint (a rectangle, the ring's
    diameter along its heading by its depth across)."""
    h = math.radians(reading.heading_deg)
    dx, dy = piece.x - reading.centre[0], piece.y - reading.centre[1]
    along = abs(dx * math.cos(h) + dy * math.sin(h))
    across = abs(-dx * math.sin(h) + dy * math.cos(h))
    depth = WHEEL_DEPTH / 2.0
    return along < reading.radius + PUSHED_REACH and across < depth + PUSHED_REACH
