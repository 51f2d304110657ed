"""Write and remove documents' indexes: sections, chunks, links, postings and BM25 stats.

Rows for a whole batch of documents are gathered and sent in one COPY per table, and the
collection statistics are adjusted once per batch, in the caller's transaction.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from typing import Any
from uuid import UUID

from store.documents import NewDocument
from store.pool import Conn

_TABLES = {
    "sections": (
        "id",
        "tenant_id",
        "document_id",
        "ordinal",
        "level",
        "kind",
        "label",
        "title",
        "path",
        "char_start",
        "char_end",
    ),
    "chunks": (
        "id",
        "tenant_id",
        "collection_id",
        "document_id",
        "kind",
        "ordinal",
        "char_start",
        "char_end",
        "section_id",
        "content",
        "term_count",
        "embedding",
    ),
    "chunk_links": ("window_id", "main_id", "tenant_id"),
    "postings": ("collection_id", "term", "chunk_id", "tenant_id", "tf"),
}


class IndexWriter:
    def __init__(self) -> None:
        self._rows: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
        # (tenant, collection) -> [main chunks, terms] to add to collection_stats
        self._stats: dict[tuple[UUID, UUID], list[int]] = defaultdict(lambda: [0, 0])

    async def remove(self, conn: Conn, tenant_id: UUID, document_id: UUID) -> int:
        """Delete a document's index now (postings and links cascade). Returns chunks removed."""
        cursor = await conn.execute(
            "WITH gone AS (DELETE FROM chunks WHERE tenant_id = %s AND document_id = %s"
            " RETURNING collection_id, kind, term_count)"
            " SELECT collection_id, count(*) FILTER (WHERE kind = 'main'),"
            " coalesce(sum(term_count), 0), count(*) FROM gone GROUP BY collection_id",
            (tenant_id, document_id),
        )
        row = await cursor.fetchone()
        await conn.execute("DELETE FROM sections WHERE document_id = %s", (document_id,))
        if row is None:
            return 0
        stats = self._stats[(tenant_id, row[0])]
        stats[0] -= int(row[1])
        stats[1] -= int(row[2])
        return int(row[3])

    def add(self, doc: NewDocument, document_id: UUID) -> None:
        """Queue the rows of one document's new index; `flush` writes them."""
        tenant, collection, prepared = doc.key.tenant_id, doc.key.collection_id, doc.prepared
        section_ids = [uuid.uuid4() for _ in prepared.sections]
        chunk_ids = {(c.kind, c.ordinal): uuid.uuid4() for c in prepared.chunks}
        self._rows["sections"] += [
            (
                section_ids[s.ordinal],
                tenant,
                document_id,
                s.ordinal,
                s.level,
                s.kind,
                s.label,
                s.title,
                s.path,
                s.start,
                s.end,
            )
            for s in prepared.sections
        ]
        self._rows["chunks"] += [
            (
                chunk_ids[(c.kind, c.ordinal)],
                tenant,
                collection,
                document_id,
                c.kind,
                c.ordinal,
                c.span.start,
                c.span.end,
                None if c.section is None else section_ids[c.section],
                c.content,
                c.term_count,
                c.embedding,
            )
            for c in prepared.chunks
        ]
        self._rows["chunk_links"] += [
            (chunk_ids[(c.kind, c.ordinal)], chunk_ids[("main", m)], tenant)
            for c in prepared.chunks
            for m in c.links
        ]
        mains = prepared.of_kind("main")
        self._rows["postings"] += [
            (collection, term, chunk_ids[("main", c.ordinal)], tenant, tf)
            for c in mains
            for term, tf in (c.terms or {}).items()
        ]
        stats = self._stats[(tenant, collection)]
        stats[0] += len(mains)
        stats[1] += sum(c.term_count or 0 for c in mains)

    async def flush(self, conn: Conn) -> None:
        for table, columns in _TABLES.items():
            await _copy(conn, table, columns, self._rows.pop(table, []))
        for (tenant, collection), (chunks, terms) in self._stats.items():
            await _add_stats(conn, tenant, collection, chunks, terms)
        self._stats.clear()


async def _copy(
    conn: Conn, table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]
) -> None:
    if not rows:
        return
    statement = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
    async with conn.cursor() as cursor, cursor.copy(statement) as copy:
        for row in rows:
            await copy.write_row(row)


async def _add_stats(conn: Conn, tenant: UUID, collection: UUID, chunks: int, terms: int) -> None:
    await conn.execute(
        "INSERT INTO collection_stats (collection_id, tenant_id, chunk_count, term_total)"
        " VALUES (%s, %s, %s, %s) ON CONFLICT (collection_id) DO UPDATE SET"
        " chunk_count = collection_stats.chunk_count + EXCLUDED.chunk_count,"
        " term_total = collection_stats.term_total + EXCLUDED.term_total",
        (collection, tenant, chunks, terms),
    )
