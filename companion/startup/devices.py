"""Every part started around the table, each with its line for the page and console,
and one ``Devices.close`` that stops them in the right order."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from companion.advertise import LanName, remember
from companion.config import Config
from companion.demo_table import DEMO_NOTE, DemoPlayer
from companion.mqtt.board import BoardClient
from companion.mqtt.publisher import TablePublisher
from companion.startup.board import leave_broker, start_event_board, start_mqtt
from companion.startup.buttons import start_buttons, start_keyboard
from companion.startup.camera import LateCamera, start_camera
from companion.startup.voice import start_voice
from companion.table import Table
from hardware.power_watch import power_lines

if TYPE_CHECKING:
    from hardware.buttons import TableButtons
    from hardware.voice import Speaker


@dataclass
class Devices:
    """The parts started around the table, each with the line the page shows about it,
    and one :meth:`close` that stops them in the right order."""

    buttons: TableButtons | None
    button_status: str
    keyboard_status: str
    speaker: Speaker | None
    voice_status: str
    publisher: TablePublisher | None
    mqtt_status: str
    demo: DemoPlayer | None
    event_board: BoardClient | None
    camera: LateCamera
    lan: LanName | None = None  # claimed once the page is served

    def status(self) -> dict[str, str]:
        """Each device's line for the page and the console, then any banner notice."""
        publisher = self.publisher
        return {
            "buttons": self.button_status,
            "camera": self.camera.status,
            "keyboard": self.keyboard_status,
            "voice": self.voice_status,
            "event board": publisher.status if publisher is not None else self.mqtt_status,
            **self.camera.lines(),
            **power_lines(),  # the firmware's under-voltage / throttling flags
            **notice(self.demo is not None, publisher),
        }

    def close(self, folder: Path) -> None:
        """Stop every part; ``folder`` loses the LAN name note ``companion pin`` reads."""
        if self.demo is not None:
            self.demo.stop()
        # The broker is left alongside the rest (each MQTT stop waits 1 s at most, whatever
        # the broker does), so SIGTERM ends well within systemd's patience.
        leaving = threading.Thread(target=leave_broker, args=(self.event_board, self.publisher))
        leaving.start()
        if self.lan is not None:
            self.lan.close()
            remember(folder, None)
        if self.buttons is not None:
            self.buttons.set_light("off")
            self.buttons.close()
        self.camera.stop()
        if self.speaker is not None:
            self.speaker.close()
        leaving.join()


def start_devices(
    config: Config, table: Table, *, simulate: bool, voice: bool, demo_pace: float | None
) -> Devices:
    """Buttons, keyboard, voice, the event's broker and the demo bot; the camera is only
    prepared here (it starts once the page is served)."""
    buttons, button_status = start_buttons(config, table, simulate)
    keyboard_status = start_keyboard(table)
    speaker, voice_status = start_voice(config, table, voice)
    publisher, mqtt_status = start_mqtt(config, table, demo=demo_pace is not None)
    demo = None if demo_pace is None else DemoPlayer(table, demo_pace)
    event_board = start_event_board(config)
    camera = LateCamera(lambda: start_camera(config, table, simulate))
    return Devices(
        buttons,
        button_status,
        keyboard_status,
        speaker,
        voice_status,
        publisher,
        mqtt_status,
        demo,
        event_board,
        camera,
    )


def notice(demo: bool, publisher: TablePublisher | None) -> dict[str, str]:
    """The banner at the top of the table's page, when there is one: a demo table, a name
    another table holds (the page is where the players look, not the log)."""
    notes = [DEMO_NOTE] if demo else []
    if publisher is not None and publisher.clash:
        notes.append(f"Event board: {publisher.clash}.")
    return {"notice": " ".join(notes)} if notes else {}
