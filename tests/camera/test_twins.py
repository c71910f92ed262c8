"""The camera twins of ``make run``: the wheel rolls and drops pieces, dice are thrown, and
the ordinary watchers read them, so every camera-read input works with no hardware.

What a person trying ``make run`` would notice: the lowest compartment never following
the wheel, fallen pieces never proposed, dice the camera reads wrong, or a dice picture
beside a game that has no dice.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest

from companion.config import GameDefaults, load_config
from companion.engine.events import MOVE, Event
from companion.engine.readings import DICE, WHEEL, DiceSeen, Reading
from companion.engine.session import GameHeader
from companion.games import find_game
from companion.observations import describe_dice
from companion.simulate import bot_of, bot_turn
from companion.startup.camera import start_camera
from companion.store import Store
from companion.table import Table
from companion.watch.dice import DiceWatcher
from companion.watch.wheel import WheelWatcher
from hardware.dice_twin import DiceTwin
from hardware.simulator.room import Room
from hardware.wheel_twin import WheelTwin
from tests.camera.camera_scenes import config_file

WAIT = 20.0
PLAYERS = ("Ann", "Bo")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    store = Store(tmp_path / "games.sqlite3")
    table = Table(store, GameDefaults(players=PLAYERS))
    table.new_game(GameHeader("hamster-wheel", "standard", PLAYERS, 3))
    yield table
    table.close()
    store.close()


def wheel_view(table: Table) -> dict[str, Any]:
    view: dict[str, Any] = table.public_state(with_log=False)["view"]
    return view


def watch_the_twin(table: Table, twin: WheelTwin, watcher: WheelWatcher) -> None:
    """Show the twin's pictures until its ring has come to rest (and a few frames more)."""
    for _ in range(80):
        published = watcher.process(twin.frame(wheel_view(table), table.game_id))
        if published is not None:
            published.result(WAIT)
        if not twin.rolling:
            break
    for _ in range(3):
        published = watcher.process(twin.frame(wheel_view(table), table.game_id))
        if published is not None:
            published.result(WAIT)


def place(table: Table, rng: random.Random) -> Event:
    """The current player puts a piece in (the first placement the rules allow)."""
    state = table.snapshot.state
    assert state is not None and state.ctx.current is not None
    seat = state.ctx.current
    hand = wheel_view(table)["players"][seat]["hand"]
    colours = sorted(hand)
    rng.shuffle(colours)
    for target in ("next", "same", "next2"):
        for colour in colours:
            event = Event(MOVE, name="place", seat=seat, args={"colour": colour, "at": target})
            try:
                return table.submit(event).result(WAIT)
            except ValueError:
                continue
    raise AssertionError("no placement was allowed")


def follow_turns(
    table: Table, twin: WheelTwin, watcher: WheelWatcher, rng: random.Random, turns: int
) -> None:
    """Turns of one placement each, the twin's ring rolling as it must: after every one the
    game's lowest compartment is the twin's, and over them all the ring did roll."""
    watch_the_twin(table, twin, watcher)
    for _ in range(turns):
        place(table, rng)
        watch_the_twin(table, twin, watcher)
        assert wheel_view(table)["wheel"]["lowest"] == twin.truth.lowest + 1
        table.submit_intent("next").result(WAIT)
    assert twin.truth.rolls > 0  # the ring did roll, and the game followed every time


def test_the_wheel_twin_rolls_and_the_camera_logs_each_new_lowest_compartment(
    table: Table,
) -> None:
    twin = WheelTwin(drop_chance=0.0, higher_powers_chance=0.0)
    watcher = WheelWatcher(table, stable_frames=1, publish_every=0.0)
    rng = random.Random(4)
    follow_turns(table, twin, watcher, rng, 8)
    logged = [e["name"] for e in table.public_state()["log"] if e.get("source") == "camera"]
    assert logged.count("turn_wheel") == twin.truth.rolls


def test_pieces_the_twin_drops_in_a_try_are_proposed_and_read_reports_the_failed_try(
    table: Table,
) -> None:
    twin = WheelTwin(drop_chance=1.0, higher_powers_chance=0.0)
    watcher = WheelWatcher(table, stable_frames=1, publish_every=0.0)
    watch_the_twin(table, twin, watcher)
    place(table, random.Random(1))
    watch_the_twin(table, twin, watcher)
    fell = sorted(colour for colour, _where in twin.truth.fallen)
    assert fell, "the twin dropped nothing"
    assert sorted(table.public_state()["camera"]["wheel"]["proposal"]) == fell
    logged = table.submit_intent("read").result(WAIT)
    assert logged.name == "fail" and sorted(logged.args["fell"]) == fell
    watch_the_twin(table, twin, watcher)
    assert twin.truth.fallen == []  # the player took them: nothing lies on the table


def test_the_dice_the_twin_throws_are_read_as_thrown(table: Table) -> None:
    table.new_game(GameHeader("run-hamster-run", "classic", PLAYERS, 3))
    twin = DiceTwin()
    watcher = DiceWatcher(table, stable_frames=2)
    for moment in range(3):
        lines: list[str] = []
        for _ in range(6):
            published = watcher.process(twin.frame((6, 6), moment))
            if published is not None:
                published.result(WAIT)
                lines = table.public_state()["camera"].get(DICE, {}).get("lines", [])
        read_as = {describe_dice(order) for order in permutations(twin.thrown)}
        assert twin.thrown and len(lines) == 1 and lines[0] in read_as  # in any order


def wait_for(condition: Callable[[], bool]) -> bool:
    pause = threading.Event()
    for _ in range(int(WAIT / 0.05)):
        if condition():
            return True
        pause.wait(0.05)
    return condition()


def test_a_wheel_game_shows_the_wheel_and_a_game_reading_nothing_shows_no_picture(
    table: Table, tmp_path: Path
) -> None:
    config = load_config(config_file(tmp_path, "stable_frames = 2"), data_dir=tmp_path)
    first, _status = start_camera(config, table, simulate=True)
    assert first is not None
    try:
        assert wait_for(lambda: first.running == {WHEEL} and first.jpeg() is not None)
        assert DICE not in first.running  # no dice picture beside a game without dice
    finally:
        first.stop()
    config = load_config(config_file(tmp_path, "watch_wheel = false"), data_dir=tmp_path)
    camera, _status = start_camera(config, table, simulate=True)
    assert camera is not None
    try:  # the camera reads nothing in this game now: it shows no picture at all
        assert wait_for(lambda: camera.camera_status().startswith("camera live"))
        assert camera.running == frozenset() and camera.jpeg() is None
    finally:
        camera.stop()


def test_hand_rolled_dice_the_camera_reads_are_what_next_takes(table: Table) -> None:
    """Run, Hamster, Run! classic: the Fatigue dice NEXT carries are read by the camera and
    wait for NEXT (a press the players make anyway), never typed."""
    table.new_game(GameHeader("run-hamster-run", "classic", ("Ann", "Bo", "Cy"), 5))
    spec = find_game("run-hamster-run")
    rng = random.Random(2)

    def due() -> list[str]:
        state = table.snapshot.state
        assert state is not None and spec.next_dice is not None
        return spec.next_dice(state.G, state.ctx)

    while not due():
        state = table.snapshot.state
        assert state is not None
        bot_turn(bot_of(spec), state, rng, lambda event: table.submit(event).result(WAIT))
    faces = tuple(range(1, len(due()) + 1))
    seen = DiceSeen(faces, (0.99,) * len(faces), auto_accept=0.9)
    assert table.observe(Reading(DICE, seen)).result(WAIT)
    assert "NEXT (or READ) takes them" in table.public_state()["pending"]
    logged = table.submit_intent("next").result(WAIT)
    assert logged.kind == "next" and tuple(logged.given) == faces
    assert logged.source == "camera" and table.public_state()["pending"] is None


def test_on_a_white_table_the_twins_rolls_are_followed_and_its_pieces_left_to_the_players(
    table: Table,
) -> None:
    """The twin in a room (a solid hoop on a white table under a warm lamp, a webcam at
    70 cm): the camera still brings each new compartment down, and when pieces fall it
    says it cannot count them instead of proposing a count."""
    room = Room(table="white", light="warm")
    twin = WheelTwin(drop_chance=0.0, higher_powers_chance=0.0, room=room)
    watcher = WheelWatcher(table, stable_frames=1, publish_every=0.0, camera_height_cm=70.0)
    rng = random.Random(4)
    follow_turns(table, twin, watcher, rng, 4)
    twin.drop_chance = 1.0
    place(table, rng)
    watch_the_twin(table, twin, watcher)
    assert twin.truth.fallen, "the twin dropped nothing"
    wheel = table.public_state()["camera"]["wheel"]
    assert wheel["proposal"] == []
    assert "white piece cannot be told from this table cloth" in wheel["pieces_reason"]
