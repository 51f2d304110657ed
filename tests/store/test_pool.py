"""The connection pool: every connection plans each statement for its own values."""

from __future__ import annotations

import asyncio

import pytest

from app.localdb.stack import Stack
from store.pool import open_pool

pytestmark = pytest.mark.integration


@pytest.mark.usefixtures("base_url")  # the served app has migrated the database: pgvector
def test_a_statement_is_planned_for_its_values_however_often_it_ran(stack: Stack) -> None:
    async def run() -> list[str]:
        pool = await open_pool(stack.endpoints.postgres_url, 2, 10)
        try:
            async with pool.connection() as first, pool.connection() as second:
                modes = []
                for conn in (first, second):
                    for _ in range(8):  # past psycopg's threshold for preparing it
                        await conn.execute("SELECT %s::int", [1])
                    cursor = await conn.execute("SHOW plan_cache_mode")
                    row = await cursor.fetchone()
                    modes.append(str(row[0]) if row else "")
                return modes
        finally:
            await pool.close()

    assert asyncio.run(run()) == ["force_custom_plan", "force_custom_plan"]
