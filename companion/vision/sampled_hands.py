"""The players' own skin, sampled at calibration, for telling a hand over the table.

The readers' fixed skin window (``board.skin_mask``, then ``room_light.SKIN_RED`` /
``SKIN_GREEN``) was drawn round the simulator's three skin tones. Hands outside it go
unseen, and an unseen hand lets a reader count the pieces it moves as a fall:
``bench/wheel_hands.py`` found very pale skin (its red share under the window's 38) and
deep skin in dim light (under the window's brightness floor) read as if nothing were there,
on every table. Lowering the window's floor for everyone found shadows as hands instead
(21 of 360 hand-free frames). So each player holds a hand over the table once at
calibration; its colour with the lamp divided out (chromaticity) is kept, and a patch that
close to one of those colours counts as skin however dark it is.

This module measures a hand for sampling (:func:`hand_colour`) and marks what is near the
sampled hands in a frame (:func:`near_sampled_hands`); the wheel reader decides with it
(``wheel.hand_over``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.room_light import chromaticity

Image = NDArray[np.uint8]
Hand = tuple[float, float]  # a player's skin: (r, g) shares of R + G + B times 100
Hands = Sequence[Hand]

# A pixel or patch within this (chromaticity) of a sampled hand is that hand's skin. The
# same hand measured in other frames of a room (another pose, its own shadow, a webcam's
# coarse colour blending a thin dark arm with green felt) lay within 0.2-2.3 of its
# sample on the development seeds of ``bench/wheel_hands.py`` (1.5 missed 3 of 10 deep
# hands over green felt, 2.0 one of 4 on grey cloth); at 2.5 no hand-free frame of those
# seeds was taken for a hand.
NEAR_A_HAND = 2.5
# Grey level (HSV value) below which a pixel is shadow or ink, whatever its colour: a deep
# hand in a dim room measures 25-40.
DARKEST_SAMPLED_SKIN = 15
# A sample is no use when the hand lies this close (chromaticity) to the cloth: the readers
# tell a hand by standing out from the cloth by ``STANDS_OUT`` (3), so a hand nearer does
# not stand out at all (a pale hand on a white table measures 3.2-3.7, and is found).
HAND_FROM_CLOTH = 3.0
# A hand sampled nearer the cloth than this may still go unseen over it (its own spread,
# ``NEAR_A_HAND``, reaches the cloth's; 5.5): very dark skin over dark wood under a lamp
# measured 4.5 from the wood when sampled, and within 1.6-3.3 of it in other poses. The
# reader then says the cloth may hide a hand (``wheel.CLOTH_CLOSE_TO_SKIN``).
HAND_CLOSE_TO_CLOTH = HAND_FROM_CLOTH + NEAR_A_HAND
# Skin of every tone, the lamp divided out, is red before green before blue (the
# simulator's six tones from pale to deep, and the skin window's corners, all are): by this
# much red over green at least. Sampling looks only at such pixels, so a green felt's noisy
# dark corners or a blue sleeve are never taken for the hand.
RED_OVER_GREEN = 1.0
# A hand held out to be sampled covers at least this many times the smallest patch the
# hand check takes for a hand: less is a hand only just coming into the picture.
SAMPLED_HAND_SIZE = 2.0
# The share of the reaching thing, furthest from where it crosses the picture's edge, that
# is taken as the hand (the rest is the arm, perhaps in a sleeve).
HAND_SHARE = 0.3

NO_HAND = (
    "no hand is seen over the table: hold one hand flat over the table, the arm coming in "
    "from the edge of the picture, and sample again"
)
HAND_LIKE_CLOTH = (
    "this hand is so close to the table cloth's colour that it cannot be told from it: lay "
    "a mat or a cloth of another colour under the wheel (or the belt) and sample again"
)


def near_sampled_hands(rectified: Image, hsv: Image, hands: Hands) -> Image:
    """A mask (0/255) of the pixels close to a sampled hand's colour and not too dark,
    opened so single pixels of wood grain or noise do not count. The colour is taken over
    each pixel's 5 x 5 neighbourhood: a deep hand in a dim room is some 30 grey levels
    bright, where a pixel's noise moves its colour by more than ``NEAR_A_HAND`` (deep
    skin over light wood was found on 4 of 10 frames by single pixels)."""
    if not hands:
        return np.zeros(rectified.shape[:2], np.uint8)
    red, green = cv2.split(chromaticity(np.asarray(cv2.blur(rectified, (5, 5)), np.uint8)))
    near = np.zeros(rectified.shape[:2], bool)
    for hand_red, hand_green in hands:
        near |= np.hypot(red - hand_red, green - hand_green) <= NEAR_A_HAND
    near &= hsv[..., 2] >= DARKEST_SAMPLED_SKIN
    mask = np.asarray(near, np.uint8) * np.uint8(255)
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)), np.uint8)


def near_a_sampled_hand(colour: NDArray[np.float32] | Hand, hands: Hands) -> bool:
    """Whether a patch's colour (its median chromaticity) is one of the sampled hands'."""
    point = (float(colour[0]), float(colour[1]))
    return any(math.dist(point, hand) <= NEAR_A_HAND for hand in hands)


def close_to_cloth(hand: Hand, cloth: NDArray[np.float32] | Hand) -> bool:
    """Whether a sampled hand may go unseen over this cloth (``HAND_CLOSE_TO_CLOTH``)."""
    return math.dist(hand, (float(cloth[0]), float(cloth[1]))) <= HAND_CLOSE_TO_CLOTH


def picture_edge(shape: tuple[int, ...]) -> NDArray[np.bool_]:
    """The two-pixel rim of a picture of ``shape``: where an arm reaching in crosses it."""
    border = np.zeros(shape[:2], bool)
    border[:2, :], border[-2:, :], border[:, :2], border[:, -2:] = True, True, True, True
    return border


def hand_colour(
    rectified: Image,
    hsv: Image,
    cloth: NDArray[np.float32],
    stands_out: float,
    min_pixels: float,
    aside: Image | None = None,
    cloth_like_skin: bool = False,
) -> Hand | str:
    """The colour of the hand reaching over ``rectified`` (the table from above, the lamp
    divided out; ``hsv`` the same in HSV), or why it cannot be sampled (``NO_HAND``,
    ``HAND_LIKE_CLOTH``).

    The hand is the far end of the largest skin-toned thing (``RED_OVER_GREEN``) that
    reaches in across the picture's edge and differs from the cloth (``cloth``, by more
    than ``stands_out``): its share furthest from the edge, because a sleeve, if any, is
    nearer the edge than the hand.
    What ``aside`` marks (the ring and its shadow) is no part of it. On a cloth close to
    skin colour (``cloth_like_skin``) a hand that is not seen is said to be the cloth's
    colour, the likelier cause there.
    """
    shares = chromaticity(rectified)
    red, green = shares[..., 0], shares[..., 1]
    warm = (red - green >= RED_OVER_GREEN) & (2 * green + red >= 100)  # green >= blue
    bright = hsv[..., 2] >= DARKEST_SAMPLED_SKIN
    unlike_cloth = np.hypot(red - cloth[0], green - cloth[1]) > stands_out
    skin_toned = unlike_cloth & warm & bright
    foreign = np.asarray(skin_toned, np.uint8) * np.uint8(255)
    if aside is not None:
        foreign[aside > 0] = 0
    foreign = np.asarray(
        cv2.morphologyEx(foreign, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)), np.uint8
    )
    _, labels, stats, _ = cv2.connectedComponentsWithStats(foreign, connectivity=8)
    border = picture_edge(labels.shape)
    reaching = set(np.unique(labels[border & (foreign > 0)]).tolist()) - {0}
    big_enough = SAMPLED_HAND_SIZE * min_pixels
    arms = [i for i in reaching if stats[i, cv2.CC_STAT_AREA] >= big_enough]
    if not arms:
        return HAND_LIKE_CLOTH if cloth_like_skin else NO_HAND
    arm = labels == max(arms, key=lambda i: int(stats[i, cv2.CC_STAT_AREA]))
    entry = np.asarray(arm & border, np.uint8)
    away = cv2.distanceTransform(np.asarray(1 - entry, np.uint8), cv2.DIST_L2, 5)[arm]
    far = np.zeros(arm.shape, bool)
    far[arm] = away >= np.percentile(away, 100 * (1 - HAND_SHARE))
    # Its edge pixels blend with the cloth (a dark hand on green felt by 2-3 in colour):
    # only the inside of the hand is measured, when there is one.
    inside = cv2.erode(np.asarray(far, np.uint8), np.ones((5, 5), np.uint8)) > 0
    hand = np.median(shares[inside if inside.any() else far], axis=0)
    if math.dist(hand, cloth) <= HAND_FROM_CLOTH:
        return HAND_LIKE_CLOTH
    return round(float(hand[0]), 2), round(float(hand[1]), 2)
