"""Render the page's PNG icons from ``web/static/icon.svg`` in headless Chromium.

Why PNGs beside the SVG: Android's install prompt wants 192 and 512 px PNG icons (and a
maskable one, whose artwork keeps inside the middle 80 % so any mask shape fits), and iOS
takes only a 180 px ``apple-touch-icon`` PNG. Rerun after changing the SVG:
``.venv/bin/python tools/make_icons.py`` (needs Debian's chromium, as the browser tests do).
"""

from __future__ import annotations

import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parents[1] / "web" / "static"
BACKGROUND = "#1d2b22"


def page_for(svg: str, size: int, maskable: bool) -> str:
    data = base64.b64encode(svg.encode()).decode()
    scale = 0.72 if maskable else 1.0  # the maskable safe zone is the middle 80 %
    inner = round(size * scale)
    return (
        f"<html><body style='margin:0;background:{BACKGROUND if maskable else 'transparent'};"
        f"width:{size}px;height:{size}px;display:flex;align-items:center;justify-content:center'>"
        f"<img src='data:image/svg+xml;base64,{data}' width='{inner}' height='{inner}'>"
        "</body></html>"
    )


def main() -> None:
    svg = (STATIC / "icon.svg").read_text(encoding="utf-8")
    out = STATIC / "icons"
    out.mkdir(exist_ok=True)
    wanted = {
        "icon-192.png": (192, False),
        "icon-512.png": (512, False),
        "maskable-512.png": (512, True),
        "apple-touch-icon.png": (180, True),  # iOS draws no transparency: full background
    }
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox"]
        )
        for name, (size, maskable) in wanted.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_for(svg, size, maskable))
            page.screenshot(path=str(out / name), omit_background=not maskable)
            page.close()
        browser.close()
    print(", ".join(wanted))


if __name__ == "__main__":
    main()
