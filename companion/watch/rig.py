"""The camera pipeline's one home: frames in, the watchers the game in play declares.

A camera device (``hardware.camera.CameraSupervisor``, a simulated twin, a test) only
delivers frames to :meth:`CameraRig.deliver`. The rig runs exactly the watchers the game
on the table lists in its spec's camera seam (``GameSpec.camera``, keyed by reading kind:
``dice``, ``belt``, ``wheel``) and stops the others. It follows the game by itself: when a
game starts, is loaded or is undone into another state, :meth:`CameraRig.follow_game`
(called on the rig's own thread a few times a second, and by tests directly) starts and
stops watchers, so a Hamster Wheel game started from the tablet is followed by the wheel
watcher with no restart and no config edit. The config only switches kinds off
(``camera.watch_board = false``, ``camera.watch_wheel = false``).

A kind may also have a device of its own (the belt twin draws the belt rather than using
the dice camera's frames): :meth:`CameraRig.add_device` starts and stops it with its
watcher, and :meth:`CameraRig.feed` is the callback it delivers frames to.

It is also the page's view of the camera (``web.context.CameraView``): the newest picture
while the game in play reads something with the camera, and no picture for a game that
reads nothing (an old dice picture beside a game without dice would only mislead).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import cv2

from companion.config import Config
from companion.engine.camera import watched
from companion.engine.readings import BELT, DICE, WHEEL
from companion.table import Table
from companion.vision.dice import use_taught_head
from companion.vision.sampled_hands import Hands
from companion.vision.teach import EXAMPLES_DIR, ExampleStore
from companion.vision.teach_pools import use_taught_pool_model
from companion.vision.wheel_pieces import HueWindows
from companion.watch.belt import BeltWatcher
from companion.watch.calibrated import CameraCalibration
from companion.watch.dice import DiceWatcher
from companion.watch.frames import CAMERA_LIVE, Frame, FrameWatcher
from companion.watch.wheel import WheelWatcher

log = logging.getLogger(__name__)

FOLLOW_EVERY = 0.25  # seconds between looks at which game is on the table
# How the device list names each kind's watcher.
LINE_NAMES = {DICE: "dice", BELT: "board", WHEEL: "wheel"}


class Running(Protocol):
    """A watcher or device the rig starts and stops: its status is one line for the page."""

    def start(self) -> None: ...

    def stop(self) -> None: ...

    @property
    def status(self) -> str: ...


class Camera(Protocol):
    """The device that delivers the frames every watcher reads."""

    def start(self) -> None: ...

    def stop(self) -> None: ...

    @property
    def status(self) -> str: ...


class CameraRig:
    """The camera, the watchers by reading kind, and which of them the game wants now."""

    def __init__(
        self, table: Table, watchers: Mapping[str, Running], off: Mapping[str, str] | None = None
    ) -> None:
        self.table = table
        self.watchers = dict(watchers)
        self.off = dict(off or {})  # kinds the config switched off, with the line saying so
        self.camera: Camera | None = None
        self.status_line = ""
        self.note = ""  # a warning for the camera's status line (a stale taught dice head)
        self.devices: dict[str, Running] = {}
        self.running: frozenset[str] = frozenset()
        self._lock = threading.Lock()
        self._latest: Frame | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    # ---------------------------------------------------------------- wiring
    def attach(self, camera: Camera, status: str) -> None:
        """The device whose frames :meth:`deliver` gets, and its one-line description."""
        self.camera, self.status_line = camera, status

    def add_device(self, kind: str, device: Running) -> None:
        """A device that feeds only ``kind``'s watcher, running while that watcher runs."""
        self.devices[kind] = device

    def feed(self, kind: str) -> Callable[[Frame], None]:
        """The callback a device of ``kind``'s own delivers its frames to."""
        watcher = self.watchers[kind]

        def deliver(frame: Frame) -> None:
            if kind in self.running and isinstance(watcher, FrameWatcher):
                watcher.offer(frame)

        return deliver

    def deliver(self, frame: Frame) -> None:
        """On the camera's delivery thread: the newest frame to every running watcher that
        reads this camera (never blocks: each watcher keeps only the newest frame)."""
        self._latest = frame
        for kind in self.running:
            watcher = self.watchers[kind]
            if kind not in self.devices and isinstance(watcher, FrameWatcher):
                watcher.offer(frame)

    # ---------------------------------------------------------------- following
    def wanted(self) -> frozenset[str]:
        """The kinds the game on the table reads with the camera, less those switched off."""
        return watched(self.table.snapshot.spec) & frozenset(self.watchers)

    def follow_game(self) -> bool:
        """Start the watchers the game in play lists and stop the rest; True if any changed."""
        with self._lock:
            wanted, before = self.wanted(), self.running
            if wanted == before:
                return False
            for kind in sorted(before - wanted):
                self.devices.get(kind, _NOTHING).stop()
                self.watchers[kind].stop()
            self.running = wanted
            for kind in sorted(wanted - before):
                self.watchers[kind].start()
                self.devices.get(kind, _NOTHING).start()
            log.info("camera: watching %s", ", ".join(sorted(wanted)) or "nothing")
            return True

    def start(self) -> None:
        """Start the camera and the watchers the game wants, then follow the game."""
        self.follow_game()
        if self.camera is not None:
            self.camera.start()
        self._stopping.clear()
        self._thread = threading.Thread(target=self._follow, name="camera-rig", daemon=True)
        self._thread.start()

    def _follow(self) -> None:
        while not self._stopping.wait(FOLLOW_EVERY):
            try:
                self.follow_game()
            except Exception:  # a watcher that fails to start must not end the following
                log.exception("camera: could not follow the game in play")

    def stop(self) -> None:
        self._stopping.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(5.0)
        if self.camera is not None:
            self.camera.stop()
        with self._lock:
            for kind in sorted(self.running):
                self.devices.get(kind, _NOTHING).stop()
                self.watchers[kind].stop()
            self.running = frozenset()

    # ---------------------------------------------------------------- the page's view
    @property
    def dice(self) -> DiceWatcher | None:
        watcher = self.watchers.get(DICE)
        return watcher if isinstance(watcher, DiceWatcher) else None

    @property
    def status(self) -> str:
        """The camera's line (with the last roll while dice are read)."""
        dice = self.dice
        if dice is not None and DICE in self.running:
            return dice.status
        return self.camera_status()

    def camera_status(self) -> str:
        return self.camera.status if self.camera is not None else self.status_line

    def lines(self) -> dict[str, str]:
        """One line per watcher kind for the device list (not the dice: the camera's line)."""
        found: dict[str, str] = {}
        for kind in sorted({*self.watchers, *self.off} - {DICE}):
            name = LINE_NAMES.get(kind, kind)
            if kind in self.off:
                found[name] = self.off[kind]
            elif kind in self.running:
                found[name] = self.watchers[kind].status
            else:
                found[name] = f"{name}: not read in the game in play"
        return found

    def offline(self) -> str | None:
        """The camera's status line while it sends no pictures, else None."""
        if self.camera is None:
            return None
        line = str(self.camera.status)
        return None if line.startswith(CAMERA_LIVE) else line

    def latest_frame(self) -> Frame | None:
        """The newest frame from the camera (for calibration); None while it is offline."""
        return None if self.offline() is not None else self._latest

    def jpeg(self, width: int = 640) -> bytes | None:
        """The newest picture for the page's camera panel (the dice outlined while dice are
        read); None while the camera is offline or the game in play reads nothing with it."""
        if not self.running or self.offline() is not None:
            return None
        dice = self.dice
        if dice is not None and DICE in self.running:
            return dice.jpeg(width)
        kind = next(iter(sorted(self.running)))
        picture = (
            self._latest
            if kind not in self.devices
            else getattr(self.devices[kind], "latest", None)
        )
        return None if picture is None else encode_jpeg(picture, width)

    def lock_exposure(self) -> dict[str, Any] | None:
        """Settle and hold exposure, white balance and focus (calibration); what was chosen.

        Only a Pi camera has these controls; any other source keeps its own and gives None.
        """
        source = getattr(self.camera, "source", None)
        lock = getattr(source, "measure_and_lock", None)
        if lock is None:
            return None
        chosen: dict[str, Any] = lock().as_dict()
        log.info("camera locked at %s", chosen)
        return chosen


class _Nothing:
    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass


_NOTHING = _Nothing()


def encode_jpeg(frame: Frame, width: int = 640) -> bytes | None:
    """A frame as JPEG for the page, scaled down to ``width``."""
    scale = width / frame.shape[1]
    shown: Any = frame
    if scale < 1:
        shown = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    ok, encoded = cv2.imencode(".jpg", shown, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return bytes(encoded) if ok else None


def switched_off(config: Config) -> dict[str, str]:
    """The kinds the config turns off, each with the line the device list shows."""
    off: dict[str, str] = {}
    if not config.camera.watch_board:
        off[BELT] = "board check: off (camera.watch_board = false)"
    if not config.camera.watch_wheel:
        off[WHEEL] = (
            "wheel: off (camera.watch_wheel = false); the camera now follows the wheel "
            "whenever the game in play rolls one: remove that line to let it"
        )
    return off


def start_watchers(
    config: Config,
    table: Table,
    *,
    belt_calibration: CameraCalibration,
    demo: bool = False,
    camera_status: Callable[[], str] | None = None,
    wheel_colours: Callable[[], HueWindows] | None = None,
    hands: Callable[[], Hands] | None = None,
) -> dict[str, Running]:
    """A watcher for every reading kind the camera can read (none started yet), less the
    kinds the config switches off. ``demo`` marks a simulated camera's dice as demo
    readings; the dice watcher keeps a real camera's confirmed dice for teaching;
    ``wheel_colours`` gives the wheel's piece colours sampled for this table, ``hands``
    the players' hands sampled there (for the wheel and the belt).
    """
    frames = config.camera.stable_frames
    watchers: dict[str, Running] = {
        DICE: DiceWatcher(
            table,
            stable_frames=frames,
            demo=demo,
            camera_status=camera_status,
            examples=ExampleStore(config.data_dir / EXAMPLES_DIR),
        ),
        BELT: BeltWatcher(table, belt_calibration, stable_frames=frames, hands=hands),
        WHEEL: WheelWatcher(
            table,
            stable_frames=frames,
            drift_warning=config.camera.wheel_drift,
            camera_height_cm=config.camera.height_cm or None,
            piece_hues=wheel_colours,
            hands=hands,
        ),
    }
    off = switched_off(config)
    return {kind: w for kind, w in watchers.items() if kind not in off}


def build_rig(
    config: Config,
    table: Table,
    *,
    belt_calibration: CameraCalibration,
    demo: bool = False,
    wheel_colours: Callable[[], HueWindows] | None = None,
    hands: Callable[[], Hands] | None = None,
) -> CameraRig:
    """The rig with a watcher per kind the config leaves on (no camera attached yet).

    This table's own dice are read with the head taught from them, when there is one; a
    stale one is said in :attr:`CameraRig.note`.
    """
    rig = CameraRig(table, {}, switched_off(config))
    rig.note = use_taught_head(config.data_dir) or ""
    use_taught_pool_model(config.data_dir)
    if rig.note:
        log.warning(rig.note)
    rig.watchers = start_watchers(
        config,
        table,
        belt_calibration=belt_calibration,
        demo=demo,
        camera_status=rig.camera_status,
        wheel_colours=wheel_colours,
        hands=hands,
    )
    return rig
