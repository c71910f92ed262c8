"""Which compartment is at the bottom, or the divider it cannot be told from (issue 34:
"lowest compartment right on 99 % of the frames it reads"). A reading is only as good as
its uncertainty: nearer a divider than that, the camera cannot say which side is lower, so
it says so instead of naming one."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from companion.games.hamster_wheel.table import MIN_DIVIDER_MARGIN_DEG, bottom_of
from companion.vision.wheel import WheelReading, WheelTracker


@given(
    turns=st.floats(-20.0, 20.0),
    uncertainty=st.floats(0.0, 6.0),
    error=st.floats(-1.0, 1.0),
    sections=st.integers(6, 24),
)
def test_a_compartment_given_is_right_for_any_error_within_the_uncertainty(
    turns: float, uncertainty: float, error: float, sections: int
) -> None:
    margin = max(MIN_DIVIDER_MARGIN_DEG, uncertainty)
    given_now = bottom_of(turns, uncertainty, sections)
    true_position = -(turns + error * margin * 0.999 / 360.0) * sections
    if isinstance(given_now, int):
        assert round(true_position) % sections == given_now
    else:
        first, second = given_now
        assert second == (first + 1) % sections
        assert round(true_position) % sections in given_now


def test_the_two_either_side_of_the_divider_are_named_round_the_ring() -> None:
    step = 1 / 12  # a turn of one compartment
    assert bottom_of(-3 * step, 1.0, 12) == 3
    assert bottom_of(-3.5 * step, 1.0, 12) == (3, 4)
    assert bottom_of(-11.5 * step, 1.0, 12) == (11, 0)  # between 12 and 1
    assert bottom_of(-(3.5 + 2.0 / 30) * step, 1.0, 12) == 4  # 2 degrees past it: clear
    assert bottom_of(-(3.5 + 2.0 / 30) * step, 2.5, 12) == (3, 4)  # not with 2.5 of doubt


def test_the_rolls_uncertainty_is_the_first_and_last_readings_together() -> None:
    """The steps add up to the last angle less the first, so a long game's roll is no
    less certain than a short one's."""
    tracker = WheelTracker()
    assert tracker.roll_uncertainty_deg == 0.0
    for angle, doubt in ((10.0, 0.6), (40.0, 3.0), (80.0, 0.8)):
        tracker.update(WheelReading(False, angle_deg=angle, angle_uncertainty_deg=doubt))
    tracker.update(WheelReading(True, reason="a hand is over the table"))
    assert tracker.total_roll_deg == 70.0
    assert math.isclose(tracker.roll_uncertainty_deg, math.hypot(0.6, 0.8))
