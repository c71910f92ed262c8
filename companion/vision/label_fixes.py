"""Label faults in the shared dice photos, each fixed where the labels are read, with its note.

A figure measured against a wrong label blames the reader for the label. The shared
folder's ``labels.json`` is not ours to edit, so a fault a person has confirmed on
``companion dice review``'s contact sheet is listed here instead: the photo, where the die
lies, what the label said, what the photo shows and who judged it. ``dice_eval.load_labels``
applies the list, so every figure (``companion dice eval``, ``make crossval-dice``, the
benches) is measured against the fixed labels and says how many fixes it used; a fix whose
die the labels already describe correctly is skipped, so a corrected ``labels.json`` upstream
needs no change here. ``--as-labelled`` measures against the labels as they were.

The shipped networks and the cross-validation's of 2026-12-05 learned from the labels as
they were (three dice of 934 taught wrong); ``training.dice_net.load_photos`` reads them
through this list, so the next retraining learns from the fixed labels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class LabelFix:
    """One confirmed label fault: ``was`` None means the die had no label at all."""

    file: str
    centre: tuple[float, float]  # the die's centre in the photo, pixels
    side: float  # the die's side in pixels, for the box of a die nobody labelled
    was: int | None
    shows: int
    note: str

    def within(self, box: tuple[float, float, float, float], grow: float = 0.0) -> bool:
        """Whether this die's centre lies inside a labelled box grown by ``grow`` pixels."""
        x, y, w, h = box
        cx, cy = self.centre
        return x - grow <= cx <= x + w + grow and y - grow <= cy <= y + h + grow

    def box(self) -> tuple[float, float, float, float]:
        """A square box round the die, for a die the labels lack."""
        cx, cy = self.centre
        return (cx - self.side / 2.0, cy - self.side / 2.0, self.side, self.side)


# Judged on 2026-12-05 from `companion dice review ../shared/data/dice` (the three sure
# readings that contradict the labels) and the photos themselves, enlarged: each die's top
# face is in full view and its pips can be counted. These are the "at least three" faults
# SOURCE.md warns of.
KNOWN_FIXES: tuple[LabelFix, ...] = (
    LabelFix(
        "byler_IMG_20191208_112342.jpg",
        (270.0, 149.0),
        34.0,
        None,
        3,
        "a marbled green die with yellow pips beside the yellow four, showing three; unlabelled",
    ),
    LabelFix(
        "byler_IMG_20191209_095533.jpg",
        (339.0, 363.0),
        28.0,
        None,
        6,
        "a green die with white pips below the big green one, showing six; unlabelled",
    ),
    LabelFix(
        "byler_IMG_20191209_100722.jpg",
        (434.0, 441.0),
        29.0,
        6,
        5,
        "a white die whose top shows five; the six is its side face, seen past the top",
    ),
)


def fixes_for(file: str, fixes: Sequence[LabelFix] = KNOWN_FIXES) -> list[LabelFix]:
    """The fixes that concern one photo."""
    return [fix for fix in fixes if fix.file == file]
