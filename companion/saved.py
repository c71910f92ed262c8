"""Starting and resuming games against the event store."""

from __future__ import annotations

from typing import Any

from companion.engine.session import GameHeader, Session
from companion.games import find_game
from companion.store import Store


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


def _bound(store: Store, game_id: int, session: Session[Any]) -> Session[Any]:
    def record(event: Any) -> None:
        store.append(game_id, event)

    session.on_record = record
    return session
