"""The wheel's piece colours sampled at calibration (issue 34: "colours of the table, skin
and pieces are sampled at calibration instead of fixed hues").

What players would notice: a set whose orange is more amber than the reader's typical set
(hue 21 where the typical orange is 13) had every orange piece that fell counted as
yellow, confidently, on every table and under every lamp. One picture of the six coloured
pieces lying on the table fixes it; a picture that cannot be used says what to change."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from calibration.geometry import CalibrationError
from calibration.wheel_colours import (
    COLOURED_SETS,
    WHEEL_COLOURS_FILE,
    WatchedWheelColours,
    WheelColours,
    load_wheel_colours,
    name_hues,
    sample_wheel_colours,
    save_wheel_colours,
)
from companion.vision.wheel import PIECE_HUES, read_wheel
from hardware.simulator import WheelPiece, WheelScene
from hardware.simulator.common import BGR
from hardware.simulator.room import Room
from hardware.simulator.room_render import render_wheel_room

AMBER: dict[str, BGR] = {"orange": (20, 185, 255)}  # OpenCV hue about 21: a yellowish orange
LAID_OUT = ((2.5, 3.0), (5.0, 2.6), (13.0, 9.5), (14.0, 3.0), (3.0, 9.5), (6.5, 10.2))


def laid_out(
    room: Room, paints: dict[str, BGR], colours: tuple[str, ...] = COLOURED_SETS, seed: int = 3
) -> Any:
    """The calibration picture: one piece of each colour on the table beside the ring."""
    pieces = tuple(
        WheelPiece(colour, spot, "disc", 0.0, paints.get(colour))
        for colour, spot in zip(colours, LAID_OUT, strict=False)
    )
    scene = WheelScene(centre=(8.3, 6.0), heading_deg=12.0, angle_deg=40.0, outside=pieces)
    return render_wheel_room(scene, np.random.default_rng(seed), room).frame


def fallen_frame(room: Room, paints: dict[str, BGR]) -> Any:
    """A later frame of play: the ring rolled on, an orange, a yellow and a blue fallen."""
    fell = (
        WheelPiece("orange", (3.0, 8.8), "square", 20.0, paints.get("orange")),
        WheelPiece("yellow", (13.5, 3.5), "triangle", 10.0),
        WheelPiece("blue", (12.8, 9.6)),
    )
    scene = WheelScene(centre=(8.0, 6.2), heading_deg=-8.0, angle_deg=205.0, outside=fell)
    return render_wheel_room(scene, np.random.default_rng(11), room).frame


FELL = {name: 0 for name in (*PIECE_HUES, "white", "black")} | {
    "orange": 1,
    "yellow": 1,
    "blue": 1,
}


@pytest.mark.parametrize(
    "room",
    [Room(), Room(table="dark wood", light="warm"), Room(table="light wood", height_cm=55.0)],
    ids=["grey cloth", "dark wood warm lamp", "light wood 55 cm"],
)
def test_an_amber_orange_is_counted_as_orange_once_the_sets_colours_are_sampled(
    room: Room,
) -> None:
    later = fallen_frame(room, AMBER)
    typical = read_wheel(later, camera_height_cm=room.height_cm)
    assert not typical.blocked and not typical.pieces_reason
    assert typical.fallen["yellow"] == 2 and typical.fallen["orange"] == 0  # the old mistake
    colours = sample_wheel_colours(laid_out(room, AMBER))
    assert colours.hues["orange"] == pytest.approx(21.0, abs=2.0)
    sampled = read_wheel(later, camera_height_cm=room.height_cm, piece_hues=colours.windows)
    assert sampled.fallen == FELL


def test_a_typical_set_reads_the_same_with_its_colours_sampled() -> None:
    room = Room(table="green felt", light="warm")
    colours = sample_wheel_colours(laid_out(room, {}))
    for name in COLOURED_SETS:  # sampled where the typical windows expect them
        assert abs(colours.hues[name] - PIECE_HUES[name][0]) % 180 < 6 or (
            180 - abs(colours.hues[name] - PIECE_HUES[name][0]) < 6
        )
    later = fallen_frame(Room(), {})
    assert read_wheel(later, camera_height_cm=70.0, piece_hues=colours.windows).fallen == FELL


@given(
    shift=st.floats(-8.0, 8.0),
    jitter=st.lists(st.floats(-2.0, 2.0), min_size=6, max_size=6),
    order=st.permutations(range(6)),
)
def test_sampled_hues_are_named_by_their_order_round_the_hue_wheel(
    shift: float, jitter: list[float], order: list[int]
) -> None:
    """A lamp or a set moves every colour; whatever the order the pieces were found in,
    each hue is named the set it belongs to."""
    truth = {
        name: (PIECE_HUES[name][0] + shift + nudge) % 180.0
        for name, nudge in zip(COLOURED_SETS, jitter, strict=True)
    }
    found = [truth[COLOURED_SETS[k]] for k in order]
    named = name_hues(found)
    assert named == {name: round(hue, 1) for name, hue in truth.items()}


def test_sampled_windows_reach_halfway_to_the_next_colour() -> None:
    """Between two sampled colours close together every hue names the nearer one; a hue far
    from every sampled colour (teal, between green and blue) names none: a cup is no piece."""
    windows = WheelColours(
        {
            "red": 178.0,
            "orange": 21.0,
            "yellow": 26.5,
            "green": 65.0,
            "blue": 110.0,
            "purple": 146.0,
        }
    ).windows
    from companion.vision.wheel_pieces import name_for_hue

    assert name_for_hue(22.0, windows) == "orange"
    assert name_for_hue(25.5, windows) == "yellow"
    assert name_for_hue(80.0, windows) == "green"
    assert name_for_hue(94.0, windows) == "blue"
    assert name_for_hue(88.0, windows) is None
    assert name_for_hue(5.0, windows) == "red"


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ("five", "5 coloured pieces are on the wheel's table, not 6"),
        ("touching", "two pieces or more touching"),
        ("markers", "table markers are not all in the picture"),
    ],
)
def test_a_picture_that_cannot_be_used_says_what_to_change(change: str, said: str) -> None:
    room = Room()
    if change == "five":
        frame = laid_out(room, {}, COLOURED_SETS[:5])
    elif change == "touching":
        pieces = (
            *(WheelPiece(c, s) for c, s in zip(COLOURED_SETS, LAID_OUT, strict=True)),
            WheelPiece("red", (LAID_OUT[0][0] + 0.45, LAID_OUT[0][1])),
        )
        scene = WheelScene(centre=(8.3, 6.0), heading_deg=12.0, angle_deg=40.0, outside=pieces)
        frame = render_wheel_room(scene, np.random.default_rng(3), room).frame
    else:
        frame = laid_out(room, {})
        frame[:, : frame.shape[1] // 5] = 90  # a cloth over the left-hand markers
    with pytest.raises(CalibrationError) as refused:
        sample_wheel_colours(frame)
    assert said in str(refused.value)


def test_something_else_in_place_of_a_piece_is_refused() -> None:
    """A teal bottle cap lies where the green piece should: taken as green, it would leave
    every real green piece unnamed, so the picture is refused."""
    with pytest.raises(CalibrationError, match="far from any green"):
        name_hues([179.0, 13.0, 27.0, 85.0, 108.0, 145.0])


def test_two_sets_the_camera_cannot_tell_apart_are_refused() -> None:
    near = [178.0, 20.0, 22.0, 62.0, 108.0, 145.0]
    with pytest.raises(CalibrationError, match="look the same colour to this camera"):
        name_hues(near)


def test_saved_colours_load_and_a_broken_file_says_how_to_recover(tmp_path: Path) -> None:
    path = tmp_path / WHEEL_COLOURS_FILE
    assert load_wheel_colours(path) is None
    colours = WheelColours({name: PIECE_HUES[name][0] for name in COLOURED_SETS}, "today")
    save_wheel_colours(colours, path)
    assert load_wheel_colours(path) == colours
    path.write_text(json.dumps({"version": 1, "hues": {"red": 1}}), encoding="utf-8")
    with pytest.raises(CalibrationError) as broken:
        load_wheel_colours(path)
    assert "companion calibrate wheel-colours" in str(broken.value)
    assert "delete the file" in str(broken.value)


def test_the_reader_follows_a_file_resampled_mid_evening(tmp_path: Path) -> None:
    path = tmp_path / WHEEL_COLOURS_FILE
    said: list[str] = []
    watched = WatchedWheelColours(path, said.append)
    assert watched() == PIECE_HUES and not watched.problem
    amber = {name: PIECE_HUES[name][0] for name in COLOURED_SETS} | {"orange": 21.0}
    save_wheel_colours(WheelColours(amber, "now"), path)
    assert watched()["orange"][0] == 21.0
    path.write_text("{not json", encoding="utf-8")
    assert watched() == PIECE_HUES  # a broken file: the typical set, and why
    assert "unreadable" in watched.problem and said == [watched.problem]


def test_the_command_line_samples_and_saves_the_colours(tmp_path: Path) -> None:
    import cv2

    from companion.serve import companion_command

    picture = tmp_path / "pieces.png"
    cv2.imwrite(str(picture), laid_out(Room(), AMBER))
    args = ["--data-dir", str(tmp_path), "calibrate", "wheel-colours", str(picture)]
    result = CliRunner().invoke(companion_command, args)
    assert result.exit_code == 0, result.output
    assert "orange 21" in result.output
    saved = load_wheel_colours(tmp_path / WHEEL_COLOURS_FILE)
    assert saved is not None and saved.hues["orange"] == pytest.approx(21.0, abs=2.0)
    cv2.imwrite(str(picture), laid_out(Room(), {}, COLOURED_SETS[:4]))
    refused = CliRunner().invoke(companion_command, args)
    assert refused.exit_code != 0 and "4 coloured pieces" in refused.output
    assert load_wheel_colours(tmp_path / WHEEL_COLOURS_FILE) == saved  # nothing lost
    shown = CliRunner().invoke(
        companion_command, ["--data-dir", str(tmp_path), "calibrate", "show"]
    )
    assert f"Wheel piece colours sampled {saved.created}." in shown.output
    assert "No calibration file" in shown.output  # this table has no belt: said, exit 1
    assert shown.exit_code == 1
