"""The Hamster Wheel's piece colours as this table's camera sees them, sampled once.

The wheel reader names a fallen piece by its hue. Out of the box it uses the windows of a
typical set (``companion.vision.wheel_pieces.PIECE_HUES``), but a real set can sit
elsewhere on the hue wheel: an amber "orange" lies nearer the yellow window than the
orange one and is counted as yellow, every time, confidently. So the players lay one piece
of each coloured set on the wheel's table and take one picture; each piece's hue is
measured exactly as a fallen piece's is (the lamp's colour divided out by the markers'
paper), and the reader names pieces by these centres from then on.

Which measured hue is which set is decided by their order round the hue wheel, not by a
fixed window: a set or a lamp shifts every colour, but red, orange, yellow, green, blue
and purple keep their order, so the assignment nearest the typical centres is the right
one even where a single hue would be named wrong. White and black pieces are told by
lightness against the cloth and need no sampling.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from calibration.geometry import CalibrationError, Image
from calibration.watched import WatchedFile, read_json, write_atomically
from companion.vision.board import hue_gap
from companion.vision.wheel import PIECE_HUES, pieces_laid_out
from companion.vision.wheel_pieces import HUE_SLACK, HueWindows

WHEEL_COLOURS_FILE = "wheel-colours.json"
WHEEL_COLOURS_VERSION = 1
COLOURED_SETS: tuple[str, ...] = tuple(PIECE_HUES)  # red, orange, yellow, green, blue, purple
HOW_TO_SAMPLE = (
    "lay one piece of each coloured set (red, orange, yellow, green, blue, purple) on the "
    "wheel's table, apart from each other and from the ring, with the four table markers "
    "in view, and calibrate the wheel's colours again"
)
# A sampled hue may lie this far (OpenCV hue, 0..180) from the typical set's centre for
# its colour: further, the picture shows something other than that set's piece (a teal
# cap where the green piece should be would make every green piece uncountable). Sets
# measured here sat within 10 of the typical centres (``bench/wheel_colours.py`` moves
# them by up to 8).
MAX_SHIFT = 18.0
# Two sets closer than this on the hue wheel cannot be told apart by this camera.
MIN_APART = 5.0
MIN_HALF_WIDTH = 2.0  # a sampled window is at least this wide each side of its centre


@dataclass(frozen=True)
class WheelColours:
    """The hue centre of each coloured set as this camera sees it, and when it was sampled."""

    hues: Mapping[str, float]
    created: str = ""

    @property
    def described(self) -> str:
        """Each set's hue, for the player who sampled them: "red 178, orange 21, ..."."""
        return ", ".join(f"{name} {self.hues[name]:.0f}" for name in COLOURED_SETS)

    @property
    def windows(self) -> HueWindows:
        """Hue windows for the reader: each set's sampled centre, reaching halfway to its
        nearest neighbour (less the reader's slack) and no further than a typical set's
        window, so every hue names the set it is nearest to."""
        windows = {}
        for name, centre in self.hues.items():
            gap = min(
                hue_gap(centre, other)
                for other_name, other in self.hues.items()
                if other_name != name
            )
            half = min(PIECE_HUES[name][1], gap / 2.0 - HUE_SLACK)
            windows[name] = (centre, max(MIN_HALF_WIDTH, half))
        return windows


def name_hues(measured: Sequence[float]) -> dict[str, float]:
    """Which coloured set each of six measured hues is: the assignment whose hues lie
    nearest, in sum, to the typical set's centres (the colours' order round the hue
    wheel survives any set or lamp, a single hue's window does not). Raises
    CalibrationError when there are not six, or one is no set's colour, or two cannot be
    told apart."""
    if len(measured) != len(COLOURED_SETS):
        raise CalibrationError(
            f"{len(measured)} coloured pieces are on the wheel's table, not "
            f"{len(COLOURED_SETS)}: {HOW_TO_SAMPLE}."
        )
    best = min(
        itertools.permutations(COLOURED_SETS),
        key=lambda names: sum(
            hue_gap(hue, PIECE_HUES[name][0]) for hue, name in zip(measured, names, strict=True)
        ),
    )
    named = {name: round(float(hue), 1) for hue, name in zip(measured, best, strict=True)}
    for name, hue in named.items():
        if hue_gap(hue, PIECE_HUES[name][0]) > MAX_SHIFT:
            raise CalibrationError(
                f"The piece taken for the {name} set has a hue of {hue:.0f}, far from any "
                f"{name} (about {PIECE_HUES[name][0]:.0f}): something else is on the table, "
                f"or a piece is missing; {HOW_TO_SAMPLE}."
            )
    for (a, hue_a), (b, hue_b) in itertools.combinations(named.items(), 2):
        if hue_gap(hue_a, hue_b) < MIN_APART:
            raise CalibrationError(
                f"The {a} and {b} pieces look the same colour to this camera (hues "
                f"{hue_a:.0f} and {hue_b:.0f}): check that one piece of each colour is on the "
                "table; if it is, this camera cannot tell those two sets apart in this light "
                "(try a white lamp); the colours in use are kept."
            )
    return {name: named[name] for name in COLOURED_SETS}


def sample_wheel_colours(frame: Image) -> WheelColours:
    """This set's colours from one picture of its six coloured pieces on the wheel's table,
    or CalibrationError saying what to change."""
    seen = pieces_laid_out(frame)
    if isinstance(seen, str):
        raise CalibrationError(f"The wheel's colours cannot be sampled: {seen}.")
    touching = [piece for piece in seen if piece.pieces > 1]
    if touching:
        raise CalibrationError(
            f"{len(touching)} patch(es) of colour on the table are two pieces or more "
            f"touching: {HOW_TO_SAMPLE}."
        )
    hues = name_hues([piece.hue for piece in seen])
    return WheelColours(hues, datetime.now(UTC).isoformat(timespec="seconds"))


def save_wheel_colours(colours: WheelColours, path: Path) -> None:
    """Write the sampled colours as readable JSON."""
    data = {"version": WHEEL_COLOURS_VERSION, "created": colours.created, "hues": colours.hues}
    write_atomically(path, json.dumps(data, indent=2) + "\n")


def load_wheel_colours(path: Path) -> WheelColours | None:
    """The colours sampled for this table, None when none were, CalibrationError when the
    file cannot be used (nothing else is lost: the reader falls back on a typical set)."""
    if not path.exists():
        return None
    again = (
        "calibrate the wheel's colours again (`companion calibrate wheel-colours PICTURE`) "
        "or delete the file to use a typical set's colours"
    )
    data = read_json(path, "wheel colour file", again)
    hues = data.get("hues") if isinstance(data, dict) else None
    if (
        not isinstance(data, dict)
        or data.get("version") != WHEEL_COLOURS_VERSION
        or not isinstance(hues, dict)
        or sorted(hues) != sorted(COLOURED_SETS)
        or not all(
            isinstance(v, int | float) and math.isfinite(v) and 0 <= v <= 180 for v in hues.values()
        )
    ):
        raise CalibrationError(
            f"The wheel colour file {path} does not hold a hue from 0 to 180 for each of "
            f"{', '.join(COLOURED_SETS)}; {again}."
        )
    return WheelColours(
        {name: float(hues[name]) for name in COLOURED_SETS}, str(data.get("created", ""))
    )


class WatchedWheelColours(WatchedFile[HueWindows]):
    """Called for every wheel frame: the hue windows to name pieces by (a typical set's
    with no file, or with a broken one, whose ``problem`` is then said), re-read when the
    file changes (the colours may be sampled from the tablet mid-evening)."""

    def __init__(self, path: Path, warn: Callable[[str], None] | None = None) -> None:
        super().__init__(path, _windows, PIECE_HUES, warn)


def _windows(path: Path) -> HueWindows | None:
    colours = load_wheel_colours(path)
    return None if colours is None else colours.windows
