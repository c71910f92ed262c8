"""One die seen from above: its rounded top face and pips, plain, marbled or translucent."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.simulator.common import BGR, Point, _shade
from hardware.simulator.plane import _Plane

DieStyle = Literal["plain", "marbled", "translucent"]


DIE_STYLES: tuple[DieStyle, ...] = ("plain", "marbled", "translucent")


@dataclass(frozen=True)
class Die:
    """One die lying on the table, in table units (a die's edge is ``size``)."""

    value: int
    centre: Point
    angle_deg: float = 0.0
    size: float = 1.0
    colour: BGR = (235, 235, 235)
    pip_colour: BGR = (20, 20, 20)
    # The looks players' dice really have; the defaults draw the flat plain die of old.
    style: DieStyle = "plain"
    streaks: tuple[BGR, ...] = ()  # marbled: the swirl colours laid over ``colour``
    see_through: float = 0.45  # translucent: share of the table that shows through the body
    pattern_seed: int = 0  # marbled: which swirl (a seed, so the scene stays plain data)


_PIPS: Mapping[int, tuple[Point, ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


_CORNERS: tuple[tuple[int, int], ...] = ((-1, -1), (1, -1), (1, 1), (-1, 1))


_WHITE: BGR = (255, 255, 255)


def _draw_die(plane: _Plane, die: Die) -> NDArray[np.float64]:
    """A die's top face with rounded corners and its pips; returns its corners (table units).

    A plain die is filled straight onto the table; the other looks need per-pixel colour,
    so they draw the same shapes as masks and blend (see ``_draw_styled_die``).
    """
    c, s = math.cos(math.radians(die.angle_deg)), math.sin(math.radians(die.angle_deg))

    def at(dx: float, dy: float) -> Point:
        return (die.centre[0] + dx * c - dy * s, die.centre[1] + dx * s + dy * c)

    half = die.size / 2
    outline = [at(half * sx, half * sy) for sx, sy in _CORNERS]
    # A translucent die lets light through, so it casts a paler shadow.
    darkness = 0.8 if die.style == "translucent" else 0.65
    plane.poly(
        [at(half * sx + 0.05, half * sy + 0.06) for sx, sy in _CORNERS],
        _shade(plane.table, darkness),
    )
    if die.style == "plain":
        rim = _shade(die.colour, 0.85)
        _die_body(plane, die, at, rim, die.colour)
        _die_pips(plane, die, at, die.pip_colour)
    else:
        _draw_styled_die(plane, die, at)
    return np.array(outline, np.float64)


def _die_body(
    plane: _Plane, die: Die, at: Callable[[float, float], Point], rim: BGR, top: BGR | None
) -> None:
    """The rounded outline in ``rim`` and, unless ``top`` is None, the flat top face."""
    half = die.size / 2
    corner = die.size * 0.12
    plane.poly([at(half * sx, half * sy - corner * sy) for sx, sy in _CORNERS], rim)
    plane.poly([at(half * sx - corner * sx, half * sy) for sx, sy in _CORNERS], rim)
    for sx, sy in _CORNERS:
        plane.disc(at((half - corner) * sx, (half - corner) * sy), corner, rim)
    if top is not None:
        _die_top(plane, die, at, top)


def _die_top(plane: _Plane, die: Die, at: Callable[[float, float], Point], top: BGR) -> None:
    inner = die.size / 2 * 0.9
    plane.poly([at(inner * sx, inner * sy) for sx, sy in _CORNERS], top)


def _die_pips(plane: _Plane, die: Die, at: Callable[[float, float], Point], colour: BGR) -> None:
    for px, py in _PIPS[die.value]:
        plane.disc(at(px * die.size * 0.26, py * die.size * 0.26), die.size * 0.085, colour)


def _draw_styled_die(plane: _Plane, die: Die, at: Callable[[float, float], Point]) -> None:
    """A marbled or translucent die: masks of body, top and pips in a window round the
    die, a per-pixel body colour, then body and pips blended over the table."""
    reach = die.size * 0.8  # past the corners at any angle
    ppu = plane.ppu
    height, width = plane.image.shape[:2]
    ix0 = max(0, math.floor((die.centre[0] - reach - plane.x0) * ppu))
    iy0 = max(0, math.floor((die.centre[1] - reach - plane.y0) * ppu))
    ix1 = min(width, math.ceil((die.centre[0] + reach - plane.x0) * ppu) + 1)
    iy1 = min(height, math.ceil((die.centre[1] + reach - plane.y0) * ppu) + 1)
    if ix1 <= ix0 or iy1 <= iy0:
        return
    origin = (plane.x0 + ix0 / ppu, plane.y0 + iy0 / ppu)
    shape = (iy1 - iy0, ix1 - ix0)
    body, top, pips = (_Plane.blank(origin, ppu, shape) for _ in range(3))
    _die_body(body, die, at, _WHITE, _WHITE)
    _die_top(top, die, at, _WHITE)
    _die_pips(pips, die, at, _WHITE)
    body_a, top_a, pip_a = (
        layer.image.astype(np.float32)[..., None] / 255.0 for layer in (body, top, pips)
    )

    # Each pixel's place on the die: u along its first edge, v along the second, -0.5..0.5.
    xs = origin[0] + np.arange(shape[1], dtype=np.float32)[None, :] / ppu - die.centre[0]
    ys = origin[1] + np.arange(shape[0], dtype=np.float32)[:, None] / ppu - die.centre[1]
    c, s = math.cos(math.radians(die.angle_deg)), math.sin(math.radians(die.angle_deg))
    u = np.asarray((xs * c + ys * s) / die.size, np.float32)
    v = np.asarray((-xs * s + ys * c) / die.size, np.float32)

    under = plane.image[iy0:iy1, ix0:ix1].astype(np.float32)
    colour = np.array(die.colour, np.float32)
    pip_strength = 1.0
    if die.style == "marbled":
        face = _marble(die, u, v)
        rim_colour = face * 0.85
    else:  # translucent: the table shows through, more so across the thin top than the rim
        t = die.see_through
        filtered = under * (0.35 + 0.65 * colour / 255.0)  # the plastic tints what it shows
        glow = 1.0 + 0.12 * np.clip(1.0 - 2.0 * np.maximum(np.abs(u), np.abs(v)), 0.0, 1.0)
        face = np.asarray(((1.0 - t) * colour + t * filtered) * glow[..., None], np.float32)
        rim_colour = (1.0 - t * 0.5) * colour * 0.7 + t * 0.5 * filtered
        pip_strength = 0.85  # painted pips on clear plastic look a little washed out
    surface = rim_colour * (1.0 - top_a) + face * top_a
    blended = under * (1.0 - body_a) + surface * body_a
    if die.style == "translucent":  # the underside's pips, faint and mirrored, seen through
        ghost = _Plane.blank(origin, ppu, shape)
        _die_pips(ghost, replace(die, value=7 - die.value), lambda x, y: at(-x, y), _WHITE)
        ghost_a = ghost.image.astype(np.float32)[..., None] / 255.0 * 0.18 * top_a
        blended = blended * (1.0 - ghost_a) + np.array(die.pip_colour, np.float32) * ghost_a
    pip_a = pip_a * pip_strength
    blended = blended * (1.0 - pip_a) + np.array(die.pip_colour, np.float32) * pip_a
    plane.image[iy0:iy1, ix0:ix1] = np.clip(blended + 0.5, 0, 255).astype(np.uint8)


def _smooth_noise(
    rng: np.random.Generator, u: NDArray[np.float32], v: NDArray[np.float32], cells: int
) -> NDArray[np.float32]:
    """Low-frequency noise (about ``cells`` bumps across a die) sampled at ``u``, ``v``."""
    grid = rng.normal(0.0, 1.0, (cells + 3, cells + 3)).astype(np.float32)
    fine = np.asarray(cv2.resize(grid, (64, 64), interpolation=cv2.INTER_CUBIC), np.float32)
    map_x = ((u + 0.5) * 40.0 + 12.0).astype(np.float32)
    map_y = ((v + 0.5) * 40.0 + 12.0).astype(np.float32)
    return np.asarray(
        cv2.remap(fine, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT), np.float32
    )


def _marble(die: Die, u: NDArray[np.float32], v: NDArray[np.float32]) -> NDArray[np.float32]:
    """The die's colour with swirling streaks of each streak colour: soft bands whose course
    is bent by smooth noise (a domain warp) and that fade in and out along their length,
    the first broad, the others narrower wisps. Fixed to the die (u, v), so the swirl turns
    with it, and drawn from its ``pattern_seed`` alone."""
    rng = np.random.default_rng(die.pattern_seed)
    face = np.broadcast_to(np.array(die.colour, np.float32), (*u.shape, 3)).copy()
    for k, streak in enumerate(die.streaks):
        warp = float(rng.uniform(0.2, 0.35))
        wu = u + warp * _smooth_noise(rng, u, v, 2)
        wv = v + warp * _smooth_noise(rng, u, v, 2)
        theta = float(rng.uniform(0, math.pi))
        along = wu * math.cos(theta) + wv * math.sin(theta)
        frequency = float(rng.uniform(1.0, 1.8)) if k == 0 else float(rng.uniform(1.8, 3.0))
        wave = np.abs(np.sin(math.pi * frequency * along + float(rng.uniform(0, 6.3))))
        width = 0.6 if k == 0 else float(rng.uniform(0.25, 0.4))
        band = np.clip(1.0 - wave / width, 0.0, 1.0)
        band = band * band * (3.0 - 2.0 * band)  # smoothstep: soft-edged, not a drawn line
        fade = np.clip(0.6 + 0.6 * _smooth_noise(rng, u, v, 3), 0.0, 1.0)
        weight = (band * fade * float(rng.uniform(0.75, 0.95)))[..., None]
        face = face * (1.0 - weight) + np.array(streak, np.float32) * weight
    return face
