"""Starting and resuming games against the event store."""

from __future__ import annotations

import random
from typing import Any, TypeVar

from companion.config import GameDefaults
from companion.engine.events import Event
from companion.engine.session import GameHeader, Session
from companion.games import find_game
from companion.store import Store

G = TypeVar("G")  # the game's own state (``State.G``)

NOT_RESUMED = (
    "The last game could not be rebuilt from its stored events ({error}); it stays in the "
    "games file untouched (`companion export FILE` saves what is readable). Start a new game "
    "on the page when you are ready."
)


def default_header(defaults: GameDefaults, seed: int | None = None) -> GameHeader:
    """The configured game with a fresh seed, so NEW GAME works before anyone has chosen."""
    spec = find_game(defaults.game)
    return GameHeader(
        game=spec.name,
        rules=defaults.rules or spec.rules_default,
        players=tuple(defaults.players[: spec.max_players]),
        seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
    )


def start_game(store: Store, header: GameHeader) -> tuple[int, Session[Any]]:
    """Check the set-up (an illegal one raises before anything is written), then store it."""
    session: Session[Any] = Session(find_game(header.game), header)  # validates the set-up
    game_id = store.create_game(header)
    return game_id, _bound(store, game_id, session)


def resume_game(store: Store, game_id: int | None = None) -> tuple[int, Session[Any]] | None:
    """Rebuild a stored game by replaying its log (the latest game unless one is named)."""
    game_id = game_id if game_id is not None else store.current_game()
    if game_id is None:
        return None
    stored = store.game(game_id)
    spec = find_game(stored.header.game)
    session = Session.replay(spec, stored.header, store.events(game_id))
    return game_id, _bound(store, game_id, session)


def _bound(store: Store, game_id: int, session: Session[G]) -> Session[G]:
    def record(event: Event) -> None:
        store.append(game_id, event)

    session.on_record = record
    return session
