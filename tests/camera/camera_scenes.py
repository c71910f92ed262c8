"""A Run, Hamster, Run! table and simulated pictures of its belt, for the camera watchers.

The calibration is made the way a player makes one: a rendered frame with every hamster
on a known square, ``calibrate_board`` on it, and the file saved where ``companion run``
looks for it. Frames are rendered by the simulator, with noise and a tilted camera.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from calibration.geometry import Calibration, calibrate_board, locate_board, save_calibration
from calibration.watched import WatchedCalibration
from companion.config import CALIBRATION_FILE, GameDefaults
from companion.engine.events import MOVE, Event
from companion.engine.session import GameHeader
from companion.store import Store
from companion.table import Table
from companion.vision.board import read_board
from hardware.simulator import HAMSTER_COLOURS, BeltScene, Conditions, render_belt

PLAYERS = ("Alice", "Bob", "Cathleen", "Dave")  # red, blue, yellow, green: the game's order


def config_file(tmp_path: Path, camera: str) -> Path:
    """A companion.toml whose [camera] section holds the given lines."""
    path = tmp_path / "companion.toml"
    path.write_text(f"[camera]\n{camera}\n")
    return path


@contextmanager
def rhr_table(tmp_path: Path) -> Iterator[Table]:
    """A real table (SQLite store) with a fresh 4-player v2.1 Run, Hamster, Run! game."""
    store = Store(tmp_path / "companion.sqlite3")
    table = Table(store, GameDefaults(players=PLAYERS))
    table.new_game(GameHeader("run-hamster-run", "v2.1", PLAYERS, 7, given=([0, 1, 2, 3],)))
    try:
        yield table
    finally:
        table.close()
        store.close()


PLACES = {"red": (5, 2), "blue": (5, 3), "yellow": (3, 4), "green": (4, 1)}
ASTERISK_ROW = 5  # where v2.1 lays the asterisk strip at set-up
CALIBRATION_CELLS = {colour: (2, lane) for lane, colour in enumerate(HAMSTER_COLOURS, start=1)}
SIZE = (640, 480)

Frame = NDArray[np.uint8]
Where = tuple[int, int] | Literal["pit"]


def conditions(hand: bool = False) -> Conditions:
    return Conditions(size=SIZE, perspective=0.3, uneven_light=0.3, noise=2.0, hand=hand)


def make_calibration() -> Calibration:
    scene = BeltScene(CALIBRATION_CELLS)
    frame = render_belt(scene, np.random.default_rng(0), Conditions(size=SIZE)).frame
    return calibrate_board(frame, CALIBRATION_CELLS)


def save(calibration: Calibration, folder: Path) -> Path:
    path = folder / CALIBRATION_FILE
    save_calibration(calibration, path)
    return path


def belt_frame(
    hamsters: Mapping[str, Where], seed: int = 1, *, hand: bool = False, asterisk_row: int = 5
) -> Frame:
    scene = BeltScene(hamsters=dict(hamsters), asterisk_row=asterisk_row)
    return render_belt(scene, np.random.default_rng(seed), conditions(hand)).frame


def hand_frame(hamsters: Mapping[str, Where], calibration: Calibration) -> Frame:
    """A frame with a hand over the belt itself (not merely over a corner marker)."""
    for seed in range(100):
        scene = BeltScene(hamsters=dict(hamsters), asterisk_row=ASTERISK_ROW)
        rendered = render_belt(scene, np.random.default_rng(seed), conditions(hand=True))
        frame = rendered.frame
        reading = read_board(frame, locate_board(frame), calibration.colour_profiles)
        if rendered.hand_over_board and "hand" in reading.reason:
            return frame
    raise AssertionError("no seed put a hand over the belt")


def place_everyone(table: Table) -> None:
    """Set-up as the game's placement order asks: each hamster on its square of PLACES."""
    for seat, colour in enumerate(("red", "blue", "yellow", "green")):
        square = list(PLACES[colour])
        table.submit(Event(MOVE, name="place", seat=seat, args={"to": square})).result(10)


#: A calibration that was never made: watchers fall back to their defaults (the wheel's
#: spokes) and still find the table's markers.
NO_CALIBRATION = WatchedCalibration(Path("/nonexistent/calibration.json"))
