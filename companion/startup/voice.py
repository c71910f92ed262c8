"""The spoken sentence of each change (espeak-ng), when asked for and able."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.config import Config
from companion.table import Table

if TYPE_CHECKING:
    from hardware.voice import Speaker


def start_voice(config: Config, table: Table, wanted: bool) -> tuple[Speaker | None, str]:
    """espeak-ng saying each change's sentence (``Table.on_speech``), if asked for and able.

    Off by default; a missing espeak-ng or speaker is the one-line status, never an error
    (the tablet's own speech can stand in).
    """
    if not (wanted or config.voice.enabled):
        return None, "off (turn on with [voice] enabled = true or companion run --voice)"
    from hardware.voice import Speaker, voice_problem

    problem = voice_problem()
    if problem is not None:
        return None, problem
    speaker = Speaker(voice=config.voice.voice, speed=config.voice.speed)
    table.listeners.on_speech(speaker.say)
    return speaker, f"espeak-ng ({config.voice.voice}, {config.voice.speed} words a minute)"
