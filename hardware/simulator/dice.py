"""Dice on a bare table: scenes of plain and varied dice, rendered with the ground truth of
each die's value and outline in the image."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.tabletop import table_marker_layout
from hardware.simulator.camera import _finish, _plane_for, _pose_for
from hardware.simulator.common import (
    BGR,
    TABLE_COLOUR,
    Conditions,
    DieTruth,
    Rendered,
    TableTexture,
)
from hardware.simulator.die import DIE_STYLES, Die, _draw_die
from hardware.simulator.plane import _draw_markers


@dataclass(frozen=True)
class DiceScene:
    """Dice on a bare table of ``table_size`` die edges; ``markers`` adds corners 10..13.

    ``table_colour`` None keeps the grey cloth of ``TABLE_COLOUR``; ``table_texture`` adds
    wood grain or felt fuzz to whichever colour the table is.
    """

    dice: tuple[Die, ...]
    table_size: tuple[float, float] = (12.0, 9.0)
    markers: bool = False
    table_colour: BGR | None = None
    table_texture: TableTexture = "cloth"


def render_dice(scene: DiceScene, rng: np.random.Generator, conditions: Conditions) -> Rendered:
    """Dice on the table; the ground truth lists each die's value and image outline."""
    width, height = scene.table_size
    region = (0.0, 0.0, width, height)
    pose = _pose_for(conditions, region, rng)
    table = TABLE_COLOUR if scene.table_colour is None else scene.table_colour
    plane = _plane_for(pose, region, rng, table, scene.table_texture)
    if scene.markers:
        _draw_markers(plane, table_marker_layout(scene.table_size))
    outlines = [_draw_die(plane, die) for die in scene.dice]
    rendered = _finish(plane, pose, conditions, region, rng)
    truths = []
    for die, outline in zip(scene.dice, outlines, strict=True):
        corners = cv2.perspectiveTransform(outline[None], pose)[0]
        centre = cv2.perspectiveTransform(np.array([[die.centre]], np.float64), pose)[0, 0]
        truths.append(DieTruth(die.value, (float(centre[0]), float(centre[1])), corners))
    return Rendered(
        frame=rendered.frame,
        board_to_image=rendered.board_to_image,
        hand_mask=rendered.hand_mask,
        hand_over_board=rendered.hand_over_board,
        dice=tuple(truths),
    )


def random_dice_scene(
    rng: np.random.Generator,
    count: int,
    table_size: tuple[float, float] = (12.0, 9.0),
    touching: bool = False,
    varied: bool = False,
) -> DiceScene:
    """``count`` dice of random faces, colours and angles; ``touching`` packs them in pairs.

    ``varied`` also draws the looks players really own (coloured pips, marbled and
    translucent bodies, a table of another colour and grain). Its extra random draws come
    after the ones a default scene makes, so ``varied=False`` scenes stay as they were.
    """
    palette: tuple[tuple[BGR, BGR], ...] = (
        ((235, 235, 235), (20, 20, 20)),
        ((30, 30, 190), (240, 240, 240)),
        ((25, 25, 25), (240, 240, 240)),
        ((40, 200, 230), (20, 20, 20)),
        ((170, 80, 30), (240, 240, 240)),
        ((60, 150, 50), (240, 240, 240)),
    )
    dice: list[Die] = []
    for _ in range(count):
        body, pips = palette[int(rng.integers(len(palette)))]
        angle = float(rng.uniform(0, 90))
        for _attempt in range(500):
            if touching and dice and rng.random() < 0.6:
                anchor = dice[-1]
                angle = anchor.angle_deg
                side = float(rng.choice([0.0, 90.0, 180.0, 270.0]))
                a = math.radians(anchor.angle_deg + side)
                centre = (
                    anchor.centre[0] + 1.02 * math.cos(a),
                    anchor.centre[1] + 1.02 * math.sin(a),
                )
            else:
                centre = (
                    float(rng.uniform(1.0, table_size[0] - 1.0)),
                    float(rng.uniform(1.0, table_size[1] - 1.0)),
                )
            inside = (
                0.8 <= centre[0] <= table_size[0] - 0.8 and 0.8 <= centre[1] <= table_size[1] - 0.8
            )
            apart = all(math.dist(centre, other.centre) >= 1.0 for other in dice)
            if inside and apart:
                break
        else:
            raise ValueError(f"Cannot fit {count} dice on a {table_size} table.")
        die = Die(int(rng.integers(1, 7)), centre, angle, 1.0, body, pips)
        dice.append(_vary_die(die, rng) if varied else die)
    if not varied:
        return DiceScene(dice=tuple(dice), table_size=table_size)
    table_colour, textures = VARIED_TABLES[int(rng.integers(len(VARIED_TABLES)))]
    texture = textures[int(rng.integers(len(textures)))]
    return DiceScene(
        dice=tuple(dice), table_size=table_size, table_colour=table_colour, table_texture=texture
    )


# Body and pip colours of plain dice with coloured pips (BGR).
COLOURED_PIPS: tuple[tuple[BGR, BGR], ...] = (
    ((40, 200, 230), (35, 35, 195)),  # yellow, red pips
    ((30, 30, 190), (45, 190, 235)),  # red, gold pips
    ((235, 235, 235), (35, 35, 195)),  # white, red pips
    ((235, 235, 235), (170, 80, 30)),  # white, blue pips
    ((25, 25, 25), (50, 185, 230)),  # black, gold pips
    ((25, 25, 25), (40, 40, 200)),  # black, red pips
    ((60, 150, 50), (40, 215, 240)),  # green, yellow pips
    ((130, 40, 110), (240, 240, 240)),  # purple, white pips
    ((20, 120, 240), (25, 25, 25)),  # orange, black pips
    ((150, 60, 20), (45, 190, 235)),  # blue, gold pips
)


# Marbled dice: body, swirl colours, pips. ``_vary_die`` adds one more wisp close to the
# pip colour on purpose: a reader must tell a streak from a pip by shape, not colour.
MARBLED: tuple[tuple[BGR, tuple[BGR, ...], BGR], ...] = (
    ((160, 70, 25), ((235, 225, 215), (60, 25, 10)), (240, 240, 240)),  # blue/white
    ((50, 130, 40), ((20, 40, 15), (220, 235, 220)), (235, 235, 235)),  # green/black
    ((35, 35, 180), ((40, 180, 230), (25, 20, 90)), (235, 235, 235)),  # red/yellow
    ((120, 40, 110), ((230, 215, 230), (60, 20, 50)), (230, 230, 230)),  # purple/white
    ((40, 40, 40), ((210, 210, 210), (110, 110, 110)), (40, 190, 230)),  # black/grey, gold
    ((200, 215, 225), ((70, 100, 140), (45, 60, 90)), (30, 30, 30)),  # cream/brown, black
    ((30, 150, 220), ((20, 80, 180), (30, 30, 40)), (25, 25, 25)),  # amber/orange, black
)


# Translucent bodies (the colour the plastic tints things) and their painted pips.
TRANSLUCENT: tuple[tuple[BGR, BGR], ...] = (
    ((40, 40, 200), (240, 240, 240)),  # red
    ((200, 110, 30), (240, 240, 240)),  # blue
    ((60, 170, 50), (240, 240, 240)),  # green
    ((40, 170, 230), (30, 30, 30)),  # amber
    ((160, 60, 140), (240, 240, 240)),  # purple
    ((225, 225, 220), (30, 30, 30)),  # clear/smoke
    ((50, 45, 45), (240, 240, 240)),  # smoky black
)


# Table colours (None: the default grey cloth) with the surfaces each may have.
VARIED_TABLES: tuple[tuple[BGR | None, tuple[TableTexture, ...]], ...] = (
    (None, ("cloth",)),
    ((225, 228, 230), ("cloth",)),  # white tray
    ((40, 62, 98), ("wood", "cloth")),  # dark wood
    ((95, 140, 185), ("wood",)),  # light wood
    ((30, 30, 33), ("felt", "cloth")),  # black felt
    ((45, 105, 35), ("felt",)),  # green felt
    ((130, 75, 35), ("felt", "cloth")),  # blue
)


def _vary_die(die: Die, rng: np.random.Generator) -> Die:
    """Restyle a plain die: plain / marbled / translucent about 50/25/25, plain ones half
    the time with coloured pips."""
    style = DIE_STYLES[int(rng.choice(3, p=[0.5, 0.25, 0.25]))]
    if style == "plain":
        if rng.random() < 0.5:
            return die
        body, pips = COLOURED_PIPS[int(rng.integers(len(COLOURED_PIPS)))]
        return replace(die, colour=body, pip_colour=pips)
    if style == "marbled":
        body, streaks, pips = MARBLED[int(rng.integers(len(MARBLED)))]
        seed = int(rng.integers(2**31))
        wisp = tuple(round(0.8 * p + 0.2 * b) for p, b in zip(pips, body, strict=True))
        streaks = (*streaks, (wisp[0], wisp[1], wisp[2]))
        return replace(
            die, colour=body, pip_colour=pips, style=style, streaks=streaks, pattern_seed=seed
        )
    body, pips = TRANSLUCENT[int(rng.integers(len(TRANSLUCENT)))]
    see_through = float(rng.uniform(0.3, 0.6))
    return replace(die, colour=body, pip_colour=pips, style=style, see_through=see_through)
