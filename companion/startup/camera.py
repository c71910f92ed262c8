"""The camera (Pi camera, webcam or the simulated twin) feeding the camera rig, started
once the page is served (``LateCamera``), with the exposure held from calibration and the
belt twin a demo table watches.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from companion.config import Config
from companion.engine.camera import dice_wanted, watched
from companion.engine.readings import BELT
from companion.table import Table

if TYPE_CHECKING:
    from companion.watch.rig import CameraRig
    from hardware.camera import CameraSettings
    from hardware.camera_choice import CameraChoice
    from hardware.demo_board import DemoBelt
    from hardware.table_twin import Table as OnTheTable


log = logging.getLogger("companion")

# The camera: the same picture for this long means a frozen pipeline (hardware/camera.py
# FreezeCheck); no new picture at all for this long means the reader hung in the driver.
FROZEN_AFTER = 10.0
STALE_AFTER = 15.0
# Stopping waits this long for a camera still starting (imports, a driver opening): well
# inside systemd's TimeoutStopSec=20 with the rest of the stop.
STARTING_PATIENCE = 10.0


class LateCamera:
    """The camera rig, started on a thread of its own once the page is served.

    Why: the camera brings OpenCV, numpy and the dice networks, and starting it took most
    of `companion run`'s time to its first page; the page needs none of it to show the
    game. Until the rig is up the camera line says it is starting and there is no picture
    (404, as for a camera still warming up). Stands in for the rig as the page's camera
    view (``web.context.CameraView``) and its exposure lock.
    """

    def __init__(self, begin: Callable[[], tuple[CameraRig | None, str]]) -> None:
        self._begin = begin
        self.rig: CameraRig | None = None
        self.line = "camera starting (once the page is served)"
        self._stopped = False
        self._lock = threading.Lock()
        self._starting: threading.Thread | None = None

    def start(self) -> None:
        """On the server's loop once it serves: start the camera on a thread of its own."""
        self._starting = threading.Thread(target=self._run, name="camera-start", daemon=True)
        self._starting.start()

    def _run(self) -> None:
        try:
            rig, line = self._begin()
        except Exception:  # a bug: logged, and the page works on without a camera
            log.exception("the camera could not be started")
            rig, line = None, "camera failed to start (see the log): enter dice on the page"
        with self._lock:
            self.rig, self.line = rig, line
            if self._stopped and rig is not None:  # stopped while it was starting
                rig.stop()
        click.echo(f"  camera: {line}")

    @property
    def status(self) -> str:
        rig = self.rig
        return rig.status if rig is not None else self.line

    def lines(self) -> dict[str, str]:
        rig = self.rig
        return rig.lines() if rig is not None else {}

    def latest_frame(self) -> Any | None:
        rig = self.rig
        return rig.latest_frame() if rig is not None else None

    def jpeg(self, width: int = 640) -> bytes | None:
        rig = self.rig
        return rig.jpeg(width) if rig is not None else None

    def offline(self) -> str | None:
        rig = self.rig
        return rig.offline() if rig is not None else None

    def lock_exposure(self) -> dict[str, Any] | None:
        rig = self.rig
        return rig.lock_exposure() if rig is not None else None

    def stop(self) -> None:
        """Stop the rig; one still starting is waited for (``STARTING_PATIENCE`` at most)
        and stops itself, so the process never exits while that thread is inside OpenCV's
        or a camera driver's native code (glibc aborted the exit: status -6, SIGABRT)."""
        with self._lock:
            self._stopped = True
            rig = self.rig
        if rig is not None:
            rig.stop()
        starting = self._starting
        if starting is not None and starting is not threading.current_thread():
            starting.join(STARTING_PATIENCE)


def start_camera(
    config: Config,
    table: Table,
    simulate: bool,
    on_pi: bool | None = None,
    choose: Callable[[], CameraChoice] | None = None,
) -> tuple[CameraRig | None, str]:
    """The camera (``hardware.camera_source``) delivering frames to the camera rig, which
    runs the watchers the game in play declares (``companion.watch.rig``).

    Wherever the simulated camera runs, the belt check watches a simulated belt of its own
    (the dice twin's frames show no belt), so a laptop shows it working too.
    """
    from hardware.camera import CameraSupervisor, OpenCVSource, Picamera2Source, SimulatedSource
    from hardware.camera_source import open_source
    from hardware.table_twin import TableTwin

    source, why = open_source(
        config.camera,
        simulate=simulate,
        twin=TableTwin(table_now(table)),
        twin_name="simulated camera (dice and wheel twins)",
        settings=lambda: locked_settings(config),
        on_pi=on_pi,
        choose=choose,
        data_dir=config.data_dir,  # where a webcam's calibration lock is kept
    )
    if source is None:
        return None, why
    demo = isinstance(source, SimulatedSource)
    rig = _rig(config, table, demo)
    real = isinstance(source, (Picamera2Source, OpenCVSource))
    supervisor = CameraSupervisor(
        source,
        rig.deliver,
        # A real sensor's picture always changes a little: the same one for this long is a
        # frozen pipeline (files and the simulator may repeat a picture on purpose).
        frozen_after=FROZEN_AFTER if real else None,
        stale_after=STALE_AFTER,
    )
    status = f"{source.name}: dice read after {config.camera.stable_frames} steady frames"
    rig.attach(supervisor, f"{status}. {rig.note}" if rig.note else status)
    if demo and BELT in rig.watchers:
        rig.add_device(BELT, demo_belt(table, rig))
    rig.start()
    return rig, rig.status_line


def _rig(config: Config, table: Table, demo: bool) -> CameraRig:
    """The camera rig with what was calibrated and sampled for this table: the belt's
    calibration (a demo belt's for the simulated camera), the wheel's piece colours and the
    players' hands (typical ones until they are sampled; a broken file is said in the rig's
    note from the start, and the typical ones used)."""
    from calibration.hand_colours import HAND_COLOURS_FILE, WatchedHandColours
    from calibration.watched import WatchedCalibration
    from calibration.wheel_colours import WHEEL_COLOURS_FILE, WatchedWheelColours
    from companion.watch.rig import build_rig

    belt_file = demo_belt_file(config) if demo else config.calibration_file
    colours = WatchedWheelColours(config.data_dir / WHEEL_COLOURS_FILE, log.warning)
    hands = WatchedHandColours(config.data_dir / HAND_COLOURS_FILE, log.warning)
    rig = build_rig(
        config,
        table,
        demo=demo,
        belt_calibration=WatchedCalibration(belt_file),
        wheel_colours=colours,
        hands=hands,
    )
    for sampled in (colours, hands):
        sampled()  # read now, so a broken file is said on the camera's status from the start
        if sampled.problem:
            rig.note = f"{rig.note} {sampled.problem}".strip()
    return rig


def table_now(table: Table) -> Callable[[], OnTheTable]:
    """What the table twin draws, as plain data: the kinds the game in play reads with the
    camera, the dice it waits for, its public view, and which game and moment it is."""
    from hardware.table_twin import Table as OnTheTable

    def look() -> OnTheTable:
        snap = table.snapshot
        if snap.state is None:
            return OnTheTable()
        return OnTheTable(
            kinds=watched(snap.spec),
            dice=dice_wanted(snap.spec, snap.state),
            view=table.public_state(with_log=False)["view"],
            game=snap.game_id,
            moment=table.current_stamp(),
        )

    return look


def demo_belt_file(config: Config) -> Path:
    """The belt twin's calibration, made as a player makes one, in a demo folder of its own
    (never over the players' calibration file)."""
    from calibration.geometry import calibrate_board, save_calibration
    from hardware.demo_board import CALIBRATION_CELLS, BeltCamera, demo_calibration_path

    path = demo_calibration_path(config.data_dir)
    try:
        save_calibration(calibrate_board(BeltCamera().calibration_frame, CALIBRATION_CELLS), path)
    except OSError as error:  # the watcher's status then says the calibration is missing
        log.warning("simulated belt camera: cannot save its calibration: %s", error)
    return path


def demo_belt(table: Table, rig: CameraRig) -> DemoBelt:
    """The belt twin: draws the game's belt and hands each picture to the belt watcher."""
    from hardware.demo_board import DemoBelt

    def view() -> dict[str, Any] | None:
        if BELT not in watched(table.snapshot.spec):
            return None
        view: dict[str, Any] = table.public_state(with_log=False)["view"]
        return view

    return DemoBelt(view, table.current_stamp, rig.feed(BELT))


def locked_settings(config: Config) -> CameraSettings:
    """The Pi camera's settings: the configured size, and the exposure, white balance and
    focus the camera chose at calibration (saved with it), held from the first frame.

    Without a calibration, or one whose values were never read from a camera, the camera
    stays on automatic.
    """
    from calibration.geometry import CalibrationError, load_calibration
    from hardware.camera import CameraSettings

    size = (config.camera.width, config.camera.height)
    try:
        saved = load_calibration(config.calibration_file).camera
    except CalibrationError:
        return CameraSettings(size=size)
    if not saved.measured:
        return CameraSettings(size=size)
    return CameraSettings(
        size=size,
        exposure_time_us=saved.exposure_time_us,
        analogue_gain=saved.analogue_gain if saved.analogue_gain is not None else 1.0,
        colour_gains=saved.colour_gains,
        lens_position=saved.lens_position,
    )
