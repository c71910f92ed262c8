"""The dice camera sees a hand in the picture, and never takes dice or a desk for one."""

from __future__ import annotations

import numpy as np

from companion.vision.hand_in_view import hand_in_view
from hardware.simulator.dice_oblique import TABLES, HandPose, random_oblique_scene, render_oblique


def frames(hand: HandPose, count: int) -> list[np.ndarray]:
    shots = []
    for seed in range(count):
        rng = np.random.default_rng([7, seed])
        scene = random_oblique_scene(rng, (0.0, 45.0), hand=hand)
        # Every table, the skin-coloured pale wood first.
        table = TABLES[seed % len(TABLES)]
        scene = type(scene)(scene.dice, scene.tilt_deg, scene.lean_deg, scene.distance, table, hand)
        shots.append(render_oblique(scene, rng).frame)
    return shots


def test_a_hand_holding_a_die_or_reaching_in_is_seen() -> None:
    seen = [hand_in_view(frame) for hand in ("holding", "reaching") for frame in frames(hand, 5)]
    assert sum(seen) >= 8


def test_dice_on_any_table_are_not_a_hand() -> None:
    assert not any(hand_in_view(frame) for frame in frames("none", 10))
