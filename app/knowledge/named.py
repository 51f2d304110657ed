"""The entities ingest's model found in each main chunk, dates and numbers included, read
back so an answer need not run the model over its passages again."""

from __future__ import annotations

from uuid import UUID

from ingest.extraction import Named
from store import mentions
from store.pool import Pool
from store.tenants import Tenant


class ChunkEntities:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def read(self, tenant: Tenant, chunk_ids: list[UUID]) -> dict[UUID, list[Named]]:
        """Chunk id -> its entities, in offsets into its text; chunks not yet read are left
        out."""
        if not chunk_ids:
            return {}
        async with self._pool.connection() as conn:
            return await mentions.named_in(conn, tenant, chunk_ids)
