"""A request's deadline stops its work on both database servers (app/deadlines.py)."""

from __future__ import annotations

import asyncio
import time

import psycopg
import pytest
from hypothesis import given
from hypothesis import strategies as st
from neo4j.exceptions import Neo4jError

from app.backend_errors import as_backend_unavailable, as_deadline_passed
from app.deadlines import deadline_after
from app.errors import ErrorCode
from app.localdb.stack import Stack
from graph.driver import open_graph
from store.pool import open_pool, timeout_for

pytestmark = pytest.mark.integration


async def test_postgres_stops_a_statement_at_the_deadline_and_serves_on(
    stack: Stack, base_url: str
) -> None:
    """`base_url`: the server has migrated the database (pgvector registers on connecting)."""
    pool = await open_pool(stack.endpoints.postgres_url, 1, 10)
    try:
        started = time.perf_counter()
        with pytest.raises(psycopg.errors.QueryCanceled) as stopped, deadline_after(0.3):
            async with pool.connection() as conn:
                await conn.execute("SELECT pg_sleep(5)")
        assert time.perf_counter() - started < 2
        coded = as_deadline_passed(stopped.value)
        assert coded is not None and coded.code == ErrorCode.TIMEOUT
        assert as_backend_unavailable(stopped.value) is None  # the server is up
        async with pool.connection() as conn:  # the same connection, without the timeout
            cursor = await conn.execute(
                "SELECT pg_sleep(0.5), current_setting('statement_timeout')"
            )
            assert (await cursor.fetchone()) == ("", "0")
    finally:
        await pool.close()


async def test_a_connection_keeps_its_rounded_timeout_through_a_request(
    stack: Stack, base_url: str
) -> None:
    """Setting statement_timeout is a round trip: a connection taken again in the same
    request keeps the one it has, which is never shorter than what is left."""
    pool = await open_pool(stack.endpoints.postgres_url, 1, 10)
    try:
        seen = []
        with deadline_after(3.0):
            for _ in range(3):
                async with pool.connection() as conn:
                    cursor = await conn.execute("SELECT current_setting('statement_timeout')")
                    seen.append((await cursor.fetchone() or ("",))[0])
                await asyncio.sleep(0.05)
        assert seen == ["3072ms"] * 3  # 3 s rounded up on a grid of 256 ms
    finally:
        await pool.close()


@given(st.integers(1, 10_000_000))
def test_a_timeout_is_never_shorter_than_what_is_left_nor_an_eighth_longer(left: int) -> None:
    rounded = timeout_for(left)
    assert left <= rounded <= left + left // 8
    assert timeout_for(rounded) == rounded  # what a connection has is reused as it is


async def test_neo4j_stops_a_transaction_at_the_deadline(stack: Stack) -> None:
    graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 10)
    try:
        started = time.perf_counter()
        with pytest.raises(Neo4jError) as stopped, deadline_after(0.3):
            await graph.read("UNWIND range(1, 1000000000) AS x RETURN count(x) AS n")
        assert time.perf_counter() - started < 3
        coded = as_deadline_passed(stopped.value)
        assert coded is not None and coded.code == ErrorCode.TIMEOUT
        assert await graph.read("RETURN 1 AS one") == [{"one": 1}]
    finally:
        await graph.close()
