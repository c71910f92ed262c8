"""What the room does to colours, measured from the picture itself.

A webcam's white balance is usually locked (or wrong) under a lamp: a warm bulb turns the
grey belt and the white markers orange, and fixed colour windows then read paper as skin.
But every frame shows paper we know is white: the quiet zone round each printed marker.
Its colour gives the lamp's colour, and dividing it out gives back the colours the
calibration and the piece windows expect (:func:`paper_gains`). The tablecloth is sampled
the same way, from the frame (:func:`table_colour`), instead of assuming a grey cloth; and
:func:`sharpness` says whether a frame is too blurred to trust its fine print.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.tabletop import MarkerLayout

Image = NDArray[np.uint8]
Gains = NDArray[np.float32]
PAPER_PPU = 48  # pixels per table unit when sampling a marker's quiet zone
# Sharpness is the steepest grey step per pixel over the frame's grey range: printed ink
# seen by a focused webcam scores 0.3-0.5; a blur of 2 px about 0.18-0.28, of 3 px
# 0.12-0.20 (renders at 640x480, ``bench/vision_rooms.py``). Under ``MIN_SHARPNESS`` a
# frame is refused as blurred; under ``SOFT`` blur is named as the likely cause when
# something else (markers, the rim fit, the grid) fails.
MIN_SHARPNESS = 0.14
SOFT = 0.24


def paper_gains(
    frame: Image, image_to_table: NDArray[np.float64], layout: MarkerLayout
) -> Gains | None:
    """Per-channel gains (BGR) that make the markers' white quiet zones grey again, or
    None when no quiet zone is seen well enough to say."""
    samples = []
    for x0, y0, side in layout.values():
        quiet = side / 6.0
        bounds = (x0 - quiet, y0 - quiet, x0 + side + quiet, y0 + side + quiet)
        patch = _warp(frame, image_to_table, bounds, PAPER_PPU)
        height, width = patch.shape[:2]
        ring = np.ones((height, width), bool)
        edge = max(1, round(quiet * PAPER_PPU * 0.25))
        inner = max(2, round(quiet * PAPER_PPU * 0.8))
        ring[:edge], ring[-edge:], ring[:, :edge], ring[:, -edge:] = False, False, False, False
        ring[inner:-inner, inner:-inner] = False
        pixels = patch[ring].reshape(-1, 3).astype(np.float32)
        if len(pixels) < 8:
            continue
        bright = pixels[pixels.sum(axis=1) >= np.percentile(pixels.sum(axis=1), 50)]
        samples.append(np.median(bright, axis=0))
    if not samples:
        return None
    found = np.array(samples)
    lightest = found.sum(axis=1) >= 0.8 * found.sum(axis=1).max()  # not a covered sticker
    white = np.median(found[lightest], axis=0)
    if float(white.min()) < 25.0:
        return None
    gains = np.float32(white.mean()) / white
    return np.asarray(np.clip(gains, 0.4, 2.5), np.float32)


def balanced(image: Image, gains: Gains | None) -> Image:
    """``image`` with the lamp's colour divided out (unchanged when ``gains`` is None)."""
    if gains is None:
        return image
    return np.asarray(np.clip(image.astype(np.float32) * gains, 0, 255), np.uint8)


def chromaticity(image: Image) -> NDArray[np.float32]:
    """Each pixel's colour without its brightness: (r, g) shares of R + G + B, times 100.

    A lamp's falloff, vignetting, shadows and wood grain make the cloth lighter or darker,
    which leaves these shares; skin on wood changes them a little (about 3-5), too little
    for hue and saturation windows but enough here.
    """
    pixels = image.astype(np.float32) + 1.0
    blue, green, red = cv2.split(pixels)
    scale = 100.0 / (blue + green + red)
    return np.asarray(cv2.merge([red * scale, green * scale]), np.float32)


def table_colour(rectified: Image, where: Image) -> NDArray[np.float32]:
    """The tablecloth's chromaticity over ``where``: a median, so pieces, shadows and a
    hand on part of it do not move it."""
    shares = chromaticity(rectified[::3, ::3]).reshape(-1, 2)  # every 9th pixel is plenty
    chosen = shares[where[::3, ::3].reshape(-1) > 0]
    if len(chosen) == 0:
        chosen = shares
    return np.asarray(np.median(chosen, axis=0), np.float32)


# Skin with the lamp divided out, as (r, g) shares of R + G + B times 100 (the simulator's
# light, middle and dark skin tones measure (39.8, 31.8), (42.8, 31.6), (45.0, 31.0); the
# window is those with a margin for other skins).
SKIN_RED = (38.0, 50.0)
SKIN_GREEN = (29.0, 34.0)
# A cloth is close to skin when its colour lies nearer the skin window than the distance
# that makes a hand stand out from it (``STANDS_OUT`` of the readers, 3) and most of it
# passes the readers' skin test (hue, saturation, brightness: dark or grey cloth does not).
SKIN_NEAR = 3.0
SKIN_SHARE = 0.3
CLOSE_TO_SKIN = (
    "The table cloth is close to skin colour, so a hand over the belt may go unseen: lay a "
    "mat or a cloth of another colour (grey, green, blue or white) under the belt and "
    "calibrate again."
)


def distance_from_skin(cloth: NDArray[np.float32] | tuple[float, float]) -> float:
    """How far (chromaticity) the cloth's colour lies from the skin window; 0 inside it."""
    red = max(SKIN_RED[0] - float(cloth[0]), 0.0, float(cloth[0]) - SKIN_RED[1])
    green = max(SKIN_GREEN[0] - float(cloth[1]), 0.0, float(cloth[1]) - SKIN_GREEN[1])
    return float(np.hypot(red, green))


def close_to_skin(cloth: tuple[float, float], skin_share: float) -> bool:
    """Whether a hand on this cloth could pass for cloth (see ``CLOSE_TO_SKIN``)."""
    return distance_from_skin(cloth) < SKIN_NEAR and skin_share >= SKIN_SHARE


def colour_distance(rectified: Image, cloth: NDArray[np.float32]) -> NDArray[np.float32]:
    """Each pixel's chromaticity distance from the cloth's (:func:`table_colour`)."""
    red, green = cv2.split(chromaticity(rectified))
    red -= cloth[0]
    green -= cloth[1]
    return np.asarray(cv2.magnitude(red, green), np.float32)


def sharpness(frame: Image) -> float:
    """The steepest grey steps in the frame relative to its grey range (about 0.3-0.5 for
    printed markers seen sharply, under 0.15 when blurred by 2 px or more).

    Percentiles come from histograms of 8-bit images: a few milliseconds on a Pi.
    """
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    gray = np.asarray(gray, np.uint8)
    dx = cv2.convertScaleAbs(cv2.Sobel(gray, cv2.CV_16S, 1, 0, ksize=3), alpha=0.125)
    dy = cv2.convertScaleAbs(cv2.Sobel(gray, cv2.CV_16S, 0, 1, ksize=3), alpha=0.125)
    steps = np.asarray(cv2.max(dx, dy), np.uint8)  # the larger: close to the gradient length
    steep = _percentile(steps, 99.7)
    spread = _percentile(gray, 99) - _percentile(gray, 1)
    return steep / max(spread, 1.0)


def _percentile(image: Image, share: float) -> float:
    histogram = cv2.calcHist([np.ascontiguousarray(image)], [0], None, [256], [0, 256])
    counts = np.asarray(histogram, np.float64).ravel().cumsum()
    return float(np.searchsorted(counts, counts[-1] * share / 100.0))


def blurred(frame: Image, limit: float = MIN_SHARPNESS) -> bool:
    return sharpness(frame) < limit


BLURRED = "the picture is blurred: focus the camera or hold it still"


def _warp(
    frame: Image, image_to_table: NDArray[np.float64], bounds: tuple[float, ...], ppu: float
) -> Image:
    x0, y0, x1, y1 = bounds
    size = (max(1, round((x1 - x0) * ppu)), max(1, round((y1 - y0) * ppu)))
    shift = np.array([[ppu, 0, -x0 * ppu], [0, ppu, -y0 * ppu], [0, 0, 1]], np.float64)
    patch = cv2.warpPerspective(
        frame, shift @ image_to_table, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return np.asarray(patch, np.uint8)
