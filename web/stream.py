"""Live updates by Server-Sent Events; each event's id is its sequence number.

A tablet that slept reconnects with ``Last-Event-ID`` and receives exactly the events it
missed (the table's subscription guarantees no gap and no duplicate), then live ones.
A comment line every few seconds lets both ends notice a dead connection.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from flask import Blueprint, Response, request

from companion.engine.redact import public_event
from web.context import companion

bp = Blueprint("stream", __name__, url_prefix="/api")


def _after() -> int:
    raw = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
    return int(raw) if raw.isdigit() else 0


@bp.get("/stream")
def stream() -> Response:
    app_companion = companion()
    table = app_companion.table
    subscription = table.subscribe(_after())
    heartbeat = app_companion.heartbeat_seconds

    def events() -> Iterator[str]:
        try:
            yield "retry: 1000\n\n"
            if subscription.reset:
                yield "event: reset\ndata: {}\n\n"
            while True:
                event = subscription.get(timeout=heartbeat)
                if event is None:
                    if subscription.ended:
                        yield f"event: end\ndata: {json.dumps({'reason': subscription.ended})}\n\n"
                        return
                    yield "event: ping\ndata: {}\n\n"
                    continue
                snapshot = table.snapshot
                state = table.public_state(with_log=False)
                entry = (
                    public_event(snapshot.spec, snapshot.state, event, False)
                    if snapshot.spec is not None and snapshot.state is not None
                    else event.to_json()
                )
                payload = json.dumps({"event": entry, "state": state})
                yield f"id: {event.seq}\nevent: change\ndata: {payload}\n\n"
        finally:
            subscription.close()

    return Response(
        events(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
