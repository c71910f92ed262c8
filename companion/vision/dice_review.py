"""Find label faults for a person to look at: where a sure reader and the label disagree.

A labelled folder can be wrong (a five labelled 6, a die nobody boxed), and a figure
measured against a wrong label blames the reader for it. The reader is right far more
often than not when it is very sure, so the dice it reads at SURE or above with another
value than the label, and the sure finds that match no labelled die, are the places a
label is most likely wrong. They are shown as crops on one contact sheet, each captioned
with the photo, the label and the reading, for a person to judge and fix in labels.json
with a note (never silently: SOURCE.md lists the known label errors).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.vision.dice import face_crop
from companion.vision.dice_eval import ImageResult

# How sure the reader must be of a value for a disagreement to point at the label.
SURE = 0.95
# Each crop on the sheet, and how many crops a row.
TILE = 128
PER_ROW = 6


@dataclass(frozen=True)
class Disagreement:
    """One die where a sure reading and the label differ (``label`` None: not labelled)."""

    file: str
    centre: tuple[float, float]
    size: float
    label: int | None
    read: int
    confidence: float

    def line(self) -> str:
        said = "no label" if self.label is None else f"labelled {self.label}"
        x, y = self.centre
        return (
            f"{self.file} at ({x:.0f}, {y:.0f}): {said}, read {self.read} ({self.confidence:.2f})"
        )


def disagreements(results: Iterable[ImageResult], sure: float = SURE) -> list[Disagreement]:
    """Every sure reading that contradicts its photo's labels, photo by photo."""
    found = []
    for result in results:
        paired = dict((fi, li) for li, fi in result.pairs)
        for fi, die in enumerate(result.found):
            if die.value is None or die.confidence < sure:
                continue
            label = result.labelled[paired[fi]].value if fi in paired else None
            if label != die.value:
                found.append(
                    Disagreement(
                        result.file, die.centre, die.size, label, die.value, die.confidence
                    )
                )
    return found


def contact_sheet(faults: list[Disagreement], frames: dict[str, Any]) -> Any:
    """The disagreements' crops (1.4 die sizes, TILE px) in rows, each captioned
    "label -> read"; ``frames`` maps each file to its BGR photo."""
    rows = max(1, -(-len(faults) // PER_ROW))
    sheet = np.full((rows * (TILE + 24), PER_ROW * TILE, 3), 255, np.uint8)
    for index, fault in enumerate(faults):
        crop = face_crop(frames[fault.file], fault.centre, fault.size, native=True)
        tile = cv2.resize(crop, (TILE, TILE), interpolation=cv2.INTER_AREA)
        top, left = (index // PER_ROW) * (TILE + 24), (index % PER_ROW) * TILE
        sheet[top : top + TILE, left : left + TILE] = tile
        caption = f"{'-' if fault.label is None else fault.label} -> {fault.read}"
        spot = (left + 4, top + TILE + 18)
        cv2.putText(sheet, caption, spot, cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 1)
    return sheet
