"""A broker that is going down: it lets clients in and hands every message back, but
never acknowledges a QoS 1 publish (as mosquitto in the middle of stopping).

Enough MQTT 3.1.1 for paho: CONNECT -> CONNACK, SUBSCRIBE -> SUBACK, PINGREQ -> PINGRESP,
PUBLISH -> the same message back at QoS 0 and no PUBACK.
"""

from __future__ import annotations

import contextlib
import socket
import threading


def _length(data: bytes, at: int) -> tuple[int, int]:
    """MQTT's variable-length integer at ``at``: (value, index after it)."""
    value, shift = 0, 0
    while True:
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at += 1
        if not byte & 0x80:
            return value, at
        shift += 7


def _encode_length(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value % 128, value // 128
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


class MuteBroker:
    """Listens on a free 127.0.0.1 port; :meth:`close` ends it."""

    def __init__(self) -> None:
        self._server = socket.socket()
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(8)
        self.port: int = self._server.getsockname()[1]
        self.unanswered = 0  # QoS 1 publishes left without an acknowledgement
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self._server.close()

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                connection, _ = self._server.accept()
                threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        buffer = b""
        with connection, contextlib.suppress(OSError, IndexError):
            while chunk := connection.recv(65536):
                buffer += chunk
                while len(buffer) >= 2:
                    try:
                        size, start = _length(buffer, 1)
                    except IndexError:
                        break
                    if len(buffer) < start + size:
                        break
                    kind, body = buffer[0], buffer[start : start + size]
                    buffer = buffer[start + size :]
                    connection.sendall(self._answer(kind, body))

    def _answer(self, kind: int, body: bytes) -> bytes:
        packet = kind >> 4
        if packet == 1:  # CONNECT
            return b"\x20\x02\x00\x00"
        if packet == 8:  # SUBSCRIBE: packet id, then (topic, qos) pairs
            granted, at = bytearray(), 2
            while at < len(body):
                at += 2 + int.from_bytes(body[at : at + 2], "big")
                granted.append(min(body[at], 1))
                at += 1
            rest = body[:2] + bytes(granted)
            return b"\x90" + _encode_length(len(rest)) + rest
        if packet == 12:  # PINGREQ
            return b"\xd0\x00"
        if packet == 3:  # PUBLISH: back at QoS 0, never acknowledged
            topic_end = 2 + int.from_bytes(body[:2], "big")
            qos = (kind >> 1) & 3
            payload = body[topic_end + (2 if qos else 0) :]
            if qos:
                self.unanswered += 1
            rest = body[:topic_end] + payload
            return b"\x30" + _encode_length(len(rest)) + rest
        return b""
