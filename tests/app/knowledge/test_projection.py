"""The outbox projection is idempotent: replaying rows changes nothing in Neo4j."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from app.knowledge.projection import GraphProjector
from app.localdb.stack import Stack
from graph.driver import open_graph
from store import outbox
from store.pool import open_pool

pytestmark = pytest.mark.integration


def test_replaying_outbox_rows_changes_nothing(stack: Stack, base_url: str) -> None:
    asyncio.run(_replay(stack))


async def _replay(stack: Stack) -> None:
    pool = await open_pool(stack.endpoints.postgres_url, 2, 10)
    graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 10)
    try:
        async with pool.connection() as conn:
            cursor = await conn.execute(
                "INSERT INTO tenants (name) VALUES (%s) RETURNING id", (f"replay-{uuid.uuid4()}",)
            )
            tenant_id = (await cursor.fetchone())[0]  # type: ignore[index]
        payload = {"id": str(uuid.uuid4()), "tenant_id": str(tenant_id), "name": "replayed"}
        projector = GraphProjector(pool, graph, stack.settings.spacy_model)
        snapshots = []
        for _ in range(3):
            async with pool.connection() as conn:
                await outbox.enqueue(
                    conn, tenant_id, uuid.UUID(payload["id"]), "collection.upsert", payload
                )
            assert await projector.drain() >= 1
            snapshots.append(
                await graph.read(
                    "MATCH (c:Collection {id: $id}) RETURN properties(c) AS props, count(*) AS n",
                    id=payload["id"],
                )
            )
        assert snapshots[0] == snapshots[1] == snapshots[2]
        assert snapshots[0][0]["n"] == 1
    finally:
        await graph.close()
        await pool.close()
