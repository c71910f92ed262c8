"""Dice seen by a tilted webcam: a side face is never counted as another die."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.dice import read_dice
from companion.vision.side_faces import beside_a_brighter_face
from hardware.simulator.dice_oblique import ObliqueRendered, random_oblique_scene, render_oblique


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


def _centred_on_a_side(rendered: ObliqueRendered, centre: tuple[float, float]) -> bool:
    """Whether a reported die sits on a side face and on no top face."""
    point = (float(centre[0]), float(centre[1]))

    def inside(outline: np.ndarray) -> bool:
        return cv2.pointPolygonTest(outline.astype(np.float32), point, False) >= 0

    tops = [truth.corners for truth in rendered.dice]
    sides = [side for truth in rendered.dice for side in truth.sides]
    return any(inside(side) for side in sides) and not any(inside(top) for top in tops)


def _tipped_40(seed: int) -> ObliqueRendered:
    rng = np.random.default_rng(seed)
    scene = random_oblique_scene(rng, (40.0, 40.0), count=2, webcam_lean=seed % 2 == 0)
    return render_oblique(scene, rng)


@pytest.mark.parametrize("seed", [3235, 3273])
def test_at_40_degrees_no_side_face_is_a_die_and_both_tops_are_read(seed: int) -> None:
    """Drawn frames where a side face beside its die's top was read as a third die (no
    pair of finds to compare: the side face stood alone beside the top's find)."""
    rendered = _tipped_40(seed)
    found = read_dice(rendered.frame)
    assert not any(_centred_on_a_side(rendered, die.centre) for die in found)
    assert sorted(die.value or 0 for die in found) == sorted(t.value for t in rendered.dice)


@pytest.mark.parametrize("seed", [3156, 3288])
def test_a_side_face_whose_top_was_never_found_is_not_read_as_that_die(seed: int) -> None:
    """The networks found a side face and not its top: it was read as that die, with the
    side's value. Now the die is missing from the reading, so the roll is asked about."""
    rendered = _tipped_40(seed)
    found = read_dice(rendered.frame)
    assert not any(_centred_on_a_side(rendered, die.centre) for die in found)
    assert len(found) < len(rendered.dice)


def test_a_top_face_beside_the_table_or_another_top_is_no_side_face() -> None:
    """Straight down, each found die is a top face: none has a brighter face beside it."""
    rng = np.random.default_rng(3001)
    scene = random_oblique_scene(rng, (0.0, 5.0), count=5)
    rendered = render_oblique(scene, rng)
    for truth in rendered.dice:
        size = float(np.ptp(truth.corners[:, 0]))
        assert not beside_a_brighter_face(rendered.frame, (*truth.centre, size))
