"""The page's server: one asyncio server for the live streams and the Flask app together.

Why not waitress any more: waitress gives each request a thread until it ends, and a live
stream never ends, so open tabs starved the API (32 tabs: NEXT timed out). Hypercorn is an
asyncio server built for long-lived connections: streams are coroutines
(:mod:`web.live`), every other request runs the unchanged Flask app on a bounded thread pool
(a2wsgi), and the same server speaks TLS itself, so HTTPS pages need no proxy and the app
sees each tablet's real address (the PIN throttle depends on it).

At the edge, before any route: the Host header must name this companion (a DNS-rebinding
page cannot drive the table from a visitor's browser), and every answer carries the
security headers (CSP, no framing, no referrer).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import socket
import ssl
import subprocess
import threading
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

from a2wsgi import WSGIMiddleware
from flask import Flask
from hypercorn.asyncio import serve as hypercorn_serve
from hypercorn.config import Config as HypercornConfig
from hypercorn.config import Sockets

from web.live import LiveStreams, Message, Receive, Scope, Send, answer_json

log = logging.getLogger(__name__)

ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
        b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
        b"form-action 'self'; object-src 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
]


def machine_names() -> set[str]:
    """The names a tablet may use for this machine whatever its addresses are."""
    host = socket.gethostname().lower()
    return {"localhost", "127.0.0.1", "::1", host, f"{host}.local"}


class AllowedHosts:
    """The Host names the page answers to: fixed names, plus the machine's addresses,
    which :meth:`follow` replaces when the network changes (a DHCP lease, late Wi-Fi)."""

    def __init__(self, fixed: Iterable[str], addresses: Iterable[str] = ()) -> None:
        self._fixed = frozenset(name.lower() for name in fixed)
        self._names = self._fixed
        self.follow(addresses)

    def follow(self, addresses: Iterable[str]) -> None:
        # One assignment: a request on the loop sees the old set or the new, never half.
        self._names = self._fixed | {address.lower() for address in addresses}

    def allow(self, name: str) -> None:
        """Answer to ``name`` too from now on (the LAN name, once the probe found it)."""
        self._fixed = self._fixed | {name.lower()}
        self._names = self._names | {name.lower()}

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._names))


def local_names() -> set[str]:
    """The names and addresses a tablet may use for this machine (``hostname -I`` and co.)."""
    names = machine_names()
    try:
        found = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2)
        names |= {address.lower() for address in found.stdout.split()}
    except (OSError, subprocess.SubprocessError):
        pass
    return names


def host_of(scope: Scope) -> str:
    """The Host header without its port (IPv6 brackets removed), lower case."""
    headers: dict[bytes, bytes] = dict(scope.get("headers") or [])
    raw = headers.get(b"host", b"").decode("latin-1").strip().lower()
    if raw.startswith("["):
        return raw[1 : raw.find("]")] if "]" in raw else raw
    return raw.rsplit(":", 1)[0] if raw.count(":") == 1 else raw


def edge(app: ASGIApp, allowed: Iterable[str] | AllowedHosts | None = None) -> ASGIApp:
    """Refuse foreign Host names; add the security headers to every answer."""
    hosts = (
        allowed if allowed is None or isinstance(allowed, AllowedHosts) else AllowedHosts(allowed)
    )

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        if hosts is not None and host_of(scope) not in hosts:
            await answer_json(
                send_with_headers,
                421,
                f"This companion does not answer to the name {host_of(scope)!r}; open it by "
                "the address it prints at start, or add the name to 'web.hosts' in the config.",
            )
            return
        await app(scope, receive, send_with_headers)

    return guarded


#: What plain HTTP still serves when HTTPS is on: the authority's certificate (a tablet
#: must fetch it before it trusts the HTTPS page) and the join code.
PLAIN_PATHS = frozenset({"/ca.crt", "/join.svg"})


def to_https(app: ASGIApp, https_port: int) -> ASGIApp:
    """Send every plain-HTTP request, but ``PLAIN_PATHS``, to the same address over HTTPS
    (308 keeps the method and body), so a tablet that typed the old ``http://`` address
    gets the secure page and its wake lock, service worker and install prompt."""

    async def redirecting(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("scheme") != "http":
            await app(scope, receive, send)
            return
        if scope.get("path") in PLAIN_PATHS:
            await app(scope, receive, send)
            return
        host = host_of(scope)
        shown = f"[{host}]" if ":" in host else host
        path = scope.get("raw_path") or scope.get("path", "/").encode("utf-8")
        query = scope.get("query_string") or b""
        target = f"https://{shown}:{https_port}".encode() + path + (b"?" + query if query else b"")
        await send(
            {
                "type": "http.response.start",
                "status": 308,
                "headers": [(b"location", target), (b"content-length", b"0")],
            }
        )
        await send({"type": "http.response.body", "body": b""})

    return redirecting


def secure(app: ASGIApp, listen: Listen) -> ASGIApp:
    """``app`` behind the redirect to HTTPS when the server speaks it, else unchanged."""
    if listen.https_port and listen.certfile is not None:
        return to_https(app, listen.https_port)
    return app


def live_streams(flask_app: Flask, *, cap: int) -> LiveStreams:
    """The live-stream endpoint for the table, heartbeat and PIN the Flask app was made with."""
    found = flask_app.extensions["companion"]
    return LiveStreams(found.table, heartbeat=found.heartbeat_seconds, cap=cap, grant=found.grant)


def read_to_the_end(wsgi_app: WSGIApplication, max_body: int) -> WSGIApplication:
    """Give Flask a chunked request body (one without a Content-Length) as a sized one.

    a2wsgi hands such a body over without a length and without saying where it ends, and
    Werkzeug then reads it as empty: a client sending ``Transfer-Encoding: chunked`` had
    every request refused as "Send a JSON object". Up to one byte more than the limit is
    read here and passed on with its length, so Flask's MAX_CONTENT_LENGTH answers an
    oversized body "too large" (413), as it does when the length is given.
    """

    def app(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if not environ.get("CONTENT_LENGTH"):
            stream, body = environ["wsgi.input"], bytearray()
            while len(body) <= max_body:
                chunk = stream.read(max_body + 1 - len(body))
                if not chunk:
                    break
                body += chunk
            environ["wsgi.input"] = io.BytesIO(bytes(body))
            environ["CONTENT_LENGTH"] = str(len(body))
            # Werkzeug ignores a length beside "chunked"; what is passed on is no longer so.
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        return wsgi_app(environ, start_response)

    return app


BODY_STALL_SECONDS = 30.0  # a request body that sends nothing for this long is given up


def patient_for(receive: Receive, seconds: float) -> Receive:
    """``receive`` that gives up on a request body stalled for ``seconds``.

    Why here and not hypercorn's ``read_timeout``: that one closes any connection whose
    client has sent nothing for a while, and a live page, once it asked for its stream,
    only listens; it cut every page every 30 s. A body stalled mid-way (a client gone
    silent, or one trickling bytes to hold a thread) still must not hold one of the API's
    threads: it is treated as a client that went away, and the request ends short.
    """

    async def patient() -> Message:
        try:
            async with asyncio.timeout(seconds):
                return await receive()
        except TimeoutError:
            return {"type": "http.disconnect"}

    return patient


def companion_app(
    flask_app: Flask,
    streams: LiveStreams,
    *,
    threads: int,
    body_stall: float = BODY_STALL_SECONDS,
) -> ASGIApp:
    """``/api/stream`` on the event loop, everything else through Flask on ``threads``
    (a request body stalled for ``body_stall`` seconds is given up)."""
    sized = read_to_the_end(flask_app, int(flask_app.config["MAX_CONTENT_LENGTH"]))
    wsgi = WSGIMiddleware(sized, workers=threads)  # type: ignore[arg-type]

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    streams.close()
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] == "http" and scope.get("path") == "/api/stream":
            await streams(scope, receive, send)
        elif scope["type"] == "http":
            await wsgi(scope, patient_for(receive, body_stall), send)  # type: ignore[arg-type]

    return app


@dataclass(frozen=True)
class Listen:
    """Where to listen: plain HTTP always; HTTPS too when a certificate is given."""

    host: str
    port: int
    https_port: int | None = None
    certfile: Path | None = None
    keyfile: Path | None = None


# A phone that leaves the Wi-Fi without closing its connection (asleep, out of range)
# leaves it half-open: the kernel would keep retrying for about 15 minutes, and the live
# page's place with it. These end such a connection within about half a minute.
GONE_AFTER_MS = 30_000  # unacknowledged data for this long: the peer has gone
KEEPALIVE = (20, 5, 3)  # seconds idle, seconds between probes, probes unanswered


class ServerConfig(HypercornConfig):
    """Hypercorn's config whose listening sockets notice vanished clients (Linux: the
    connections a listener accepts inherit these options)."""

    _context: ssl.SSLContext | None = None
    _loop: asyncio.AbstractEventLoop | None = None

    def create_ssl_context(self) -> ssl.SSLContext | None:
        # Called by hypercorn on the server's loop: both kept, so the certificate can be
        # swapped there later, between handshakes.
        self._context = super().create_ssl_context()
        self._loop = asyncio.get_running_loop()
        return self._context

    def reload_certificate(self) -> bool:
        """Serve the certificate now in ``certfile`` to every new connection (any thread).

        The renewed certificate is loaded into the context the listener already uses, on
        the server's own loop, so no handshake sees it half loaded and nobody restarts.
        """
        if self._context is None or self._loop is None or self.certfile is None:
            return False
        context, certfile, keyfile = self._context, self.certfile, self.keyfile
        self._loop.call_soon_threadsafe(lambda: context.load_cert_chain(certfile, keyfile))
        return True

    def create_sockets(self) -> Sockets:
        sockets = super().create_sockets()
        for sock in (*sockets.secure_sockets, *sockets.insecure_sockets):
            notice_vanished_peers(sock)
        return sockets


def notice_vanished_peers(sock: socket.socket) -> None:
    """Keepalive probes and a user timeout, where the system has them (Linux does)."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        idle, interval, count = KEEPALIVE
        if hasattr(socket, "TCP_KEEPIDLE"):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, idle)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, interval)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, count)
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, GONE_AFTER_MS)


def server_config(listen: Listen, *, max_body: int) -> ServerConfig:
    """Hypercorn's limits: small headers and bodies, idle and half-sent connections closed."""
    config = ServerConfig()
    host = f"[{listen.host}]" if ":" in listen.host else listen.host
    if listen.certfile is not None and listen.keyfile is not None and listen.https_port:
        config.certfile, config.keyfile = str(listen.certfile), str(listen.keyfile)
        config.bind = [f"{host}:{listen.https_port}"]
        config.insecure_bind = [f"{host}:{listen.port}"]
    else:
        config.bind = [f"{host}:{listen.port}"]
    config.h11_max_incomplete_size = 16 * 1024  # request line and headers
    config.h2_max_inbound_frame_size = 16 * 1024
    config.wsgi_max_body_size = max_body
    # A connection with no request under way (between requests, or headers never
    # finished) is closed after this; one with a request under way is not timed by
    # hypercorn at all (read_timeout None): a live page only listens, for hours. Dead
    # peers are still noticed: the stream pings every 10 s, so unacknowledged data ends it
    # (GONE_AFTER_MS, and the stream's own stall limit), and a stalled body is given up
    # by ``patient_for``.
    config.keep_alive_timeout = 30
    config.read_timeout = None
    config.ssl_handshake_timeout = 10
    config.graceful_timeout = 3
    config.backlog = 256
    config.accesslog = None
    config.errorlog = logging.getLogger("companion.http")
    return config


async def run(
    app: ASGIApp,
    config: HypercornConfig,
    stop: asyncio.Event,
    on_ready: Callable[[], None] = lambda: None,
) -> None:
    """Serve until ``stop`` is set (SIGTERM, Ctrl-C or a test), then stop gracefully."""

    async def trigger() -> None:
        on_ready()
        await stop.wait()

    await hypercorn_serve(app, config, shutdown_trigger=trigger)  # type: ignore[arg-type]


@contextmanager
def loopback_server(
    app: ASGIApp,
    *,
    max_body: int,
    on_stop: Callable[[], None] = lambda: None,
    tls: tuple[Path, Path] | None = None,
    on_config: Callable[[ServerConfig], object] = lambda _: None,
    on_ready: Callable[[], None] = lambda: None,
) -> Iterator[int]:
    """The real server on a free loopback port, in a thread, for tests and benchmarks.

    ``on_ready`` runs on the server's loop once it serves, as ``companion run``'s does.

    The socket is bound here first (port 0 picks a free one) and handed to hypercorn as a
    file descriptor, so the caller knows the port before the server starts. On exit
    ``on_stop`` runs on the server's loop (end the live streams), then hypercorn stops.
    """
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    port = int(listener.getsockname()[1])
    config = server_config(Listen("127.0.0.1", port), max_body=max_body)
    if tls is not None:
        config.certfile, config.keyfile = str(tls[0]), str(tls[1])
    config.bind = [f"fd://{listener.detach()}"]  # hypercorn owns (and closes) it from now on
    config.insecure_bind = []
    on_config(config)  # a test may reload the certificate through it
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    started = threading.Event()

    def ready() -> None:
        on_ready()
        started.set()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(run(app, config, stop, ready))
        loop.close()

    thread = threading.Thread(target=serve, name="page-server", daemon=True)
    thread.start()
    started.wait(10)
    try:
        yield port
    finally:

        def stopping() -> None:
            on_stop()
            stop.set()

        loop.call_soon_threadsafe(stopping)
        thread.join(timeout=15)
