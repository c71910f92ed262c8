"""Whether a hand is in the dice camera's picture: while one is, no roll is read.

A hand over the table is a roll still being made, or dice being picked up, and a die held
in the fingers reads like any other (issue 33: one of ten phantoms on held-out photos was a
die held in a hand). The dice watcher holds its reading while a hand is in view, so a roll
is proposed only once the hand has gone and the dice have then held still.

The test is the belt reader's (``board.skin_mask``: warm hue, moderate saturation, not too
dark), told from the table as the belt reader tells it from the cloth (chromaticity more
than ``board.STANDS_OUT`` from the table's, here the median of the whole frame, which the
table fills): a light wood desk is skin-coloured to hue and saturation, but not to
chromaticity. What is left must be one patch bigger than HAND_SHARE of the frame: dice,
even red or yellow ones, are far smaller (and too vivid for the skin test).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.board import STANDS_OUT, skin_mask
from companion.vision.room_light import colour_distance, table_colour

# Share of the frame a skin patch must cover to be a hand. A palm is about five die edges
# wide, so at the camera distances dice are readable (dice 25-100 px at 640 px) a hand
# covers 3-30 % of the frame; a die 0.3-3 %.
HAND_SHARE = 0.015
# The frame is looked at this wide (a hand needs no detail).
LOOK_WIDTH = 320


def hand_in_view(frame: NDArray[Any]) -> bool:
    """Whether a bare hand covers part of the picture (see the module's docstring)."""
    # Every step-th pixel first: averaging a 12 MP frame down cost ~24 ms, a hand needs none.
    step = max(1, frame.shape[1] // (2 * LOOK_WIDTH))
    sampled = frame[::step, ::step]
    height, width = sampled.shape[:2]
    scale = min(1.0, LOOK_WIDTH / width)
    size = (round(width * scale), round(height * scale))
    small = np.asarray(cv2.resize(sampled, size, interpolation=cv2.INTER_AREA), np.uint8)
    hsv = np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2HSV), np.uint8)
    skin = skin_mask(hsv)
    area = small.shape[0] * small.shape[1]
    if cv2.countNonZero(skin) < HAND_SHARE * area:
        return False
    everywhere = np.full(small.shape[:2], 255, np.uint8)
    table = table_colour(small, everywhere)
    foreign = (colour_distance(small, table) > STANDS_OUT).astype(np.uint8) * 255
    patches = np.asarray(
        cv2.morphologyEx(skin & foreign, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8
    )
    count, _, stats, _ = cv2.connectedComponentsWithStats(patches, connectivity=8)
    areas = stats[1:count, cv2.CC_STAT_AREA]
    return bool(len(areas) and areas.max() >= HAND_SHARE * area)
