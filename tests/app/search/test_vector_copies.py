"""A collection's window vectors held in memory for the dense leg: the same ranking as the
exact SQL search, stale the moment the collection's chunks change, never used for a filtered
scope, bounded in memory."""

from __future__ import annotations

import asyncio
from uuid import UUID

import numpy as np
import pytest
from numpy.typing import NDArray

from app.localdb.stack import Stack
from app.search.vector_copies import VectorCopies
from app.settings import CopySettings
from store import bm25, search
from store.pool import Pool
from store.scope import Scope
from tests import corpus
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, new_collection, rows, with_pool

pytestmark = pytest.mark.integration

LIMIT = 10


def _corpus(gql: GraphQLClient, stack: Stack, count: int) -> tuple[str, Scope]:
    name = new_collection(gql)
    docs = [
        {"externalId": f"p{i}", "title": p["title"], "text": p["text"]}
        for i, p in enumerate(corpus.passages(count))
    ]
    assert ingest(gql, name, *docs)["job"]["indexed"] == count
    found = rows(stack, "SELECT tenant_id, id FROM collections WHERE name = %s", name)
    return name, Scope(*found[0])


async def _queries(pool: Pool, scope: Scope) -> list[NDArray[np.float32]]:
    """Three of the collection's own window vectors, as queries."""
    async with pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT embedding FROM chunks WHERE collection_id = %s AND kind = 'small'"
            " ORDER BY id LIMIT 3",
            (scope.collection_id,),
        )
        return [np.asarray(row[0].to_numpy(), dtype=np.float32) for row in await cursor.fetchall()]


async def _both(
    pool: Pool, copies: VectorCopies, scope: Scope, query: NDArray[np.float32]
) -> tuple[list[tuple[UUID, float]] | None, list[tuple[UUID, float]]]:
    async with pool.connection() as conn:
        stats = await bm25.stats(conn, scope.tenant_id, scope.collection_id)
        sql = await search.dense_exact(conn, scope, query, LIMIT)
    return await copies.search(scope, query, LIMIT, stats), sql


async def _built(pool: Pool, copies: VectorCopies, scope: Scope) -> None:
    """Searched until the copy is held (a rebuild waits a pause: app/search/_built.py)."""
    query = (await _queries(pool, scope))[0]
    for _ in range(200):
        if (await _both(pool, copies, scope, query))[0] is not None:
            return
        await copies.settle()
        await asyncio.sleep(0.05)
    raise AssertionError("the vectors were never held")


async def _held(pool: Pool, scope: Scope) -> VectorCopies:
    """Copies that hold the collection's vectors, whatever its size."""
    copies = VectorCopies(pool, CopySettings(0, 10**6))
    await _built(pool, copies, scope)
    return copies


def test_held_vectors_rank_like_exact_sql(gql: GraphQLClient, stack: Stack) -> None:
    _, scope = _corpus(gql, stack, 40)

    async def work(pool: Pool) -> None:
        copies = VectorCopies(pool, CopySettings(0, 10**6))
        query = (await _queries(pool, scope))[0]
        assert (await _both(pool, copies, scope, query))[0] is None  # the first asks SQL
        await _built(pool, copies, scope)
        for query in await _queries(pool, scope):
            held, sql = await _both(pool, copies, scope, query)
            assert held is not None and [c for c, _ in held] == [c for c, _ in sql]
            assert [s for _, s in held] == pytest.approx([s for _, s in sql], abs=1e-5)

    with_pool(stack, work)


def test_held_candidate_vectors_match_sql(gql: GraphQLClient, stack: Stack) -> None:
    """MMR's likenesses read each candidate's window nearest the query from the copy: the
    same window, document and vector as the SQL read, for a narrowed scope too."""
    _, scope = _corpus(gql, stack, 30)
    narrowed = Scope(scope.tenant_id, scope.collection_id, content_scopes=("legal",))

    async def work(pool: Pool) -> None:
        copies = await _held(pool, scope)
        query = (await _queries(pool, scope))[1]
        async with pool.connection() as conn:
            stats = await bm25.stats(conn, scope.tenant_id, scope.collection_id)
            ranked = await search.dense_exact(conn, scope, query, LIMIT)
            chunks = [c for c, _ in ranked]
            sql = await search.candidate_vectors(conn, scope.tenant_id, chunks, query)
        for within in (scope, narrowed):
            held = copies.candidate_vectors(within, query, chunks, stats)
            assert held is not None and set(held) == set(sql) == set(chunks)
            for chunk, found in held.items():
                assert found.document_id == sql[chunk].document_id
                unit = sql[chunk].vector / np.linalg.norm(sql[chunk].vector)
                assert found.vector == pytest.approx(unit, abs=1e-5)

    with_pool(stack, work)


def test_held_vectors_go_stale_with_new_documents(gql: GraphQLClient, stack: Stack) -> None:
    name, scope = _corpus(gql, stack, 20)

    async def work(pool: Pool) -> None:
        copies = await _held(pool, scope)
        doc = {"externalId": "new", "title": "Zyzzogeton", "text": "A zyzzogeton beetle."}
        await asyncio.to_thread(ingest, gql, name, doc)
        query = (await _queries(pool, scope))[0]
        assert (await _both(pool, copies, scope, query))[0] is None  # stale: SQL answers
        await _built(pool, copies, scope)

    with_pool(stack, work)


def test_filtered_small_large_and_oversized_collections_search_sql(
    gql: GraphQLClient, stack: Stack
) -> None:
    _, scope = _corpus(gql, stack, 20)
    narrowed = Scope(scope.tenant_id, scope.collection_id, content_scopes=("legal",))

    async def work(pool: Pool) -> None:
        copies = await _held(pool, scope)
        query = (await _queries(pool, scope))[0]
        assert (await _both(pool, copies, narrowed, query))[0] is None
        small, large = CopySettings(10**6, 10**6), CopySettings(0, 10**6, max_chunks=10)
        for limits in (small, large, CopySettings(0, 2)):
            copies = VectorCopies(pool, limits)
            await _both(pool, copies, scope, query)
            await copies.settle()
            assert (await _both(pool, copies, scope, query))[0] is None

    with_pool(stack, work)
