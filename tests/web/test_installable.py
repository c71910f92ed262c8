"""The page installs as an app (PNG icons, maskable, apple-touch-icon; a service worker)
and an installed page shows "the table is off" when the Pi cannot be reached."""

from __future__ import annotations

import struct

import pytest
from flask.testing import FlaskClient
from playwright.sync_api import Browser, expect

from companion.table import Table
from tests.web.serving import serve_table


def _fetch(client: FlaskClient, path: str) -> bytes:
    response = client.get(path)
    data = bytes(response.data)
    response.close()  # a static file stays open until its response is closed
    return data


def _size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def test_the_manifest_lists_png_icons_an_installer_accepts(client: FlaskClient) -> None:
    icons = client.get("/manifest.webmanifest").get_json()["icons"]
    pngs = {
        (i["sizes"], i.get("purpose", "any")): i["src"] for i in icons if i["type"] == "image/png"
    }
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= set(pngs)
    for (sizes, _), src in pngs.items():
        width, height = _size(_fetch(client, src))
        assert f"{width}x{height}" == sizes
    page = client.get("/").get_data(as_text=True)
    assert 'rel="apple-touch-icon"' in page
    assert _size(_fetch(client, "/static/icons/apple-touch-icon.png")) == (180, 180)


def test_the_service_worker_is_served_for_the_whole_site(client: FlaskClient) -> None:
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and "javascript" in (worker.mimetype or "")
    assert worker.headers["Service-Worker-Allowed"] == "/"
    assert "/api/" in worker.get_data(as_text=True)  # live data is never cached
    worker.close()
    assert "The table is off" in client.get("/offline.html").get_data(as_text=True)


@pytest.mark.browser
def test_an_installed_page_says_the_table_is_off_when_the_pi_is_away(
    browser: Browser, table: Table
) -> None:
    with serve_table(table) as port:
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/")  # loopback counts as a secure context
        page.wait_for_function(
            "navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)"
            " || navigator.serviceWorker.controller !== null",
            timeout=10000,
        )
        page.reload()
        expect(page.locator("#prompt")).not_to_have_text("Connecting…")
        context.set_offline(True)
        page.goto(f"http://127.0.0.1:{port}/")
        expect(page.locator("h1")).to_have_text("The table is off")
        context.close()
