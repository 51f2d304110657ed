"""BM25 in Postgres equals a reference implementation fed the same tokens, to 1e-6."""

from __future__ import annotations

import asyncio
import uuid

import bm25s
import numpy as np
import pytest

from app.localdb.stack import Stack
from ingest.analyzer import analyze
from retrieval.lexical_index import K1, B, LexicalIndex
from store import bm25
from store.pool import open_pool
from tests import corpus
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, new_collection, rows

pytestmark = pytest.mark.integration

QUERIES = [
    "Who directed the film?",
    "When did the composer die",
    "river in Germany",
    "American football player born 1950",
    "album released by the band",
]


def test_scores_match_bm25s(gql: GraphQLClient, stack: Stack) -> None:
    passages = corpus.passages(150)
    name = new_collection(gql)
    docs = [
        {"externalId": f"p{i}", "title": p["title"], "text": p["text"]}
        for i, p in enumerate(passages)
    ]
    result = ingest(gql, name, *docs)
    assert result["job"]["indexed"] == len(passages)
    chunks = rows(
        stack,
        "SELECT c.id, d.title, c.content FROM chunks c JOIN documents d"
        " ON d.id = c.document_id WHERE c.kind = 'main' AND d.collection_id ="
        " (SELECT id FROM collections WHERE name = %s) ORDER BY c.id",
        name,
    )
    assert len(chunks) >= len(passages)
    tokens = [analyze(title) + analyze(content) for _, title, content in chunks]
    reference = bm25s.BM25(method="lucene", k1=K1, b=B)
    reference.index(tokens, show_progress=False)
    tenant, collection = rows(stack, "SELECT tenant_id, id FROM collections WHERE name = %s", name)[
        0
    ]
    for query in QUERIES:
        terms = sorted(set(analyze(query)))
        expected = reference.get_scores(terms)
        in_sql, in_memory = asyncio.run(_search(stack, tenant, collection, terms))
        got = dict(in_sql)
        for (chunk_id, _, _), score in zip(chunks, expected, strict=True):
            assert got.get(chunk_id, 0.0) == pytest.approx(float(score), abs=1e-6)
        assert np.count_nonzero(expected) == len(got)
        assert_same_ranking(in_memory, in_sql)


Scored = list[tuple[uuid.UUID, float]]


def assert_same_ranking(found: Scored, expected: Scored) -> None:
    """The same chunks with the same scores, in the same order except among scores equal to
    float32 precision (the in-memory index keeps float32; SQL computes in float64)."""
    assert dict(found) == pytest.approx(dict(expected), abs=1e-6)
    for (a, score_a), (b, score_b) in zip(found, expected, strict=True):
        assert a == b or score_a == pytest.approx(score_b, rel=1e-6)


async def _search(
    stack: Stack, tenant: uuid.UUID, collection: uuid.UUID, terms: list[str]
) -> tuple[Scored, Scored]:
    """The SQL scorer's answer, and the in-memory index's (see retrieval/lexical_index.py)."""
    pool = await open_pool(stack.endpoints.postgres_url, 1, 10)
    try:
        async with pool.connection() as conn:
            in_sql = await bm25.search(conn, tenant, collection, terms, 10_000)
        async with pool.connection() as conn:
            postings = await bm25.load(conn, tenant, collection)
    finally:
        await pool.close()
    assert postings is not None
    index = LexicalIndex(postings)
    return in_sql, [(index.chunk_ids[i], s) for i, s in index.top(terms, 10_000)]
