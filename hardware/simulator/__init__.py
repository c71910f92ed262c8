"""Synthetic overhead frames of the game table, with the ground truth that produced them.

Tests, the bench and the demo mode need camera frames whose answer is known. A scene is
plain data (belt, dice or wheel); it is drawn flat in the table plane, then seen through a
random camera pose (a homography), uneven light, soft shadows, sensor noise and sometimes a
hand reaching in. Every random choice comes from the caller's seeded Generator, so a
failing frame can be rebuilt exactly from its seed.

One module per subject: ``common`` (colours, conditions, the rendered frame), ``plane``
(drawing in table units), ``camera`` (photographing the plane), ``belt``, ``die`` and
``dice``, ``wheel``, and ``video`` (the wheel over time). Every name is re-exported here,
so ``from hardware.simulator import X`` works whichever module X lives in.
"""

from __future__ import annotations

from hardware.simulator.belt import BELT_REGION as BELT_REGION
from hardware.simulator.belt import BeltScene as BeltScene
from hardware.simulator.belt import _draw_asterisk as _draw_asterisk
from hardware.simulator.belt import _draw_belt as _draw_belt
from hardware.simulator.belt import _draw_piece as _draw_piece
from hardware.simulator.belt import _free_pit_x as _free_pit_x
from hardware.simulator.belt import random_belt_scene as random_belt_scene
from hardware.simulator.belt import render_belt as render_belt
from hardware.simulator.camera import _camera_pose as _camera_pose
from hardware.simulator.camera import _covers as _covers
from hardware.simulator.camera import _finish as _finish
from hardware.simulator.camera import _hand as _hand
from hardware.simulator.camera import _int_point as _int_point
from hardware.simulator.camera import _pixels_per_unit as _pixels_per_unit
from hardware.simulator.camera import _plane_for as _plane_for
from hardware.simulator.camera import _pose_for as _pose_for
from hardware.simulator.camera import _soft as _soft
from hardware.simulator.common import ARUCO_DICTIONARY as ARUCO_DICTIONARY
from hardware.simulator.common import BGR as BGR
from hardware.simulator.common import HAMSTER_COLOURS as HAMSTER_COLOURS
from hardware.simulator.common import INK as INK
from hardware.simulator.common import PIT_COLOUR as PIT_COLOUR
from hardware.simulator.common import SKIN_TONES as SKIN_TONES
from hardware.simulator.common import STRIP_COLOUR as STRIP_COLOUR
from hardware.simulator.common import TABLE_COLOUR as TABLE_COLOUR
from hardware.simulator.common import WHEEL_PIECE_COLOURS as WHEEL_PIECE_COLOURS
from hardware.simulator.common import WOOD as WOOD
from hardware.simulator.common import Conditions as Conditions
from hardware.simulator.common import DieTruth as DieTruth
from hardware.simulator.common import Homography as Homography
from hardware.simulator.common import Image as Image
from hardware.simulator.common import Point as Point
from hardware.simulator.common import Rendered as Rendered
from hardware.simulator.common import TableTexture as TableTexture
from hardware.simulator.common import _lighten as _lighten
from hardware.simulator.common import _shade as _shade
from hardware.simulator.dice import COLOURED_PIPS as COLOURED_PIPS
from hardware.simulator.dice import MARBLED as MARBLED
from hardware.simulator.dice import TRANSLUCENT as TRANSLUCENT
from hardware.simulator.dice import VARIED_TABLES as VARIED_TABLES
from hardware.simulator.dice import DiceScene as DiceScene
from hardware.simulator.dice import _vary_die as _vary_die
from hardware.simulator.dice import random_dice_scene as random_dice_scene
from hardware.simulator.dice import render_dice as render_dice
from hardware.simulator.die import _CORNERS as _CORNERS
from hardware.simulator.die import _PIPS as _PIPS
from hardware.simulator.die import _WHITE as _WHITE
from hardware.simulator.die import DIE_STYLES as DIE_STYLES
from hardware.simulator.die import Die as Die
from hardware.simulator.die import DieStyle as DieStyle
from hardware.simulator.die import _die_body as _die_body
from hardware.simulator.die import _die_pips as _die_pips
from hardware.simulator.die import _die_top as _die_top
from hardware.simulator.die import _draw_die as _draw_die
from hardware.simulator.die import _draw_styled_die as _draw_styled_die
from hardware.simulator.die import _marble as _marble
from hardware.simulator.die import _smooth_noise as _smooth_noise
from hardware.simulator.plane import _draw_markers as _draw_markers
from hardware.simulator.plane import _Plane as _Plane
from hardware.simulator.plane import _table_texture as _table_texture
from hardware.simulator.video import _under_band as _under_band
from hardware.simulator.video import wheel_video as wheel_video
from hardware.simulator.wheel import PIECE_SHAPES as PIECE_SHAPES
from hardware.simulator.wheel import VISIBLE_RIM_DEG as VISIBLE_RIM_DEG
from hardware.simulator.wheel import PieceShape as PieceShape
from hardware.simulator.wheel import WheelPiece as WheelPiece
from hardware.simulator.wheel import WheelScene as WheelScene
from hardware.simulator.wheel import _draw_wheel as _draw_wheel
from hardware.simulator.wheel import _draw_wheel_piece as _draw_wheel_piece
from hardware.simulator.wheel import random_fallen_spot as random_fallen_spot
from hardware.simulator.wheel import render_wheel as render_wheel

__all__ = [
    "ARUCO_DICTIONARY",
    "BELT_REGION",
    "BGR",
    "COLOURED_PIPS",
    "DIE_STYLES",
    "HAMSTER_COLOURS",
    "INK",
    "MARBLED",
    "PIECE_SHAPES",
    "PIT_COLOUR",
    "SKIN_TONES",
    "STRIP_COLOUR",
    "TABLE_COLOUR",
    "TRANSLUCENT",
    "VARIED_TABLES",
    "VISIBLE_RIM_DEG",
    "WHEEL_PIECE_COLOURS",
    "WOOD",
    "BeltScene",
    "Conditions",
    "DiceScene",
    "Die",
    "DieStyle",
    "DieTruth",
    "Homography",
    "Image",
    "PieceShape",
    "Point",
    "Rendered",
    "TableTexture",
    "WheelPiece",
    "WheelScene",
    "random_belt_scene",
    "random_dice_scene",
    "random_fallen_spot",
    "render_belt",
    "render_dice",
    "render_wheel",
    "wheel_video",
]
