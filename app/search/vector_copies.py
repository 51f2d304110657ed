"""The dense leg's exact search in memory, for a collection whose window vectors this process
holds at the current version of its statistics; else Postgres (store/search.py).

On a collection of thousands of documents the dense search was the largest statement of a
search in Postgres: an HNSW scan at ef_search 600, kept that wide for recall. Held in memory,
the search is one matrix product over every window, exact where HNSW is approximate. Its
cost grows with the collection where HNSW's barely does: at 50,000 vectors of 384
dimensions it takes about as much CPU as the HNSW scan, so only collections of up to
`max_chunks` main chunks (about 1.4 windows each) are held.

The product runs off the event loop. numpy releases the GIL while it multiplies, and under
load one process's event loop is what limits it: its thread was busy all the time while a
quarter of two cores sat idle (bench/RESULTS.md, the load). A millisecond of product in the
loop is a millisecond no other request's Python runs.

The vectors are written with their chunks, so the statistics' version, which moves with every
change to a collection's chunks, dates them; a stale copy is read again in the background
(app/search/_built.py) while Postgres answers. A filtered scope, or a key with content
scopes, is searched in Postgres, which applies them.
"""

from __future__ import annotations

import asyncio
from uuid import UUID

import numpy as np
from numpy.typing import NDArray

from app.search._built import BuiltCopies, Key
from app.settings import CopySettings
from retrieval.window_vectors import WindowVectors
from store import bm25, search
from store.bm25 import Stats
from store.pool import Pool
from store.scope import Scope
from store.search import ChunkVector


class VectorCopies:
    def __init__(self, pool: Pool, limits: CopySettings) -> None:
        self._pool = pool
        self._copies = BuiltCopies("window vectors", self._build, bm25.postings_version, limits)

    async def search(
        self,
        scope: Scope,
        vector: NDArray[np.float32],
        limit: int,
        stats: Stats | None,
    ) -> list[tuple[UUID, float]] | None:
        """The best `limit` main chunks, as store/search.dense_exact ranks them, or None when
        Postgres must answer."""
        held = None if scope.narrowed else self._held(scope, stats, vector)
        if held is None:
            return None
        windows = limit * search.WINDOWS_PER_HIT
        return await asyncio.to_thread(held.top, vector, windows, limit)

    def candidate_vectors(
        self, scope: Scope, vector: NDArray[np.float32], chunks: list[UUID], stats: Stats | None
    ) -> dict[UUID, ChunkVector] | None:
        """For each of the main chunks, its window most similar to the query, as
        store/search.candidate_vectors reads it; None when Postgres must answer. The chunks
        are candidates already in scope, so a narrowed scope may use the copy."""
        held = self._held(scope, stats, vector)
        if held is None:
            return None
        nearest = held.nearest_windows(vector, chunks)
        return {
            main: ChunkVector(main, held.vectors[row], held.documents[row])
            for main, row in nearest.items()
        }

    async def settle(self) -> None:
        """Wait for the builds in flight (for tests and benchmarks)."""
        await self._copies.settle()

    async def close(self) -> None:
        await self._copies.close()

    def _held(
        self, scope: Scope, stats: Stats | None, vector: NDArray[np.float32]
    ) -> WindowVectors | None:
        """The collection's current copy, if its vectors have the query's dimensions."""
        held = self._copies.current(scope, stats)
        return held if held is not None and held.dimensions == vector.shape[0] else None

    async def _build(self, key: Key) -> WindowVectors | None:
        async with self._pool.connection() as conn:
            return await search.window_vectors(conn, *key)
