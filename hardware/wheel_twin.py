"""The upright wheel as a twin: it rolls as pieces go in and drops pieces now and then.

A real ring settles with its heaviest side down: each piece the players put in can roll
it so another compartment is lowest, and pieces fall out during a try (a failed try) or,
rarely, with nobody touching it (Higher Powers). The camera is the authority for both.
This twin plays the physical ring for ``make run`` and the hands-free bench: it follows
the game's public view (the pieces logged in each compartment, the turn counter, the
failures and the pieces set aside), decides where the ring comes to rest and which pieces
fall, and draws the ring (``hardware.simulator.render_wheel``), rolling a few degrees a
frame, with the fallen pieces lying on the table until the game has logged them. Given a
``room`` it draws the ring as a solid hoop on that room's table instead, seen by one fixed
webcam under one lamp (``hardware.simulator.room_render``): a bench can then play whole
games on a white table or under a warm lamp, where the camera may read the ring but not
the pieces.

``truth`` is what it did (the compartment at the bottom now, the pieces lying on the table
and where they came from), for a bench to score the camera against.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from companion.tabletop import TABLE_SIZE, WHEEL_DEPTH
from hardware.dice_twin import Look
from hardware.simulator import PIECE_SHAPES, WheelPiece, WheelScene, render_wheel
from hardware.simulator.pinhole import Pinhole, camera_over_table
from hardware.simulator.room import Room, light_direction
from hardware.simulator.room_render import render_wheel_room

Frame = NDArray[np.uint8]

PYRAMID_WEIGHT = 3.0  # the black pyramid outweighs a piece
BALANCED = 0.35  # a centre of mass this close to the hub leaves the ring where it is
STEP_DEG = 5.0  # the ring rolls this far a frame at most (the tracker follows small steps)
FRAME_SIZE = (640, 480)  # the webcam's frames in a room


@dataclass
class WheelTruth:
    """What the twin's ring did: its lowest compartment (0-based) and the pieces lying on
    the table not logged yet, each with the compartment it fell from."""

    lowest: int = 0
    fallen: list[tuple[str, int]] = field(default_factory=list)
    falls: int = 0  # falls so far (a failed try's or Higher Powers')
    rolls: int = 0  # times the ring came to rest on another compartment


class WheelTwin:
    """The ring on the twin's table; :meth:`frame` draws it as the game has it now."""

    def __init__(
        self,
        look: Look | None = None,
        *,
        drop_chance: float = 0.2,
        higher_powers_chance: float = 0.06,
        room: Room | None = None,
    ) -> None:
        self.look = look or Look(seed=11)
        self.room = room
        self.drop_chance = drop_chance
        self.higher_powers_chance = higher_powers_chance
        self._rng = np.random.default_rng(self.look.seed)
        self._conditions = replace(self.look.conditions(), perspective=0.2)
        self._webcam: tuple[Pinhole, tuple[float, float, float]] | None = None
        if room is not None:  # one camera and one lamp over the table for the whole game
            region = (0.0, 0.0, *TABLE_SIZE)
            camera = camera_over_table(self._rng, FRAME_SIZE, room.height_cm, room.tilt_deg, region)
            self._webcam = (camera, light_direction(self._rng))
        self._game: object = None
        self.truth = WheelTruth()

    def frame(self, view: Mapping[str, Any], game: object) -> Frame:
        """The ring as the game's ``view`` has it, after what the twin's physics did."""
        if game != self._game:
            self._start(view, game)
        self._follow(view)
        turned = self._roll_towards_goal()
        scene = WheelScene(
            centre=self._centre(),
            angle_deg=self._angle % 360.0,
            outside=tuple(self._pieces),
        )
        if self.room is None or self._webcam is None:
            return render_wheel(scene, self._rng, self._conditions).frame
        camera, lamp = self._webcam
        rolling = turned * self.room.shutter  # the smear of a frame taken while it rolls
        return render_wheel_room(
            scene, self._rng, self.room, camera, FRAME_SIZE, rolling, lamp
        ).frame

    # ------------------------------------------------------------------ physics
    def _start(self, view: Mapping[str, Any], game: object) -> None:
        wheel = view["wheel"]
        self._game = game
        self._sections = int(wheel["sections"])
        self.truth = WheelTruth(lowest=int(wheel["lowest"]) - 1)
        self._angle = self._goal = 0.0
        self._pieces: list[WheelPiece] = []
        self._seen = self._signature(view)

    def _signature(self, view: Mapping[str, Any]) -> tuple[int, int, int, int]:
        counts = view.get("counts") or {}
        logged = sum(len(c["pieces"]) for c in view["wheel"]["compartments"])
        return (
            logged,
            int(counts.get("turns", 0)),
            int(counts.get("failures", 0)),
            len(view.get("aside") or ()),
        )

    def _follow(self, view: Mapping[str, Any]) -> None:
        before, now = self._seen, self._signature(view)
        self._seen = now
        if now[2] != before[2] or now[3] != before[3]:
            # A failed try or Higher Powers was logged: the players pick the pieces up.
            self.truth.fallen, self._pieces = [], []
        if now[0] > before[0] and self._rng.random() < self.drop_chance:
            self._drop(view, int(self._rng.integers(1, 3)))  # the try shook pieces out
        elif now[1] > before[1] and not self.truth.fallen and self._quiet_fall():
            self._drop(view, 1)  # nobody at the wheel: Higher Powers
        self._settle(view)

    def _quiet_fall(self) -> bool:
        return bool(self._rng.random() < self.higher_powers_chance)

    def _inside(self, view: Mapping[str, Any]) -> list[list[str]]:
        """What is physically in each compartment: the logged pieces less those fallen."""
        inside = [list(c["pieces"]) for c in view["wheel"]["compartments"]]
        for colour, where in self.truth.fallen:
            if colour in inside[where]:
                inside[where].remove(colour)
        return inside

    def _drop(self, view: Mapping[str, Any], count: int) -> None:
        """Pieces fall from the compartments nearest the bottom that hold any."""
        inside = self._inside(view)
        for _ in range(count):
            holding = [c for c, pieces in enumerate(inside) if pieces]
            if not holding:
                return
            near = sorted(holding, key=self._distance)[:2]
            where = near[int(self._rng.integers(len(near)))]
            colour = inside[where].pop(int(self._rng.integers(len(inside[where]))))
            self.truth.fallen.append((colour, where))
            self._pieces.append(self._lying(colour))
        self.truth.falls += 1

    def _distance(self, compartment: int) -> int:
        around = (compartment - self.truth.lowest) % self._sections
        return min(around, self._sections - around)

    def _lying(self, colour: str) -> WheelPiece:
        """A fallen piece beside the ring, clear of where it rolls and of other pieces."""
        cx, cy = TABLE_SIZE[0] / 2.0, TABLE_SIZE[1] / 2.0
        for _ in range(200):
            side = 1.0 if self._rng.random() < 0.5 else -1.0
            spot = (
                cx + float(self._rng.uniform(-4.0, 4.0)),
                cy + side * float(self._rng.uniform(WHEEL_DEPTH / 2 + 1.2, WHEEL_DEPTH / 2 + 3.5)),
            )
            if all(math.dist(spot, p.centre) > 0.9 for p in self._pieces):
                break
        shape = PIECE_SHAPES[int(self._rng.integers(len(PIECE_SHAPES)))]
        return WheelPiece(colour, spot, shape, float(self._rng.uniform(0, 360)))

    def _settle(self, view: Mapping[str, Any]) -> None:
        """The ring comes to rest with its centre of mass at the bottom."""
        x = y = 0.0
        for compartment, pieces in enumerate(self._inside(view)):
            weight = sum(PYRAMID_WEIGHT if p == "black" else 1.0 for p in pieces)
            angle = 2 * math.pi * compartment / self._sections
            x, y = x + weight * math.cos(angle), y + weight * math.sin(angle)
        if math.hypot(x, y) < BALANCED:
            return
        rest = round(math.atan2(y, x) / (2 * math.pi) * self._sections) % self._sections
        if rest == self.truth.lowest:
            return
        step = (rest - self.truth.lowest + self._sections // 2) % self._sections
        step -= self._sections // 2
        self.truth.lowest, self.truth.rolls = rest, self.truth.rolls + 1
        # A roll that brings the next compartments to the bottom turns the rim backwards
        # (companion.games' wheel rule: lowest = -turns * sections).
        self._goal -= 360.0 * step / self._sections

    def _roll_towards_goal(self) -> float:
        """Roll one frame's step towards where the ring comes to rest; how far it turned."""
        step = max(-STEP_DEG, min(STEP_DEG, self._goal - self._angle))
        self._angle += step
        return step

    def _centre(self) -> tuple[float, float]:
        """The ring stands in the middle (players push it back there as it wanders)."""
        return (TABLE_SIZE[0] / 2.0, TABLE_SIZE[1] / 2.0)

    @property
    def rolling(self) -> bool:
        """Whether the ring is still on its way to rest (the camera should wait)."""
        return abs(self._goal - self._angle) > 1e-6
