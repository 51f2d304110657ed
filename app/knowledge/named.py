"""The entities ingest's model found in each main chunk, dates and numbers included: kept when
a document is graphed, read back so an answer need not run the model over its passages again.

Chunks graphed before entities were kept are read at the end of a projection drain, like facts
without vectors: a batch at a time, outside the graph's lock. Once a round has gone through
every collection, the process stops looking: every chunk graphed since keeps its entities as
it is graphed, and the query would otherwise scan the chunks still waiting for the graph at
every drain. A chunk the model fails on is logged and left unread until the next start; the
composer then reads its sentences itself.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Callable
from uuid import UUID

from ingest.extraction import Extractor, Named
from store import mentions
from store.mentions import UnreadChunk
from store.pool import Pool
from store.tenants import Tenant

log = logging.getLogger(__name__)
BATCH = 256


class ChunkEntities:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool
        self._caught_up = False  # a round has read every collection's chunks

    async def read(self, tenant: Tenant, chunk_ids: list[UUID]) -> dict[UUID, list[Named]]:
        """Chunk id -> its entities, in offsets into its text; chunks not yet read are left
        out."""
        if not chunk_ids:
            return {}
        async with self._pool.connection() as conn:
            return await mentions.named_in(conn, tenant, chunk_ids)

    async def read_unread(
        self, extractor: Callable[[], Extractor], collections: list[UUID] | None = None
    ) -> int:
        """Keep the entities of graphed chunks that have none kept; returns chunks read."""
        if self._caught_up:
            return 0
        done, after = 0, None
        while batch := await self._unread(collections, after):
            found = await asyncio.to_thread(_named, extractor(), batch)
            await self._keep(batch, found)
            done, after = done + len(found), batch[-1].id
        self._caught_up = collections is None
        return done

    async def _unread(
        self, collections: list[UUID] | None, after: UUID | None
    ) -> list[UnreadChunk]:
        async with self._pool.connection() as conn:
            return await mentions.unread_chunks(conn, collections, after, BATCH)

    async def _keep(self, batch: list[UnreadChunk], found: dict[UUID, list[Named]]) -> None:
        by_tenant: dict[UUID, dict[UUID, list[Named]]] = defaultdict(dict)
        for chunk in batch:
            if chunk.id in found:
                by_tenant[chunk.tenant_id][chunk.id] = found[chunk.id]
        async with self._pool.connection() as conn, conn.transaction():
            for tenant, named in by_tenant.items():
                await mentions.record_named(conn, tenant, named)


def _named(extractor: Extractor, batch: list[UnreadChunk]) -> dict[UUID, list[Named]]:
    """Each chunk's entities in document offsets; a batch the model fails on is read chunk by
    chunk, and a chunk that fails alone is left out."""
    try:
        found = extractor.chunk_named([(c.start, c.text) for c in batch])
        return {chunk.id: named for chunk, named in zip(batch, found, strict=True)}
    except Exception:
        if len(batch) == 1:
            log.warning("chunk entities: the model failed on chunk %s", batch[0].id, exc_info=True)
            return {}
    return {k: v for chunk in batch for k, v in _named(extractor, [chunk]).items()}
