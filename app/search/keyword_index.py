"""The keyword leg's BM25: in memory when this process holds a current index, else SQL.

Postgres stays the truth. Each collection's statistics carry a version that moves with
every change to its postings. A search compares it with the cached index's version and,
when they differ, answers from SQL (so a document is searchable the moment it is INDEXED)
while one background task per collection reloads the index (app/search/_built.py). Both
paths rank identically.
"""

from __future__ import annotations

import asyncio
from uuid import UUID

from app.search._built import BuiltCopies, Key
from app.settings import CopySettings
from retrieval.lexical_index import LexicalIndex
from store import bm25, search
from store.bm25 import Frequencies, Stats
from store.pool import Conn, Pool
from store.scope import Scope

OVERSAMPLE = 4  # candidates per wanted hit checked against a narrowing filter


class KeywordIndexes:
    def __init__(self, pool: Pool, limits: CopySettings) -> None:
        self._pool = pool
        self._indexes = BuiltCopies("keyword index", self._build, bm25.postings_version, limits)

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
        return self._indexes.holds((tenant_id, collection_id))

    async def settle(self) -> None:
        """Wait for the builds in flight (for tests and benchmarks)."""
        await self._indexes.settle()

    async def close(self) -> None:
        await self._indexes.close()

    def _current(self, scope: Scope, stats: Stats | None) -> LexicalIndex | None:
        return self._indexes.current(scope, stats)

    async def _build(self, key: Key) -> LexicalIndex | None:
        async with self._pool.connection() as conn:
            postings = await bm25.load(conn, *key)
        return None if postings is None else await asyncio.to_thread(LexicalIndex, postings)


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
