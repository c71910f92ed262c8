"""What a real room does to a picture of the table, beyond the flat renders' diagram.

A :class:`Room` names the things that change between the project's renders and a webcam
photo of a real table: the tablecloth (wood, felt, white), a lamp's colour with the white
balance locked at daylight, the camera's height and tilt, lens barrel distortion,
vignetting, defocus and shake, sensor noise and MJPEG-like compression, a hand in a sleeve
of any colour, and cups and cards left on the table. The renders that use it live in
:mod:`hardware.simulator.room_render`; this module holds the room and the photograph.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.simulator.common import BGR, SKIN_TONES, TableTexture
from hardware.simulator.plane import _Plane

FloatImage = NDArray[np.float32]

# Tablecloths: colour (BGR; None is the renders' grey cloth) and surface.
TABLES: Mapping[str, tuple[BGR | None, TableTexture]] = {
    "grey cloth": (None, "cloth"),
    "light wood": ((95, 140, 185), "wood"),
    "dark wood": ((40, 62, 98), "wood"),
    "green felt": ((45, 105, 35), "felt"),
    "black felt": ((30, 30, 33), "felt"),
    "blue felt": ((130, 75, 35), "felt"),
    "white": ((225, 228, 230), "cloth"),
}
# How a lamp tints a picture when the camera's white balance is locked at daylight (BGR
# gains): a 2700-3000 K bulb is short of blue; a cool window light is short of red.
LIGHTS: Mapping[str, tuple[float, float, float]] = {
    "daylight": (1.0, 1.0, 1.0),
    "warm": (0.55, 0.80, 1.0),
    "cool": (1.0, 0.93, 0.78),
}
SLEEVES: tuple[BGR, ...] = (
    (200, 90, 30),
    (40, 40, 190),
    (40, 140, 40),
    (30, 30, 30),
    (230, 230, 230),
)


@dataclass(frozen=True)
class Room:
    """A table, a lamp and a webcam; the defaults are an ordinary living room."""

    table: str = "grey cloth"
    light: str = "daylight"
    exposure: float = 1.0  # the picture's brightness (0.8 = 20 % darker)
    height_cm: float = 70.0  # camera above the table
    tilt_deg: float = 6.0  # the camera up to this far off vertical
    distortion: float = -0.06  # lens barrel (k1 on the half-diagonal)
    vignetting: float = 0.25  # light lost in the corners
    blur: float = 0.6  # defocus, Gaussian sigma in pixels
    shake: float = 0.0  # camera shake, motion-blur length in pixels
    noise: float = 3.0  # sensor noise, grey levels
    jpeg_quality: int = 80  # MJPEG from a USB webcam; 0 = none
    hand: bool = False
    sleeve: BGR | None = None  # a sleeve of this colour on the arm (a hand reaches in)
    skin: BGR | None = None  # the hand's skin (default: one of ``SKIN_TONES`` at random)
    clutter: int = 0  # cups and cards left on the table
    shutter: float = 0.1  # share of a frame's time the shutter is open (motion blur)

    @property
    def table_colour(self) -> BGR | None:
        return TABLES[self.table][0]

    @property
    def texture(self) -> TableTexture:
        return TABLES[self.table][1]


def light_direction(rng: np.random.Generator) -> tuple[float, float, float]:
    """A lamp above and to one side (world z is down, so its z is negative)."""
    angle = float(rng.uniform(0, 2 * math.pi))
    lean = float(rng.uniform(0.2, 0.7))
    return (lean * math.cos(angle), lean * math.sin(angle), -1.0)


def sleeve_layer(
    mask: NDArray[np.uint8], elbow: tuple[int, int], palm: tuple[int, int], unit: float, colour: BGR
) -> tuple[FloatImage, NDArray[np.uint8]]:
    """A sleeve over the forearm from the frame edge to just short of the wrist: wider than
    the arm, folded (a shaded ridge along it) and in any colour."""
    sleeve = np.zeros_like(mask)
    wrist = (
        round(elbow[0] + 0.8 * (palm[0] - elbow[0])),
        round(elbow[1] + 0.8 * (palm[1] - elbow[1])),
    )
    cv2.line(sleeve, elbow, wrist, (255,), max(3, int(unit * 2.0)))
    folds = cv2.GaussianBlur(sleeve.astype(np.float32) / 255.0, (0, 0), unit * 0.5)
    shade = 0.6 + 0.5 * folds
    layer = np.array(colour, np.float32)[None, None, :] * shade[..., None]
    return layer.astype(np.float32), sleeve


def skin_tone(rng: np.random.Generator) -> BGR:
    return SKIN_TONES[int(rng.integers(len(SKIN_TONES)))]


def draw_clutter(
    plane: _Plane,
    count: int,
    keep_clear: list[tuple[float, float, float, float]],
    rng: np.random.Generator,
) -> None:
    """Cups (a rim, coffee, a handle, a shadow) and playing cards on the free table."""
    x0, y0 = plane.x0, plane.y0
    height, width = plane.image.shape[:2]
    x1, y1 = x0 + width / plane.ppu, y0 + height / plane.ppu
    for _ in range(count):
        for _attempt in range(50):
            spot = (float(rng.uniform(x0 + 0.8, x1 - 0.8)), float(rng.uniform(y0 + 0.8, y1 - 0.8)))
            if not any(
                a - 1.2 <= spot[0] <= c + 1.2 and b - 1.2 <= spot[1] <= d + 1.2
                for a, b, c, d in keep_clear
            ):
                break
        else:
            continue
        if rng.random() < 0.5:
            _cup(plane, spot, rng)
        else:
            _card(plane, spot, rng)


def _cup(plane: _Plane, spot: tuple[float, float], rng: np.random.Generator) -> None:
    colours: tuple[BGR, ...] = ((235, 235, 232), (40, 40, 170), (150, 90, 40), (60, 160, 220))
    body = colours[int(rng.integers(len(colours)))]
    radius = float(rng.uniform(0.75, 0.95))
    plane.disc((spot[0] + 0.25, spot[1] + 0.3), radius * 1.05, _darker(plane.table, 0.6))
    handle = float(rng.uniform(0, 2 * math.pi))
    plane.line(
        spot,
        (spot[0] + 1.25 * radius * math.cos(handle), spot[1] + 1.25 * radius * math.sin(handle)),
        0.22,
        body,
    )
    plane.disc(spot, radius, body)
    plane.disc(spot, radius * 0.82, (30, 45, 70) if rng.random() < 0.6 else _darker(body, 0.8))


def _card(plane: _Plane, spot: tuple[float, float], rng: np.random.Generator) -> None:
    angle = math.radians(float(rng.uniform(0, 180)))
    c, s = math.cos(angle), math.sin(angle)

    def at(dx: float, dy: float) -> tuple[float, float]:
        return (spot[0] + dx * c - dy * s, spot[1] + dx * s + dy * c)

    corners = [at(-0.65, -0.95), at(0.65, -0.95), at(0.65, 0.95), at(-0.65, 0.95)]
    plane.poly([(x + 0.05, y + 0.06) for x, y in corners], _darker(plane.table, 0.75))
    plane.poly(corners, (240, 240, 238))
    back: BGR = (40, 40, 180) if rng.random() < 0.5 else (150, 70, 30)
    plane.poly([at(-0.55, -0.85), at(0.55, -0.85), at(0.55, 0.85), at(-0.55, 0.85)], back)


def _darker(colour: BGR, factor: float) -> BGR:
    b, g, r = (round(channel * factor) for channel in colour)
    return (b, g, r)


def lamp_and_lens(frame: FloatImage, room: Room, rng: np.random.Generator) -> FloatImage:
    """The lamp's colour (white balance locked), exposure and vignetting."""
    height, width = frame.shape[:2]
    gains = np.array(LIGHTS[room.light], np.float32)
    # The camera's auto-exposure brings the brightest channel back; its colour stays.
    frame = frame * (gains / gains.max())[None, None, :] * np.float32(room.exposure)
    if room.vignetting > 0:
        xs = (np.arange(width, dtype=np.float32) - width / 2) / (width / 2)
        ys = (np.arange(height, dtype=np.float32) - height / 2) / (height / 2)
        r2 = (xs[None, :] ** 2 + ys[:, None] ** 2) / 2.0
        frame = frame * (1.0 - np.float32(room.vignetting) * r2)[..., None]
    return frame


def optics(frame: FloatImage, room: Room) -> FloatImage:
    """Barrel distortion, then defocus and shake, as the lens and a hand-held mount add."""
    height, width = frame.shape[:2]
    if room.distortion:
        half = math.hypot(width, height) / 2.0
        xs, ys = np.meshgrid(
            np.arange(width, dtype=np.float32), np.arange(height, dtype=np.float32)
        )
        dx, dy = (xs - width / 2) / half, (ys - height / 2) / half
        scale = 1.0 + np.float32(room.distortion) * (dx * dx + dy * dy)
        map_x = (dx * scale * half + width / 2).astype(np.float32)
        map_y = (dy * scale * half + height / 2).astype(np.float32)
        frame = np.asarray(
            cv2.remap(frame, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
            np.float32,
        )
    if room.blur > 0:
        frame = np.asarray(cv2.GaussianBlur(frame, (0, 0), room.blur), np.float32)
    if room.shake > 0:
        frame = motion_blur(frame, room.shake, 30.0)
    return frame


def motion_blur(layer: FloatImage, length: float, angle_deg: float) -> FloatImage:
    """Smear ``layer`` ``length`` pixels along ``angle_deg`` (a line kernel)."""
    size = max(3, math.ceil(length) | 1)
    kernel = np.zeros((size, size), np.float32)
    c, s = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    half = (size - 1) / 2.0
    cv2.line(
        kernel,
        (round(half - c * length / 2), round(half - s * length / 2)),
        (round(half + c * length / 2), round(half + s * length / 2)),
        (1.0,),
        1,
        cv2.LINE_AA,
    )
    kernel /= max(float(kernel.sum()), 1e-6)
    return np.asarray(cv2.filter2D(layer, -1, kernel, borderType=cv2.BORDER_REPLICATE), np.float32)


def sensor(frame: FloatImage, room: Room, rng: np.random.Generator) -> NDArray[np.uint8]:
    """Noise, 8-bit, then MJPEG-like compression (4:2:0 JPEG at the room's quality)."""
    if room.noise > 0:
        frame = frame + rng.standard_normal(frame.shape, dtype=np.float32) * np.float32(room.noise)
    image = np.clip(frame, 0, 255).astype(np.uint8)
    if room.jpeg_quality > 0:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, room.jpeg_quality])
        if ok:
            image = np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)
    return image
