"""Spoken cues: each served game's sentences reach the speaker, espeak-ng really speaks (into
a WAV file, so no sound device is needed), stale lines are dropped, and a missing speaker or
espeak-ng is one line, never an error."""

from __future__ import annotations

import random
import shutil
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.commands.doctor import check_voice
from companion.config import ConfigError, load_config
from companion.engine.events import Event
from companion.engine.session import GameHeader
from companion.engine.spoken import phase_sentence
from companion.games import GAMES
from companion.simulate import bot_of, bot_turn
from companion.store import Store
from companion.table import Table
from hardware.voice import NO_COMMAND, NO_SPEAKER, Speaker, speaker_problem, voice_problem

WAIT = 30.0
SEEDS = range(4)
LIMIT = 600  # events per game: every cue of every game is heard well before


class Recorder:
    """Stands in for espeak-ng: keeps each command line."""

    def __init__(self) -> None:
        self.lines: list[list[str]] = []

    def __call__(self, argv: Sequence[str]) -> None:
        self.lines.append(list(argv))

    @property
    def said(self) -> list[str]:
        return [argv[-1] for argv in self.lines]


def _play(name: str, tmp_path: Path, seed: int, heard: list[str]) -> Table:
    """A bot game on a real table, each change's sentence collected from ``on_speech``."""
    spec = GAMES[name]
    players = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")[: max(spec.min_players, 3)]
    table = Table(Store(tmp_path / f"{name}-{seed}.sqlite3"))
    table.listeners.on_speech(heard.append)
    rules = spec.default_rules or spec.rule_sets[0]
    table.new_game(GameHeader(name, rules, players, seed))
    bot, rng = bot_of(spec), random.Random(seed)
    wanted = set(spec.cue_words.values())

    def apply(event: Event) -> None:
        table.submit(event).result(WAIT)

    while len(table.snapshot.log) < LIMIT:
        state = table.snapshot.state
        assert state is not None
        if state.ctx.over or wanted <= {w for line in heard for w in wanted if w in line}:
            break
        bot_turn(bot, state, rng, apply)
    return table


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_served_game_says_its_turns_and_its_cues(name: str, tmp_path: Path) -> None:
    spec = GAMES[name]
    assert spec.cue_words, "every served game gives its cues words to say"
    heard: list[str] = []
    seats: set[str] = set()
    for seed in SEEDS:
        table = _play(name, tmp_path, seed, heard)
        state = table.snapshot.state
        assert state is not None
        header = table.snapshot.header
        assert header is not None
        seats |= {_seat_name(name, state.G, seat) for seat in range(len(header.players))}
        table.close()
        if all(any(words in line for line in heard) for words in spec.cue_words.values()):
            break
    for cue, words in spec.cue_words.items():
        assert any(words in line for line in heard), f"{name}: cue {cue!r} was never said"
    # NEXT says the new phase by its title and the prompt, which names whose turn it is.
    titles = {phase_sentence(p.title) for p in spec.phases.values() if p.title}
    assert len(spec.phases) == 1 or any(title in line for line in heard for title in titles)
    assert any(who in line for line in heard for who in seats if who)


def _seat_name(name: str, game: Any, seat: int) -> str:
    """How the game names a seat in its prompts (Rats: "Rat2"), as the speaker says it."""
    spec = GAMES[name]
    if spec.presentation.seat_name is None:
        return ("Ann", "Bob", "Cat")[seat] if seat < 3 else ""
    try:
        return spec.presentation.seat_name(game, seat)
    except (IndexError, KeyError):
        return ""


def test_every_sentence_is_queued_for_espeak_ng_in_order(tmp_path: Path) -> None:
    """On a real table the speaker gets exactly the sentences the table says, in order."""
    recorder = Recorder()
    speaker = Speaker(run=recorder, voice="en-gb", speed=150, waiting=1000)
    heard: list[str] = []
    table = Table(Store(tmp_path / "g.sqlite3"))
    table.listeners.on_speech(speaker.say)
    table.listeners.on_speech(heard.append)
    try:
        table.new_game(GameHeader("run-hamster-run", "classic", ("Ann", "Bob"), 1))
        bot, rng = bot_of(GAMES["run-hamster-run"]), random.Random(1)
        while len(heard) < 6:
            state = table.snapshot.state
            assert state is not None
            bot_turn(bot, state, rng, lambda event: table.submit(event).result(WAIT))
        assert speaker.wait_idle(WAIT)
        spoken = table.public_state()["spoken"]
    finally:
        table.close()
        speaker.close()
    assert recorder.said == heard and spoken == heard[-1]
    assert all(
        argv[:6] == ["espeak-ng", "-v", "en-gb", "-s", "150", "--"] for argv in recorder.lines
    )
    assert any(line.startswith("Phase 1, Allocate Pluck.") for line in heard)


def test_undo_is_silent_and_the_page_gets_the_sentence(tmp_path: Path) -> None:
    heard: list[str] = []
    table = _play("hamster-wheel", tmp_path, 0, heard)
    try:
        said = len(heard)
        assert table.public_state()["spoken"] == heard[-1]
        table.submit("undo").result(WAIT)
        assert len(heard) == said
    finally:
        table.close()


def test_stale_lines_are_dropped_when_speech_lags() -> None:
    """The worker never waits: while one line is said, only the newest two stay queued."""
    release = threading.Event()
    started = threading.Event()
    said: list[str] = []

    def slow(argv: Sequence[str]) -> None:
        said.append(argv[-1])
        started.set()
        release.wait(WAIT)

    speaker = Speaker(run=slow)
    try:
        speaker.say("one")
        assert started.wait(WAIT)
        for line in ("two", "three", "four", "five"):
            speaker.say(line)  # returns at once although "one" is still being said
        release.set()
        assert speaker.wait_idle(WAIT)
    finally:
        speaker.close()
    assert said == ["one", "four", "five"]
    assert speaker.dropped == 2


def test_a_failing_command_is_logged_never_raised(caplog: pytest.LogCaptureFixture) -> None:
    def broken(argv: Sequence[str]) -> Any:
        raise FileNotFoundError(2, "No such file", argv[0])

    speaker = Speaker(run=broken)
    speaker.say("Phase 1.")
    assert speaker.wait_idle(WAIT)
    speaker.close()
    assert "could not say" in caplog.text


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_espeak_ng_really_speaks_into_a_wav_file(tmp_path: Path) -> None:
    wav = tmp_path / "said.wav"
    speaker = Speaker(wav=wav)
    speaker.say("Phase 6, Alligators. Chomp!")
    assert speaker.wait_idle(WAIT)
    speaker.close()
    audio = wav.read_bytes()
    assert audio[:4] == b"RIFF" and audio[8:12] == b"WAVE"
    assert len(audio) > 10_000  # about a second of speech, not an empty header


def test_a_missing_speaker_or_command_is_one_line(tmp_path: Path) -> None:
    assert voice_problem(command="no-such-espeak-here") == NO_COMMAND
    assert speaker_problem(tmp_path / "absent") == NO_SPEAKER
    capture_only = tmp_path / "pcm"
    capture_only.write_text("00-00: USB Audio : USB Audio : capture 1\n")
    assert speaker_problem(capture_only) == NO_SPEAKER
    capture_only.write_text("00-00: bcm2835 ALSA : bcm2835 ALSA : playback 7\n")
    assert speaker_problem(capture_only) is None
    for line in (NO_COMMAND, NO_SPEAKER):
        assert "\n" not in line and line.startswith("off: ")
    (finding,) = check_voice()
    assert finding.ok or finding.optional  # never a failure of `companion doctor`


def test_the_voice_is_off_by_default_and_bad_values_are_one_sentence(tmp_path: Path) -> None:
    assert load_config().voice.enabled is False
    good = tmp_path / "good.toml"
    good.write_text('[voice]\nenabled = true\nvoice = "en-gb"\nspeed = 140\n')
    assert load_config(good).voice.speed == 140
    for text, message in (
        ("enabled = 1", "must be true or false"),
        ('voice = "en; rm -rf"', "espeak-ng voice name"),
        ("speed = 20", "between 80 and 450 words a minute"),
    ):
        bad = tmp_path / "bad.toml"
        bad.write_text(f"[voice]\n{text}\n")
        with pytest.raises(ConfigError, match=message):
            load_config(bad)


def test_a_game_whose_cues_fail_still_publishes_the_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sentence is worked out after the change is stored: a failure there only silences
    it, the tablets still get the change."""
    from dataclasses import replace

    from tests.runtime.tally import TALLY, TALLY_HEADER
    from tests.runtime.test_table import add

    def broken(*args: Any) -> tuple[str, ...]:
        raise RuntimeError("a bug in a game's cues")

    monkeypatch.setitem(GAMES, "tally", replace(TALLY, cues=broken))
    heard: list[str] = []
    table = Table(Store(tmp_path / "g.sqlite3"))
    table.listeners.on_speech(heard.append)
    try:
        table.new_game(TALLY_HEADER)
        table.submit(add(3)).result(WAIT)
        state = table.public_state()
    finally:
        table.close()
    assert state["view"]["total"] == 3 and state["spoken"] == "" and heard == []


def test_companion_run_wires_the_voice_only_when_asked_and_able(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Off by default; asked for (config or --voice) it is one status line either way."""
    import hardware.voice
    from companion.config import Config, VoiceConfig
    from companion.startup.voice import start_voice

    table = Table(Store(tmp_path / "g.sqlite3"))
    try:
        speaker, status = start_voice(Config(), table, wanted=False)
        assert speaker is None and status.startswith("off (turn on with [voice] enabled")
        monkeypatch.setattr(hardware.voice, "voice_problem", lambda: NO_SPEAKER)
        speaker, status = start_voice(Config(), table, wanted=True)
        assert speaker is None and status == NO_SPEAKER
        monkeypatch.setattr(hardware.voice, "voice_problem", lambda: None)
        config = Config(voice=VoiceConfig(enabled=True, voice="en-gb", speed=140))
        speaker, status = start_voice(config, table, wanted=False)
        assert speaker is not None and status == "espeak-ng (en-gb, 140 words a minute)"
        speaker.close()
    finally:
        table.close()
