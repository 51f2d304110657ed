"""BM25 over the postings, in SQL (Lucene's variant: k1 = 1.2, b = 0.75).

score(q, d) = sum over query terms t of
    ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5)) * tf / (tf + k1 * (1 - b + b * |d| / avgdl))
with N the collection's main chunks, |d| a chunk's term count, avgdl their mean.
"""

from __future__ import annotations

from uuid import UUID

from store.pool import Conn
from store.scope import Scope

K1 = 1.2
B = 0.75

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
