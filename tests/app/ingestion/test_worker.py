"""Several ingest workers on one job: every item indexed once, and the job closes."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest

from app.ingestion.worker import IngestWorker
from app.localdb.stack import Stack
from app.services import Services, assemble
from graph.driver import open_graph
from ingest.submission import DocumentSubmission
from store import jobs
from store.jobs import NewItem
from store.pool import open_pool
from store.tenants import ensure_tenant
from tests.graph_helpers import eventually
from tests.helpers import rows

pytestmark = pytest.mark.integration


def test_concurrent_workers_finish_the_job(stack: Stack, base_url: str) -> None:
    job_id = asyncio.run(_run(stack))
    # The session server's worker competes for the same items and may still be committing.
    finished = "SELECT finished_at IS NOT NULL FROM ingest_jobs WHERE id = %s"
    eventually(lambda: rows(stack, finished, job_id) == [(True,)])
    assert rows(
        stack, "SELECT status, count(*) FROM ingest_items WHERE job_id = %s GROUP BY status", job_id
    ) == [("INDEXED", 60)]


async def _run(stack: Stack) -> uuid.UUID:
    pool = await open_pool(stack.endpoints.postgres_url, 6, 30)
    graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 30)
    services: Services = assemble(stack.settings, pool, graph)
    try:
        async with pool.connection() as conn:
            tenant = await ensure_tenant(conn, f"workers-{uuid.uuid4().hex[:6]}")
        await services.collections.create(tenant, "busy")
        docs = [
            DocumentSubmission(external_id=f"d{i}", text=f"Document {i} about workers.")
            for i in range(60)
        ]
        job_id = await services.ingestion.submit_documents(tenant, "busy", docs)
        workers = [IngestWorker(pool, services.embedders, batch_size=3) for _ in range(3)]
        await asyncio.gather(*(worker.drain() for worker in workers))
        return job_id
    finally:
        await services.close()


def test_a_worker_leaves_items_of_a_model_it_lacks(stack: Stack, base_url: str) -> None:
    """Processes configured with different embedders share one queue: each claims only the
    collections it can embed for, so none fails another's items."""

    async def run() -> tuple[uuid.UUID, int]:
        pool = await open_pool(stack.endpoints.postgres_url, 2, 30)
        graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 30)
        services: Services = assemble(stack.settings, pool, graph)
        try:
            async with pool.connection() as conn:
                tenant = await ensure_tenant(conn, f"models-{uuid.uuid4().hex[:6]}")
            target = await services.collections.create(tenant, "elsewhere")
            # As if another process, with another model, had created it and queued the item.
            async with pool.connection() as conn, conn.transaction():
                await conn.execute(
                    "UPDATE collections SET embedding_model = 'another-model' WHERE id = %s",
                    (target.id,),
                )
                request: dict[str, Any] = {
                    "kind": "document",
                    "title": None,
                    "content_type": "text/plain",
                    "metadata": {},
                    "path": None,
                }
                item = NewItem("d", request, b"Far away.")
                job_id = await jobs.create(conn, tenant.id, target.id, [item])
            processed = await IngestWorker(pool, services.embedders).drain()
            return job_id, processed
        finally:
            await services.close()

    job_id, processed = asyncio.run(run())
    assert processed == 0
    status = "SELECT status FROM ingest_items WHERE job_id = %s"
    assert rows(stack, status, job_id) == [("PENDING",)]
