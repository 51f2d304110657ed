"""The dense search through HNSW (store/search.py): the same neighbours as the exact scan
on a small collection, with its index settings local to the search."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from app.localdb.stack import Stack
from store import search
from store.pool import autocommitted, open_pool
from store.scope import Scope
from tests.app.search.test_keyword_index import _corpus
from tests.graphql_client import GraphQLClient

pytestmark = pytest.mark.integration
_Found = list[tuple[uuid.UUID, float]]


def test_hnsw_finds_the_exact_neighbours_and_leaves_the_session_as_it_was(
    gql: GraphQLClient, stack: Stack
) -> None:
    _, scope = _corpus(gql, stack, 40)
    exact, approximate, after = asyncio.run(_both(stack, scope))
    assert [c for c, _ in approximate] == [c for c, _ in exact] and len(exact) == 10
    assert [s for _, s in approximate] == pytest.approx([s for _, s in exact])
    assert after == ("40", "off")  # pgvector's defaults: the search's settings were local


async def _both(stack: Stack, scope: Scope) -> tuple[_Found, _Found, tuple[str, str]]:
    pool = await open_pool(stack.endpoints.postgres_url, 1, 10)
    try:
        async with autocommitted(pool) as conn:
            cursor = await conn.execute(
                "SELECT embedding FROM chunks WHERE collection_id = %s AND kind = 'small'"
                " ORDER BY id LIMIT 1",
                (scope.collection_id,),
            )
            row = await cursor.fetchone()
            assert row is not None
            vector = row[0].to_numpy()
            exact = await search.dense_exact(conn, scope, vector, 10)
            approximate = await search.dense_hnsw(conn, scope, vector, 10, 600)
            cursor = await conn.execute(
                "SELECT current_setting('hnsw.ef_search'), current_setting('hnsw.iterative_scan')"
            )
            settings = await cursor.fetchone()
            assert settings is not None
            return exact, approximate, (settings[0], settings[1])
    finally:
        await pool.close()
