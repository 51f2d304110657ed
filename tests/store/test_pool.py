"""The connection pool: no statement is prepared, so each is planned for its own values."""

from __future__ import annotations

import asyncio

import pytest

from app.localdb.stack import Stack
from store.pool import open_pool

pytestmark = pytest.mark.integration


@pytest.mark.usefixtures("base_url")  # the served app has migrated the database: pgvector
def test_no_statement_is_prepared_however_often_it_ran(stack: Stack) -> None:
    async def run() -> list[int]:
        pool = await open_pool(stack.endpoints.postgres_url, 2, 10)
        try:
            async with pool.connection() as first, pool.connection() as second:
                prepared = []
                for conn in (first, second):
                    for _ in range(8):  # past psycopg's threshold for preparing it
                        await conn.execute("SELECT %s::int", [1])
                    cursor = await conn.execute("SELECT count(*) FROM pg_prepared_statements")
                    row = await cursor.fetchone()
                    prepared.append(int(row[0]) if row else -1)
                return prepared
        finally:
            await pool.close()

    assert asyncio.run(run()) == [0, 0]
