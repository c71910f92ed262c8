"""The physical table as the camera sees it: where the printed markers, the belt and the
wheel's table area are, in table units (one unit = one belt cell).

Plain numbers only, shared by the things that must agree on them: the vision that reads a
frame (``companion.vision``), the marker sheets a player prints (``calibration``) and the
simulator that draws synthetic frames (``hardware.simulator``). Keeping them here lets the
simulator draw a table without importing the vision that will read it.

Belt coordinates: x runs across the belt (lane ``L`` covers ``L-1 <= x < L``), y along it
(row ``r`` covers ``r <= y < r+1``; row 0 is the Alligator Pit strip, row 10 the far end).
Every belt strip has a half-cell tab at each end where the asterisk strip carries its
asterisks; the four corner markers sit just outside the belt.
"""

from __future__ import annotations

from collections.abc import Mapping

LANES = 5
ROWS = 10
PIT_ROW = 0
TAB_WIDTH = 0.5
BELT_X0, BELT_X1 = -TAB_WIDTH, LANES + TAB_WIDTH
BELT_Y0, BELT_Y1 = 0.0, ROWS + 1.0

MARKER_SIDE = 1.0
MARKER_GAP = 0.3
# id -> (x of top-left corner, y of top-left corner, side), in table units; drawn upright.
MarkerLayout = Mapping[int, tuple[float, float, float]]
_LEFT = BELT_X0 - MARKER_GAP - MARKER_SIDE
_RIGHT = BELT_X1 + MARKER_GAP
_NEAR = BELT_Y0 - MARKER_GAP - MARKER_SIDE
_FAR = BELT_Y1 + MARKER_GAP
BOARD_MARKER_LAYOUT: MarkerLayout = {
    0: (_LEFT, _NEAR, MARKER_SIDE),  # Pit end, lane-1 side
    1: (_RIGHT, _NEAR, MARKER_SIDE),  # Pit end, lane-5 side
    2: (_RIGHT, _FAR, MARKER_SIDE),  # far end, lane-5 side
    3: (_LEFT, _FAR, MARKER_SIDE),  # far end, lane-1 side
}
ASTERISK_MARKER_IDS = (4, 5)

# The Hamster Wheel's table area, framed by markers 10..13 just inside its corners.
TABLE_SIZE = (16.0, 12.0)
TABLE_MARKER_SIDE = 1.0
TABLE_MARKER_INSET = 0.3
DEFAULT_DIVISIONS = 12
RIM_MARKER_ID = 6


def table_marker_layout(size: tuple[float, float] = TABLE_SIZE) -> MarkerLayout:
    """Corner markers 10..13 lying just inside the corners of a table area of ``size``."""
    width, height = size
    far_x = width - TABLE_MARKER_INSET - TABLE_MARKER_SIDE
    far_y = height - TABLE_MARKER_INSET - TABLE_MARKER_SIDE
    near = TABLE_MARKER_INSET
    return {
        10: (near, near, TABLE_MARKER_SIDE),
        11: (far_x, near, TABLE_MARKER_SIDE),
        12: (far_x, far_y, TABLE_MARKER_SIDE),
        13: (near, far_y, TABLE_MARKER_SIDE),
    }


TABLE_MARKER_LAYOUT = table_marker_layout()

# The Hamster Wheel as it stands on the table: an upright ring, axle horizontal. From above
# it is a band ``WHEEL_DEPTH`` wide and one diameter long. Its rotation is read from a
# printed strip of coded markers stuck round the outer rim (``RIM_MARKER_IDS``, evenly
# spaced, ids rising in the direction of building), where the strip passes the top.
CM_PER_UNIT = 4.7  # one table unit is a belt square, about 4.7 cm
WHEEL_RADIUS = 3.0  # about 28 cm across
WHEEL_DEPTH = 2.0
WHEEL_SECTIONS = 12
RIM_MARKER_IDS = tuple(range(20, 36))  # sixteen markers: one every 22.5 degrees
RIM_MARKER_FILL = 0.62  # a marker's side as a share of its slot along the rim
