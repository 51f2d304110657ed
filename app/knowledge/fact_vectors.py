"""Embed facts for query-to-fact matching, after the graph step has recorded them.

It runs at the end of every projection drain, outside the graph's lock and transactions: a
failing or slow embedder delays fact matching and the drain that called it, never another
drain's graph work. Facts it could not embed stay NULL and are tried again at the next
drain, as are facts recorded before fact vectors existed. One round runs at a time per
process, so two drains never embed the same facts twice.
"""

from __future__ import annotations

import asyncio
import logging
from itertools import groupby
from uuid import UUID

from app.models.embedders import Embedders
from store import fact_vectors
from store.fact_vectors import FactText
from store.pool import Pool

log = logging.getLogger(__name__)
BATCH = 256


class FactVectors:
    def __init__(self, pool: Pool, embedders: Embedders) -> None:
        self._pool = pool
        self._embedders = embedders
        self._lock = asyncio.Lock()

    async def embed_waiting(self, collections: list[UUID] | None = None) -> int:
        """Embed the facts still without a vector; returns how many were embedded. An
        embedder failure is logged and ends this round."""
        done = 0
        async with self._lock:
            try:
                while batch := await self._waiting(collections):
                    await self._embed(batch)
                    done += len(batch)
            except Exception:
                log.warning("fact vectors: embedding failed; retrying next drain", exc_info=True)
        return done

    async def _waiting(self, collections: list[UUID] | None) -> list[FactText]:
        async with self._pool.connection() as conn:
            models = self._embedders.model_ids()  # a collection on another waits for it
            return await fact_vectors.unembedded(conn, models, collections, BATCH)

    async def _embed(self, facts: list[FactText]) -> None:
        for model, group in groupby(sorted(facts, key=lambda f: f.model), lambda f: f.model):
            same = list(group)
            embedder = self._embedders.get(model)
            vectors = await asyncio.to_thread(embedder.embed, [f.text for f in same], True)
            async with self._pool.connection() as conn, conn.transaction():
                await fact_vectors.set_vectors(conn, [f.id for f in same], vectors)
