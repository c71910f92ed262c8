"""The synthetic camera: frames must be reproducible and must show what the truth says.

If the simulator lied (a hamster drawn off its square, a homography that does not match
the picture), every vision figure built on it would be meaningless.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.geometry import detect_markers
from companion.tabletop import TABLE_MARKER_LAYOUT
from companion.vision.board import BOARD_MARKER_LAYOUT, marker_corners
from hardware.simulator import (
    HAMSTER_COLOURS,
    BeltScene,
    Conditions,
    DiceScene,
    Die,
    WheelPiece,
    WheelScene,
    random_belt_scene,
    random_dice_scene,
    render_belt,
    render_dice,
    render_wheel,
    wheel_video,
)

HARD = Conditions(perspective=1.0, uneven_light=1.0, noise=6.0, shadows=3)


def project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    projected: np.ndarray = cv2.perspectiveTransform(
        points.reshape(1, -1, 2).astype(np.float64), homography
    )[0]
    return projected


def test_same_seed_same_frame() -> None:
    scene = random_belt_scene(np.random.default_rng(4))
    first = render_belt(scene, np.random.default_rng(9), HARD)
    second = render_belt(scene, np.random.default_rng(9), HARD)
    assert np.array_equal(first.frame, second.frame)
    assert np.array_equal(first.board_to_image, second.board_to_image)


@pytest.mark.parametrize("size", [(640, 480), (1280, 960)])
def test_frames_have_the_requested_size(size: tuple[int, int]) -> None:
    rendered = render_belt(BeltScene({}), np.random.default_rng(1), Conditions(size=size))
    assert rendered.frame.shape == (size[1], size[0], 3)
    assert rendered.frame.dtype == np.uint8


def test_markers_appear_where_the_homography_says() -> None:
    for seed in range(5):
        rendered = render_belt(BeltScene({}), np.random.default_rng(seed), HARD)
        found = detect_markers(rendered.frame)
        assert set(BOARD_MARKER_LAYOUT) <= set(found)
        for marker_id, entry in BOARD_MARKER_LAYOUT.items():
            expected = project(rendered.board_to_image, marker_corners(entry))
            assert np.abs(found[marker_id] - expected).max() < 1.5


def test_hamsters_are_drawn_on_their_squares_in_their_colours() -> None:
    cells = {colour: (3 + k, k + 1) for k, colour in enumerate(HAMSTER_COLOURS)}
    rendered = render_belt(BeltScene(dict(cells)), np.random.default_rng(2), Conditions())
    for colour, (row, lane) in cells.items():
        x, y = project(rendered.board_to_image, np.array([[lane - 0.5, row + 0.5]]))[0]
        pixel = rendered.frame[round(y), round(x)].astype(int)
        assert np.abs(pixel - np.array(HAMSTER_COLOURS[colour]) * 1.1).max() < 60, colour


def test_a_hand_is_reported_when_it_reaches_over_the_board() -> None:
    seen_over = 0
    for seed in range(10):
        rendered = render_belt(BeltScene({}), np.random.default_rng(seed), Conditions(hand=True))
        assert rendered.hand_mask.any()
        seen_over += rendered.hand_over_board
    assert seen_over >= 5
    plain = render_belt(BeltScene({}), np.random.default_rng(0), Conditions())
    assert not plain.hand_over_board and not plain.hand_mask.any()


def test_uneven_light_darkens_one_side() -> None:
    flat = render_belt(BeltScene({}), np.random.default_rng(3), Conditions())
    uneven = render_belt(
        BeltScene({}),
        np.random.default_rng(3),
        Conditions(uneven_light=1.0, board_to_image=tuple(map(tuple, flat.board_to_image))),
    )
    ratio = uneven.frame.astype(float).mean(axis=2) / np.maximum(flat.frame.mean(axis=2), 1)
    assert ratio.max() - ratio.min() > 0.3


def test_dice_truth_matches_the_dice_drawn() -> None:
    scene = DiceScene((Die(6, (3.0, 3.0), 20.0), Die(1, (4.02, 3.0), 20.0, colour=(30, 30, 190))))
    rendered = render_dice(scene, np.random.default_rng(5), Conditions(perspective=0.5))
    assert [truth.value for truth in rendered.dice] == [6, 1]
    x, y = rendered.dice[1].centre
    centre_pixel = rendered.frame[round(y), round(x)].astype(int)
    assert centre_pixel.max() - centre_pixel.min() < 40  # the single pip, black on red
    red_die = rendered.dice[1].corners
    assert cv2.contourArea(red_die.astype(np.float32)) > 1000


def test_random_dice_do_not_overlap_and_can_touch() -> None:
    scene = random_dice_scene(np.random.default_rng(6), 8, touching=True)
    centres = [die.centre for die in scene.dice]
    gaps = [math.dist(a, b) for i, a in enumerate(centres) for b in centres[i + 1 :]]
    assert min(gaps) >= 1.0
    assert min(gaps) < 1.1
    assert {die.value for die in scene.dice} <= set(range(1, 7))


def test_the_upright_ring_is_a_band_with_the_rim_strip_over_its_top() -> None:
    """From above, the ring is its depth by its diameter; the strip's markers near the top
    are readable, the ones round the sides are out of sight."""
    scene = WheelScene(angle_deg=0.0, heading_deg=0.0)
    rendered = render_wheel(scene, np.random.default_rng(7), Conditions())
    seen = set(detect_markers(rendered.frame))
    top = {20, 21, 35}  # marker 20 at the top, 21 and 35 beside it
    assert top <= seen and 28 not in seen  # 28 is at the bottom, under the ring
    end, side = project(rendered.board_to_image, np.array([(8.0 + 2.8, 6.0), (8.0, 6.0 + 2.0)]))
    gray = cv2.cvtColor(rendered.frame, cv2.COLOR_BGR2GRAY)
    (ex, ey), (sx, sy) = np.round(end).astype(int), np.round(side).astype(int)
    assert gray[ey, ex] + 40 < gray[sy, sx]  # wood at the band's end, table beside it


def test_wheel_frames_show_the_table_markers() -> None:
    scene = WheelScene(outside=(WheelPiece("black", (3.0, 3.0)),))
    rendered = render_wheel(scene, np.random.default_rng(8), HARD)
    assert set(TABLE_MARKER_LAYOUT) <= set(detect_markers(rendered.frame))


def test_wheel_video_keeps_the_camera_still_and_rolls_the_wheel() -> None:
    video = wheel_video(np.random.default_rng(9), 12, Conditions(perspective=0.8))
    poses = {rendered.board_to_image.tobytes() for _, rendered in video}
    assert len(poses) == 1
    angles = [scene.angle_deg for scene, _ in video]
    assert len(set(angles)) > 6
    assert len({scene.parallax for scene, _ in video}) == 1  # one camera, one tilt


def test_default_scenes_keep_the_plain_look_of_old() -> None:
    """New looks are opt-in: a scene drawn without ``varied`` has only the plain white die
    with black pips the belt camera, the demo dice and the measured training renders were
    made with. Checked on what the scene holds and what the frame shows, not on a hash of
    the pixels (another OpenCV or numpy build may round anti-aliasing differently)."""
    black_or_white = {(20, 20, 20), (240, 240, 240)}
    for seed in (0, 1, 2):
        scene = random_dice_scene(np.random.default_rng(seed), 5, touching=seed == 1)
        assert len(scene.dice) == 5
        assert (scene.table_colour, scene.table_texture) == (None, "cloth")
        for die in scene.dice:
            assert (die.style, die.streaks) == ("plain", ())
            assert die.pip_colour in black_or_white
        rendered = render_dice(scene, np.random.default_rng(seed), Conditions())
        assert sorted(truth.value for truth in rendered.dice) == sorted(
            die.value for die in scene.dice
        )
        for truth in rendered.dice:  # a body and pips that stand apart wherever a die lies
            x0, y0 = truth.corners.min(axis=0).astype(int)
            x1, y1 = truth.corners.max(axis=0).astype(int)
            patch = cv2.cvtColor(rendered.frame[y0 : y1 + 1, x0 : x1 + 1], cv2.COLOR_BGR2GRAY)
            assert int(patch.max()) - int(patch.min()) > 100


def test_varied_scenes_draw_every_look_and_keep_the_truth() -> None:
    """``varied=True`` must really deliver the new looks (else training sees none) and the
    ground truth must still list every die with its value."""
    rng = np.random.default_rng(12)
    scenes = [random_dice_scene(rng, 8, touching=k % 2 == 0, varied=True) for k in range(12)]
    dice = [die for scene in scenes for die in scene.dice]
    assert {die.style for die in dice} == {"plain", "marbled", "translucent"}
    black_or_white = {(20, 20, 20), (240, 240, 240)}
    assert any(die.style == "plain" and die.pip_colour not in black_or_white for die in dice)
    for die in dice:  # every marbled die has a wisp a reader could mistake for pip paint
        if die.style == "marbled":
            assert min(np.abs(np.subtract(st, die.pip_colour)).max() for st in die.streaks) < 60
    assert len({scene.table_colour for scene in scenes}) > 2
    assert {scene.table_texture for scene in scenes} > {"cloth"}
    for scene in scenes[:4]:
        rendered = render_dice(scene, rng, HARD)
        assert [truth.value for truth in rendered.dice] == [die.value for die in scene.dice]
        assert all(1 <= truth.value <= 6 for truth in rendered.dice)
        for truth in rendered.dice:
            assert 0 <= truth.centre[0] < 640 and 0 <= truth.centre[1] < 480


def test_a_dice_look_does_not_move_the_die() -> None:
    """The looks change colours only: outline and centre in the truth stay put."""
    truths = []
    for style in ("plain", "marbled", "translucent"):
        die = Die(5, (5.0, 4.0), 30.0, 1.5, style=style, streaks=((230, 230, 230),))
        rendered = render_dice(
            DiceScene((die,)), np.random.default_rng(2), Conditions(perspective=0.7)
        )
        truths.append(rendered.dice[0])
    for truth in truths[1:]:
        assert truth.centre == truths[0].centre
        assert np.array_equal(truth.corners, truths[0].corners)


def _face_pixels(die: Die, scene: DiceScene) -> np.ndarray:
    """Grey levels on a grid over a one-pip die's top face, clear of the pip and the rim."""
    rendered = render_dice(scene, np.random.default_rng(3), Conditions())
    grid = np.linspace(-0.33, 0.33, 15)
    spots = [(u, v) for u in grid for v in grid if max(abs(u), abs(v)) > 0.16]
    points = np.array(
        [(die.centre[0] + u * die.size, die.centre[1] + v * die.size) for u, v in spots]
    )
    pixels = np.round(project(rendered.board_to_image, points)).astype(int)
    gray = cv2.cvtColor(rendered.frame, cv2.COLOR_BGR2GRAY).astype(float)
    return np.asarray(gray[pixels[:, 1], pixels[:, 0]])


def test_a_marbled_die_has_texture_a_plain_one_lacks() -> None:
    blue, white, navy = (160, 70, 25), (235, 225, 215), (60, 25, 10)
    plain = Die(1, (6.0, 4.5), 0.0, 3.0, blue, (240, 240, 240))
    marbled = replace(plain, style="marbled", streaks=(white, navy), pattern_seed=4)
    plain_std = _face_pixels(plain, DiceScene((plain,))).std()
    marbled_std = _face_pixels(marbled, DiceScene((marbled,))).std()
    assert plain_std < 3.0
    assert marbled_std > 15.0


def test_a_translucent_die_shows_the_table_through_it() -> None:
    die = Die(1, (6.0, 4.5), 20.0, 3.0, (40, 40, 200), (240, 240, 240), style="translucent")
    dark = _face_pixels(die, DiceScene((die,), table_colour=(30, 30, 33))).mean()
    light = _face_pixels(die, DiceScene((die,), table_colour=(225, 228, 230))).mean()
    assert dark + 25 < light
    solid = replace(die, style="plain")
    on_dark = _face_pixels(solid, DiceScene((solid,), table_colour=(30, 30, 33))).mean()
    on_light = _face_pixels(solid, DiceScene((solid,), table_colour=(225, 228, 230))).mean()
    assert abs(on_dark - on_light) < 3  # an opaque die does not


@pytest.mark.parametrize("seed", range(6))
def test_every_hamster_in_the_pit_still_draws_each_one_there(seed: int) -> None:
    """A whole table of eaten hamsters crowds the Pit; the render squeezes each one in
    (it raised an error, which stopped `bench/vision_rooms.py --seed 42000`)."""
    scene = BeltScene(dict.fromkeys(HAMSTER_COLOURS, "pit"))
    rendered = render_belt(scene, np.random.default_rng(seed), Conditions())
    hsv = cv2.cvtColor(rendered.frame, cv2.COLOR_BGR2HSV)
    for colour, bgr in HAMSTER_COLOURS.items():
        hue = int(cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0, 0])
        near = np.minimum(np.abs(hsv[..., 0].astype(int) - hue), 180 - np.abs(hsv[..., 0] - hue))
        seen = (near < 6) & (hsv[..., 1] > 120) & (hsv[..., 2] > 60)
        assert seen.sum() > 30, colour
