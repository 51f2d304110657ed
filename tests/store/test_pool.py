"""The connection pool: no statement is prepared, so each is planned for its own values; a
connection the server closed is discarded, not handed out."""

from __future__ import annotations

import asyncio

import pytest
from psycopg import AsyncConnection

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


@pytest.mark.usefixtures("base_url")
def test_a_connection_whose_backend_was_terminated_is_never_handed_out(stack: Stack) -> None:
    """As after a server restart: the pool's check finds the closed socket and discards it."""

    async def run() -> list[int]:
        pool = await open_pool(stack.endpoints.postgres_url, 1, 10)
        try:
            async with pool.connection() as conn:
                victim = conn.info.backend_pid
            async with await AsyncConnection.connect(stack.endpoints.postgres_url) as admin:
                await admin.execute("SELECT pg_terminate_backend(%s)", [victim])
            await asyncio.sleep(0.5)  # the server closes the socket
            async with pool.connection() as conn:
                row = await (await conn.execute("SELECT 1")).fetchone()
                return [victim, conn.info.backend_pid, row[0] if row else 0]
        finally:
            await pool.close()

    victim, served_by, answer = asyncio.run(run())
    assert served_by != victim and answer == 1
