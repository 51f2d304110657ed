"""The in-memory keyword index: same answers as SQL, never stale, bounded in memory."""

from __future__ import annotations

import asyncio
import uuid
from typing import TypeVar

import pytest

from app.localdb.stack import Stack
from app.search.keyword_index import KeywordIndexes
from app.settings import CopySettings
from ingest.analyzer import analyze
from store import bm25
from store.pool import Pool
from store.scope import Scope
from tests import corpus
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, new_collection, rows, with_pool

pytestmark = pytest.mark.integration

DELETE = """mutation($c: String!, $id: String!) {
  deleteDocument(collection: $c, externalId: $id) { deleted } }"""
T = TypeVar("T")


def _corpus(gql: GraphQLClient, stack: Stack, count: int) -> tuple[str, Scope]:
    passages = corpus.passages(count)
    name = new_collection(gql)
    docs = [
        {"externalId": f"p{i}", "title": p["title"], "text": p["text"]}
        for i, p in enumerate(passages)
    ]
    assert ingest(gql, name, *docs)["job"]["indexed"] == count
    tenant, collection = rows(stack, "SELECT tenant_id, id FROM collections WHERE name = %s", name)[
        0
    ]
    return name, Scope(tenant, collection)


async def _both(
    pool: Pool, indexes: KeywordIndexes, scope: Scope, query: str
) -> tuple[list[tuple[uuid.UUID, float]], list[tuple[uuid.UUID, float]]]:
    async with pool.connection() as conn:
        stats = await bm25.stats(conn, scope.tenant_id, scope.collection_id)
        mine = await indexes.search(conn, scope, analyze(query), 10, stats)
        sql = await bm25.search_scope(conn, scope, analyze(query), 10)
    return mine, sql


def test_index_answers_like_sql_once_built(gql: GraphQLClient, stack: Stack) -> None:
    _, scope = _corpus(gql, stack, 60)

    async def work(pool: Pool) -> None:
        indexes = KeywordIndexes(pool, CopySettings(0, 10**7))
        first, sql = await _both(pool, indexes, scope, "Who directed the film?")
        assert first == sql and not indexes.holds(scope.tenant_id, scope.collection_id)
        await indexes.settle()
        assert indexes.holds(scope.tenant_id, scope.collection_id)
        for query in ("Who directed the film?", "river in Germany", "album band released"):
            mine, sql = await _both(pool, indexes, scope, query)
            assert [c for c, _ in mine] == [c for c, _ in sql]
            assert [s for _, s in mine] == pytest.approx([s for _, s in sql])

    with_pool(stack, work)


def test_index_counts_document_frequencies_like_sql(gql: GraphQLClient, stack: Stack) -> None:
    _, scope = _corpus(gql, stack, 60)
    terms = analyze("Who directed the film in Germany? zyzzogeton")

    async def work(pool: Pool) -> None:
        indexes = KeywordIndexes(pool, CopySettings(0, 10**7))
        await _both(pool, indexes, scope, "film")
        await indexes.settle()
        assert indexes.holds(scope.tenant_id, scope.collection_id)
        async with pool.connection() as conn:
            stats = await bm25.stats(conn, scope.tenant_id, scope.collection_id)
            mine = await indexes.frequencies(conn, scope, terms, stats)
            sql = await bm25.frequencies(conn, scope, terms, stats)
        assert mine == sql and mine.documents and "zyzzogeton" not in mine.documents

    with_pool(stack, work)


def test_new_and_deleted_documents_show_at_once(gql: GraphQLClient, stack: Stack) -> None:
    name, scope = _corpus(gql, stack, 30)

    async def work(pool: Pool) -> None:
        indexes = KeywordIndexes(pool, CopySettings(0, 10**7))
        await _both(pool, indexes, scope, "film")
        await indexes.settle()
        await asyncio.to_thread(
            ingest,
            gql,
            name,
            {"externalId": "new", "title": "Zyzzogeton", "text": "A zyzzogeton beetle."},
        )
        found, _ = await _both(pool, indexes, scope, "zyzzogeton")
        assert len(found) == 1  # the index is stale, so SQL answered
        await indexes.settle()
        assert (await _both(pool, indexes, scope, "zyzzogeton"))[0] == found
        await asyncio.to_thread(gql.data, DELETE, c=name, id="new")
        assert (await _both(pool, indexes, scope, "zyzzogeton"))[0] == []

    with_pool(stack, work)


def test_filters_narrow_index_answers(gql: GraphQLClient, stack: Stack) -> None:
    _, scope = _corpus(gql, stack, 40)
    documents = rows(
        stack,
        "SELECT id FROM documents WHERE collection_id = %s ORDER BY id LIMIT 3",
        scope.collection_id,
    )
    narrowed = Scope(
        scope.tenant_id, scope.collection_id, document_ids=tuple(d[0] for d in documents)
    )

    async def work(pool: Pool) -> None:
        indexes = KeywordIndexes(pool, CopySettings(0, 10**7))
        await _both(pool, indexes, scope, "the")
        await indexes.settle()
        for query in ("the", "film director", "born"):
            mine, sql = await _both(pool, indexes, narrowed, query)
            assert [c for c, _ in mine] == [c for c, _ in sql]

    with_pool(stack, work)


def test_small_or_oversized_collections_stay_in_sql(gql: GraphQLClient, stack: Stack) -> None:
    _, scope = _corpus(gql, stack, 20)

    async def work(pool: Pool) -> None:
        for limits in (CopySettings(10**6, 10**7), CopySettings(0, 10)):
            indexes = KeywordIndexes(pool, limits)
            mine, sql = await _both(pool, indexes, scope, "film")
            await indexes.settle()
            assert mine == sql and not indexes.holds(scope.tenant_id, scope.collection_id)

    with_pool(stack, work)
