"""BM25 over the postings, in SQL (Lucene's variant: k1 = 1.2, b = 0.75).

score(q, d) = sum over query terms t of
    ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5)) * tf / (tf + k1 * (1 - b + b * |d| / avgdl))
with N the collection's main chunks, |d| a chunk's term count, avgdl their mean.

Common terms have long posting lists. A search first scores only the query's rarer terms,
keeps the best candidates, and scores those on every term. That top k is exact when no other
chunk could beat it: the weakest candidate's partial score plus the most the common terms
can add (their idf: the tf part is below 1) stays under the k-th full score (MaxScore).
Otherwise the whole query runs.
"""

from __future__ import annotations

import math
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
  AND (NOT %(narrowed)s OR c.document_id = ANY(%(documents)s))
  AND (NOT %(only)s OR p.chunk_id = ANY(%(chunks)s))
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
    documents = await scope_documents(conn, scope) if scope.narrowed else []
    run = _Run(conn, scope, documents)
    pruned = await _pruned(run, unique, limit)
    return pruned if pruned is not None else await run.scored(unique, limit)


COMMON_SHARE = 0.02  # a term in more than 2% of the chunks is common
CANDIDATES_PER_HIT = 20


class _Run:
    def __init__(self, conn: Conn, scope: Scope, documents: list[UUID]) -> None:
        self.conn, self.scope, self.documents = conn, scope, documents

    async def scored(
        self, terms: list[str], limit: int, chunks: list[UUID] | None = None
    ) -> list[tuple[UUID, float]]:
        cursor = await self.conn.execute(
            _QUERY,
            {
                "collection": self.scope.collection_id,
                "tenant": self.scope.tenant_id,
                "terms": terms,
                "k1": K1,
                "b": B,
                "limit": limit,
                "narrowed": self.scope.narrowed,
                "documents": self.documents,
                "only": chunks is not None,
                "chunks": chunks or [],
            },
        )
        return [(row[0], float(row[1])) for row in await cursor.fetchall()]

    async def idf(self, terms: list[str]) -> tuple[float, dict[str, float], dict[str, int]]:
        """The collection's chunk count, and each term's idf and document frequency."""
        cursor = await self.conn.execute(
            "SELECT (SELECT chunk_count FROM collection_stats WHERE collection_id = %s),"
            " p.term, count(*) FROM postings p WHERE p.collection_id = %s AND p.tenant_id = %s"
            " AND p.term = ANY(%s) GROUP BY p.term",
            (self.scope.collection_id, self.scope.collection_id, self.scope.tenant_id, terms),
        )
        rows = await cursor.fetchall()
        n = float(rows[0][0] or 0) if rows else 0.0
        idf = {term: math.log(1 + (n - df + 0.5) / (df + 0.5)) for _, term, df in rows}
        return n, idf, {term: int(df) for _, term, df in rows}


async def _pruned(run: _Run, terms: list[str], limit: int) -> list[tuple[UUID, float]] | None:
    """The exact top `limit` from candidates of the rarer terms, or None when it cannot be
    proven exact (or there is nothing to prune)."""
    n, idf, df = await run.idf(terms)
    common = [t for t in idf if df[t] > COMMON_SHARE * n]
    rare = [t for t in idf if t not in common]
    if not common or not rare or n < limit * CANDIDATES_PER_HIT:
        return None
    wanted = limit * CANDIDATES_PER_HIT
    partial = await run.scored(rare, wanted)
    full = await run.scored(sorted(idf), limit, [c for c, _ in partial])
    weakest = partial[-1][1] if len(partial) == wanted else 0.0
    kth = full[limit - 1][1] if len(full) >= limit else 0.0
    return full if weakest + sum(idf[t] for t in common) < kth else None


async def scope_documents(conn: Conn, scope: Scope) -> list[UUID]:
    clause, params = scope.documents_clause()
    cursor = await conn.execute(f"SELECT d.id FROM documents d WHERE {clause}", params)
    return [row[0] for row in await cursor.fetchall()]
