"""The keyword leg's BM25: in memory when this process holds a current index, else SQL.

Postgres stays the truth. Each collection's statistics carry a version that moves with
every change to its postings. A search compares it with the cached index's version and,
when they differ, answers from SQL (so a document is searchable the moment it is INDEXED)
while one background task per collection reloads the index. Both paths rank identically.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from uuid import UUID

from app.settings import KeywordIndexSettings
from retrieval.lexical_index import LexicalIndex
from store import bm25, search
from store.bm25 import Frequencies, Stats
from store.pool import Conn, Pool
from store.scope import Scope

log = logging.getLogger(__name__)

OVERSAMPLE = 4  # candidates per wanted hit checked against a narrowing filter
RETRY_AFTER_SECONDS = 60.0


class KeywordIndexes:
    def __init__(self, pool: Pool, limits: KeywordIndexSettings) -> None:
        self._pool = pool
        self._limits = limits
        self._indexes: OrderedDict[tuple[UUID, UUID], LexicalIndex] = OrderedDict()
        self._building: dict[tuple[UUID, UUID], asyncio.Task[None]] = {}
        self._failed_at: dict[tuple[UUID, UUID], float] = {}

    async def search(
        self, conn: Conn, scope: Scope, terms: list[str], limit: int, stats: Stats | None
    ) -> list[tuple[UUID, float]]:
        """The BM25 ranking of `terms`, the collection's statistics being `stats`."""
        index = self._current(scope, stats)
        if index is not None:
            found = await _from_index(conn, index, scope, terms, limit)
            if found is not None:
                return found
        return await bm25.search_scope(conn, scope, terms, limit)

    async def frequencies(
        self, conn: Conn, scope: Scope, terms: list[str], stats: Stats | None
    ) -> Frequencies:
        """The terms' document frequencies: from a current index, else counted in SQL."""
        index = self._current(scope, stats)
        if index is None:
            return await bm25.frequencies(conn, scope, terms, stats)
        assert stats is not None  # an index is current only against statistics
        return Frequencies(stats.chunk_count, index.document_frequencies(terms))

    def holds(self, tenant_id: UUID, collection_id: UUID) -> bool:
        return (tenant_id, collection_id) in self._indexes

    async def settle(self) -> None:
        """Wait for the builds in flight (for tests and benchmarks)."""
        await asyncio.gather(*list(self._building.values()), return_exceptions=True)

    async def close(self) -> None:
        for task in self._building.values():
            task.cancel()
        await asyncio.gather(*self._building.values(), return_exceptions=True)

    def _current(self, scope: Scope, stats: Stats | None) -> LexicalIndex | None:
        key = (scope.tenant_id, scope.collection_id)
        if stats is None or stats.chunk_count < self._limits.min_chunks:
            self._indexes.pop(key, None)
            return None
        index = self._indexes.get(key)
        if index is not None and index.version == stats.version:
            self._indexes.move_to_end(key)
            return index
        self._start_build(key)
        return None

    def _start_build(self, key: tuple[UUID, UUID]) -> None:
        if key in self._building or self._failed_lately(key):
            return
        task = asyncio.create_task(self._build(key), name=f"keyword-index-{key[1]}")
        self._building[key] = task
        task.add_done_callback(lambda _: self._building.pop(key, None))

    def _failed_lately(self, key: tuple[UUID, UUID]) -> bool:
        failed_at = self._failed_at.get(key)
        return failed_at is not None and time.monotonic() - failed_at < RETRY_AFTER_SECONDS

    async def _build(self, key: tuple[UUID, UUID]) -> None:
        try:
            async with self._pool.connection() as conn:
                postings = await bm25.load(conn, *key)
            if postings is not None:
                self._keep(key, await asyncio.to_thread(LexicalIndex, postings))
        except Exception:
            self._failed_at[key] = time.monotonic()
            log.exception("keyword index for collection %s failed; searches use SQL", key[1])

    def _keep(self, key: tuple[UUID, UUID], index: LexicalIndex) -> None:
        if index.size > self._limits.max_postings:
            log.info("collection %s: %d postings exceed the cache", key[1], index.size)
            return
        self._indexes[key] = index
        self._indexes.move_to_end(key)
        while sum(i.size for i in self._indexes.values()) > self._limits.max_postings:
            self._indexes.popitem(last=False)


async def _from_index(
    conn: Conn, index: LexicalIndex, scope: Scope, terms: list[str], limit: int
) -> list[tuple[UUID, float]] | None:
    """The index's answer; None when a narrowing filter leaves too few of its candidates."""
    wanted = limit * OVERSAMPLE if scope.narrowed else limit
    found = [(index.chunk_ids[i], score) for i, score in index.top(terms, wanted)]
    if not scope.narrowed:
        return found
    allowed = await search.chunks_in_scope(conn, scope, [c for c, _ in found])
    kept = [(c, s) for c, s in found if c in allowed][:limit]
    return kept if len(kept) == limit or len(found) < wanted else None
