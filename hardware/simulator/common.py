"""What every render shares: the colours of the table and its pieces, the camera's
conditions, and a rendered frame with the ground truth that produced it.

Tests, the bench and the demo mode need camera frames whose answer is known; these are the
words every subject (belt, dice, wheel, video) speaks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np
from numpy.typing import NDArray

BGR = tuple[int, int, int]


Image = NDArray[np.uint8]


Homography = NDArray[np.float64]


Point = tuple[float, float]


HAMSTER_COLOURS: Mapping[str, BGR] = {
    "red": (45, 35, 200),
    "blue": (200, 90, 30),
    "yellow": (30, 210, 230),
    "green": (60, 160, 40),
    "purple": (150, 40, 130),
}


WHEEL_PIECE_COLOURS: Mapping[str, BGR] = {
    "red": (40, 30, 205),
    "orange": (20, 125, 250),
    "yellow": (30, 210, 230),
    "green": (60, 160, 40),
    "blue": (200, 90, 30),
    "purple": (150, 40, 130),
    "white": (238, 238, 235),
    "black": (28, 28, 30),
}


# Skin from pale to deep. A hand is drawn in one of the middle three unless a scene asks
# for another (``bench/wheel_hands.py`` draws all six: the hand check must see each).
NAMED_SKIN_TONES: Mapping[str, BGR] = {
    "pale": (200, 210, 240),
    "light": (165, 185, 232),
    "middle": (125, 155, 210),
    "dark": (85, 110, 160),
    "very dark": (45, 58, 88),
    "deep": (35, 45, 70),
}
SKIN_TONES: tuple[BGR, ...] = tuple(NAMED_SKIN_TONES[n] for n in ("light", "middle", "dark"))


TABLE_COLOUR: BGR = (122, 118, 112)


STRIP_COLOUR: BGR = (200, 200, 196)


PIT_COLOUR: BGR = (72, 78, 70)


INK: BGR = (35, 35, 38)


WOOD: BGR = (52, 52, 58)


ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50


TableTexture = Literal["cloth", "wood", "felt"]


@dataclass(frozen=True)
class Conditions:
    """How the camera sees the table: everything that makes a frame hard to read."""

    size: tuple[int, int] = (640, 480)
    perspective: float = 0.0  # 0 = straight overhead; 1 = the strongest tilt and rotation
    uneven_light: float = 0.0  # 0 = even; 1 = the far side gets half the light
    noise: float = 0.0  # sensor noise, standard deviation in grey levels
    shadows: int = 0  # soft shadows cast by things off the table
    hand: bool = False  # a hand reaches in over the play area
    board_to_image: tuple[tuple[float, ...], ...] | None = None  # reuse a camera pose

    @classmethod
    def random(
        cls, rng: np.random.Generator, size: tuple[int, int] = (640, 480), hand_chance: float = 0.3
    ) -> Conditions:
        """A random mix of the hard cases, the way the 500-frame checks draw them."""
        return cls(
            size=size,
            perspective=float(rng.uniform(0.0, 1.0)),
            uneven_light=float(rng.uniform(0.0, 1.0)),
            noise=float(rng.uniform(0.0, 8.0)),
            shadows=int(rng.integers(0, 4)),
            hand=bool(rng.random() < hand_chance),
        )


@dataclass(frozen=True)
class DieTruth:
    """Where a die ended up in the image, for scoring a dice reader."""

    value: int
    centre: Point  # image pixels
    corners: NDArray[np.float64]  # 4 x 2 image pixels


@dataclass(frozen=True)
class Rendered:
    """A frame plus what it shows: the camera pose and where the hand is."""

    frame: Image
    board_to_image: Homography
    hand_mask: Image
    hand_over_board: bool
    dice: tuple[DieTruth, ...] = field(default=())

    @property
    def image_to_board(self) -> Homography:
        return np.asarray(np.linalg.inv(self.board_to_image), np.float64)


def _shade(colour: BGR, factor: float) -> BGR:
    b, g, r = (min(255, max(0, round(channel * factor))) for channel in colour)
    return (b, g, r)


def _lighten(colour: BGR, amount: float) -> BGR:
    b, g, r = (round(channel + (255 - channel) * amount) for channel in colour)
    return (b, g, r)
