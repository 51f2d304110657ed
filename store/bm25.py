"""BM25 over the postings, in SQL (Lucene's variant: k1 = 1.2, b = 0.75).

score(q, d) = sum over query terms t of
    ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5)) * tf / (tf + k1 * (1 - b + b * |d| / avgdl))
with N the collection's main chunks, |d| a chunk's term count, avgdl their mean.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from uuid import UUID

import numpy as np
from numpy.typing import NDArray

from retrieval.lexical_index import K1, B, CollectionPostings, TermPostings
from store.pool import Conn
from store.scope import Scope

_QUERY = """
WITH stats AS (
    SELECT chunk_count::float8 AS n, term_total::float8 / greatest(chunk_count, 1) AS avgdl
    FROM collection_stats WHERE collection_id = %(collection)s AND tenant_id = %(tenant)s
), terms AS (
    SELECT p.term, count(*)::float8 AS df FROM postings p
    WHERE p.collection_id = %(collection)s AND p.tenant_id = %(tenant)s
      AND p.term = ANY(%(terms)s)
    GROUP BY p.term
)
SELECT p.chunk_id,
       sum(ln(1 + (s.n - t.df + 0.5) / (t.df + 0.5))
           * p.tf / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * c.term_count / s.avgdl))) AS score
FROM postings p
JOIN terms t ON t.term = p.term
JOIN chunks c ON c.id = p.chunk_id
CROSS JOIN stats s
WHERE p.collection_id = %(collection)s AND p.tenant_id = %(tenant)s
  {narrowed}
GROUP BY p.chunk_id
ORDER BY score DESC, p.chunk_id
LIMIT %(limit)s
"""


async def search(
    conn: Conn, tenant_id: UUID, collection_id: UUID, terms: list[str], limit: int
) -> list[tuple[UUID, float]]:
    """Main chunks ranked by BM25 for already-analyzed query `terms` (repeats ignored)."""
    return await search_scope(conn, Scope(tenant_id, collection_id), terms, limit)


async def search_scope(
    conn: Conn, scope: Scope, terms: list[str], limit: int
) -> list[tuple[UUID, float]]:
    """BM25 within a scope; statistics stay the collection's, so filters do not move scores."""
    unique = sorted(set(terms))
    if not unique:
        return []
    clause, narrowing = scope.named_documents_clause()
    narrowed = (
        f"AND c.document_id IN (SELECT d.id FROM documents d WHERE {clause})"
        if scope.narrowed
        else ""
    )
    cursor = await conn.execute(
        _QUERY.replace("{narrowed}", narrowed),
        {
            "collection": scope.collection_id,
            "tenant": scope.tenant_id,
            "terms": unique,
            "k1": K1,
            "b": B,
            "limit": limit,
            **(narrowing if scope.narrowed else {}),
        },
    )
    return [(row[0], float(row[1])) for row in await cursor.fetchall()]


@dataclass(frozen=True)
class Stats:
    version: int  # moves with every change to the collection's postings
    chunk_count: int
    avgdl: float
    graph_version: int = 0  # moves with every change to its mentions (themes.mark_graph_changed)


def postings_version(stats: Stats) -> int:
    """What dates a copy of a collection's postings or chunks: the version moves with every
    change to them."""
    return stats.version


async def stats(conn: Conn, tenant_id: UUID, collection_id: UUID) -> Stats | None:
    cursor = await conn.execute(
        "SELECT s.version, s.chunk_count, s.term_total::float8 / greatest(s.chunk_count, 1),"
        " c.graph_version FROM collection_stats s JOIN collections c ON c.id = s.collection_id"
        " WHERE s.collection_id = %s AND s.tenant_id = %s",
        (collection_id, tenant_id),
    )
    row = await cursor.fetchone()
    return Stats(int(row[0]), int(row[1]), float(row[2]), int(row[3])) if row else None


@dataclass(frozen=True)
class Frequencies:
    """How many main chunks a collection has, and how many of them contain each term."""

    chunk_count: int
    documents: dict[str, int]


async def frequencies(
    conn: Conn, scope: Scope, terms: list[str], found: Stats | None
) -> Frequencies:
    """Document frequencies of `terms` in the scope's collection (the statistics BM25 uses),
    whose statistics are `found`; a term no chunk has is left out."""
    cursor = await conn.execute(
        "SELECT term, count(*) FROM postings WHERE collection_id = %s AND tenant_id = %s"
        " AND term = ANY(%s) GROUP BY term",
        (scope.collection_id, scope.tenant_id, sorted(set(terms))),
    )
    documents = {row[0]: int(row[1]) for row in await cursor.fetchall()}
    return Frequencies(found.chunk_count if found else 0, documents)


_CHUNKS = """
SELECT c.id, c.term_count FROM chunks c
WHERE c.tenant_id = %(tenant)s AND c.collection_id = %(collection)s AND c.kind = 'main'
ORDER BY c.id
"""

_POSTINGS = """
WITH c AS MATERIALIZED (
    SELECT id, (row_number() OVER (ORDER BY id) - 1)::int4 AS ix FROM chunks
    WHERE tenant_id = %(tenant)s AND collection_id = %(collection)s AND kind = 'main'
)
SELECT p.term, string_agg(int4send(c.ix), '' ORDER BY c.ix),
       string_agg(int4send(p.tf), '' ORDER BY c.ix)
FROM postings p JOIN c ON c.id = p.chunk_id
WHERE p.tenant_id = %(tenant)s AND p.collection_id = %(collection)s
GROUP BY p.term
"""


@asynccontextmanager
async def snapshot(conn: Conn, tenant_id: UUID, collection_id: UUID) -> AsyncIterator[Stats | None]:
    """A read-only repeatable-read transaction on `conn` (which must be idle), and the
    collection's statistics in it: what a copy of the collection read inside is dated by."""
    async with conn.transaction():
        await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield await stats(conn, tenant_id, collection_id)


async def load(conn: Conn, tenant_id: UUID, collection_id: UUID) -> CollectionPostings | None:
    """Every posting of a collection, read in one snapshot; None if it has no statistics.

    `conn` must be idle: the reads run in their own repeatable-read transaction.
    """
    params = {"tenant": tenant_id, "collection": collection_id}
    async with snapshot(conn, tenant_id, collection_id) as found:
        if found is None:
            return None
        chunks = await (await conn.execute(_CHUNKS, params)).fetchall()
        cursor = conn.cursor(binary=True)
        rows = await (await cursor.execute(_POSTINGS, params)).fetchall()
    return CollectionPostings(
        version=found.version,
        chunk_count=found.chunk_count,
        avgdl=found.avgdl,
        chunk_ids=[row[0] for row in chunks],
        term_counts=np.array([row[1] for row in chunks], dtype=np.int32),
        terms={row[0]: TermPostings(_ints(row[1]), _ints(row[2])) for row in rows},
    )


def _ints(packed: bytes) -> NDArray[np.int32]:
    """Big-endian int4 values packed by `int4send` (decoding arrays row by row is slow)."""
    return np.frombuffer(packed, dtype=">i4").astype(np.int32)
