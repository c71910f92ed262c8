"""One way to reach the event's broker, shared by the table's publisher and the board.

Why paho's own thread and reconnect: a broker that goes away (a power strip kicked at a
convention) must cost the table nothing. ``connect_async`` + ``loop_start`` never block
the caller, and paho retries on its own with a growing delay (1 s up to 8 s) until the
broker is back; both sides then resend what the other needs (the table its last state,
the broker its retained states to the board).
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from companion.config import MqttConfig, mqtt_password
from companion.errors import CompanionError

#: CONNACK reason codes (MQTT 5 numbering, which paho also uses for 3.1.1) that mean the
#: broker does not accept these credentials.
REFUSED_CREDENTIALS = {134, 135}
MIN_RETRY, MAX_RETRY = 1, 8  # seconds between attempts while the broker is away


class BrokerError(CompanionError, ConnectionError):
    """The event's broker cannot be reached or refused us; the message says what to do."""


@dataclass(frozen=True)
class Broker:
    """Where the broker is and how to log in (the password never leaves this object
    except towards the broker)."""

    host: str
    port: int = 1883
    username: str = ""
    password: str = ""
    tls: bool = False
    ca_file: str = ""

    @classmethod
    def from_config(cls, mqtt_config: MqttConfig, host: str = "", port: int = 0) -> Broker:
        return cls(
            host=host or mqtt_config.host,
            port=port or mqtt_config.broker_port,
            username=mqtt_config.username,
            password=mqtt_password(mqtt_config),
            tls=mqtt_config.tls,
            ca_file=mqtt_config.ca_file,
        )

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"


def parse_broker(text: str, tls: bool = False) -> tuple[str, int]:
    """``HOST[:PORT]`` from the command line; a bad port is one sentence."""
    host, _, port = text.strip().rpartition(":") if ":" in text else (text.strip(), "", "")
    default = 8883 if tls else 1883
    if not host:
        raise BrokerError(f"{text!r} names no broker; give HOST or HOST:PORT, e.g. event-pi:1883.")
    if not port:
        return host, default
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise BrokerError(
            f"{port!r} is not a port; give HOST:PORT with a port from 1 to 65535, "
            f"e.g. {host}:{default}."
        )
    return host, int(port)


def client_id(name: str) -> str:
    """A client id unique on the broker (two boards, or a table restarted, never collide)."""
    return f"{name}-{uuid.uuid4().hex[:8]}"


def make_client(broker: Broker, identity: str) -> mqtt.Client:
    """A paho client (2.x callbacks) logged in as the broker asks, retrying on its own."""
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=identity,
        protocol=mqtt.MQTTv311,
    )
    if broker.username:
        client.username_pw_set(broker.username, broker.password or None)
    if broker.tls:
        client.tls_set(ca_certs=broker.ca_file or None)
    client.reconnect_delay_set(MIN_RETRY, MAX_RETRY)
    # Many QoS 1 states at once (50 tables on one board) must not wait on acknowledgements.
    client.max_inflight_messages_set(100)
    return client


def refusal(broker: Broker, reason: ReasonCode) -> str:
    """One sentence for a refused connection, naming what to change."""
    if reason.value in REFUSED_CREDENTIALS:
        who = f"user {broker.username!r}" if broker.username else "anonymous tables"
        return (
            f"The broker at {broker.address} refused {who} ({reason}): check the user name "
            "and password (mqtt.username and mqtt.password_file, or --username and "
            "--password-file)."
        )
    return f"The broker at {broker.address} refused the connection ({reason}); see its log."


def close_client(client: mqtt.Client, seconds: float) -> None:
    """Disconnect and stop paho's thread, waiting ``seconds`` at most for it.

    Why bounded: paho's thread may sit in a connection attempt to a broker that is itself
    stopping (its socket accepts but never answers) for its whole connect timeout, and
    ``loop_stop`` would wait that long; the thread is a daemon that ends on its own as
    soon as it can, so a table that is stopping need not wait for it.
    """
    client.disconnect()
    stopper = threading.Thread(target=client.loop_stop, name="mqtt-stop", daemon=True)
    stopper.start()
    stopper.join(seconds)
