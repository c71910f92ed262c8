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


def table_colour(rectified: Image, where: Image) -> NDArray[np.float32]:
    """The tablecloth's colour (Lab, OpenCV's 0..255 scale) over ``where``: a median, so
    pieces, shadows and a hand on part of it do not move it."""
    lab = cv2.cvtColor(rectified, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    chosen = lab[where.reshape(-1) > 0]
    if len(chosen) == 0:
        chosen = lab
    return np.asarray(np.median(chosen, axis=0), np.float32)


def colour_distance(rectified: Image, lab_colour: NDArray[np.float32]) -> NDArray[np.float32]:
    """Each pixel's distance from ``lab_colour`` in Lab (about 2.3 = just noticeable)."""
    lab = cv2.cvtColor(rectified, cv2.COLOR_BGR2LAB).astype(np.float32)
    return np.asarray(np.linalg.norm(lab - lab_colour, axis=2), np.float32)


def sharpness(frame: Image) -> float:
    """The steepest grey steps in the frame relative to its grey range (about 0.3-0.5 for
    printed markers seen sharply, under 0.15 when blurred by 2 px or more)."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    gray = np.asarray(gray, np.float32)
    dx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    dy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    steep = float(np.percentile(np.hypot(dx, dy), 99.7))
    spread = float(np.percentile(gray, 99) - np.percentile(gray, 1))
    return steep / max(spread, 1.0)


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
