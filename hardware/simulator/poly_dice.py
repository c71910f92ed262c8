"""Rats' polyhedral dice (d4, d6, d8, d10) seen from overhead, with the answer known.

The reader of a rat's pool (companion/vision/poly_dice.py) is trained and measured on these
renders, never on photos: no licensed photos of such pools exist here. What each kind looks
like from above, and which number it shows:

- **d4**: a tetrahedron on one face; from above a triangle split into three faces meeting at
  the apex in the middle. Its number is the one at the top vertex, the convention of the
  common d4 with numbers at its corners: each of the three faces we see prints it near the
  apex, its top pointing to the apex, and prints the numbers of the two corners on the table
  near those corners.
- **d6**: a square top face with pips or a numeral.
- **d8**: an octahedron on one face; from above a hexagon whose inner triangle is the top
  face, with the numeral upright against one edge.
- **d10**: a pentagonal trapezohedron on one face; from above a kite (the top face, numeral
  upright towards its far tip) flanked by two side faces, an elongated outline. Ten shows as
  "0", as on real d10s. A 6 and a 9 are underlined on d8s and d10s.

Styles are families of numeral font, weight and d6 marking. ``HELD_OUT`` is a family the
reader is never trained on, so the bench can say how it does on a style it never saw.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.simulator.common import BGR, Image
from hardware.simulator.die import _PIPS

KINDS = (4, 6, 8, 10)


@dataclass(frozen=True)
class Style:
    """How a family of dice prints its numbers."""

    name: str
    font: int
    weight: float  # stroke thickness as a share of the numeral's height
    pips: bool  # d6s of this family carry pips, not numerals
    scale: float = 1.0  # numeral height relative to the family's usual


STYLES = (
    Style("simplex", cv2.FONT_HERSHEY_SIMPLEX, 0.16, pips=True),
    Style("duplex", cv2.FONT_HERSHEY_DUPLEX, 0.13, pips=False),
    Style("complex", cv2.FONT_HERSHEY_COMPLEX, 0.12, pips=True, scale=0.9),
    Style("plain-bold", cv2.FONT_HERSHEY_PLAIN, 0.2, pips=False, scale=1.1),
    Style("triplex", cv2.FONT_HERSHEY_TRIPLEX, 0.14, pips=False),
)
# Serif numerals and numbered d6s: the family no reader is trained on.
HELD_OUT = "triplex"
TRAINED = tuple(style for style in STYLES if style.name != HELD_OUT)
STYLE_OF = {style.name: style for style in STYLES}

BODIES: tuple[tuple[BGR, BGR], ...] = (  # (body, ink)
    ((235, 235, 235), (25, 25, 25)),
    ((200, 230, 245), (40, 30, 20)),  # ivory
    ((40, 40, 190), (240, 240, 240)),  # red
    ((170, 80, 30), (245, 245, 245)),  # blue
    ((50, 140, 40), (240, 240, 240)),  # green
    ((30, 30, 30), (235, 235, 235)),  # black
    ((130, 40, 120), (230, 230, 230)),  # purple
    ((40, 200, 230), (30, 30, 30)),  # yellow
)

TABLES: tuple[BGR, ...] = (
    (60, 110, 40),  # green felt
    (70, 110, 160),  # wood
    (120, 120, 120),  # grey
    (90, 50, 30),  # dark blue
    (200, 200, 195),  # pale tray
)


@dataclass(frozen=True)
class PolyDie:
    """One die on the table: kind, face, centre and radius in pixels, turn, look."""

    kind: int
    face: int
    centre: tuple[float, float]
    radius: float
    angle: float  # degrees, counter-clockwise as drawn
    body: BGR
    ink: BGR
    style: Style


Poly = NDArray[np.float64]


def _ngon(count: int, radius: float, start: float = -90.0) -> Poly:
    """A regular polygon's corners (y down), the first at ``start`` degrees."""
    angles = np.radians(start + 360.0 * np.arange(count) / count)
    return np.stack([np.cos(angles), np.sin(angles)], axis=1) * radius


# Outlines in units of the die's radius, drawn upright (y down).
D10_OUTLINE = np.array([(0, -1.1), (0.62, 0.0), (0.5, 0.55), (0, 0.7), (-0.5, 0.55), (-0.62, 0.0)])
D10_KITE = np.array([(0, -1.1), (0.55, -0.05), (0, 0.38), (-0.55, -0.05)])
D10_SCALE = 1.15
D4_RADIUS = 1.25


def outline(kind: int) -> Poly:
    """A die's silhouette from overhead, in units of its radius."""
    if kind == 4:
        return _ngon(3, D4_RADIUS)
    if kind == 6:
        return _ngon(4, 0.95, 45.0)
    if kind == 8:
        return _ngon(6, 1.0, -90.0)
    return D10_OUTLINE * D10_SCALE


def shade(colour: BGR, factor: float) -> BGR:
    return (
        int(min(255, colour[0] * factor)),
        int(min(255, colour[1] * factor)),
        int(min(255, colour[2] * factor)),
    )


class _Patch:
    """A die drawn upright on its own canvas (colour and coverage), then turned onto a frame."""

    def __init__(self, radius: float) -> None:
        self.unit = radius
        self.side = math.ceil(radius * 2.8) | 1
        self.half = self.side / 2
        self.colour = np.zeros((self.side, self.side, 3), np.uint8)
        self.mask = np.zeros((self.side, self.side), np.uint8)

    def px(self, points: Poly) -> NDArray[np.int32]:
        return np.round(points * self.unit * 16 + self.half * 16).astype(np.int32)

    def fill(self, points: Poly, colour: BGR) -> None:
        pts = self.px(points)
        cv2.fillPoly(self.colour, [pts], colour, cv2.LINE_AA, shift=4)
        cv2.fillPoly(self.mask, [pts], (255,), cv2.LINE_AA, shift=4)

    def edges(self, points: Poly, colour: BGR) -> None:
        pts = self.px(points)
        cv2.polylines(self.colour, [pts], True, colour, 1, cv2.LINE_AA, shift=4)

    def text(
        self, label: str, at: Poly, up_deg: float, height: float, style: Style, ink: BGR
    ) -> None:
        """A numeral centred at ``at`` (radius units) whose top points ``up_deg`` from up."""
        size = max(16, int(height * self.unit * 2.2))
        canvas = np.zeros((size * 2, size * 2), np.uint8)
        scale = cv2.getFontScaleFromHeight(style.font, max(4, int(height * self.unit * 2)), 1)
        thick = max(1, round(style.weight * height * self.unit * 2))
        (w, h), _ = cv2.getTextSize(label, style.font, scale, thick)
        org = (size - w // 2, size + h // 2)
        cv2.putText(canvas, label, org, style.font, scale, (255,), thick, cv2.LINE_AA)
        if label in ("6", "9"):  # the underline that tells them apart on d8s and d10s
            y = org[1] + max(2, thick + 1)
            cv2.line(canvas, (org[0], y), (org[0] + w, y), (255,), thick, cv2.LINE_AA)
        centre = (self.half + at[0] * self.unit, self.half + at[1] * self.unit)
        turn = cv2.getRotationMatrix2D((size, size), -up_deg, 0.5).astype(np.float64)
        turn[:, 2] += np.array(centre, np.float64) - (size, size)
        glyph = cv2.warpAffine(canvas, turn, (self.side, self.side)).astype(np.float32) / 255
        glyph *= self.mask.astype(np.float32) / 255
        ink_layer = np.array(ink, np.float32)
        blend = (
            self.colour.astype(np.float32) * (1 - glyph[..., None]) + ink_layer * glyph[..., None]
        )
        self.colour = blend.astype(np.uint8)

    def pips(self, face: int, ink: BGR) -> None:
        for sx, sy in _PIPS[face]:  # the flat dice's pip places
            centre = (
                int((self.half + sx * 0.4 * self.unit) * 16),
                int((self.half + sy * 0.4 * self.unit) * 16),
            )
            cv2.circle(
                self.colour, centre, int(0.13 * self.unit * 16), ink, -1, cv2.LINE_AA, shift=4
            )


def label(kind: int, value: int) -> str:
    """What a die prints for ``value``: ten on a d10 is 0."""
    return "0" if kind == 10 and value == 10 else str(value)


def _draw_d4(patch: _Patch, die: PolyDie) -> None:
    corners = _ngon(3, D4_RADIUS)
    others = [value for value in range(1, 5) if value != die.face]
    for i in range(3):
        j = (i + 1) % 3
        face = np.array([(0.0, 0.0), corners[i], corners[j]])
        patch.fill(face, shade(die.body, (0.82, 1.0, 0.9)[i]))
        middle = (corners[i] + corners[j]) / 2
        away = math.degrees(math.atan2(-middle[0], middle[1]))  # top towards the apex
        patch.text(label(4, die.face), middle * 0.55, away, 0.34, die.style, die.ink)
        for k, corner in ((i, corners[i]), (j, corners[j])):
            spot = corner * 0.62 + middle * 0.2
            up = math.degrees(math.atan2(corner[0], -corner[1]))
            patch.text(label(4, others[k]), spot, up, 0.2, die.style, die.ink)
    for corner in corners:
        patch.edges(np.array([(0.0, 0.0), corner]), shade(die.body, 0.6))


def _draw(patch: _Patch, die: PolyDie) -> None:
    """The die upright on its patch."""
    style, ink = die.style, die.ink
    height = 0.55 * style.scale
    if die.kind == 4:
        _draw_d4(patch, die)
    elif die.kind == 6:
        patch.fill(outline(6), die.body)
        if style.pips:
            patch.pips(die.face, ink)
        else:
            patch.text(str(die.face), np.zeros(2), 0.0, height * 1.2, style, ink)
    elif die.kind == 8:
        patch.fill(outline(8), shade(die.body, 0.8))
        top = _ngon(3, 1.0)
        patch.fill(top, die.body)
        patch.text(str(die.face), np.array([0.0, 0.08]), 0.0, height, style, ink)
    else:
        patch.fill(D10_OUTLINE * D10_SCALE, shade(die.body, 0.78))
        patch.fill(D10_KITE * D10_SCALE, die.body)
        patch.text(label(10, die.face), np.array([0.0, -0.25]), 0.0, height, style, ink)


def draw_die(frame: Image, die: PolyDie) -> None:
    """Draw one die (and its soft shadow) onto ``frame`` in place."""
    patch = _Patch(die.radius)
    _draw(patch, die)
    turn = cv2.getRotationMatrix2D((patch.half, patch.half), die.angle, 1.0).astype(np.float64)
    turn[:, 2] += np.array(die.centre, np.float64) - (patch.half, patch.half)
    h, w = frame.shape[:2]
    colour = cv2.warpAffine(patch.colour, turn, (w, h), flags=cv2.INTER_LINEAR)
    cover = cv2.warpAffine(patch.mask, turn, (w, h)).astype(np.float32) / 255
    shadow = cv2.GaussianBlur(np.roll(cover, (2, 2), (0, 1)), (0, 0), 2.0) * 0.35
    out = frame.astype(np.float32) * (1 - shadow[..., None])
    out = out * (1 - cover[..., None]) + colour.astype(np.float32) * cover[..., None]
    frame[:] = np.clip(out, 0, 255).astype(np.uint8)


def contrasting(body: BGR, table: BGR) -> bool:
    """Whether a die stands out from the table enough to be found (a limit, said so)."""
    return float(np.abs(np.subtract(body, table, dtype=np.float64)).sum()) > 120


def random_die(
    rng: np.random.Generator,
    kind: int,
    centre: tuple[float, float],
    radius: float,
    styles: Sequence[Style],
    table: BGR,
) -> PolyDie:
    choices = [pair for pair in BODIES if contrasting(pair[0], table)]
    body, ink = choices[int(rng.integers(len(choices)))]
    style = styles[int(rng.integers(len(styles)))]
    return PolyDie(
        kind=kind,
        face=int(rng.integers(1, kind + 1)),
        centre=centre,
        radius=radius,
        angle=float(rng.uniform(0, 360)),
        body=body,
        ink=ink,
        # each die's own stroke weight and numeral size around its family's
        style=replace(
            style,
            weight=float(rng.uniform(0.75, 1.3)) * style.weight,
            scale=float(rng.uniform(0.85, 1.15)) * style.scale,
        ),
    )


@dataclass(frozen=True)
class PoolScene:
    """A rendered pool: the frame and the dice in it."""

    frame: Image
    dice: tuple[PolyDie, ...]


def finish(frame: Image, rng: np.random.Generator, blur: float, noise: float) -> Image:
    """Camera blur, light falloff and sensor noise."""
    out: NDArray[np.float64] = frame.astype(np.float64)
    if blur > 0:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), blur), np.float64)
    h, w = frame.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    light = 1.0 - 0.15 * (((xx - w * rng.uniform(0.3, 0.7)) / w) ** 2 + ((yy - h / 2) / h) ** 2)
    out = out * light[..., None] + rng.normal(0, noise, out.shape)
    finished: Image = np.clip(out, 0, 255).astype(np.uint8)
    return finished


def render_pool(
    rng: np.random.Generator,
    kinds: Sequence[int],
    *,
    styles: Sequence[Style] = TRAINED,
    size: tuple[int, int] = (640, 480),
    radius: tuple[float, float] = (20.0, 30.0),
    table: BGR | None = None,
) -> PoolScene:
    """A frame of ``kinds`` rolled on a table, no two dice touching."""
    w, h = size
    table = table if table is not None else TABLES[int(rng.integers(len(TABLES)))]
    frame = np.empty((h, w, 3), np.uint8)
    frame[:] = table
    placed: list[PolyDie] = []
    for kind in kinds:
        r = float(rng.uniform(*radius))
        for _ in range(200):
            centre = (
                float(rng.uniform(r * 1.4, w - r * 1.4)),
                float(rng.uniform(r * 1.4, h - r * 1.4)),
            )
            if all(math.dist(centre, d.centre) > 1.35 * (r + d.radius) for d in placed):
                break
        else:
            raise ValueError(
                f"{len(kinds)} dice do not fit a {w}x{h} frame; render fewer or larger frames"
            )
        placed.append(random_die(rng, kind, centre, r, styles, table))
    for die in placed:
        draw_die(frame, die)
    return PoolScene(
        finish(frame, rng, float(rng.uniform(0.3, 1.0)), float(rng.uniform(1.0, 4.0))),
        tuple(placed),
    )
