"""One thread that runs jobs strictly in the order they arrive: the table's worker.

Why a thread of its own and a queue: inputs arrive on gpiozero's threads, the camera's and the
web server's, and must never interleave inside the engine. Each becomes a job here; the caller
gets a :class:`~concurrent.futures.Future` for its result or its error. Nothing here knows a
game: :class:`companion.table.Table` decides what each job does.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, TypeVar

from companion.engine.errors import IllegalMoveError
from companion.errors import CompanionError

log = logging.getLogger(__name__)
T = TypeVar("T")


class TableClosedError(CompanionError, RuntimeError):
    """The table has stopped (the companion is shutting down); the input was not applied."""


@dataclass
class _Job:
    run: Callable[[], Any]
    future: Future[Any] = field(default_factory=Future)


class Worker:
    """Runs each submitted job on one thread, in arrival order; a failing job never stops it."""

    def __init__(self, name: str) -> None:
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._accepting = threading.Lock()
        self.closed = False
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def submit(self, run: Callable[[], T]) -> Future[T]:
        """Queue ``run``; its future fails with :class:`TableClosedError` once closed."""
        job = _Job(run)
        with self._accepting:
            if self.closed:
                job.future.set_exception(TableClosedError("The table is shutting down; try again."))
            else:
                self._queue.put(job)
        return job.future

    def waiting(self) -> int:
        """How many jobs are queued and not yet started."""
        return self._queue.qsize()

    def alive(self) -> bool:
        """The thread still runs and takes jobs (it may still be stuck inside one)."""
        return self._thread.is_alive() and not self.closed

    def responsive(self, timeout: float) -> bool:
        """The thread has just turned a job over, so it is not stuck inside one."""
        try:
            self.submit(lambda: None).result(timeout)
        except Exception:  # closed, or no answer in time: not responsive
            return False
        return True

    def close(self, timeout: float | None) -> None:
        """Refuse new jobs, run every job already queued, then stop the thread."""
        with self._accepting:
            if not self.closed:
                self.closed = True
                self._queue.put(None)
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise TableClosedError("The table worker did not stop in time.")

    def _work(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            if not job.future.set_running_or_notify_cancel():
                continue
            try:
                result = job.run()
            except Exception as error:  # one bad input must never stop the table
                if not isinstance(error, IllegalMoveError):
                    log.exception("table: input failed")
                job.future.set_exception(error)
            else:
                job.future.set_result(result)
