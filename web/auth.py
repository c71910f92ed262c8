"""The table PIN: watching is free, changing the game needs the PIN.

A correct PIN buys a token that the page sends in the ``X-Table-Token`` header with every
change, so a forged cross-site form (which can carry cookies but not custom headers) can
never act. Wrong guesses are throttled per client with a doubling lock-out.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from companion.errors import CompanionError

FREE_GUESSES = 3
MAX_LOCK_SECONDS = 300.0
TOKEN_HEADER = "X-Table-Token"


class WrongPinError(CompanionError):
    """The PIN given does not match."""


class ThrottledError(CompanionError):
    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


def generate_pin() -> str:
    """Six digits: quick to type on a phone, and throttling makes guessing hopeless."""
    return f"{secrets.randbelow(10**6):06d}"


@dataclass
class _Failures:
    count: int = 0
    locked_until: float = 0.0


class TablePin:
    def __init__(self, pin: str, clock: Callable[[], float] = time.monotonic) -> None:
        self._pin = pin
        self._clock = clock
        self._tokens: set[str] = set()
        self._failures: dict[str, _Failures] = {}
        self._lock = threading.Lock()

    def login(self, client: str, pin: str) -> str:
        """A fresh token for the right PIN; raises ``ThrottledError`` or ``WrongPinError``."""
        with self._lock:
            now = self._clock()
            record = self._failures.setdefault(client, _Failures())
            if record.locked_until > now:
                raise ThrottledError(record.locked_until - now)
            if hmac.compare_digest(pin.encode(), self._pin.encode()):
                self._failures.pop(client, None)
                token = secrets.token_urlsafe(24)
                self._tokens.add(token)
                return token
            record.count += 1
            if record.count >= FREE_GUESSES:
                wait = min(MAX_LOCK_SECONDS, 2.0 ** (record.count - FREE_GUESSES + 1))
                record.locked_until = now + wait
            raise WrongPinError()

    def allows(self, token: str | None) -> bool:
        if not token:
            return False
        with self._lock:
            return any(hmac.compare_digest(token, known) for known in self._tokens)
