"""Calibrating from the browser: status, one-tap calibration from the camera's frame, overlay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from flask.testing import FlaskClient

from calibration.geometry import CameraSettings, load_calibration
from companion.config import CALIBRATION_FILE, load_config
from companion.startup.camera import locked_settings
from companion.table import Table
from hardware.camera import CameraOfflineError
from hardware.simulator import BeltScene, Conditions, render_belt
from tests.camera.camera_scenes import config_file
from tests.web.conftest import PIN
from tests.web.serving import page_client

ROW_ONE = {"red": (1, 1), "blue": (1, 2), "yellow": (1, 3), "green": (1, 4)}


class LatestFrame:
    """What the page needs from the camera: its newest frame (a Pi camera cannot exist here)."""

    def __init__(self, frame: Any) -> None:
        self.frame = frame

    def latest_frame(self) -> Any:
        return self.frame

    def jpeg(self, width: int = 640) -> bytes | None:
        return None

    def offline(self) -> str | None:
        return None


def belt_frame(hamsters: dict[str, Any]) -> Any:
    conditions = Conditions(size=(1280, 960), perspective=0.3, noise=2.0)
    return render_belt(BeltScene(hamsters=hamsters), np.random.default_rng(5), conditions).frame


def client_for(table: Table, tmp_path: Path, frame: Any) -> FlaskClient:
    return page_client(table, camera=LatestFrame(frame), data_dir=tmp_path)


def login(client: FlaskClient) -> dict[str, str]:
    token = client.post("/api/login", json={"pin": PIN}).get_json()["token"]
    return {"X-Table-Token": token}


def test_calibrate_from_the_page(table: Table, tmp_path: Path) -> None:
    client = client_for(table, tmp_path, belt_frame(dict(ROW_ONE)))
    before = client.get("/api/calibration").get_json()
    assert before["calibrated"] is False and "calibrat" in before["message"].lower()
    assert client.post("/api/calibration", json={}).status_code == 401
    cells = {colour: list(cell) for colour, cell in ROW_ONE.items()}
    done = client.post("/api/calibration", json={"cells": cells}, headers=login(client))
    assert done.status_code == 200, done.get_json()
    after = client.get("/api/calibration").get_json()
    assert after["calibrated"] is True and set(after["colours"]) == set(ROW_ONE)
    picture = client.get("/calibration.jpg", headers=login(client))
    assert picture.mimetype == "image/jpeg" and picture.data[:2] == b"\xff\xd8"


def test_covered_markers_are_explained(table: Table, tmp_path: Path) -> None:
    frame = belt_frame(dict(ROW_ONE))
    frame[:300, :] = 120
    client = client_for(table, tmp_path, frame)
    response = client.post("/api/calibration", json={}, headers=login(client))
    assert response.status_code == 409 and "not visible" in response.get_json()["error"]
    assert client.get("/calibration.jpg", headers=login(client)).status_code == 200


def test_no_camera_no_calibration(table: Table, tmp_path: Path) -> None:
    client = page_client(table, data_dir=tmp_path)
    response = client.post("/api/calibration", json={}, headers=login(client))
    assert response.status_code == 409 and "camera" in response.get_json()["error"]


CHOSEN = {
    "exposure_time_us": 8000,
    "analogue_gain": 2.0,
    "colour_gains": (1.7, 2.1),
    "lens_position": 3.25,
}


def test_calibrating_locks_the_camera_first_and_every_start_applies_it(
    table: Table, tmp_path: Path
) -> None:
    """The values saved are the ones the camera chose (hardware/camera_lock.py), and the
    Pi camera is given them at the next start (companion/startup/camera.py locked_settings)."""
    locks: list[str] = []

    def lock() -> dict[str, Any]:
        locks.append("lock")
        return dict(CHOSEN)

    camera = LatestFrame(belt_frame(dict(ROW_ONE)))
    client = page_client(table, camera=camera, data_dir=tmp_path, lock_camera=lock)
    done = client.post("/api/calibration", json={"cells": ROW_ONE}, headers=login(client))
    assert done.status_code == 200, done.get_json()
    assert locks == ["lock"]
    assert "exposure 8.0 ms, gain 2.0, white balance, focus locked" in done.get_json()["message"]
    saved = load_calibration(tmp_path / CALIBRATION_FILE).camera
    assert saved == CameraSettings(8000, 2.0, (1.7, 2.1), 3.25, measured=True)
    config = load_config(config_file(tmp_path, ""), data_dir=tmp_path)
    start = locked_settings(config)
    assert (start.exposure_time_us, start.analogue_gain, start.colour_gains) == (
        8000,
        2.0,
        (1.7, 2.1),
    )
    assert start.lens_position == 3.25 and start.size == (1280, 960)
    assert start.controls({"AfMode": (0, 2, 0)})["AeEnable"] is False


def test_calibrating_with_a_webcam_says_what_it_held_and_what_it_refused(
    table: Table, tmp_path: Path
) -> None:
    """A webcam's lock (hardware/webcam.py) is in driver units: it is said on the page and
    held by the webcam, and no Pi camera values are saved for it."""

    def lock() -> dict[str, Any]:
        return {
            "webcam": {"exposure": 156.0, "white balance": 4600.0},
            "refused": ["webcam 0 has no focus control to hold"],
            "kept": True,
        }

    camera = LatestFrame(belt_frame(dict(ROW_ONE)))
    client = page_client(table, camera=camera, data_dir=tmp_path, lock_camera=lock)
    done = client.post("/api/calibration", json={"cells": ROW_ONE}, headers=login(client))
    assert done.status_code == 200, done.get_json()
    assert (
        "webcam exposure 156, white balance 4600 set again at every start "
        "(webcam 0 has no focus control to hold)" in done.get_json()["message"]
    )
    assert load_calibration(tmp_path / CALIBRATION_FILE).camera == CameraSettings()


def test_placeholder_camera_values_of_old_files_are_never_locked(
    table: Table, tmp_path: Path
) -> None:
    client = client_for(table, tmp_path, belt_frame(dict(ROW_ONE)))  # a camera without controls
    done = client.post("/api/calibration", json={"cells": ROW_ONE}, headers=login(client))
    assert "keeps its automatic exposure" in done.get_json()["message"]
    path = tmp_path / CALIBRATION_FILE
    data = json.loads(path.read_text())
    data["camera"] = {  # as written before the camera was asked
        "exposure_time_us": 20000,
        "analogue_gain": 1.0,
        "colour_gains": [1.8, 1.5],
        "lens_position": None,
    }
    path.write_text(json.dumps(data))
    assert not load_calibration(path).camera.measured
    config = load_config(config_file(tmp_path, ""), data_dir=tmp_path)
    assert locked_settings(config).controls() == {}  # automatic


def test_a_camera_that_cannot_settle_is_a_clear_409(table: Table, tmp_path: Path) -> None:
    def lock() -> dict[str, Any]:
        raise CameraOfflineError("Pi camera 0 gave no picture while settling")

    camera = LatestFrame(belt_frame(dict(ROW_ONE)))
    client = page_client(table, camera=camera, data_dir=tmp_path, lock_camera=lock)
    response = client.post("/api/calibration", json={}, headers=login(client))
    assert response.status_code == 409
    assert (
        "could not settle its exposure: Pi camera 0 gave no picture" in response.get_json()["error"]
    )


def test_the_panel_says_when_taught_dice_were_set_aside_by_an_update(
    table: Table, tmp_path: Path
) -> None:
    from companion.vision.dice import shared_reader
    from companion.vision.teach import HEAD_FILE, STALE_HEAD
    from tests.vision.odd_dice import blank_head

    client = client_for(table, tmp_path, belt_frame(dict(ROW_ONE)))
    assert client.get("/api/calibration").get_json()["dice"] == ""
    blank_head(model="an older model").save(tmp_path / HEAD_FILE)
    assert client.get("/api/calibration").get_json()["dice"] == STALE_HEAD
    blank_head(model=shared_reader().fingerprint).save(tmp_path / HEAD_FILE)
    assert client.get("/api/calibration").get_json()["dice"] == ""


def test_cells_that_would_spoil_the_calibration_are_refused_and_the_good_one_kept(
    table: Table, tmp_path: Path
) -> None:
    """Each refusal is one sentence, and the calibration in use is left as it was."""
    client = client_for(table, tmp_path, belt_frame(dict(ROW_ONE)))
    headers = login(client)
    done = client.post("/api/calibration", json={"cells": ROW_ONE}, headers=headers)
    assert done.status_code == 200, done.get_json()
    saved = (tmp_path / CALIBRATION_FILE).read_bytes()
    refusals = {
        "empty": ({}, "'cells' maps each hamster's colour to its [row, lane]"),
        "a list": ([["red", 1, 1]], "'cells' maps each hamster's colour to its [row, lane]"),
        "unknown colour": (
            {**ROW_ONE, "mauve": (2, 1)},
            "'mauve' is not a hamster colour here; use red, blue, yellow, green, purple.",
        ),
        "one colour": (
            {"red": (2, 1)},
            "The calibration needs every hamster in the game: add blue, yellow, green",
        ),
        "huge row": ({**ROW_ONE, "red": (10**30, 1)}, "The red hamster's square is off the belt"),
        "off the belt": ({**ROW_ONE, "red": (99, 99)}, "rows run 1 to 10 and lanes 1 to 5."),
        "row 0, the pit": ({**ROW_ONE, "red": (0, 1)}, "The red hamster's square is off the belt"),
        "fractions": ({**ROW_ONE, "red": (1.5, 1)}, "Give the red hamster's square as [row, lane]"),
        "true": ({**ROW_ONE, "red": (True, 1)}, "Give the red hamster's square as [row, lane]"),
        "text": ({**ROW_ONE, "red": "1,1"}, "Give the red hamster's square as [row, lane]"),
        "shared square": (
            {**ROW_ONE, "blue": (1, 1)},
            "The blue and red hamsters are both on row 1, lane 1; give each hamster its own",
        ),
    }
    for case, (cells, sentence) in refusals.items():
        response = client.post("/api/calibration", json={"cells": cells}, headers=headers)
        assert response.status_code == 400, case
        assert sentence in response.get_json()["error"], case
    assert (tmp_path / CALIBRATION_FILE).read_bytes() == saved
    assert not (tmp_path / f"{CALIBRATION_FILE}.previous").exists()
    status = client.get("/api/calibration").get_json()
    assert status["calibrated"] is True and set(status["colours"]) == set(ROW_ONE)


def test_without_a_game_s_hamsters_every_standard_colour_is_needed(
    table: Table, tmp_path: Path
) -> None:
    from companion.engine.session import GameHeader

    table.new_game(GameHeader("hamster-wheel", "standard", ("Ann", "Bo"), 3))
    client = client_for(table, tmp_path, belt_frame(dict(ROW_ONE)))
    response = client.post("/api/calibration", json={"cells": ROW_ONE}, headers=login(client))
    assert response.status_code == 400
    assert "add purple to 'cells'" in response.get_json()["error"]


def test_a_new_calibration_keeps_the_one_it_replaces_beside_it(
    table: Table, tmp_path: Path
) -> None:
    client = client_for(table, tmp_path, belt_frame(dict(ROW_ONE)))
    headers = login(client)
    first = client.post("/api/calibration", json={"cells": ROW_ONE}, headers=headers)
    assert first.status_code == 200 and "previous" not in first.get_json()["message"]
    good = (tmp_path / CALIBRATION_FILE).read_bytes()
    second = client.post("/api/calibration", json={"cells": ROW_ONE}, headers=headers)
    assert second.status_code == 200
    assert second.get_json()["message"].endswith(
        "; the one it replaces is kept as calibration.json.previous."
    )
    assert (tmp_path / f"{CALIBRATION_FILE}.previous").read_bytes() == good


def test_hamsters_of_the_players_own_colours_are_listed_on_row_one(
    table: Table, tmp_path: Path
) -> None:
    """The panel's one button calibrates with the listed squares: they must name every
    hamster the calibration needs, not the standard colours nobody is playing."""
    from companion.engine.session import GameHeader

    header = GameHeader("run-hamster-run", "v2.1", ("Ann", "Bo"), 3, {"colours": ["pink", "teal"]})
    table.new_game(header)
    client = client_for(table, tmp_path, belt_frame(dict(ROW_ONE)))
    assert client.get("/api/calibration").get_json()["cells"] == {"pink": [1, 1], "teal": [1, 2]}
    response = client.post("/api/calibration", json={"cells": ROW_ONE}, headers=login(client))
    assert response.status_code == 400
    assert "add pink, teal to 'cells'" in response.get_json()["error"]


def test_a_camera_that_vanished_leaves_no_old_picture_in_use(table: Table, tmp_path: Path) -> None:
    """The dice watcher keeps the last frame; once the camera's supervisor says it is
    offline, neither the panel nor a calibration may use that picture as if live."""
    from companion.watch.dice import DiceWatcher

    line = ["camera live: Pi camera 0"]
    watcher = DiceWatcher(table, camera_status=lambda: line[0])
    watcher.process(belt_frame(dict(ROW_ONE)))
    client = page_client(table, camera=watcher, data_dir=tmp_path)
    headers = login(client)
    assert client.get("/camera.jpg", headers=headers).status_code == 200
    assert client.get("/calibration.jpg", headers=headers).status_code == 200
    done = client.post("/api/calibration", json={"cells": ROW_ONE}, headers=headers)
    assert done.status_code == 200, done.get_json()
    saved = (tmp_path / CALIBRATION_FILE).read_bytes()

    line[0] = "camera offline: Pi camera 0 was unplugged"
    sentence = (
        "The camera is not sending pictures (camera offline: Pi camera 0 was unplugged); "
        "check it is connected, the companion keeps trying it."
    )
    stale = client.post("/api/calibration", json={"cells": ROW_ONE}, headers=headers)
    assert stale.status_code == 409 and stale.get_json()["error"] == sentence
    assert (tmp_path / CALIBRATION_FILE).read_bytes() == saved
    overlay = client.get("/calibration.jpg", headers=headers)
    assert overlay.status_code == 409 and overlay.get_json()["error"] == sentence
    panel = client.get("/camera.jpg", headers=headers)
    assert panel.status_code == 503 and panel.get_json()["error"] == sentence

    line[0] = "camera live: Pi camera 0 (restarted after: no picture for 10 s)"
    watcher.process(belt_frame(dict(ROW_ONE)))
    assert client.get("/camera.jpg", headers=headers).status_code == 200


def test_the_panel_says_when_the_calibration_was_made_for_another_picture_size(
    table: Table, tmp_path: Path
) -> None:
    """From a review: after the camera's resolution changed the panel still said
    "Calibrated ... for 4 colours." while the belt check was off for that very reason."""
    camera = LatestFrame(belt_frame(dict(ROW_ONE)))
    client = page_client(table, camera=camera, data_dir=tmp_path)
    done = client.post("/api/calibration", json={"cells": ROW_ONE}, headers=login(client))
    assert done.status_code == 200, done.get_json()
    assert client.get("/api/calibration").get_json()["calibrated"] is True
    camera.frame = render_belt(
        BeltScene(hamsters=dict(ROW_ONE)), np.random.default_rng(5), Conditions()
    ).frame  # 640x480 now
    status = client.get("/api/calibration").get_json()
    assert status["calibrated"] is False
    assert (
        "was made at 1280x960 but the camera now gives 640x480; calibrate again at this size."
        in (status["message"])
    )


def test_camera_pictures_need_the_pin_or_a_seat_link(table: Table, tmp_path: Path) -> None:
    """The overhead picture shows the players' table (and whoever sits at it): a watcher on
    the Wi-Fi gets a sentence, not the picture; an unlocked tablet and a seated phone see it."""
    from companion.watch.dice import DiceWatcher

    watcher = DiceWatcher(table, camera_status=lambda: "camera live: Pi camera 0")
    watcher.process(belt_frame(dict(ROW_ONE)))
    client = page_client(table, camera=watcher, data_dir=tmp_path)
    for route in ("/camera.jpg", "/calibration.jpg"):
        refused = client.get(route)
        assert refused.status_code == 401 and "table PIN" in refused.get_json()["error"]
        assert client.get(f"{route}?token=made-up").status_code == 401
    tablet = login(client)
    seats = client.get("/api/seats", headers=tablet).get_json()["seats"]
    phone = client.post("/api/join", json={"code": seats[0]["code"]}).get_json()["token"]
    for route in ("/camera.jpg", "/calibration.jpg"):
        assert client.get(route, headers=tablet).mimetype == "image/jpeg"
        assert client.get(f"{route}?token={phone}").mimetype == "image/jpeg"  # as an <img>


def test_a_table_close_to_skin_colour_is_said_on_the_page_and_in_the_status(
    table: Table, tmp_path: Path
) -> None:
    """On a wooden table a hand may pass for the table: the calibration is saved, and the
    page says so in one sentence naming the fix, then and in the panel's status line."""
    from companion.vision.room_light import CLOSE_TO_SKIN
    from hardware.simulator.room import Room
    from hardware.simulator.room_render import render_belt_room

    room = Room(table="light wood", light="warm", blur=0.6)
    frame = render_belt_room(BeltScene(dict(ROW_ONE)), np.random.default_rng(4), room).frame
    client = client_for(table, tmp_path, frame)
    done = client.post("/api/calibration", json={"cells": ROW_ONE}, headers=login(client))
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["message"].endswith(CLOSE_TO_SKIN)
    status = client.get("/api/calibration").get_json()
    assert status["calibrated"] is True and status["message"].endswith(CLOSE_TO_SKIN)


def test_the_wheel_colours_are_sampled_from_the_page(table: Table, tmp_path: Path) -> None:
    """Issue 34: one tap samples a Hamster Wheel set's own colours from the camera's picture;
    a picture that cannot be used says what to change and keeps what was saved."""
    from calibration.wheel_colours import WHEEL_COLOURS_FILE, load_wheel_colours
    from hardware.simulator.room import Room
    from tests.vision.test_wheel_colours import AMBER, laid_out

    camera = LatestFrame(laid_out(Room(), AMBER))
    client = page_client(table, camera=camera, data_dir=tmp_path)
    route = "/api/calibration/wheel-colours"
    assert client.post(route, json={}).status_code == 401
    done = client.post(route, json={}, headers=login(client))
    assert done.status_code == 200, done.get_json()
    assert "your set's own colours" in done.get_json()["message"]
    saved = load_wheel_colours(tmp_path / WHEEL_COLOURS_FILE)
    assert saved is not None and abs(saved.hues["orange"] - 21.0) < 2.0
    camera.frame = laid_out(Room(), {}, ("red", "orange", "yellow"))
    refused = client.post(route, json={}, headers=login(client))
    assert refused.status_code == 409
    assert "3 coloured pieces are on the wheel's table" in refused.get_json()["error"]
    assert load_wheel_colours(tmp_path / WHEEL_COLOURS_FILE) == saved
    page = client.get("/").get_data(as_text=True)
    assert 'id="btn-wheel-colours"' in page


def test_each_players_hand_is_sampled_from_the_page(table: Table, tmp_path: Path) -> None:
    """Issue 34: a player holds a hand over the wheel's table and taps; a picture with no
    hand says what to do and keeps the hands saved; another tap forgets them all."""
    from calibration.hand_colours import HAND_COLOURS_FILE, HandColours, load_hand_colours
    from hardware.simulator.room import Room
    from tests.vision.test_sampled_hands import HEIGHT, MIDDLE, frames

    camera = LatestFrame(frames(Room(), 1, 90, MIDDLE)[0])
    client = page_client(table, camera=camera, data_dir=tmp_path, camera_height_cm=HEIGHT)
    route = "/api/calibration/hands"
    assert client.post(route, json={}).status_code == 401
    done = client.post(route, json={}, headers=login(client))
    if done.status_code == 409:  # the hand only just in the picture: held further in
        camera.frame = frames(Room(), 1, 91, MIDDLE)[0]
        done = client.post(route, json={}, headers=login(client))
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["message"].startswith("Saved: 1 hand sampled")
    saved = load_hand_colours(tmp_path / HAND_COLOURS_FILE)
    assert saved is not None and len(saved.hands) == 1
    camera.frame = frames(Room(), 1, 92)[0]
    refused = client.post(route, json={}, headers=login(client))
    assert refused.status_code == 409
    assert "no hand is seen over the table" in refused.get_json()["error"]
    assert load_hand_colours(tmp_path / HAND_COLOURS_FILE) == saved
    shown = client.get("/api/calibration", headers=login(client)).get_json()["wheel"]
    assert "Hands: 1 hand sampled" in shown and "a typical set's colours" in shown
    assert f"Camera height: {HEIGHT:.0f} cm" in shown  # and what the ring hides from there
    bad = client.post(route, json={"forget": "yes"}, headers=login(client))
    assert bad.status_code == 400 and "forget must be true or false" in bad.get_json()["error"]
    forgot = client.post(route, json={"forget": True}, headers=login(client))
    assert forgot.status_code == 200 and "typical skin colours only" in forgot.get_json()["message"]
    assert load_hand_colours(tmp_path / HAND_COLOURS_FILE) == HandColours()
    (tmp_path / HAND_COLOURS_FILE).write_text("{half a file", encoding="utf-8")
    broken = client.get("/api/calibration", headers=login(client)).get_json()["wheel"]
    assert "the saved hands cannot be read" in broken and "sample each player's hand" in broken
    page = client.get("/").get_data(as_text=True)
    assert 'id="btn-sample-hand"' in page and 'id="btn-forget-hands"' in page


def test_a_hand_is_sampled_over_the_belt_at_a_run_hamster_run_table(
    table: Table, tmp_path: Path
) -> None:
    """Issue 34: with the belt's board in the picture (no wheel), the same tap samples the
    hand held over the belt; the belt reader then sees it."""
    from calibration.hand_colours import HAND_COLOURS_FILE, load_hand_colours
    from tests.vision.test_belt_hands import DIM_ROOM, belt_frame

    camera = LatestFrame(belt_frame(DIM_ROOM, 99))
    client = page_client(table, camera=camera, data_dir=tmp_path)
    done = client.post("/api/calibration/hands", json={}, headers=login(client))
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["message"].startswith("Saved: 1 hand sampled")
    saved = load_hand_colours(tmp_path / HAND_COLOURS_FILE)
    assert saved is not None and len(saved.hands) == 1
