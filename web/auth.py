"""The table PIN and the tokens it buys: watching is free, changing the game needs a token.

A correct PIN (or the configured passphrase) buys a token that the page sends in the
``X-Table-Token`` header with every change, so a forged cross-site form (which can carry
cookies but not custom headers) can never act. A token expires (a day by default), can be
revoked (Lock on one tablet ends that token; "lock all" ends every one), and is bound to
what it unlocks: the whole table, or one seat (a player's phone).

Guessing is throttled twice: per address (three free guesses, then a doubling lock-out)
and per table (never more than ten wrong guesses in any minute from anywhere, and past ten
in ten minutes a doubling lock-out for everyone), so rotating addresses buys nothing: at
the cap a guesser gets one try every ten minutes, and a 6-digit PIN would take years. A
tablet already unlocked never meets the table lock: it holds a token and does not log in
again.

Given the table's store, every token (only its SHA-256, with its expiry, seat and game) and
every seat code the tablet showed are kept in it, so a restart (a power cut, an update)
changes nothing for the players: tablets stay unlocked, phones keep their seats, and a phone
reloading its link is not a wrong guess. "Lock all" is kept there too. Expiry is by the wall
clock (a restart resets a monotonic one); a token read back never has more than a token's
lifetime left, so a clock set back at boot lengthens nothing by more than that.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from companion.errors import CompanionError
from companion.store import CodeRow, Store, StoreError, TokenRow

log = logging.getLogger(__name__)

FREE_GUESSES = 3  # per address, before its lock-out starts
TABLE_FREE_GUESSES = 10  # wrong guesses from anywhere within TABLE_WINDOW before the table locks
TABLE_WINDOW = 600.0
TABLE_MINUTE = 60.0  # and never more than TABLE_FREE_GUESSES in any window this long
MAX_LOCK_SECONDS = 300.0
MAX_TABLE_LOCK_SECONDS = 600.0
TOKEN_HEADER = "X-Table-Token"
DEFAULT_TOKEN_SECONDS = 24 * 3600.0


class WrongPinError(CompanionError):
    """The PIN given does not match."""


class ThrottledError(CompanionError):
    """Too many wrong guesses: wait ``seconds`` before the next one."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"Too many wrong PINs: wait {max(1, round(seconds))} s and try again.")
        self.seconds = seconds


SEAT_CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L to misread
SEAT_CODE_LENGTH = 6
SEAT_TOKENS = 8  # live tokens per seat (a player's phone, tablet, a spare): the oldest ends


class WrongSeatCodeError(CompanionError):
    """The seat code given is not one the tablet showed for this game."""


class AccessNotSavedError(CompanionError):
    """A "lock all" ended every token now, but the store could not record it."""


def generate_pin() -> str:
    """Six digits: quick to type on a phone, and throttling makes guessing hopeless."""
    return f"{secrets.randbelow(10**6):06d}"


@dataclass(frozen=True)
class Grant:
    """What a token unlocks, until when: the whole table (``seat`` None) or one seat."""

    expires: float
    seat: int | None = None
    game_id: int | None = None  # a seat's token holds for the game it joined, no other

    @property
    def table(self) -> bool:
        return self.seat is None


@dataclass
class _Failures:
    count: int = 0
    locked_until: float = 0.0


def _key(token: str) -> bytes:
    """Tokens are kept hashed: a lookup leaks nothing about a token's characters."""
    return hashlib.sha256(token.encode("utf-8", "replace")).digest()


class TablePin:
    def __init__(
        self,
        pin: str,
        clock: Callable[[], float] | None = None,
        *,
        token_seconds: float = DEFAULT_TOKEN_SECONDS,
        store: Store | None = None,
    ) -> None:
        """``clock`` (tests) times both guesses and expiry; by default guesses are timed
        monotonically and expiry by the wall clock, which a restart does not reset.
        ``store``: where tokens and seat codes are kept across a restart (None: memory)."""
        self._pin = pin
        self._clock = clock or time.monotonic
        self._wall = clock or time.time
        self.token_seconds = token_seconds
        self._store = store
        self._grants: dict[bytes, Grant] = {}
        self._failures: dict[str, _Failures] = {}
        self._table_failures: deque[float] = deque()
        self._table_locked_until = 0.0
        self._seat_codes: dict[str, tuple[int, int]] = {}  # code -> (game id, seat)
        self._ended_codes: set[str] = set()  # seat codes "lock all" ended: no guesses
        # ``_lock`` guards the dictionaries above and is taken by every page and stream
        # (``grant``), so nothing waits on the card under it: changes note their writes in
        # ``_pending``, and ``_write_lock`` writes them in order once ``_lock`` is free.
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._pending: list[tuple[str, Callable[[Store], None]]] = []
        if store is not None:
            self._load(store)

    def _load(self, store: Store) -> None:
        """Take up the tokens and seat codes kept before a restart."""
        now = self._wall()
        try:
            tokens, codes = store.access(now)
        except StoreError as error:
            log.warning("tablets and phones must unlock again: %s", error)
            return
        for row in tokens:
            # A clock set back (a Pi without a clock, before it hears the time) must not
            # make a token last longer than a fresh one would.
            expires = min(row.expires, now + self.token_seconds)
            self._grants[bytes.fromhex(row.hash)] = Grant(expires, row.seat, row.game_id)
        for code in codes:
            if code.ended:
                self._ended_codes.add(code.code)
            else:
                self._seat_codes[code.code] = (code.game_id, code.seat)

    def _keep(self, what: str, save: Callable[[Store], None]) -> None:
        """Note a write to the store (under ``_lock``); :meth:`_write_pending` makes it."""
        if self._store is not None:
            self._pending.append((what, save))

    def _write_pending(self) -> None:
        """Make the noted writes, in the order of the changes, outside ``_lock``: a change
        returns once its own write is made. A failure (a full card) costs only the
        keeping: the token or code works until the companion restarts."""
        if self._store is None:
            return
        with self._write_lock:
            self._write(self._store)

    def _write(self, store: Store) -> None:
        """The writes noted so far (call with ``_write_lock`` held)."""
        with self._lock:
            pending, self._pending = self._pending, []
        for what, save in pending:
            try:
                save(store)
            except StoreError as error:
                log.warning("%s is not kept across a restart: %s", what, error)

    def login(self, client: str, pin: str) -> str:
        """A fresh table token for the right PIN; raises ``ThrottledError`` or ``WrongPinError``."""
        with self._lock:
            now = self._clock()
            record = self._may_guess(client, now)
            if not hmac.compare_digest(pin.encode("utf-8", "replace"), self._pin.encode()):
                self._failed(record, now)
                raise WrongPinError()
            self._failures.pop(client, None)
            token = self._issue(None)
        self._write_pending()
        return token

    def _may_guess(self, client: str, now: float) -> _Failures:
        """The address's record, or ``ThrottledError`` while it or the table is locked out."""
        record = self._failures.setdefault(client, _Failures())
        wait = max(record.locked_until, self._table_locked_until) - now
        if wait > 0:
            raise ThrottledError(wait)
        return record

    def _failed(self, record: _Failures, now: float) -> None:
        record.count += 1
        if record.count >= FREE_GUESSES:
            wait = min(MAX_LOCK_SECONDS, 2.0 ** (record.count - FREE_GUESSES + 1))
            record.locked_until = now + wait
        failures = self._table_failures
        failures.append(now)
        while failures and failures[0] < now - TABLE_WINDOW:
            failures.popleft()
        beyond = len(failures) - TABLE_FREE_GUESSES
        if beyond >= 0:
            # Never more than TABLE_FREE_GUESSES in any minute: the next guess waits until
            # the oldest of the last ten is a minute old (a doubling lock alone let a burst
            # from many addresses through: 14 in the first minute), and longer as they go on.
            minute = failures[-TABLE_FREE_GUESSES] + TABLE_MINUTE
            doubling = now + min(MAX_TABLE_LOCK_SECONDS, 2.0**beyond) if beyond else now
            self._table_locked_until = max(self._table_locked_until, minute, doubling)
        if len(self._failures) > 10_000:  # forget the oldest addresses, not the table's count
            for client in list(self._failures)[:5_000]:
                del self._failures[client]

    def grant_seat(self, seat: int, game_id: int | None = None) -> str:
        """A token for one seat (a player's phone): its own secrets, never the table's."""
        with self._lock:
            token = self._issue(seat, game_id)
        self._write_pending()
        return token

    def _issue(
        self, seat: int | None, game_id: int | None = None, dropped: list[bytes] | None = None
    ) -> str:
        """A new token (and the ``dropped`` ones forgotten), kept in memory and the store."""
        token = secrets.token_urlsafe(24)
        key, grant = _key(token), Grant(self._wall() + self.token_seconds, seat, game_id)
        self._grants[key] = grant
        for old in dropped or ():
            self._grants.pop(old, None)
        row = TokenRow(key.hex(), grant.expires, seat, game_id)
        gone = [old.hex() for old in dropped or ()]
        self._keep("a new token", lambda store: store.add_token(row, gone))
        return token

    def seat_code(self, game_id: int, seat: int) -> str:
        """The code the tablet shows for one seat of one game (the same until a new game),
        so a player whose phone forgot its token can scan it again."""
        with self._lock:
            for code, found in self._seat_codes.items():
                if found == (game_id, seat):
                    return code
            code = ""
            while not code or code in self._seat_codes or code in self._ended_codes:
                code = "".join(secrets.choice(SEAT_CODE_LETTERS) for _ in range(SEAT_CODE_LENGTH))
            self._seat_codes[code] = (game_id, seat)
            row = CodeRow(code, game_id, seat)
            self._keep("a seat code", lambda store: store.add_seat_code(row))
        self._write_pending()
        return code

    def join(self, client: str, code: str, playing: int | None = None) -> tuple[str, int, int]:
        """A phone scanned a seat's code: a token for that seat of that game.

        Guessing codes is throttled exactly like guessing the PIN (the same per-address
        and per-table counts), so a seat code is no easier to guess than the PIN. A code
        from a game other than ``playing`` (the game on the table) is refused with a
        sentence: its token would be refused at once, since it holds for its game only.
        """
        with self._lock:
            now = self._clock()
            record = self._may_guess(client, now)
            code = code.strip().upper()
            if code in self._ended_codes:  # issued, so not a guess: no count, a clear answer
                raise WrongSeatCodeError(
                    "This seat's link no longer works (ended on the tablet, or by a "
                    "restored backup): scan your seat's code on the tablet again."
                )
            found = self._seat_codes.get(code)
            if found is None:
                self._failed(record, now)
                raise WrongSeatCodeError(
                    "That seat code is not one this table shows now: scan the seat's code on "
                    "the tablet again (a new game gives new codes)."
                )
            game_id, seat = found
            if playing is not None and game_id != playing:  # issued, so no guess either
                raise WrongSeatCodeError(
                    f"That seat code was for an earlier game (game {game_id}); each game has "
                    "its own codes: scan your seat's code on the tablet again."
                )
            # A seat's newest few phones keep their tokens: joining in a loop must not fill
            # the Pi's memory with tokens (a quarter of a kilobyte each, for a day).
            same = [k for k, g in self._grants.items() if (g.seat, g.game_id) == (seat, game_id)]
            token = self._issue(seat, game_id, same[: max(0, len(same) - SEAT_TOKENS + 1)])
        self._write_pending()
        return token, seat, game_id

    def grant(self, token: str | None) -> Grant | None:
        """What ``token`` unlocks now; None for no token, an unknown or an expired one."""
        if not token or len(token) > 200:
            return None
        with self._lock:
            key = _key(token)
            found = self._grants.get(key)
            if found is None:
                return None
            if found.expires <= self._wall():
                # Memory only: this runs for every page and stream, and the store drops
                # expired tokens itself when it is next read (at the next start).
                del self._grants[key]
                return None
            return found

    def allows(self, token: str | None) -> bool:
        """Whether ``token`` controls the whole table (NEXT, moves for any seat, new game)."""
        found = self.grant(token)
        return found is not None and found.table

    def revoke(self, token: str | None) -> bool:
        """End one token (Lock on a tablet); False when it was not a live token."""
        if not token:
            return False
        with self._lock:
            key = _key(token)
            if self._grants.pop(key, None) is None:
                return False
            self._keep("a locked tablet", lambda store: store.drop_token(key.hex()))
        self._write_pending()
        return True

    def revoke_all(self) -> int:
        """End every token ("lock all"), and every seat's code with them (a phone must not
        rejoin by reloading its link: the tablet shows new codes); returns how many tokens
        were live."""
        with self._write_lock:  # after every write noted before it, and before any after
            with self._lock:
                count = len(self._grants)
                self._grants.clear()
                self._ended_codes.update(self._seat_codes)
                self._seat_codes.clear()
            if self._store is None:
                return count
            self._write(self._store)
            try:
                self._store.end_access()
            except StoreError as error:  # ended now; after a restart they would be back
                raise AccessNotSavedError(
                    f"Every tablet and phone is locked out now, but the companion could "
                    f"not record it ({error}) and a restart would let them back in: fix "
                    "that, then end every access again."
                ) from None
            return count
