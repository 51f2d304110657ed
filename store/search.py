"""Search reads: the dense and section legs, hit details, and vectors of candidates.

Dense search runs over the ~500-character windows (`small` chunks) and projects hits onto
the main chunks they overlap. Small scopes are scanned exactly; large ones go through the
HNSW index with iterative scans, re-sorted after a materialized CTE because relaxed order
may return rows slightly out of order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

import numpy as np
from numpy.typing import NDArray
from psycopg.rows import dict_row

from retrieval.title_links import Titled
from retrieval.window_vectors import WindowVectors
from store import bm25
from store.arrays import text_array, uuid_array
from store.pool import Conn
from store.scope import Scope

# Below these an exact scan is about as fast as HNSW and has full recall. Above, HNSW at
# ef_search 600 is 3-4x faster with the same top 50 (9k and 11k windows of the shared sets:
# 8 against 21 ms, 11 against 40 ms).
EXACT_MAX_VECTORS = 2_000
EXACT_MAX_DOCUMENTS = 500
WINDOWS_PER_HIT = 4  # windows fetched per wanted main chunk: several may share one


async def is_small(conn: Conn, scope: Scope) -> bool:
    """Few documents in a filtered scope, or few vectors. An unfiltered scope counts the
    collection's vectors on the index alone, without joining its documents."""
    if not scope.narrowed:
        return await _vectors_at_most(conn, scope, EXACT_MAX_VECTORS)
    clause, params = scope.documents_clause()
    cursor = await conn.execute(
        f"SELECT count(*) FROM (SELECT 1 FROM documents d WHERE {clause} LIMIT %s) x",
        [*params, EXACT_MAX_DOCUMENTS + 1],
    )
    if (await _one(cursor)) <= EXACT_MAX_DOCUMENTS:
        return True
    cursor = await conn.execute(
        f"SELECT count(*) FROM (SELECT 1 FROM chunks c JOIN documents d ON d.id = c.document_id"
        f" WHERE {clause} AND c.kind = 'small' LIMIT %s) x",
        [*params, EXACT_MAX_VECTORS + 1],
    )
    return (await _one(cursor)) <= EXACT_MAX_VECTORS


async def _vectors_at_most(conn: Conn, scope: Scope, most: int) -> bool:
    cursor = await conn.execute(
        "SELECT count(*) FROM (SELECT 1 FROM chunks c WHERE c.tenant_id = %s"
        " AND c.collection_id = %s AND c.kind = 'small' LIMIT %s) x",
        [scope.tenant_id, scope.collection_id, most + 1],
    )
    return (await _one(cursor)) <= most


async def graph_pending(conn: Conn, scope: Scope) -> int:
    """Documents in scope indexed but not yet in the graph, leaving out those given up on."""
    clause, params = scope.documents_clause()
    cursor = await conn.execute(
        f"SELECT count(*) FROM documents d WHERE {clause} AND d.status = 'INDEXED'"
        " AND d.graph_failed_version IS DISTINCT FROM d.version",
        params,
    )
    return await _one(cursor)


async def dense_exact(
    conn: Conn, scope: Scope, vector: NDArray[np.float32], limit: int
) -> list[tuple[UUID, float]]:
    clause, params = scope.documents_clause()
    sql = (
        "WITH w AS MATERIALIZED (SELECT c.id, c.embedding <=> %s AS distance FROM chunks c"
        f" JOIN documents d ON d.id = c.document_id WHERE {clause} AND c.kind = 'small'"
        " AND c.embedding IS NOT NULL ORDER BY distance LIMIT %s)" + _PROJECT
    )
    cursor = await conn.execute(sql, [vector, *params, limit * WINDOWS_PER_HIT, limit])
    return [(row[0], float(row[1])) for row in await cursor.fetchall()]


async def dense_hnsw(
    conn: Conn, scope: Scope, vector: NDArray[np.float32], limit: int, ef_search: int
) -> list[tuple[UUID, float]]:
    """Through the per-dimension HNSW index (see migration 0007). The index's settings and the
    search go in one pipeline: statements before a Sync run as one transaction, so the
    settings are local to the search (as SET LOCAL), and the three cost one round trip
    where BEGIN, the settings, the search and COMMIT took four."""
    dim = int(vector.shape[0])
    clause, params = scope.documents_clause()
    documents = f" AND c.document_id IN (SELECT d.id FROM documents d WHERE {clause})"
    sql = (
        f"WITH w AS MATERIALIZED (SELECT c.id, c.embedding::vector({dim}) <=> %s AS distance"
        " FROM chunks c WHERE c.tenant_id = %s AND c.collection_id = %s AND c.kind = 'small'"
        f" AND vector_dims(c.embedding) = {dim}"
        + (documents if scope.narrowed else "")
        + f" ORDER BY c.embedding::vector({dim}) <=> %s LIMIT %s)"
        + _PROJECT
    )
    narrowing = params if scope.narrowed else []
    values = [vector, scope.tenant_id, scope.collection_id, *narrowing, vector]
    async with conn.pipeline():
        # `true`: local to the transaction, as SET LOCAL.
        await conn.execute(
            "SELECT set_config('hnsw.ef_search', %s, true),"
            " set_config('hnsw.iterative_scan', 'relaxed_order', true)",
            [str(int(ef_search))],
        )
        cursor = await conn.execute(sql, [*values, limit * WINDOWS_PER_HIT, limit])
        return [(row[0], float(row[1])) for row in await cursor.fetchall()]


_PROJECT = (
    " SELECT l.main_id, 1 - min(w.distance) AS similarity FROM w"
    " JOIN chunk_links l ON l.window_id = w.id JOIN chunks m ON m.id = l.main_id"
    " AND m.kind = 'main' GROUP BY l.main_id ORDER BY similarity DESC, l.main_id LIMIT %s"
)


async def section_chunks(conn: Conn, scope: Scope, labels: list[str], limit: int) -> list[UUID]:
    """Main chunks of the sections carrying one of `labels`, in document order."""
    clause, params = scope.documents_clause()
    cursor = await conn.execute(
        "SELECT c.id FROM sections s JOIN documents d ON d.id = s.document_id"
        " JOIN chunks c ON c.document_id = s.document_id AND c.kind = 'main'"
        " AND c.char_start < s.char_end AND c.char_end > s.char_start"
        f" WHERE {clause} AND lower(normalize(s.label, NFKC)) = ANY(%s)"
        " ORDER BY s.level DESC, d.id, c.char_start LIMIT %s",
        [*params, labels, limit],
    )
    return list(dict.fromkeys(row[0] for row in await cursor.fetchall()))


async def document_chunks(conn: Conn, tenant_id: UUID, document_id: UUID) -> list[UUID]:
    """A document's main chunks, in reading order."""
    cursor = await conn.execute(
        "SELECT id FROM chunks WHERE tenant_id = %s AND document_id = %s AND kind = 'main'"
        " ORDER BY char_start",
        (tenant_id, document_id),
    )
    return [row[0] for row in await cursor.fetchall()]


async def titled_chunks(conn: Conn, scope: Scope, titles: list[str]) -> list[str]:
    """Main chunks of the scope's documents whose title is one of `titles` (case-folded)."""
    clause, params = scope.documents_clause()
    cursor = await conn.execute(
        "SELECT c.id::text FROM documents d JOIN chunks c ON c.document_id = d.id"
        f" WHERE {clause} AND lower(d.title) = ANY(%s::text[]) AND c.kind = 'main' ORDER BY c.id",
        [*params, text_array(titles)],
    )
    return [row[0] for row in await cursor.fetchall()]


async def chunk_titles(conn: Conn, tenant_id: UUID, chunk_ids: list[UUID]) -> dict[UUID, Titled]:
    """Each chunk's document and its title."""
    cursor = await conn.execute(
        "SELECT c.id, d.id, d.title FROM chunks c JOIN documents d ON d.id = c.document_id"
        " WHERE c.id = ANY(%s) AND c.tenant_id = %s",
        (chunk_ids, tenant_id),
    )
    return {chunk: Titled(document, title) for chunk, document, title in await cursor.fetchall()}


async def chunks_in_scope(conn: Conn, scope: Scope, chunk_ids: list[UUID]) -> set[UUID]:
    clause, params = scope.documents_clause()
    cursor = await conn.execute(
        f"SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id"
        f" WHERE c.id = ANY(%s) AND {clause}",
        [chunk_ids, *params],
    )
    return {row[0] for row in await cursor.fetchall()}


@dataclass(frozen=True)
class ChunkVector:
    chunk_id: UUID
    vector: NDArray[np.float32]
    document_id: UUID


async def candidate_vectors(
    conn: Conn, tenant_id: UUID, chunk_ids: list[UUID], vector: NDArray[np.float32]
) -> dict[UUID, ChunkVector]:
    """For each main chunk, the vector of its window most similar to the query. The vectors
    come back in binary: parsing their text form was a third of the read."""
    cursor = await conn.execute(
        "SELECT DISTINCT ON (l.main_id) l.main_id, w.embedding, w.document_id"
        " FROM chunk_links l JOIN chunks w ON w.id = l.window_id AND w.kind = 'small'"
        " WHERE l.main_id = ANY(%s::uuid[]) AND l.tenant_id = %s AND w.embedding IS NOT NULL"
        " ORDER BY l.main_id, w.embedding <=> %s",
        (uuid_array(chunk_ids), tenant_id, vector),
        binary=True,
    )
    return {row[0]: ChunkVector(row[0], _array(row[1]), row[2]) for row in await cursor.fetchall()}


@dataclass(frozen=True)
class ChunkTerms:
    title: str  # its document's
    terms: frozenset[str]  # the terms of its BM25 postings: its title's and its text's


async def chunk_terms(conn: Conn, tenant_id: UUID, chunk_ids: list[UUID]) -> dict[UUID, ChunkTerms]:
    """Main chunks' titles and indexed terms."""
    cursor = await conn.execute(
        "SELECT c.id, d.title, array(SELECT p.term FROM postings p WHERE p.chunk_id = c.id"
        " AND p.tenant_id = c.tenant_id) FROM chunks c JOIN documents d ON d.id = c.document_id"
        " WHERE c.id = ANY(%s::uuid[]) AND c.tenant_id = %s AND c.kind = 'main'",
        (uuid_array(chunk_ids), tenant_id),
    )
    return {row[0]: ChunkTerms(row[1], frozenset(row[2])) for row in await cursor.fetchall()}


@dataclass(frozen=True)
class HitPassage:
    """A main chunk as a hit shows it: its document, its section and the large window around
    it (the chunk itself when it has none)."""

    chunk_id: UUID
    document_id: UUID
    collection_id: UUID
    title: str
    external_id: str
    content_type: str
    metadata: dict[str, Any]
    source_type: str
    pages: list[tuple[int, int, int]]  # page number, first and last character
    section_path: str | None
    content: str
    char_start: int
    char_end: int
    context: str


async def hit_passages(
    conn: Conn, tenant_id: UUID, chunk_ids: list[UUID]
) -> dict[UUID, HitPassage]:
    """Main chunks with their document, section path and surrounding large window."""
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(_HITS, (uuid_array(chunk_ids), tenant_id))
        return {row["chunk_id"]: _passage(row) for row in await cursor.fetchall()}


def _passage(row: dict[str, Any]) -> HitPassage:
    return HitPassage(
        chunk_id=row["chunk_id"],
        document_id=row["document_id"],
        collection_id=row["collection_id"],
        title=row["title"],
        external_id=row["external_id"],
        content_type=row["content_type"],
        metadata=row["metadata"],
        source_type=row["source_type"],
        pages=[(int(n), int(a), int(b)) for n, a, b in row["pages"] or []],
        section_path=row["section_path"],
        content=row["content"],
        char_start=row["char_start"],
        char_end=row["char_end"],
        context=row["context"] or row["content"],
    )


_HITS = """
SELECT c.id AS chunk_id, c.document_id, c.char_start, c.char_end, c.content,
       d.title, d.external_id, d.content_type, d.metadata, d.source_type, d.pages,
       d.collection_id, s.path AS section_path,
       w.content AS context
FROM chunks c
JOIN documents d ON d.id = c.document_id
LEFT JOIN sections s ON s.id = c.section_id
LEFT JOIN LATERAL (
    SELECT w.content, w.char_start, w.char_end FROM chunk_links l
    JOIN chunks w ON w.id = l.window_id AND w.kind = 'large'
    WHERE l.main_id = c.id
    ORDER BY abs((w.char_start + w.char_end) - (c.char_start + c.char_end)) LIMIT 1
) w ON true
WHERE c.id = ANY(%s::uuid[]) AND c.tenant_id = %s AND c.kind = 'main'
"""


async def _one(cursor: Any) -> int:
    row = await cursor.fetchone()
    return int(row[0]) if row else 0


def _array(value: Any) -> NDArray[np.float32]:
    """pgvector's Vector (or a plain sequence) as a float32 array."""
    raw = value.to_numpy() if hasattr(value, "to_numpy") else value
    return np.asarray(raw, dtype=np.float32)


async def window_vectors(conn: Conn, tenant_id: UUID, collection_id: UUID) -> WindowVectors | None:
    """Every window vector of a collection (of its embedding model's dimensions), unit length,
    with its main chunks, read in one snapshot with the statistics' version that dates them;
    None if nothing is indexed.

    `conn` must be idle (store/bm25.snapshot).
    """
    async with bm25.snapshot(conn, tenant_id, collection_id) as found:
        if found is None:
            return None
        cursor = conn.cursor(binary=True)
        await cursor.execute(
            "SELECT w.embedding, array_agg(l.main_id), w.document_id FROM chunks w"
            " JOIN chunk_links l ON l.window_id = w.id JOIN chunks m ON m.id = l.main_id"
            " AND m.kind = 'main' WHERE w.tenant_id = %s AND w.collection_id = %s"
            " AND w.kind = 'small' AND w.embedding IS NOT NULL AND vector_dims(w.embedding) ="
            " (SELECT embedding_dim FROM collections WHERE id = %s) GROUP BY w.id",
            (tenant_id, collection_id, collection_id),
        )
        rows = await cursor.fetchall()
    vectors = [_array(row[0]) for row in rows]
    mains = [tuple(r[1]) for r in rows]
    return WindowVectors(found.version, _unit_rows(vectors), mains, [r[2] for r in rows])


def _unit_rows(vectors: list[NDArray[np.float32]]) -> NDArray[np.float32]:
    if not vectors:
        return np.zeros((0, 0), dtype=np.float32)
    matrix = np.stack(vectors)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit: NDArray[np.float32] = (matrix / np.where(norms > 0, norms, 1.0)).astype(np.float32)
    return unit
