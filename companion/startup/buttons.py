"""The buttons (gpiozero, or their MockFactory twin), the keyboard standing in for them,
and the LED following the game.

A press only enqueues an intent on the table; a refusal is printed, never raised on the
device's thread.
"""

from __future__ import annotations

import sys
import threading
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Protocol

import click

from companion.config import Config
from companion.table import Table

if TYPE_CHECKING:
    from hardware.buttons import TableButtons


class Light(Protocol):
    """What the game-following LED needs of the buttons (``TableButtons`` or a test's)."""

    def set_light(self, mode: str) -> None: ...


def start_buttons(config: Config, table: Table, simulate: bool) -> tuple[TableButtons | None, str]:
    """gpiozero buttons on the configured pins (MockFactory twin when no GPIO is found)."""
    from hardware.buttons import TableButtons
    from hardware.pins import choose_pin_factory

    factory, reason = choose_pin_factory(simulate=simulate, work_dir=config.data_dir)
    try:
        buttons = TableButtons(
            config.buttons, lambda name: _press(table, name), pin_factory=factory
        )
        table.listeners.on_cues(buttons.cue)
    except (ValueError, OSError, RuntimeError) as error:
        return None, f"buttons off: {error}"
    except Exception as error:  # e.g. lgpio.error('GPIO busy'), an Exception of its own
        # Buttons are one device among several: pins another program holds must leave the
        # table running on the page and keyboard, not stop the start with a traceback.
        return None, (
            f"buttons off: the GPIO pins could not be claimed ({error}); if another program "
            "holds them (the service: sudo systemctl stop companion), stop it and start again"
        )
    return buttons, reason


def start_keyboard(table: Table) -> str:
    """Keys in the terminal stand in for the buttons: n next, b undo, r redo, space read."""
    if not sys.stdin.isatty():
        return "off (not a terminal)"
    from hardware.keyboard import intent_for_key, terminal_keys

    def read_keys() -> None:
        for key in terminal_keys():
            intent = intent_for_key(key)
            if intent is not None:
                table.submit_intent(intent, source="keyboard").add_done_callback(_report)

    threading.Thread(target=read_keys, name="keyboard", daemon=True).start()
    return "n = NEXT, b = BACK (undo), r = redo, space = READ"


def light_mode(state: dict[str, Any]) -> str:
    """Off when the game is over; steady while something waits for a person; else blink."""
    if state.get("over"):
        return "off"
    camera = state.get("camera") or {}
    disagrees = any(note.get("status") == "differ" for note in camera.values())
    return "steady" if state.get("pending") or disagrees else "blink"


def follow_with_lights(table: Table, buttons: Light, stop: threading.Event) -> threading.Thread:
    """The LED follows the game: blink while the table must act, steady while something
    waits for a person. Runs on its own subscription so the worker never waits for it; the
    buzzer's sounds come from the game's cues (``Table.on_cues``)."""
    subscription = table.subscribe(table.public_state(with_log=False).get("seq") or 0)

    def follow() -> None:
        while not stop.is_set():
            event = subscription.get(timeout=1.0)
            if event is None:
                if subscription.ended:
                    return
                continue
            buttons.set_light(light_mode(table.public_state(with_log=False)))

    thread = threading.Thread(target=follow, name="lights", daemon=True)
    thread.start()
    return thread


def _press(table: Table, intent: str) -> None:
    """A button press only enqueues; a refusal is printed, never raised on gpiozero's thread."""
    table.submit_intent(intent, source="button").add_done_callback(_report)


def _report(future: Future[Any]) -> None:
    error = future.exception()
    if error is not None:
        click.secho(str(error), fg="red")
