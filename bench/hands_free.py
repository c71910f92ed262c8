"""Whole games played hands-free: the twins in the loop, the ordinary watchers reading them.

    python bench/hands_free.py [--seed 9001] [--games N] [--only NAME]
                               [--table white --light warm --height 70]

For each game (both rule sets where there are two) the game's own bot plays a whole game
on a real table (SQLite, the table's worker), except for what the camera reads: the dice
the players throw are thrown by the dice twin and read by the dice watcher; the Hamster
Wheel ring is rolled and shaken by the wheel twin and followed by the wheel watcher. The
frames are drawn in a look the readers never trained on: another seed family (9001 up),
dice colours outside the simulator's palette, stronger uneven light, more sensor noise and
a tilted camera. Printed per game:

- physical inputs: every die the players throw, every move they make on the table (a piece
  moved, a card played or passed), every roll of the wheel and every piece that falls;
- camera-covered: those a camera reading can enter (dice the dice watcher reads, the
  wheel's rolls, fallen pieces);
- settled: entered by the camera with no tap (NEXT or READ pressed to end a step the
  players end anyway is not a tap: the camera supplied what that step carries);
- confirmed: the camera's reading waited for one READ tap (it was not sure enough);
- asked: typed or picked by a person (the camera had nothing usable);
- wrong: applied with a value that differs from what the twin did (must be 0);
- taps per round: confirmations plus every value typed, over the game's rounds.

``--table`` (with ``--light`` and ``--height``) draws the Hamster Wheel in a real room, as
``bench/vision_rooms.py`` does (a white table, felt, wood, a warm lamp...): the ring as a
solid hoop seen by a webcam at that height, which the wheel watcher is told, as
calibration tells it. There the camera may read the ring but not the pieces (a white piece
on a white table): the rolls are still the camera's, the pieces are typed. When the ring
comes to rest on a divider the page asks which compartment is lower: one tap, asked.

The belt check of Run, Hamster, Run! compares the belt with the game and never enters a
move, so belt moves count as physical inputs here, not as camera-covered ones.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.config import GameDefaults
from companion.engine.camera import dice_wanted
from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, NEXT, Event
from companion.engine.readings import DICE, WHEEL, DiceSeen
from companion.engine.session import GameHeader
from companion.games import find_game
from companion.simulate import bot_of
from companion.store import Store
from companion.table import Table
from companion.watch.dice import DiceWatcher
from companion.watch.wheel import WheelWatcher
from hardware.dice_twin import DiceTwin, Look
from hardware.simulator.poly_dice import HELD_OUT
from hardware.simulator.room import LIGHTS, TABLES, Room
from hardware.wheel_twin import WheelTwin

WAIT = 30.0
MAX_STEPS = 4000
HOLD = 12  # frames a settled roll is shown at most before the players would type it
GAMES = (
    ("run-hamster-run", "classic", 4),
    ("run-hamster-run", "v2.1", 4),
    ("hamsterdam", "full", 3),
    ("hamsterdam", "classic", 3),
    ("hamster-wheel", "standard", 3),
    ("rats", "standard", 4),
)
# Dice the readers never saw in training (BGR body, pips): teal, pink, cream, navy.
UNSEEN_DICE = (
    ((150, 150, 20), (245, 245, 245)),
    ((180, 120, 230), (20, 20, 20)),
    ((170, 210, 230), (40, 30, 30)),
    ((90, 35, 20), (235, 235, 235)),
)


def unseen_look(seed: int) -> Look:
    return Look(
        seed=seed,
        noise=4.0,
        uneven_light=0.6,
        perspective=0.3,
        dice=UNSEEN_DICE,
        pool_styles=(HELD_OUT,),  # Rats' d4-d10 in the numeral style never trained on
    )


Rolled = tuple[tuple[int, int], ...]


def rolled(sides: tuple[int, ...], faces: tuple[int, ...]) -> Rolled:
    """A roll to compare: (size, face) pairs for a Rats pool of d4-d10, (0, face) for d6s."""
    if not any(side != 6 for side in sides):
        sides = (0,) * len(faces)
    return tuple(sorted(zip(sides, faces, strict=True)))


@dataclass
class Tally:
    physical: int = 0
    covered: int = 0
    settled: int = 0
    confirmed: int = 0
    asked: int = 0
    wrong: int = 0
    taps: int = 0
    rounds: int = 0


class HandsFree:
    """One whole game: the bot's moves through the table, the camera's through the twins."""

    def __init__(
        self, name: str, rules: str, players: int, seed: int, folder: Path, room: Room | None
    ) -> None:
        names = tuple(f"P{k + 1}" for k in range(players))
        self.store = Store(folder / f"{name}-{rules}-{seed}.sqlite3")
        self.table = Table(self.store, GameDefaults(players=names))
        self.table.new_game(GameHeader(name, rules, names, seed))
        self.spec = find_game(name)
        self.bot = bot_of(self.spec)
        self.rng = random.Random(seed)
        self.dice = DiceWatcher(self.table, stable_frames=3)
        height = None if room is None else room.height_cm  # what calibration would say
        self.wheel = WheelWatcher(
            self.table, stable_frames=3, publish_every=0.0, camera_height_cm=height
        )
        self.dice_twin = DiceTwin(unseen_look(seed))
        self.wheel_twin = WheelTwin(unseen_look(seed + 500), room=room)
        self.tally = Tally()
        self.turns = 0  # times the seat to act changed

    def close(self) -> None:
        self.table.close()
        self.store.close()

    def play(self) -> Tally:
        seat = None
        for _ in range(MAX_STEPS):
            state = self.table.snapshot.state
            assert state is not None
            if state.ctx.over:
                break
            if state.ctx.current != seat:
                seat, self.turns = state.ctx.current, self.turns + 1
            sides = dice_wanted(self.spec, state) if DICE in self.spec.camera else ()
            if sides:
                self.throw(sides)
            elif WHEEL in self.spec.camera:
                self.wheel_step()
            else:
                self.bot_step()
        state = self.table.snapshot.state
        assert state is not None
        # Hamster Wheel is one long round: there a round is every player's turn once.
        players = len(self.table.snapshot.header.players)  # type: ignore[union-attr]
        one_round = state.ctx.round == 1
        self.tally.rounds = max(1, self.turns // max(1, players) if one_round else state.ctx.round)
        return self.tally

    # ------------------------------------------------------------------ the bot
    def bot_step(self, skip: Callable[[Event], bool] = lambda event: False) -> Event:
        state = self.table.snapshot.state
        assert state is not None
        for event in self.bot(state, self.rng):
            if skip(event):
                continue
            try:
                logged = self.table.submit(event).result(WAIT)
            except IllegalMoveError:
                continue
            self.count(logged)
            return logged
        raise RuntimeError(f"the bot found no legal move in {state.ctx}")

    def count(self, logged: Event) -> None:
        """A person's move on the table, and every die they threw for it."""
        if logged.kind == MOVE:
            self.tally.physical += 1
        self.tally.physical += len(logged.given or ())

    # ------------------------------------------------------------------ dice
    def throw(self, sides: tuple[int, ...]) -> None:
        """The twin throws the dice due; the watcher reads them; the table takes them."""
        self.tally.physical += len(sides)
        self.tally.covered += len(sides)
        stamp = self.table.current_stamp()
        for _ in range(self.dice_twin.tumble + HOLD):
            published = self.dice.process(self.dice_twin.frame(sides, stamp))
            if published is not None:
                published.result(WAIT)
            if self.table.current_stamp() != stamp or self.table.snapshot.pending is not None:
                break
        thrown = rolled(sides, self.dice_twin.thrown)
        pending = self.table.snapshot.pending
        if self.table.current_stamp() != stamp:
            self.judge(self.last_event(), thrown, settled=True)
        elif pending is not None and pending.event.kind == NEXT:
            self.judge(self.table.submit_intent("next").result(WAIT), thrown, settled=True)
        elif pending is not None:
            self.tally.taps += 1
            self.judge(self.table.submit_intent("read").result(WAIT), thrown, settled=False)
        else:
            self.type_dice(sides, self.dice_twin.thrown)

    def last_event(self) -> Event:
        session_log = self.table.snapshot.events
        return session_log[-1]

    def judge(self, logged: Event, thrown: Rolled, *, settled: bool) -> None:
        faces = tuple(int(v) for v in logged.given or ())
        sizes = logged.args.get("sizes") if logged.args else None
        pool = isinstance(sizes, list) and len(sizes) == len(faces) and any(s for s, _ in thrown)
        if rolled(tuple(sizes) if pool and sizes else (), faces) != thrown:
            self.tally.wrong += 1
        elif settled:
            self.tally.settled += len(thrown)
        else:
            self.tally.confirmed += len(thrown)

    def type_dice(self, sides: tuple[int, ...], thrown: tuple[int, ...]) -> None:
        """Nothing usable from the camera: a person types the roll (what a perfect reading
        would have given, through the game's own rule; a Rats pool with each die's size)."""
        state = self.table.snapshot.state
        assert state is not None
        pool = sides if any(side != 6 for side in sides) else ()
        perfect = DiceSeen(thrown, (1.0,) * len(thrown), auto_accept=0.0, sizes=pool)
        verdict = self.spec.readings[DICE](self.spec, state, perfect)
        if verdict.event is None:
            raise RuntimeError(f"the game took no roll of {thrown} in {state.ctx}")
        self.table.submit(verdict.event).result(WAIT)
        self.tally.asked += len(thrown)
        self.tally.taps += len(thrown)

    # ------------------------------------------------------------------ the wheel
    def wheel_step(self) -> None:
        """A placement, pass or NEXT by the bot; the wheel's rolls and falls by the twin."""
        rolls = self.wheel_twin.truth.rolls
        logged = self.bot_step(skip=camera_moves)
        self.watch_the_wheel()
        self.tally.physical += self.wheel_twin.truth.rolls - rolls
        self.tally.covered += self.wheel_twin.truth.rolls - rolls
        state = self.table.snapshot.state
        assert state is not None
        divider = (self.table.public_state()["camera"].get(WHEEL) or {}).get("divider")
        tapped = bool(divider) and state.G.wheel.lowest != self.wheel_twin.truth.lowest
        if tapped:
            # At rest on a divider the page asks which compartment is lower: one tap.
            seat = state.ctx.current
            args = {"lowest": self.wheel_twin.truth.lowest + 1}
            self.table.submit(Event(MOVE, name="turn_wheel", seat=seat, args=args)).result(WAIT)
            self.tally.asked += 1
            self.tally.taps += 1
            state = self.table.snapshot.state
            assert state is not None
        if state.G.wheel.lowest != self.wheel_twin.truth.lowest:
            self.tally.wrong += 1
        elif not tapped:
            self.tally.settled += self.wheel_twin.truth.rolls - rolls
        fallen = sorted(colour for colour, _ in self.wheel_twin.truth.fallen)
        if fallen:
            self.report_fall(fallen, tried=logged.kind == MOVE)

    def watch_the_wheel(self) -> None:
        for _ in range(120):
            frame = self.wheel_twin.frame(self.view(), self.table.game_id)
            published = self.wheel.process(frame)
            if published is not None:
                published.result(WAIT)
            if not self.wheel_twin.rolling:
                break
        for _ in range(4):
            published = self.wheel.process(self.wheel_twin.frame(self.view(), self.table.game_id))
            if published is not None:
                published.result(WAIT)

    def view(self) -> dict[str, Any]:
        view: dict[str, Any] = self.table.public_state(with_log=False)["view"]
        return view

    def report_fall(self, fallen: list[str], *, tried: bool) -> None:
        """READ: the failed try (after a placement) or Higher Powers (between turns)."""
        self.tally.physical += len(fallen)
        self.tally.covered += len(fallen)
        proposal = sorted(
            (self.table.public_state()["camera"].get(WHEEL) or {}).get("proposal") or []
        )
        if proposal != fallen:
            seat = self.table.snapshot.state.ctx.current  # type: ignore[union-attr]
            name = "fail" if tried else "higher_powers"
            args: dict[str, Any] = {"fell": fallen} | ({"stayed": True} if tried else {})
            self.table.submit(Event(MOVE, name=name, seat=seat, args=args)).result(WAIT)
            self.tally.asked += len(fallen)
            self.tally.taps += len(fallen)
        else:
            logged = self.table.submit_intent("read").result(WAIT)
            if sorted(logged.args.get("fell", [])) != fallen:
                self.tally.wrong += 1
            elif tried:
                self.tally.settled += len(fallen)  # READ reports the try, as NEXT ends one
            else:
                self.tally.confirmed += len(fallen)
                self.tally.taps += 1
        self.watch_the_wheel()


def camera_moves(event: Event) -> bool:
    """What the bot would make up that the wheel twin and the camera decide instead."""
    if event.name in ("turn_wheel", "higher_powers"):
        return True
    return event.name == "fail" and bool(event.args.get("fell"))


def percent(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:5.1f} %" if whole else "    - "


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=9001)
    parser.add_argument("--games", type=int, default=1, help="games of each kind")
    parser.add_argument("--only", default="", help="only games whose name holds this")
    parser.add_argument("--table", choices=list(TABLES), help="draw the wheel in a room")
    parser.add_argument("--light", choices=list(LIGHTS), default="daylight")
    parser.add_argument("--height", type=float, default=70.0, help="the webcam's, in cm")
    options = parser.parse_args()
    room = None
    if options.table:
        room = Room(table=options.table, light=options.light, height_cm=options.height)
    header = (
        f"{'game':28} {'inputs':>6} {'camera':>6} {'share':>7} {'settled':>7} {'rate':>7} "
        f"{'confirm':>7} {'asked':>5} {'wrong':>5} {'taps/round':>10}"
    )
    print(header)
    with tempfile.TemporaryDirectory() as folder:
        for name, rules, players in GAMES:
            if options.only not in f"{name} {rules}":
                continue
            total = Tally()
            for k in range(options.games):
                game = HandsFree(name, rules, players, options.seed + k, Path(folder), room)
                try:
                    tally = game.play()
                finally:
                    game.close()
                for field in vars(total):
                    setattr(total, field, getattr(total, field) + getattr(tally, field))
            print(
                f"{name + ' ' + rules:28} {total.physical:6} {total.covered:6} "
                f"{percent(total.covered, total.physical):>7} {total.settled:7} "
                f"{percent(total.settled, total.covered):>7} {total.confirmed:7} "
                f"{total.asked:5} {total.wrong:5} {total.taps / total.rounds:10.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
