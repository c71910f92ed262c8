"""Who may act, kept across a restart: the table's tokens and the seat codes it showed.

Apart from the games (``companion.store.events``) though in the same SQLite file: the web's
PIN keeper (``web.auth.TablePin``) is handed this, and so can read and write who may act
but never a game. Each token is kept only as its SHA-256, with its wall-clock expiry and
the seat and game it joined; a seat code is kept with its game and seat, and ``ended`` once
"lock all" ended it (reloading it is then no guess).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.store.events import Store


@dataclass(frozen=True)
class TokenRow:
    """A kept token: its SHA-256 (hex, never the token), wall-clock expiry, seat and game."""

    hash: str
    expires: float
    seat: int | None
    game_id: int | None


@dataclass(frozen=True)
class CodeRow:
    """A seat code the tablet showed, for one seat of one game; ``ended`` by "lock all"."""

    code: str
    game_id: int
    seat: int
    ended: bool = False


KEPT_SEAT_CODES = 1000  # a few seats a game: hundreds of games' codes


#: Where the table PIN generated at first start is kept (the settings table).
PIN_SETTING = "table_pin"


class AccessStore:
    """The ``tokens`` and ``seat_codes`` tables of one games file (its connection and lock),
    and the table PIN the companion generated when the config sets none."""

    def __init__(self, store: Store) -> None:
        self._file = store

    def kept_pin(self) -> str | None:
        """The PIN generated at an earlier start, if any."""
        return self._file.setting(PIN_SETTING)

    def keep_pin(self, pin: str) -> None:
        self._file.set_setting(PIN_SETTING, pin)

    def access(self, now: float) -> tuple[list[TokenRow], list[CodeRow]]:
        """The live tokens (oldest first; expired ones are dropped here) and the seat codes
        (the newest ``KEPT_SEAT_CODES``; older ones are dropped)."""
        with self._file.transaction() as db:
            db.execute("DELETE FROM tokens WHERE expires <= ?", (now,))
            db.execute(
                "DELETE FROM seat_codes WHERE rowid <= (SELECT MAX(rowid) FROM seat_codes) - ?",
                (KEPT_SEAT_CODES,),
            )
            tokens = db.execute(
                "SELECT hash, expires, seat, game_id FROM tokens ORDER BY rowid"
            ).fetchall()
            codes = db.execute(
                "SELECT code, game_id, seat, ended FROM seat_codes ORDER BY rowid"
            ).fetchall()
        return (
            [TokenRow(str(h), float(e), s, g) for h, e, s, g in tokens],
            [CodeRow(str(c), int(g), int(s), bool(e)) for c, g, s, e in codes],
        )

    def add_token(self, row: TokenRow, dropped: Sequence[str] = ()) -> None:
        """Keep a new token's hash (and forget the ``dropped`` hashes) in one go."""
        with self._file.transaction() as db:
            db.executemany("DELETE FROM tokens WHERE hash = ?", [(h,) for h in dropped])
            db.execute(
                "INSERT OR REPLACE INTO tokens (hash, expires, seat, game_id) VALUES (?, ?, ?, ?)",
                (row.hash, row.expires, row.seat, row.game_id),
            )

    def drop_token(self, token_hash: str) -> None:
        with self._file.transaction() as db:
            db.execute("DELETE FROM tokens WHERE hash = ?", (token_hash,))

    def add_seat_code(self, row: CodeRow) -> None:
        with self._file.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO seat_codes (code, game_id, seat, ended) "
                "VALUES (?, ?, ?, ?)",
                (row.code, row.game_id, row.seat, int(row.ended)),
            )

    def end_access(self) -> None:
        """For "lock all": forget every token and end every seat code, in one transaction."""
        with self._file.transaction() as db:
            db.execute("DELETE FROM tokens")
            db.execute("UPDATE seat_codes SET ended = 1")
