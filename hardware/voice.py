"""Spoken cues: the Pi says the phase, whose turn it is and the game's cues through espeak-ng.

Why a thread and a short queue: the table's worker hands a sentence over and goes on at once
(``Table.on_speech`` listeners must never block), while espeak-ng takes a second or two to say
it. If the table moves faster than the voice (three NEXTs in a row), the lines waiting are
stale: only the newest few are kept, so the voice says where the game *is*, not where it was.

Why a subprocess of Debian's ``espeak-ng`` and not a Python speech library: it is one apt
package on Raspberry Pi OS, needs no model download, and writes a WAV file with ``-w`` so the
tests hear it without a sound device.

A missing espeak-ng or a Pi without a speaker is a one-line note at start (and in ``companion
doctor``), never an error: the tablet can speak instead.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

log = logging.getLogger(__name__)

COMMAND: Final = "espeak-ng"
#: Lines kept waiting while one is said; older ones are dropped as stale.
WAITING: Final = 2
#: A line that takes longer than this to say is cut off (a hung audio device).
SAY_TIMEOUT: Final = 30.0
ALSA_PCM: Final = Path("/proc/asound/pcm")

Runner = Callable[[Sequence[str]], object]

NO_COMMAND = (
    "off: espeak-ng is not installed (sudo apt install espeak-ng), or turn on 'Speak' on the tablet"
)
NO_SPEAKER = (
    "off: no speaker found (no ALSA playback device); plug one into the audio out, "
    "or turn on 'Speak' on the tablet"
)


def _run_quietly(argv: Sequence[str]) -> object:
    return subprocess.run(
        list(argv),
        check=False,
        timeout=SAY_TIMEOUT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


class Speaker:
    """Says sentences one after another on its own thread; ``say`` never waits.

    ``run`` is injectable so tests record the command lines instead of sounding them;
    ``wav`` makes espeak-ng write the audio to that file instead of the sound device.
    """

    def __init__(
        self,
        *,
        voice: str = "en",
        speed: int = 160,
        command: str = COMMAND,
        run: Runner = _run_quietly,
        wav: Path | None = None,
        waiting: int = WAITING,
    ) -> None:
        self._argv = [command, "-v", voice, "-s", str(speed)]
        if wav is not None:
            self._argv += ["-w", str(wav)]
        self._run = run
        self._lines: deque[str] = deque(maxlen=waiting)
        self._ready = threading.Condition()
        self._closed = False
        self._busy = False
        self.dropped = 0  # stale lines never said (the table moved on first)
        self._thread = threading.Thread(target=self._speak, name="voice", daemon=True)
        self._thread.start()

    def say(self, sentence: str) -> None:
        """Queue ``sentence``; when the queue is full the oldest waiting line is dropped."""
        if not sentence.strip():
            return
        with self._ready:
            if self._closed:
                return
            if len(self._lines) == self._lines.maxlen:
                self.dropped += 1
            self._lines.append(sentence)
            self._ready.notify()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Until every queued line has been said (for tests and a clean stop)."""
        with self._ready:
            return self._ready.wait_for(lambda: not self._lines and not self._busy, timeout)

    def _speak(self) -> None:
        while True:
            with self._ready:
                self._ready.wait_for(lambda: self._lines or self._closed)
                if self._closed and not self._lines:
                    return
                line = self._lines.popleft()
                self._busy = True
            try:
                self._run([*self._argv, "--", line])
            except (OSError, subprocess.SubprocessError) as error:
                log.warning("voice: could not say %r: %s", line, error)
            finally:
                with self._ready:
                    self._busy = False
                    self._ready.notify_all()

    def close(self, timeout: float = 2.0) -> None:
        """Stop after the line being said; lines still waiting are dropped."""
        with self._ready:
            self._closed = True
            self._lines.clear()
            self._ready.notify_all()
        self._thread.join(timeout=timeout)


def speaker_problem(pcm: Path = ALSA_PCM) -> str | None:
    """Why the Pi cannot sound a voice (no ALSA playback device), or None if it can."""
    try:
        devices = pcm.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return NO_SPEAKER
    return None if "playback" in devices else NO_SPEAKER


def voice_problem(command: str = COMMAND, pcm: Path = ALSA_PCM) -> str | None:
    """The one line saying why the Pi will not speak, or None if it can."""
    if shutil.which(command) is None:
        return NO_COMMAND
    return speaker_problem(pcm)
