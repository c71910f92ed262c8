"""The camera panel shows the picture the camera gives for the game in play, and none when
the game reads nothing with the camera (an old dice picture must not linger beside it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from playwright.sync_api import Browser, expect

from tests.web.conftest import unlock
from tests.web.serving import serve_table
from tests.web.tables import new_table

pytestmark = pytest.mark.browser


class Camera:
    """A live camera whose picture the test takes away, as the rig does for a game that
    reads nothing with the camera."""

    def __init__(self) -> None:
        ok, encoded = cv2.imencode(".jpg", np.full((48, 64, 3), 128, np.uint8))
        assert ok
        self.picture: bytes | None = bytes(encoded)

    def latest_frame(self) -> Any | None:
        return None

    def jpeg(self, width: int = 640) -> bytes | None:
        return self.picture

    def offline(self) -> str | None:
        return None


def test_the_last_picture_is_hidden_once_the_camera_gives_none(
    browser: Browser, tmp_path: Path
) -> None:
    table = new_table(tmp_path, "hamsterdam")
    camera = Camera()
    status = {"camera": "camera live: a test camera"}
    with serve_table(table, camera=camera, device_status=lambda: status) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}")
        unlock(page)  # the picture shows the players' table: an unlocked tablet asks for it
        expect(page.locator("#camera")).to_be_visible(timeout=10_000)
        camera.picture = None  # the game in play now reads nothing with the camera
        expect(page.locator("#camera")).to_be_hidden(timeout=10_000)
        page.close()
    table.close()
    table.store.close()
