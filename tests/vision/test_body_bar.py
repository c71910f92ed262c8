"""The body-bar study: its pip counter counts drawn pips, and each fold is read at settings
picked on the others."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware.simulator.die import _PIPS as SPOTS  # the pips' places, in thirds of a face
from training.body_bar import (
    EDGE_PER_SIZE,
    Looked,
    body_bar,
    body_grid,
    body_lightness,
    count_dark_pips,
    nested,
    pip_opinion,
)
from training.two_part_bar import Photo, figures


def _die(value: int, body: int, pip: int, edge: float = 30.0) -> np.ndarray:
    """The L channel of one die seen from above on a mid-grey cloth, drawn 4x and shrunk
    to a webcam's ``edge`` pixels, so the pips are as soft as in a photo."""
    big = np.full((400, 400), 120, np.uint8)
    scale = 4 * edge
    cv2.rectangle(big, (200 - int(scale / 2),) * 2, (200 + int(scale / 2),) * 2, (body,), -1)
    for dx, dy in SPOTS[value]:
        centre = (round(200 + dx * 0.29 * scale), round(200 + dy * 0.29 * scale))
        cv2.circle(big, centre, round(0.09 * scale), (pip,), -1)
    return cv2.resize(big, (100, 100), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("value", range(1, 7))
def test_the_pips_of_a_white_die_are_counted(value: int) -> None:
    lightness = _die(value, body=235, pip=25)
    size = 30.0 / EDGE_PER_SIZE  # the finder's size runs small, as the counter expects
    assert count_dark_pips(lightness, (49.5, 49.5), size) == value
    assert body_lightness(lightness, (49.5, 49.5), size) > 200


def test_a_dark_die_with_light_pips_has_no_dark_pips_to_count() -> None:
    lightness = _die(5, body=30, pip=240)
    assert count_dark_pips(lightness, (49.5, 49.5), 30.0 / EDGE_PER_SIZE) == 0
    assert body_lightness(lightness, (49.5, 49.5), 30.0 / EDGE_PER_SIZE) < 60


def _looked(label: int, read: int, sure: float, lightness: float, pips: int = 0) -> Looked:
    return Looked(label, read, False, sure, 1.0, lightness=lightness, pips=pips)


def test_dark_dice_keep_a_high_bar_while_white_ones_are_applied_lower() -> None:
    # Per fold: 100 white dice read right at 0.7, 2 dark dice read wrong at 0.92 and 100
    # dark dice read right at 0.99. A single bar of 0.85 would apply the wrong dark ones.
    photos = [
        Photo(
            fold,
            (
                *(_looked(3, 3, 0.70, 230.0) for _ in range(100)),
                *(_looked(5, 3, 0.92, 40.0) for _ in range(2)),
                *(_looked(2, 2, 0.99, 40.0) for _ in range(100)),
            ),
        )
        for fold in range(4)
        for _ in range(3)
    ]
    assert figures(photos, body_bar(0.85, 0.85, 120))["wrong"] == 24
    chosen, pooled = nested(photos, body_grid(), body_bar)
    assert all(settings[0] <= 0.70 and 0.92 < settings[1] <= 0.99 for settings in chosen.values())
    assert pooled["wrong"] == 0
    assert pooled["applied"] == 12 * 200


def test_an_agreeing_pip_count_applies_a_white_die_the_network_doubts() -> None:
    agreeing = _looked(4, 4, 0.65, 230.0, pips=4)
    disagreeing = _looked(4, 4, 0.65, 230.0, pips=3)
    dark = _looked(4, 4, 0.65, 40.0, pips=4)
    accept = pip_opinion(0.9, 0.6, 0.99, 120)
    assert accept(agreeing)
    assert not accept(disagreeing)
    assert not accept(dark)
