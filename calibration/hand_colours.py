"""The players' skin as this table's camera sees it, sampled one hand at a time.

The wheel reader holds its reading while a hand reaches over the table: the pieces a hand
moves are no fall, and Hamster Wheel tells a failed try from Higher Powers by it; the belt
reader holds its own while a hand is over the belt. They find a hand by a skin window
drawn round typical skin, which misses very pale skin everywhere and deep skin in a dim
room (``bench/wheel_hands.py``). So each player may hold a hand over the wheel's table (or
over the belt, at a Run, Hamster, Run! table) once and take a picture; the hand's colour,
the lamp divided out, is kept (``hand-colours.json`` in the data folder) and both readers
take skin of that colour for a hand from then on, however dark.

Samples add up, one per player: a new sample that close to one already kept is the same
player again and replaces it, and past ``MAX_HANDS`` the oldest is dropped. Forgetting
them all (``companion calibrate hand --forget``) returns the reader to the skin window
alone.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from calibration.geometry import CalibrationError, Image, locate_board
from calibration.watched import WatchedFile, read_json, write_atomically
from companion.vision.belt_hands import hand_over_belt
from companion.vision.sampled_hands import NEAR_A_HAND, Hand, Hands, close_to_cloth
from companion.vision.wheel import TABLE_MARKERS_HIDDEN, HandSeen, hand_sampled

HAND_COLOURS_FILE = "hand-colours.json"
HAND_COLOURS_VERSION = 1
MAX_HANDS = 8  # more than a table seats; past it the oldest sample goes
# A new sample this close (chromaticity) to one kept is the same skin: it replaces it
# rather than adding a second. Half the reader's reach: the same hand measured 0.2-2.3
# from its sample in other poses, so sampling a player again may also add a second entry
# (harmless: both are that player's skin).
SAME_HAND = NEAR_A_HAND / 2
# One sample at a time: the tablet and the command line both read, add and write.
_SAMPLING = threading.Lock()


@dataclass(frozen=True)
class SampledHand:
    """One player's skin colour ((r, g) shares of R + G + B times 100, the lamp divided
    out) and when it was sampled."""

    colour: Hand
    created: str = ""


@dataclass(frozen=True)
class HandColours:
    """The hands sampled at this table, oldest first."""

    hands: tuple[SampledHand, ...] = ()

    @property
    def colours(self) -> Hands:
        """What the reader takes: each hand's colour."""
        return tuple(hand.colour for hand in self.hands)

    @property
    def described(self) -> str:
        """For the player: "2 hands sampled (red share 36.1, 44.0)"."""
        if not self.hands:
            return "no hands sampled"
        shares = ", ".join(f"{hand.colour[0]:.1f}" for hand in self.hands)
        count = len(self.hands)
        return f"{count} hand{'s' if count > 1 else ''} sampled (red share {shares})"

    def with_hand(self, hand: SampledHand) -> HandColours:
        """These hands with ``hand`` added: in place of any kept one of the same colour,
        and the oldest dropped when there would be more than ``MAX_HANDS``."""
        kept = [old for old in self.hands if math.dist(old.colour, hand.colour) > SAME_HAND]
        return HandColours(tuple([*kept, hand][-MAX_HANDS:]))


class HandSample(NamedTuple):
    """A hand just sampled, and what the player should know about it ("" when nothing)."""

    hand: SampledHand
    warning: str = ""


BROKEN_REPLACED = (
    "the hand colour file could not be read, so it was started afresh with this hand: "
    "sample the other players' hands again"
)
CLOSE_TO_CLOTH = (
    "this hand is close to the table cloth's colour, so over this cloth it may still go "
    "unseen: a mat or a cloth of another colour under the wheel is safer"
)


NO_TABLE = (
    "neither the wheel's table markers (10-13) nor the belt's board markers are in the "
    "picture: uncover the markers of the table you play on and sample again"
)


def sample_hand(frame: Image, camera_height_cm: float | None = None) -> HandSample:
    """One player's skin from a picture of their hand over the wheel's table, or over the
    belt when the picture shows the belt's board instead, or CalibrationError saying what
    to change. ``camera_height_cm`` (the calibration's) lets the ring be found and set
    aside where it stands."""
    found: HandSeen | str = hand_sampled(frame, camera_height_cm=camera_height_cm)
    if found == TABLE_MARKERS_HIDDEN:
        board = locate_board(frame)
        over_belt = NO_TABLE if board is None else hand_over_belt(frame, board)
        found = over_belt if isinstance(over_belt, str) else HandSeen(*over_belt)
    if isinstance(found, str):
        raise CalibrationError(f"The hand cannot be sampled: {found}.")
    hand = SampledHand(found.colour, datetime.now(UTC).isoformat(timespec="seconds"))
    return HandSample(hand, CLOSE_TO_CLOTH if close_to_cloth(found.colour, found.cloth) else "")


class HandAdded(NamedTuple):
    """A hand just sampled and kept, what the player should know about it ("" when
    nothing), and every hand now kept at this table (as saved)."""

    hand: SampledHand
    warning: str
    kept: HandColours


def add_hand(path: Path, frame: Image, camera_height_cm: float | None = None) -> HandAdded:
    """Sample the hand in ``frame`` and keep it with the hands already sampled at this
    table (saved in ``path``), or CalibrationError with nothing changed. A file that cannot
    be read is replaced, and the warning says so (the other players must sample again)."""
    sample = sample_hand(frame, camera_height_cm)
    warning = sample.warning
    with _SAMPLING:
        try:
            kept = load_hand_colours(path) or HandColours()
        except CalibrationError:
            kept = HandColours()
            warning = "; ".join(filter(None, (BROKEN_REPLACED, warning)))
        kept = kept.with_hand(sample.hand)
        save_hand_colours(kept, path)
    return HandAdded(sample.hand, warning, kept)


def save_hand_colours(colours: HandColours, path: Path) -> None:
    """Write the sampled hands as readable JSON."""
    data = {
        "version": HAND_COLOURS_VERSION,
        "hands": [{"colour": list(h.colour), "created": h.created} for h in colours.hands],
    }
    write_atomically(path, json.dumps(data, indent=2) + "\n")


def _share(value: Any) -> bool:
    return isinstance(value, int | float) and math.isfinite(value) and 0 <= value <= 100


def _hand(entry: Any) -> SampledHand | None:
    """One kept hand from the file, None when the entry is not one."""
    if not isinstance(entry, dict):
        return None
    colour = entry.get("colour")
    if not isinstance(colour, list) or len(colour) != 2 or not all(map(_share, colour)):
        return None
    return SampledHand((float(colour[0]), float(colour[1])), str(entry.get("created", "")))


def load_hand_colours(path: Path) -> HandColours | None:
    """The hands sampled at this table, None when none were, CalibrationError when the
    file cannot be used (nothing else is lost: the reader falls back on the skin window)."""
    if not path.exists():
        return None
    again = (
        "sample the players' hands again (`companion calibrate hand PICTURE`) or delete the "
        "file to find hands by typical skin colours only"
    )
    data = read_json(path, "hand colour file", again)
    if isinstance(data, dict) and data.get("version") != HAND_COLOURS_VERSION:
        raise CalibrationError(
            f"The hand colour file {path} was written by another version of the companion "
            f"(file version {data.get('version')!r}, this one reads {HAND_COLOURS_VERSION}); "
            f"{again}."
        )
    entries = data.get("hands") if isinstance(data, dict) else None
    hands = [_hand(entry) for entry in entries] if isinstance(entries, list) else [None]
    if not isinstance(data, dict) or None in hands:
        raise CalibrationError(
            f"The hand colour file {path} does not hold a list of hands, each a colour of "
            f"two shares from 0 to 100; {again}."
        )
    return HandColours(tuple(hand for hand in hands if hand is not None)[-MAX_HANDS:])


class WatchedHandColours(WatchedFile[Hands]):
    """Called for every wheel frame: the sampled hands' colours (none with no file or a
    broken one, whose ``problem`` is then said), re-read when the file changes."""

    def __init__(self, path: Path, warn: Callable[[str], None] | None = None) -> None:
        super().__init__(path, _colours, (), warn)


def _colours(path: Path) -> Hands | None:
    colours = load_hand_colours(path)
    return None if colours is None else colours.colours
