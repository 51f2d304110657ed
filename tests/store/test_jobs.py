"""Job closing under concurrency: the last two items finished by two workers at once."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from psycopg import AsyncConnection

from app.localdb.stack import Stack
from store import jobs
from store.jobs import Finished, NewItem
from tests.helpers import rows

pytestmark = pytest.mark.integration


def test_job_closes_when_two_workers_finish_its_last_items_together(
    stack: Stack, base_url: str
) -> None:
    job_id = asyncio.run(_race(stack))
    assert rows(stack, "SELECT finished_at IS NOT NULL FROM ingest_jobs WHERE id = %s", job_id) == [
        (True,)
    ]


async def _race(stack: Stack) -> uuid.UUID:
    url = stack.endpoints.postgres_url
    async with await AsyncConnection.connect(url, autocommit=True) as setup:
        tenant = (
            await (
                await setup.execute(
                    "INSERT INTO tenants (name) VALUES (%s) RETURNING id",
                    (f"race-{uuid.uuid4().hex[:6]}",),
                )
            ).fetchone()
        )[0]  # type: ignore[index]
        collection = (
            await (
                await setup.execute(
                    "INSERT INTO collections (tenant_id, name, embedding_model, embedding_dim)"
                    " VALUES (%s, 'race', 'm', 3) RETURNING id",
                    (tenant,),
                )
            ).fetchone()
        )[0]  # type: ignore[index]
        items = [NewItem(f"d{i}", {}, b"x") for i in range(2)]
        job_id = await jobs.create(setup, tenant, collection, items)
        ids = [
            r[0]
            for r in await (
                await setup.execute(
                    "SELECT id FROM ingest_items WHERE job_id = %s ORDER BY id", (job_id,)
                )
            ).fetchall()
        ]
    first = await AsyncConnection.connect(url)
    second = await AsyncConnection.connect(url)
    try:
        await jobs.finish_items(first, [Finished(ids[0], "INDEXED")])
        await jobs.finish_items(second, [Finished(ids[1], "INDEXED")])
        await jobs.close_finished(first, [job_id])
        closing = asyncio.create_task(jobs.close_finished(second, [job_id]))
        await asyncio.sleep(0.3)  # the second worker now waits for the first
        await first.commit()
        await closing
        await second.commit()
    finally:
        await first.close()
        await second.close()
    return job_id
