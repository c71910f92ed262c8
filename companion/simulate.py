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
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from companion.engine.errors import IllegalMove
from companion.engine.events import Event
from companion.engine.flow import initial_state, step
from companion.engine.session import Session
from companion.engine.spec import GameSpec
from companion.engine.state import State
from companion.games import find_game
from companion.games.hamsterdam import bot as hamsterdam_bot
from companion.games.run_hamster_run import bot as rhr_bot

Bot = Callable[[State[Any], random.Random], Iterator[Event]]
BOTS: dict[str, Bot] = {
    "run-hamster-run": rhr_bot.candidates,
    "hamsterdam": hamsterdam_bot.candidates,
}

MAX_EVENTS = 20_000


@dataclass
class GameResult:
    winners: tuple[int, ...]
    rounds: int
    events: int
    finished: bool
    start_rows: tuple[int, ...] = ()
    at_end: dict[str, float] = field(default_factory=dict)  # the game's own figures


def _belt_figures(game: Any) -> dict[str, float]:
    return {"speed_at_end": game.speed, "alligators_at_end": game.alligators}


def _dam_figures(game: Any) -> dict[str, float]:
    return {
        "flood_tokens_at_end": sum(p.water for p in game.players),
        "breaches": sum(p.breaches for p in game.players),
        "hamsters_lost": sum(p.lost for p in game.players),
    }


# What each game's balance report adds to the common figures (wins, rounds).
FIGURES: dict[str, Callable[[Any], dict[str, float]]] = {
    "run-hamster-run": _belt_figures,
    "hamsterdam": _dam_figures,
}


def bot_turn(
    bot: Bot, state: State[Any], rng: random.Random, apply: Callable[[Event], Any]
) -> Event:
    """Apply the bot's first candidate that the rules accept (NEXT comes last, always)."""
    for event in bot(state, rng):
        try:
            apply(event)
        except IllegalMove:
            continue
        return event
    raise RuntimeError(f"the bot found no legal move in {state.ctx}")  # pragma: no cover


def play_session(session: Session[Any], rng: random.Random, limit: int) -> None:
    """Let the game's bot play a logged session until it ends or ``limit`` events are logged."""
    bot = BOTS[session.spec.name]
    while not session.state.ctx.over and len(session.log) < limit:
        bot_turn(bot, session.state, rng, session.dispatch)


def play_one(
    spec: GameSpec[Any], rules: str, players: int, seed: int
) -> tuple[State[Any], GameResult]:
    """Play one random legal game to its end."""
    names = tuple(f"P{i + 1}" for i in range(players))
    state, _ = initial_state(spec, rules, names, seed)
    bot = BOTS[spec.name]
    rng = random.Random(seed)
    events = 0
    while not state.ctx.over and events < MAX_EVENTS:
        for event in bot(state, rng):
            try:
                state, _ = step(spec, state, event, record=False)
                break
            except IllegalMove:
                continue
        else:  # pragma: no cover - NEXT is always last and always legal eventually
            raise RuntimeError(f"bot found no legal move in {state.ctx}")
        events += 1
    game = state.G
    return state, GameResult(
        winners=state.ctx.winners,
        rounds=state.ctx.round,
        events=events,
        finished=state.ctx.over,
        start_rows=tuple(getattr(h, "start_row", 0) for h in getattr(game, "hamsters", ())),
        at_end=FIGURES[spec.name](game) if spec.name in FIGURES else {},
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
    games: int = 0
    unfinished: int = 0
    nobody_wins: int = 0
    wins_by_seat: Counter[int] = field(default_factory=Counter)
    wins_by_start_row: Counter[int] = field(default_factory=Counter)
    starts_by_row: Counter[int] = field(default_factory=Counter)
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
        for row in result.start_rows:
            self.starts_by_row[row] += 1
        if not result.winners:
            self.nobody_wins += 1
        for seat in result.winners:
            self.wins_by_seat[seat] += 1
            if result.start_rows:
                self.wins_by_start_row[result.start_rows[seat]] += 1

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
        if self.starts_by_row:
            data["win_rate_by_start_row"] = {
                str(r): round(self.wins_by_start_row[r] / max(1, self.starts_by_row[r]), 4)
                for r in sorted(self.starts_by_row)
            }
        if self.game == "run-hamster-run":
            data["alligator_wins"] = data["no_winner"]
        for name, values in self.figures.items():
            data[f"mean_{name}"] = round(sum(values) / max(1, len(values)), 2)
            data[f"max_{name}"] = max(values, default=0)
        data["events"] = self.events
        return data


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
    spec = find_game(name)
    rules = rules or spec.rules_default
    if name not in BOTS and spec.name not in BOTS:
        raise IllegalMove(f"There is no simulated player for {spec.title} yet.")
    initial_state(spec, rules, tuple(f"P{i + 1}" for i in range(players)), seed)  # validates
    report = Report(spec.name, rules, players)
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
