"""Documents and everything derived from them: sections, chunks, links, postings, stats.

A document's index is replaced or removed in the caller's transaction, so a reader sees
either the old index or the new one, and a delete leaves no orphan rows.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from ingest.pipeline import PreparedDocument
from store.pool import Conn


@dataclass(frozen=True)
class DocumentKey:
    tenant_id: UUID
    collection_id: UUID
    external_id: str


@dataclass(frozen=True)
class ExistingDocument:
    id: UUID
    content_hash: bytes
    version: int


@dataclass(frozen=True)
class NewDocument:
    key: DocumentKey
    source_type: str
    content_type: str
    metadata: dict[str, Any]
    content_hash: bytes
    prepared: PreparedDocument


@dataclass(frozen=True)
class DocumentRow:
    id: UUID
    collection_id: UUID
    external_id: str
    source_type: str
    title: str
    content_type: str
    metadata: dict[str, Any]
    status: str
    version: int
    chunk_count: int
    created_at: datetime
    updated_at: datetime


DOCUMENT_COLUMNS = (
    "id, collection_id, external_id, source_type, title, content_type, metadata, status,"
    " version, chunk_count, created_at, updated_at"
)


async def lock_key(conn: Conn, key: DocumentKey) -> None:
    """Serialise writers of one document for this transaction, across processes."""
    await conn.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
        (f"{key.collection_id}/{key.external_id}",),
    )


async def find(conn: Conn, key: DocumentKey) -> ExistingDocument | None:
    async with conn.cursor(row_factory=class_row(ExistingDocument)) as cursor:
        await cursor.execute(
            "SELECT id, content_hash, version FROM documents"
            " WHERE tenant_id = %s AND collection_id = %s AND external_id = %s",
            (key.tenant_id, key.collection_id, key.external_id),
        )
        return await cursor.fetchone()


async def update_metadata(conn: Conn, document_id: UUID, metadata: dict[str, Any]) -> None:
    await conn.execute(
        "UPDATE documents SET metadata = %s WHERE id = %s AND metadata IS DISTINCT FROM %s",
        (Jsonb(metadata), document_id, Jsonb(metadata)),
    )


async def remove_index(conn: Conn, tenant_id: UUID, document_id: UUID) -> int:
    """Delete a document's chunks (postings and links cascade) and sections; fix the stats."""
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
    await _add_stats(conn, tenant_id, row[0], -int(row[1]), -int(row[2]))
    return int(row[3])


async def upsert(conn: Conn, doc: NewDocument, existing: ExistingDocument | None) -> UUID:
    """Write the document row and its whole index; replaces an existing version's index."""
    if existing is not None:
        await remove_index(conn, doc.key.tenant_id, existing.id)
        document_id = existing.id
        await _update_row(conn, document_id, doc)
    else:
        document_id = await _insert_row(conn, doc)
    await _write_index(conn, doc, document_id)
    return document_id


async def _insert_row(conn: Conn, doc: NewDocument) -> UUID:
    prepared = doc.prepared
    cursor = await conn.execute(
        "INSERT INTO documents (tenant_id, collection_id, external_id, source_type, title,"
        " content_type, metadata, content_hash, body, pages, status, chunk_count)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, 'INDEXED', %s) RETURNING id",
        (
            doc.key.tenant_id,
            doc.key.collection_id,
            doc.key.external_id,
            doc.source_type,
            prepared.title,
            doc.content_type,
            Jsonb(doc.metadata),
            doc.content_hash,
            prepared.parsed.text,
            _pages(prepared),
            len(prepared.of_kind("main")),
        ),
    )
    row = await cursor.fetchone()
    assert row is not None
    return row[0]  # type: ignore[no-any-return]


async def _update_row(conn: Conn, document_id: UUID, doc: NewDocument) -> None:
    prepared = doc.prepared
    await conn.execute(
        "UPDATE documents SET title = %s, content_type = %s, metadata = %s, content_hash = %s,"
        " body = %s, pages = %s, status = 'INDEXED', version = version + 1, chunk_count = %s,"
        " updated_at = now() WHERE id = %s",
        (
            prepared.title,
            doc.content_type,
            Jsonb(doc.metadata),
            doc.content_hash,
            prepared.parsed.text,
            _pages(prepared),
            len(prepared.of_kind("main")),
            document_id,
        ),
    )


async def _write_index(conn: Conn, doc: NewDocument, document_id: UUID) -> None:
    tenant, collection = doc.key.tenant_id, doc.key.collection_id
    prepared = doc.prepared
    section_ids = [uuid.uuid4() for _ in prepared.sections]
    chunk_ids = {(c.kind, c.ordinal): uuid.uuid4() for c in prepared.chunks}
    await _copy(
        conn,
        "sections",
        (
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
        [
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
        ],
    )
    await _copy(
        conn,
        "chunks",
        (
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
        [
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
        ],
    )
    await _copy(
        conn,
        "chunk_links",
        ("window_id", "main_id", "tenant_id"),
        [
            (chunk_ids[(c.kind, c.ordinal)], chunk_ids[("main", m)], tenant)
            for c in prepared.chunks
            for m in c.links
        ],
    )
    mains = prepared.of_kind("main")
    await _copy(
        conn,
        "postings",
        ("collection_id", "term", "chunk_id", "tenant_id", "tf"),
        [
            (collection, term, chunk_ids[("main", c.ordinal)], tenant, tf)
            for c in mains
            for term, tf in (c.terms or {}).items()
        ],
    )
    await _add_stats(conn, tenant, collection, len(mains), sum(c.term_count or 0 for c in mains))


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


def _pages(prepared: PreparedDocument) -> Jsonb | None:
    pages = prepared.parsed.pages
    return Jsonb([[p.number, p.start, p.end] for p in pages]) if pages else None


async def delete(conn: Conn, key: DocumentKey) -> tuple[UUID, int] | None:
    """Remove a document and its whole index. Returns its id and the chunks removed."""
    await lock_key(conn, key)
    existing = await find(conn, key)
    if existing is None:
        return None
    removed = await remove_index(conn, key.tenant_id, existing.id)
    await conn.execute("DELETE FROM documents WHERE id = %s", (existing.id,))
    return existing.id, removed


async def page(
    conn: Conn,
    tenant_id: UUID,
    collection_id: UUID,
    status: str | None,
    limit: int,
    after: tuple[datetime, UUID] | None,
) -> list[DocumentRow]:
    """Documents in creation order, `limit` of them after the keyset position `after`."""
    created, last_id = after if after is not None else (None, None)
    async with conn.cursor(row_factory=class_row(DocumentRow)) as cursor:
        await cursor.execute(
            f"SELECT {DOCUMENT_COLUMNS} FROM documents WHERE tenant_id = %s AND collection_id = %s"
            " AND (%s::text IS NULL OR status = %s)"
            " AND (%s::timestamptz IS NULL OR (created_at, id) > (%s, %s))"
            " ORDER BY created_at, id LIMIT %s",
            (tenant_id, collection_id, status, status, created, created, last_id, limit),
        )
        return await cursor.fetchall()


async def by_id(conn: Conn, tenant_id: UUID, document_id: UUID) -> DocumentRow | None:
    async with conn.cursor(row_factory=class_row(DocumentRow)) as cursor:
        await cursor.execute(
            f"SELECT {DOCUMENT_COLUMNS} FROM documents WHERE tenant_id = %s AND id = %s",
            (tenant_id, document_id),
        )
        return await cursor.fetchone()


@dataclass(frozen=True)
class SectionRow:
    ordinal: int
    level: int
    kind: str
    label: str
    title: str
    path: str
    char_start: int
    char_end: int


async def sections(conn: Conn, tenant_id: UUID, document_id: UUID) -> list[SectionRow]:
    async with conn.cursor(row_factory=class_row(SectionRow)) as cursor:
        await cursor.execute(
            "SELECT ordinal, level, kind, label, title, path, char_start, char_end FROM sections"
            " WHERE tenant_id = %s AND document_id = %s ORDER BY ordinal",
            (tenant_id, document_id),
        )
        return await cursor.fetchall()
