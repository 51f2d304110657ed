"""Several ingest workers on one job: every item indexed once, and the job closes."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, NamedTuple

import pytest

from app.ingestion.worker import IngestWorker
from app.localdb.stack import Stack
from app.services import Services, assemble
from graph.driver import open_graph
from ingest.submission import DocumentSubmission
from store import jobs
from store.jobs import NewItem
from store.pool import open_pool
from store.tenants import Tenant, ensure_tenant
from tests.graph_helpers import eventually
from tests.helpers import rows

pytestmark = pytest.mark.integration


class _Assembled(NamedTuple):
    services: Services
    tenant: Tenant


def test_concurrent_workers_finish_the_job(stack: Stack, base_url: str) -> None:
    job_id = asyncio.run(_run(stack))
    # The session server's worker competes for the same items and may still be committing.
    finished = "SELECT finished_at IS NOT NULL FROM ingest_jobs WHERE id = %s"
    eventually(lambda: rows(stack, finished, job_id) == [(True,)])
    assert rows(
        stack, "SELECT status, count(*) FROM ingest_items WHERE job_id = %s GROUP BY status", job_id
    ) == [("INDEXED", 60)]


@asynccontextmanager
async def _services(stack: Stack, pool_size: int, tenant: str) -> AsyncIterator[_Assembled]:
    """Services of a process of its own, beside the session server, and a new tenant."""
    pool = await open_pool(stack.endpoints.postgres_url, pool_size, 30)
    graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 30)
    services: Services = assemble(stack.settings, pool, graph)
    try:
        async with pool.connection() as conn:
            created = await ensure_tenant(conn, f"{tenant}-{uuid.uuid4().hex[:6]}")
        yield _Assembled(services, created)
    finally:
        await services.close()


async def _run(stack: Stack) -> uuid.UUID:
    async with _services(stack, 6, "workers") as (services, tenant):
        await services.collections.create(tenant, "busy")
        docs = [
            DocumentSubmission(external_id=f"d{i}", text=f"Document {i} about workers.")
            for i in range(60)
        ]
        job_id = await services.ingestion.submit_documents(tenant, "busy", docs)
        workers = [IngestWorker(services.pool, services.embedders, batch_size=3) for _ in range(3)]
        await asyncio.gather(*(worker.drain() for worker in workers))
        return job_id


def test_a_worker_leaves_items_of_a_model_it_lacks(stack: Stack, base_url: str) -> None:
    """Processes configured with different embedders share one queue: each claims only the
    collections it can embed for, so none fails another's items."""

    async def run() -> tuple[uuid.UUID, int]:
        async with _services(stack, 2, "models") as (services, tenant):
            target = await services.collections.create(tenant, "elsewhere")
            # As if another process, with another model, had created it and queued the item.
            async with services.pool.connection() as conn, conn.transaction():
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
            processed = await IngestWorker(services.pool, services.embedders).drain()
            return job_id, processed

    job_id, processed = asyncio.run(run())
    assert processed == 0
    status = "SELECT status FROM ingest_items WHERE job_id = %s"
    assert rows(stack, status, job_id) == [("PENDING",)]
