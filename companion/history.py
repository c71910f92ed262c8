"""Play history: what every finished game came to, who plays and who wins.

Nothing new is recorded for this: each stored game is rebuilt from its own event log
(the single record), and its figures come from the game's own ``report.figures`` through
the spec, so this module never names a game. A game's summary is kept beside it in the
store with the number of events it was made from; a game that grew (or was undone past
its end) is summarised again, so the kept copy can never be stale.

Deleting is soft: the game is hidden and can be brought back for ``UNDO_SECONDS`` at
least; games deleted longer ago are purged at the next deletion or when the companion
starts, in one transaction (the game the table holds is kept until another starts).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from companion.engine.session import Session
from companion.errors import CompanionError
from companion.games import find_game
from companion.store import Store, StoredGame, StoreError

log = logging.getLogger(__name__)

UNDO_SECONDS = 600.0  # a deleted game can be brought back for at least this long


class HistoryError(CompanionError, ValueError):
    """A history request that cannot be done; the message says why and what to do."""


@dataclass(frozen=True)
class Play:
    """One stored game as the history shows it."""

    id: int
    game: str  # the public name the registry knows it by
    title: str
    rules: str
    players: tuple[str, ...]
    colours: tuple[str, ...]  # the colours chosen at the start, in seat order (may be none)
    started: float  # seconds since the epoch
    seconds: float | None  # from the start to the last stored event; None: no event yet
    finished: bool
    winners: tuple[int, ...]  # seats
    result: str  # the game's own sentence: who won and why
    rounds: int
    figures: Mapping[str, float | str] = field(default_factory=dict)
    start_player: int | None = None  # seat; None: the game names no start player
    lowest_wins: bool = False  # the game's least (water, pieces ...) wins

    @property
    def winner_names(self) -> tuple[str, ...]:
        return tuple(self.players[s] for s in self.winners if 0 <= s < len(self.players))

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["figures"] = dict(self.figures)
        data["winner_names"] = list(self.winner_names)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Play:
        return cls(
            id=int(data["id"]),
            game=str(data["game"]),
            title=str(data["title"]),
            rules=str(data["rules"]),
            players=tuple(data["players"]),
            colours=tuple(data["colours"]),
            started=float(data["started"]),
            seconds=None if data["seconds"] is None else float(data["seconds"]),
            finished=bool(data["finished"]),
            winners=tuple(int(s) for s in data["winners"]),
            result=str(data["result"]),
            rounds=int(data["rounds"]),
            figures={str(k): _figure(v) for k, v in data["figures"].items()},
            start_player=None if data.get("start_player") is None else int(data["start_player"]),
            lowest_wins=bool(data.get("lowest_wins", False)),
        )


def _figure(value: object) -> float | str:
    """A key figure as kept: a number, or a game's own short text (a Rat's hand)."""
    return value if isinstance(value, str) else float(value)  # type: ignore[arg-type]


def length_text(seconds: float | None) -> str:
    """A game's length as people say it: 1 h 05 min, 42 min, <1 min; – with no event."""
    if seconds is None:
        return "–"
    whole = round(seconds / 60)
    if whole < 1:
        return "<1 min"
    return f"{whole // 60} h {whole % 60:02d} min" if whole >= 60 else f"{whole} min"


def colours_of(options: Mapping[str, Any]) -> tuple[str, ...]:
    found = options.get("colours") or ()
    return tuple(str(c) for c in found) if isinstance(found, list | tuple) else ()


def summarize(store: Store, stored: StoredGame) -> Play:
    """The game's summary: the kept one if it was made from every event, else by replay
    (and then kept)."""
    play, made_from = _summary(store, stored)
    if made_from is not None:
        _keep(store, [(play, made_from)])
    return play


def _summary(store: Store, stored: StoredGame) -> tuple[Play, int | None]:
    """The summary, and the number of events it was newly made from (None: it was kept)."""
    count, last_at = store.event_span(stored.id)
    kept = store.summary(stored.id)
    # A summary kept before the start player was part of it is made again.
    if kept is not None and kept[0] == count and '"start_player"' in kept[1]:
        return Play.from_json(json.loads(kept[1])), None
    header = stored.header
    spec = find_game(header.game)
    state = Session.replay(spec, header, store.events(stored.id)).state
    over = state.ctx.over
    figures = spec.key_figures or spec.report.figures
    play = Play(
        id=stored.id,
        game=spec.name,
        title=spec.title,
        rules=header.rules,
        players=tuple(header.players),
        colours=colours_of(header.options),
        started=stored.created,
        seconds=None if last_at is None else max(0.0, last_at - stored.created),
        finished=over,
        winners=tuple(state.ctx.winners),
        result=state.ctx.result,
        rounds=state.ctx.round,
        figures={k: _figure(v) for k, v in figures(state.G).items()} if over and figures else {},
        start_player=spec.start_player(state.G) if spec.start_player is not None else None,
        lowest_wins=spec.lowest_wins,
    )
    return play, count


def _keep(store: Store, made: list[tuple[Play, int]]) -> None:
    """Keep new summaries, all in one transaction (one wait for the SD card, not one each)."""
    if not made:
        return
    try:
        store.set_summaries(
            [(p.id, count, json.dumps(p.to_json(), allow_nan=False)) for p, count in made]
        )
    except (StoreError, ValueError):  # a read-only card: the summary is only a shortcut
        log.warning("history: %d game summaries were not kept", len(made))


def plays(store: Store, finished_only: bool = True) -> list[Play]:
    """The stored games, newest first; deleted ones left out (and, by default, any game
    that is not over). A game that can no longer be rebuilt is left out with a log line."""
    found = []
    made: list[tuple[Play, int]] = []
    for stored in reversed(store.games()):
        if stored.deleted is not None:
            continue
        try:
            play, made_from = _summary(store, stored)
        except Exception:  # one unreadable game must not hide every other one
            log.exception("history: game %s could not be rebuilt", stored.id)
            continue
        if made_from is not None:
            made.append((play, made_from))
        if play.finished or not finished_only:
            found.append(play)
    _keep(store, made)
    return found


@dataclass
class Tally:
    plays: int = 0
    wins: int = 0

    def add(self, won: bool) -> None:
        self.plays += 1
        self.wins += int(won)


@dataclass
class PlayerStats:
    """One player's record across the history; a name is matched whatever its case."""

    name: str
    total: Tally = field(default_factory=Tally)
    by_game: dict[str, Tally] = field(default_factory=dict)  # by the game's title
    by_seat: dict[int, Tally] = field(default_factory=dict)  # seat 1 sat first

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "plays": self.total.plays,
            "wins": self.total.wins,
            "by_game": {k: asdict(v) for k, v in self.by_game.items()},
            "by_seat": {str(k): asdict(v) for k, v in sorted(self.by_seat.items())},
        }


def player_stats(found: Iterable[Play]) -> list[PlayerStats]:
    """Plays and wins per player, in all, by game and by seat; most wins first."""
    stats: dict[str, PlayerStats] = {}
    for play in found:
        for seat, name in enumerate(play.players):
            entry = stats.setdefault(name.strip().casefold(), PlayerStats(name.strip()))
            won = seat in play.winners
            entry.total.add(won)
            entry.by_game.setdefault(play.title, Tally()).add(won)
            entry.by_seat.setdefault(seat + 1, Tally()).add(won)
    return sorted(stats.values(), key=lambda s: (-s.total.wins, -s.total.plays, s.name.casefold()))


def last_players(store: Store) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The names and colours of the latest game not deleted, for "same players again"."""
    for stored in reversed(store.games()):
        if stored.deleted is None:
            return tuple(stored.header.players), colours_of(stored.header.options)
    return None


def delete(store: Store, game_id: int, now: float | None = None) -> StoredGame:
    """Hide a game from the history; it can be brought back with :func:`undelete`.

    Games deleted more than ``UNDO_SECONDS`` ago are purged first, for good. The game
    being played is refused: the table would go on writing into a hidden game.
    """
    now = time.time() if now is None else now
    stored = _existing(store, game_id)
    if stored.deleted is not None:
        raise HistoryError(
            f"Game {game_id} is already deleted; `undelete {game_id}` brings it back."
        )
    if store.current_game() == game_id and not summarize(store, stored).finished:
        raise HistoryError(
            f"Game {game_id} is still being played: finish it or start another before deleting it."
        )
    purge_expired(store, now)
    store.mark_deleted(game_id, now)
    return stored


def purge_expired(store: Store, now: float | None = None) -> list[int]:
    """Remove for good the games deleted more than ``UNDO_SECONDS`` ago (at each deletion
    and when the companion starts); returns their ids."""
    now = time.time() if now is None else now
    return store.purge_deleted(now - UNDO_SECONDS)


def undelete(store: Store, game_id: int) -> StoredGame:
    """Bring a deleted game back into the history."""
    stored = _existing(store, game_id)
    if stored.deleted is None:
        raise HistoryError(f"Game {game_id} is not deleted; it is in the history.")
    store.mark_deleted(game_id, None)
    return stored


def _existing(store: Store, game_id: int) -> StoredGame:
    try:
        return store.game(game_id)
    except (StoreError, OverflowError):  # OverflowError: a number SQLite cannot hold
        raise HistoryError(
            f"There is no game {game_id}: see `companion history` for the numbers (a game "
            f"deleted more than {UNDO_SECONDS / 60:.0f} minutes ago may be gone for good)."
        ) from None
