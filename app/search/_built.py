"""Copies of Postgres data a search reads in memory, each built in a background task and used
only while the version it was read at is current.

A collection is held only between the settings' bounds on its main chunks. A search that
finds no current copy asks Postgres, as it would with none, while one task per
key builds it; a build that fails is retried after RETRY_AFTER_SECONDS. A collection that
changes all the time (an ingest writing a document every second) would have its copy read
again after every change, each read stale by the time it is done: a key's next build waits
REBUILD_PAUSE times as long as its last one took, so rebuilding takes at most about a tenth
of one core. Past `most` units of size in all, the least recently used copies are dropped.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, Protocol, TypeVar
from uuid import UUID

from app.settings import CopySettings
from store.bm25 import Stats
from store.scope import Scope

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 60.0
REBUILD_PAUSE = 10.0

Key = tuple[UUID, UUID]  # (tenant, collection)


class Built(Protocol):
    @property
    def version(self) -> Hashable: ...

    @property
    def size(self) -> int: ...


B = TypeVar("B", bound=Built)


class BuiltCopies(Generic[B]):
    def __init__(
        self,
        what: str,
        build: Callable[[Key], Awaitable[B | None]],
        version_of: Callable[[Stats], Hashable],
        limits: CopySettings,
    ) -> None:
        self._what = what  # for the log
        self._build = build  # None: nothing to hold
        self._version_of = version_of  # what of the statistics dates a copy
        self._limits = limits
        self._held: OrderedDict[Key, B] = OrderedDict()
        self._building: dict[Key, asyncio.Task[None]] = {}
        self._failed_at: dict[Key, float] = {}
        self._next_build: dict[Key, float] = {}  # monotonic time a key may next be built

    def current(self, scope: Scope, stats: Stats | None) -> B | None:
        """The scope's collection's copy if it was read at the version `stats` give; else None,
        and a build starts unless the collection is outside the settings' bounds."""
        key = (scope.tenant_id, scope.collection_id)
        if stats is None or not self._in_bounds(stats):
            self._held.pop(key, None)
            return None
        held = self._held.get(key)
        if held is not None and held.version == self._version_of(stats):
            self._held.move_to_end(key)
            return held
        self._start_build(key)
        return None

    def holds(self, key: Key) -> bool:
        return key in self._held

    async def settle(self) -> None:
        """Wait for the builds in flight (for tests and benchmarks)."""
        await asyncio.gather(*list(self._building.values()), return_exceptions=True)

    async def close(self) -> None:
        for task in self._building.values():
            task.cancel()
        await asyncio.gather(*self._building.values(), return_exceptions=True)

    def _in_bounds(self, stats: Stats) -> bool:
        return self._limits.min_chunks <= stats.chunk_count <= self._limits.max_chunks

    def _start_build(self, key: Key) -> None:
        if key in self._building or self._failed_lately(key) or self._paused(key):
            return
        task = asyncio.create_task(self._rebuild(key), name=f"{self._what}-{key[1]}")
        self._building[key] = task
        task.add_done_callback(lambda _: self._building.pop(key, None))

    def _failed_lately(self, key: Key) -> bool:
        failed_at = self._failed_at.get(key)
        return failed_at is not None and _now() - failed_at < RETRY_AFTER_SECONDS

    def _paused(self, key: Key) -> bool:
        return _now() < self._next_build.get(key, 0.0)

    async def _rebuild(self, key: Key) -> None:
        started = _now()
        try:
            built = await self._build(key)
            finished = _now()
            self._next_build[key] = finished + REBUILD_PAUSE * (finished - started)
        except Exception:
            self._failed_at[key] = _now()
            log.exception("%s of collection %s failed; searches ask Postgres", self._what, key[1])
            return
        if built is not None:
            self._keep(key, built)

    def _keep(self, key: Key, built: B) -> None:
        most = self._limits.most
        if built.size > most:
            log.info(
                "collection %s: %s of size %d exceeds %d", key[1], self._what, built.size, most
            )
            return
        self._held[key] = built
        self._held.move_to_end(key)
        while sum(b.size for b in self._held.values()) > most:
            self._held.popitem(last=False)


def _now() -> float:
    return time.monotonic()
