"""The scoreboard page, its web app manifest and the small status page for the Pi."""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from companion.joining import svg_qr
from web.context import companion, require_picture_access
from web.errors import ApiError
from web.tls import TlsError, authority_certificate, fingerprint

bp = Blueprint("pages", __name__)


BOARDS = Path(__file__).parent / "static" / "games"


@cache
def board_scripts() -> tuple[str, ...]:
    """Every game's board module (``static/games/<board>.js``); the page picks by name."""
    return tuple(f"games/{path.name}" for path in sorted(BOARDS.glob("*.js")))


@cache
def board_styles() -> tuple[str, ...]:
    """The boards' own stylesheets (``static/games/<board>.css``), where a board has one."""
    return tuple(f"games/{path.name}" for path in sorted(BOARDS.glob("*.css")))


@lru_cache(maxsize=4)
def _fingerprint(cert: Path, changed_ns: int) -> str:
    """``fingerprint`` once per version of the file (the page asks at every load)."""
    try:
        return fingerprint(cert)
    except TlsError:
        return ""


def authority_fingerprint() -> str:
    """The SHA-256 fingerprint of the table's authority, or "" when HTTPS was never set up:
    shown beside the join code so a tablet's owner can check the certificate they got."""
    found = authority_certificate(companion().data_dir)
    return "" if found is None else _fingerprint(found, found.stat().st_mtime_ns)


@bp.get("/")
def scoreboard() -> ResponseReturnValue:
    # The LAN name this table got (NAME-2.local when NAME.local was taken), if announced.
    lan_note = current_app.config.get("LAN_NAME_NOTE") or (lambda: "")
    return render_template(
        "index.html",
        boards=board_scripts(),
        styles=board_styles(),
        lan_note=lan_note(),
        ca_fingerprint=authority_fingerprint(),
    )


@bp.get("/board")
def event_board() -> ResponseReturnValue:
    """Every table at the event (from the broker), for a screen at the front desk."""
    return render_template("board.html")


@bp.get("/seat/<code>")
def seat_page(code: str) -> ResponseReturnValue:
    """A player's own phone: that seat's panel (the code in the address joins it)."""
    return render_template("seat.html", boards=board_scripts(), styles=board_styles())


@bp.get("/ca.crt")
def authority() -> ResponseReturnValue:
    """The table's own certificate authority, to install once per tablet so the HTTPS page
    is trusted (see the page's *Trust this table* steps)."""
    found = authority_certificate(companion().data_dir)
    if found is None:
        raise ApiError(404, "HTTPS is off: start the companion with --https-port 8443 first.")
    return Response(
        found.read_bytes(),
        mimetype="application/x-x509-ca-cert",
        headers={"Content-Disposition": 'attachment; filename="hamster-table-ca.crt"'},
    )


@bp.get("/sw.js")
def service_worker() -> ResponseReturnValue:
    """The service worker, served from the root so that it may look after every page."""
    response = current_app.send_static_file("sw.js")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/offline.html")
def offline() -> ResponseReturnValue:
    """What an installed page shows when the Pi cannot be reached (cached by the worker)."""
    return render_template("offline.html")


@bp.get("/join.svg")
def join_code() -> Response:
    """A QR code of this page's address, as the asking tablet reached it, for a second one."""
    return Response(svg_qr(request.host_url), mimetype="image/svg+xml")


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    response = jsonify(
        name="Hamster table companion",
        short_name="Hamsters",
        start_url="/",
        display="fullscreen",
        orientation="any",
        background_color="#1d2b22",
        theme_color="#1d2b22",
        icons=[
            {"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"},
            {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {
                "src": "/static/icons/maskable-512.png",
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    )
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/camera.jpg")
def camera_view() -> ResponseReturnValue:
    """The latest camera frame with each die outlined and labelled (404 with no camera or no
    picture yet, 503 while the camera sends no pictures); a token or a seat's link only."""
    require_picture_access()
    offline = companion().camera_offline()
    if offline is not None:  # the last picture is old: never shown as if live
        raise ApiError(503, offline)
    camera = companion().camera
    image = camera.jpeg() if camera is not None else None
    if image is None:
        raise ApiError(
            404,
            "No camera picture: the camera is off or still starting, or the game in play "
            "reads nothing with it.",
        )
    return Response(image, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
