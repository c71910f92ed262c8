"""A player's hand sampled over the belt's board (Run, Hamster, Run!), for the belt reader.

The belt reader pauses while a hand is over the belt (``board.read_board``): a hand
carrying a hamster is no move. It finds hands by a fixed skin window, which misses very
pale skin and deep skin in a dim room. So, as over the wheel's table
(``wheel.hand_sampled``), each player holds a hand over the belt once at calibration and
its colour, the lamp divided out, is kept (``calibration.hand_colours``); skin near one of
those colours is then skin too. The picture is the belt reader's own
(``board.belt_from_above``: the belt and a margin from above, balanced by the markers'
paper, smoothed), so the colour sampled is the colour it will see.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from companion.vision.board import (
    MIN_HAND_CELLS,
    PIXELS_PER_CELL,
    STANDS_OUT,
    belt_from_above,
    cloth_round_belt,
)
from companion.vision.room_light import BLURRED, SKIN_NEAR, blurred, distance_from_skin
from companion.vision.sampled_hands import Hand, hand_colour

Image = NDArray[np.uint8]

BOARD_MARKERS_HIDDEN = (
    "the belt's board markers are not in the picture: uncover them and sample again"
)


def hand_over_belt(
    frame: Image, image_to_board: NDArray[np.float64] | None
) -> tuple[Hand, Hand] | str:
    """The colour of the one hand held over the belt and the cloth's beside it
    (chromaticity), or why the picture cannot say (``sampled_hands.NO_HAND``,
    ``HAND_LIKE_CLOTH``, the markers hidden, the picture blurred). ``image_to_board``
    is the frame's homography to the board (None: its markers were not found)."""
    if image_to_board is None:
        return BOARD_MARKERS_HIDDEN
    if blurred(frame):
        return BLURRED
    rectified, hsv, belt, _, _ = belt_from_above(frame, image_to_board)
    cloth = cloth_round_belt(rectified, belt)
    # On a cloth of skin's colour a hand not seen is likelier the cloth's colour than absent.
    cloth_like_skin = distance_from_skin(cloth) < SKIN_NEAR
    min_pixels = MIN_HAND_CELLS * PIXELS_PER_CELL**2
    found = hand_colour(rectified, hsv, cloth, STANDS_OUT, min_pixels, None, cloth_like_skin)
    if isinstance(found, str):
        return found
    return found, (float(cloth[0]), float(cloth[1]))
