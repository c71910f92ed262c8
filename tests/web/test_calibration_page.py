"""Calibrating from the browser: status, one-tap calibration from the camera's frame, overlay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from flask.testing import FlaskClient

from companion.table import Table
from hardware.simulator import BeltScene, Conditions, render_belt
from tests.web.conftest import PIN
from web import create_app

ROW_ONE = {"red": (1, 1), "blue": (1, 2), "yellow": (1, 3), "green": (1, 4)}


class LatestFrame:
    """What the page needs from the camera: its newest frame (a Pi camera cannot exist here)."""

    def __init__(self, frame: Any) -> None:
        self.frame = frame

    def latest_frame(self) -> Any:
        return self.frame

    def jpeg(self, width: int = 640) -> bytes | None:
        return None


def belt_frame(hamsters: dict[str, Any]) -> Any:
    conditions = Conditions(size=(1280, 960), perspective=0.3, noise=2.0)
    return render_belt(BeltScene(hamsters=hamsters), np.random.default_rng(5), conditions).frame


def client_for(table: Table, tmp_path: Path, frame: Any) -> FlaskClient:
    app = create_app(table, PIN, camera=LatestFrame(frame), data_dir=tmp_path)
    return app.test_client()


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
    picture = client.get("/calibration.jpg")
    assert picture.mimetype == "image/jpeg" and picture.data[:2] == b"\xff\xd8"


def test_covered_markers_are_explained(table: Table, tmp_path: Path) -> None:
    frame = belt_frame(dict(ROW_ONE))
    frame[:300, :] = 120
    client = client_for(table, tmp_path, frame)
    response = client.post("/api/calibration", json={}, headers=login(client))
    assert response.status_code == 409 and "not visible" in response.get_json()["error"]
    assert client.get("/calibration.jpg").status_code == 200


def test_no_camera_no_calibration(table: Table, tmp_path: Path) -> None:
    client = create_app(table, PIN, data_dir=tmp_path).test_client()
    response = client.post("/api/calibration", json={}, headers=login(client))
    assert response.status_code == 409 and "camera" in response.get_json()["error"]
