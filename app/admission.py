"""Admission control: at most `limit` requests run at once in a process, and at most `queue`
more wait, each for at most `wait_seconds`. Anything beyond is refused at once with
OVERLOADED, so a client under overload hears "back off" in milliseconds instead of waiting
until its search legs time out.

On two cores a search is CPU-bound (50 to 60 ms of CPU across the server and the databases,
bench/RESULTS.md): running more at once only makes each slower, so the limit is small and
the queue short.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from uuid import UUID

from app.errors import ErrorCode, TrellisError
from app.settings import AdmissionSettings

RETRY_AFTER_SECONDS = 1


@dataclass(frozen=True)
class AdmissionCounts:
    running: int
    waiting: int
    refused: int


class Admission:
    def __init__(self, settings: AdmissionSettings) -> None:
        self._slots = asyncio.Semaphore(settings.limit)
        self._queue = settings.queue
        self._wait_seconds = settings.wait_seconds
        self._running = 0
        self._waiting = 0
        self._refused = 0

    def counts(self) -> AdmissionCounts:
        return AdmissionCounts(self._running, self._waiting, self._refused)

    async def enter(self) -> None:
        """Take a slot, or raise OVERLOADED; `leave` gives it back."""
        await self._acquire()
        self._running += 1

    def leave(self) -> None:
        self._running -= 1
        self._slots.release()

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold a slot for the block, or raise OVERLOADED."""
        await self.enter()
        try:
            yield
        finally:
            self.leave()

    async def _acquire(self) -> None:
        if not self._slots.locked():
            await self._slots.acquire()
            return
        if self._waiting >= self._queue:
            raise self._overloaded("the queue is full")
        self._waiting += 1
        try:
            await asyncio.wait_for(self._slots.acquire(), self._wait_seconds)
        except TimeoutError:
            raise self._overloaded(f"no slot came free in {self._wait_seconds:g} s") from None
        finally:
            self._waiting -= 1

    def _overloaded(self, why: str) -> TrellisError:
        self._refused += 1
        return TrellisError(
            ErrorCode.OVERLOADED,
            f"the server is at capacity ({why}); retry in {RETRY_AFTER_SECONDS} s",
            retryAfterSeconds=RETRY_AFTER_SECONDS,
        )


class KeySockets:
    """Open WebSockets per API key in this process: one key cannot hold every connection
    the server has (each socket may carry 20 subscriptions, and each costs memory)."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._open: Counter[UUID] = Counter()

    def open(self, key_id: UUID) -> None:
        """Count a new socket of the key, or raise OVERLOADED when it has its limit."""
        if self._open[key_id] >= self._limit:
            raise TrellisError(
                ErrorCode.OVERLOADED,
                f"this API key has {self._limit} WebSockets open already; close one first",
            )
        self._open[key_id] += 1

    def close(self, key_id: UUID) -> None:
        self._open[key_id] -= 1
        if self._open[key_id] <= 0:
            del self._open[key_id]
