"""Dice seen by a tilted webcam: a side face is never counted as another die."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.dice import read_dice
from hardware.simulator.dice_oblique import random_oblique_scene, render_oblique


@pytest.mark.parametrize("seed", [132, 178])
def test_a_tilted_roll_of_two_dice_reads_as_two(seed: int) -> None:
    """Drawn frames, webcam tipped 25-45 degrees, where a side face was read as a third die
    (before side faces were told apart by how they are lit)."""
    rng = np.random.default_rng(seed)
    scene = random_oblique_scene(rng, (25.0, 45.0), count=2, webcam_lean=seed % 2 == 0)
    rendered = render_oblique(scene, rng)
    assert len(read_dice(rendered.frame)) == 2


def test_the_renders_show_side_faces_between_each_top_and_the_camera() -> None:
    """The renders this rests on: a tipped camera sees each die's sides, and they lie
    towards the point under the camera from its top face, as a webcam sees them."""
    rng = np.random.default_rng(5)
    scene = random_oblique_scene(rng, (35.0, 40.0), count=3)
    tipped = render_oblique(scene, rng)
    nadir = np.array(tipped.nadir)
    for truth in tipped.dice:
        assert truth.sides
        for side in truth.sides:
            top_far = np.linalg.norm(np.array(truth.centre) - nadir)
            assert np.linalg.norm(side.mean(axis=0) - nadir) < top_far
