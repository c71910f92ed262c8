"""Random legal games and their balance report (``companion simulate``).

Simulations run the same rule code as the table, straight through :func:`step` without a
log (``record=False``), and spread over the machine's cores. Every game's seed derives
from the report's seed, so a report is reproducible whatever the number of workers.
"""

from __future__ import annotations

import gc
import os
import random
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from companion.engine.errors import IllegalMoveError
from companion.engine.events import Event
from companion.engine.flow import initial_state, step
from companion.engine.session import Session
from companion.engine.spec import Bot, GameSpec
from companion.engine.state import State
from companion.games import find_game

G = TypeVar("G")  # the game's own state (``State.G``)

MAX_EVENTS = 20_000


@dataclass
class GameResult:
    winners: tuple[int, ...]
    rounds: int
    events: int
    finished: bool
    seat_groups: tuple[int, ...] = ()  # the game's per-seat property (RHR: start rows)
    at_end: dict[str, float] = field(default_factory=dict)  # the game's own figures


def bot_of(spec: GameSpec[G]) -> Bot[G]:
    """The game's simulated player, or a sentence saying there is none."""
    if spec.bot is None:
        raise IllegalMoveError(f"There is no simulated player for {spec.title} yet.")
    return spec.bot


def bot_turn(
    bot: Bot[G], state: State[G], rng: random.Random, apply: Callable[[Event], Any]
) -> Event:
    """Apply the bot's first candidate that the rules accept (NEXT comes last, always)."""
    for event in bot(state, rng):
        try:
            apply(event)
        except IllegalMoveError:
            continue
        return event
    raise RuntimeError(f"the bot found no legal move in {state.ctx}")  # pragma: no cover


def play_session(session: Session[G], rng: random.Random, limit: int) -> None:
    """Let the game's bot play a logged session until it ends or ``limit`` events are logged."""
    bot = bot_of(session.spec)
    while not session.state.ctx.over and len(session.log) < limit:
        bot_turn(bot, session.state, rng, session.dispatch)


def play_one(spec: GameSpec[G], rules: str, players: int, seed: int) -> tuple[State[G], GameResult]:
    """Play one random legal game to its end."""
    names = tuple(f"P{i + 1}" for i in range(players))
    state, _ = initial_state(spec, rules, names, seed)
    bot = bot_of(spec)
    rng = random.Random(seed)
    events = 0
    while not state.ctx.over and events < MAX_EVENTS:
        for event in bot(state, rng):
            try:
                state, _ = step(spec, state, event, record=False)
                break
            except IllegalMoveError:
                continue
        else:  # pragma: no cover - NEXT is always last and always legal eventually
            raise RuntimeError(f"bot found no legal move in {state.ctx}")
        events += 1
    game, report = state.G, spec.report
    return state, GameResult(
        winners=state.ctx.winners,
        rounds=state.ctx.round,
        events=events,
        finished=state.ctx.over,
        seat_groups=report.seat_group[1](game) if report.seat_group else (),
        at_end=dict(report.figures(game)) if report.figures else {},
    )


def _batch(args: tuple[str, str, int, list[int]]) -> list[GameResult]:
    """Play a batch of games with the cycle collector paused.

    Game states are trees of frozen records that reference counting frees on its own, so
    the collector's frequent passes over millions of short-lived objects are pure cost
    here; any stray cycles are collected once at the end of the batch.
    """
    name, rules, players, seeds = args
    spec = find_game(name)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return [play_one(spec, rules, players, seed)[1] for seed in seeds]
    finally:
        if was_enabled:
            gc.enable()
        gc.collect()


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


@dataclass
class Report:
    game: str
    rules: str
    players: int
    group_name: str = ""  # the game's per-seat property, e.g. "start_row"
    nobody_wins_name: str = ""  # what a game nobody wins means, e.g. "alligator_wins"
    games: int = 0
    unfinished: int = 0
    nobody_wins: int = 0
    wins_by_seat: Counter[int] = field(default_factory=Counter)
    wins_by_group: Counter[int] = field(default_factory=Counter)
    seats_by_group: Counter[int] = field(default_factory=Counter)
    rounds: list[int] = field(default_factory=list)
    figures: dict[str, list[float]] = field(default_factory=dict)
    events: int = 0

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.events += result.events
        if not result.finished:
            self.unfinished += 1
            return
        self.rounds.append(result.rounds)
        for name, value in result.at_end.items():
            self.figures.setdefault(name, []).append(value)
        for group in result.seat_groups:
            self.seats_by_group[group] += 1
        if not result.winners:
            self.nobody_wins += 1
        for seat in result.winners:
            self.wins_by_seat[seat] += 1
            if result.seat_groups:
                self.wins_by_group[result.seat_groups[seat]] += 1

    def as_dict(self) -> dict[str, Any]:
        finished = max(1, self.games - self.unfinished)
        data: dict[str, Any] = {
            "game": self.game,
            "rules": self.rules,
            "players": self.players,
            "games": self.games,
            "unfinished": self.unfinished,
            "win_rate_by_seat": {
                str(s + 1): round(self.wins_by_seat[s] / finished, 4) for s in range(self.players)
            },
            "no_winner": round(self.nobody_wins / finished, 4),
            "mean_rounds": round(sum(self.rounds) / finished, 2),
            "max_rounds": max(self.rounds, default=0),
        }
        if self.seats_by_group:
            data[f"win_rate_by_{self.group_name}"] = {
                str(g): round(self.wins_by_group[g] / max(1, self.seats_by_group[g]), 4)
                for g in sorted(self.seats_by_group)
            }
        if self.nobody_wins_name:
            data[self.nobody_wins_name] = data["no_winner"]
        for name, values in self.figures.items():
            data[f"mean_{name}"] = round(sum(values) / max(1, len(values)), 2)
            data[f"max_{name}"] = max(values, default=0)
        data["events"] = self.events
        return data


def check_simulation(name: str, rules: str, players: int, seed: int) -> tuple[GameSpec[Any], str]:
    """The game and its rules, or one sentence saying what is wrong with the request
    (unknown game or rules, a player count the game does not take, no simulated player)."""
    spec = find_game(name)
    rules = rules or spec.rules_default
    bot_of(spec)  # says so when the game has no simulated player
    initial_state(spec, rules, tuple(f"P{i + 1}" for i in range(players)), seed)  # validates
    return spec, rules


def simulate(
    name: str,
    rules: str,
    players: int,
    games: int,
    seed: int,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Play ``games`` random games; ``progress(n)`` is called as batches of n finish."""
    spec, rules = check_simulation(name, rules, players, seed)
    group = spec.report.seat_group
    report = Report(
        spec.name,
        rules,
        players,
        group_name=group[0] if group else "",
        nobody_wins_name=spec.report.nobody_wins,
    )
    seeds = [game_seed(seed, i) for i in range(games)]
    workers = workers or min(os.cpu_count() or 1, 8)
    size = max(1, min(250, games // (workers * 4) or 1))
    batches = [(spec.name, rules, players, seeds[i : i + size]) for i in range(0, games, size)]
    if workers <= 1 or games < 200:
        for batch in batches:
            for result in _batch(batch):
                report.add(result)
            if progress:
                progress(len(batch[3]))
        return report
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for batch, results in zip(batches, pool.map(_batch, batches), strict=True):
            for result in results:
                report.add(result)
            if progress:
                progress(len(batch[3]))
    return report
