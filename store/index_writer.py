"""Write and remove documents' indexes: sections, chunks, links, postings and BM25 stats.

Rows for a whole batch of documents are gathered and sent in one COPY per table, and the
collection statistics are adjusted once per batch, in the caller's transaction.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from typing import Any
from uuid import UUID

from store._copy import copy_rows
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
        ids = _Ids(doc, document_id)
        self._rows["sections"] += _section_rows(doc, ids)
        self._rows["chunks"] += _chunk_rows(doc, ids)
        self._rows["chunk_links"] += _link_rows(doc, ids)
        self._rows["postings"] += _posting_rows(doc, ids)
        mains = doc.prepared.of_kind("main")
        stats = self._stats[(doc.key.tenant_id, doc.key.collection_id)]
        stats[0] += len(mains)
        stats[1] += sum(c.term_count or 0 for c in mains)

    async def flush(self, conn: Conn) -> None:
        for table, columns in _TABLES.items():
            await copy_rows(conn, table, columns, self._rows.pop(table, []))
        for (tenant, collection), (chunks, terms) in self._stats.items():
            await _add_stats(conn, tenant, collection, chunks, terms)
        self._stats.clear()


class _Ids:
    """Row ids made here, so one COPY per table can write a whole batch."""

    def __init__(self, doc: NewDocument, document_id: UUID) -> None:
        self.document = document_id
        self.sections = [uuid.uuid4() for _ in doc.prepared.sections]
        self.chunks = {(c.kind, c.ordinal): uuid.uuid4() for c in doc.prepared.chunks}


def _section_rows(doc: NewDocument, ids: _Ids) -> list[tuple[Any, ...]]:
    return [
        (
            ids.sections[s.ordinal],
            doc.key.tenant_id,
            ids.document,
            s.ordinal,
            s.level,
            s.kind,
            s.label,
            s.title,
            s.path,
            s.start,
            s.end,
        )
        for s in doc.prepared.sections
    ]


def _chunk_rows(doc: NewDocument, ids: _Ids) -> list[tuple[Any, ...]]:
    return [
        (
            ids.chunks[(c.kind, c.ordinal)],
            doc.key.tenant_id,
            doc.key.collection_id,
            ids.document,
            c.kind,
            c.ordinal,
            c.span.start,
            c.span.end,
            None if c.section is None else ids.sections[c.section],
            c.content,
            c.term_count,
            c.embedding,
        )
        for c in doc.prepared.chunks
    ]


def _link_rows(doc: NewDocument, ids: _Ids) -> list[tuple[Any, ...]]:
    return [
        (ids.chunks[(c.kind, c.ordinal)], ids.chunks[("main", m)], doc.key.tenant_id)
        for c in doc.prepared.chunks
        for m in c.links
    ]


def _posting_rows(doc: NewDocument, ids: _Ids) -> list[tuple[Any, ...]]:
    return [
        (doc.key.collection_id, term, ids.chunks[("main", c.ordinal)], doc.key.tenant_id, tf)
        for c in doc.prepared.of_kind("main")
        for term, tf in (c.terms or {}).items()
    ]


async def _add_stats(conn: Conn, tenant: UUID, collection: UUID, chunks: int, terms: int) -> None:
    await conn.execute(
        "INSERT INTO collection_stats (collection_id, tenant_id, chunk_count, term_total)"
        " VALUES (%s, %s, %s, %s) ON CONFLICT (collection_id) DO UPDATE SET"
        " chunk_count = collection_stats.chunk_count + EXCLUDED.chunk_count,"
        " term_total = collection_stats.term_total + EXCLUDED.term_total,"
        " version = collection_stats.version + 1",
        (collection, tenant, chunks, terms),
    )
