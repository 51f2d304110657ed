"""Graph maintenance: rebuild a collection's graph from Postgres, drain the outbox."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from app.collections.service import Collections
from app.knowledge.projection import BATCH, GraphProjector
from graph.collections import upsert_collections
from graph.documents import document_row
from graph.driver import GraphStore
from graph.knowledge import clear_collection
from store import knowledge
from store.pool import Conn, Pool
from store.tenants import Tenant


class GraphAdmin:
    def __init__(
        self, pool: Pool, graph: GraphStore, collections: Collections, projector: GraphProjector
    ) -> None:
        self._pool = pool
        self._graph = graph
        self._collections = collections
        self._projector = projector

    async def rebuild(self, tenant: Tenant, collection: str) -> int:
        """Re-derive the collection's whole graph from Postgres rows. Returns documents."""
        target = await self._collections.get(tenant, collection)
        await clear_collection(self._graph, str(target.id))
        await upsert_collections(
            self._graph, [{"id": str(target.id), "name": target.name, "tenant_id": str(tenant.id)}]
        )
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT id, external_id, title, source_type FROM documents"
                " WHERE tenant_id = %s AND collection_id = %s AND graphed_version IS NOT NULL"
                " ORDER BY id",
                (tenant.id, target.id),
            )
            documents = await cursor.fetchall()
            for start in range(0, len(documents), BATCH):
                batch = documents[start : start + BATCH]
                await self._project(conn, tenant, target.id, batch)
        return len(documents)

    async def _project(
        self, conn: Conn, tenant: Tenant, collection_id: UUID, batch: list[tuple[Any, ...]]
    ) -> None:
        """One Neo4j transaction for a batch of documents (one each made a large rebuild slow)."""
        docs, payloads = [], []
        for document_id, external_id, title, source_type in batch:
            loaded = await knowledge.load_document(conn, document_id)
            if loaded is not None:
                docs.append(loaded[0])
                payloads.append(
                    document_row(
                        document_id, tenant.id, collection_id, external_id, title, source_type
                    )
                )
        if docs:
            await self._projector.documents.project(conn, docs, payloads, [])

    async def sync(self) -> int:
        """Apply every pending outbox row now. Returns rows applied."""
        return await self._projector.drain()
