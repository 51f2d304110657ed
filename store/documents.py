"""Documents and everything derived from them: sections, chunks, links, postings, stats.

A document's index is replaced or removed in the caller's transaction, so a reader sees
either the old index or the new one, and a delete leaves no orphan rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from ingest.pipeline import PreparedDocument
from store.arrays import uuid_array
from store.pool import Conn
from store.tenants import Tenant, visible


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
    access_scopes: tuple[str, ...] = ()


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
    graph_notes: list[str] | None


DOCUMENT_COLUMNS = (
    "id, collection_id, external_id, source_type, title, content_type, metadata, status,"
    " version, chunk_count, created_at, updated_at, graph_notes"
)


async def lock_keys(conn: Conn, keys: list[DocumentKey]) -> None:
    """Serialise writers of these documents for this transaction, across processes.

    Locks are taken in one sorted pass, so two workers can never wait on each other.
    """
    names = sorted({f"{k.collection_id}/{k.external_id}" for k in keys})
    await conn.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended(name, 0))"
        " FROM unnest(%s::text[]) AS name ORDER BY name",
        (names,),
    )


async def find_many(conn: Conn, keys: list[DocumentKey]) -> dict[DocumentKey, ExistingDocument]:
    found: dict[DocumentKey, ExistingDocument] = {}
    for collection, group in _by_collection(keys).items():
        cursor = await conn.execute(
            "SELECT external_id, id, content_hash, version FROM documents"
            " WHERE tenant_id = %s AND collection_id = %s AND external_id = ANY(%s)",
            (group[0].tenant_id, collection, [k.external_id for k in group]),
        )
        for external_id, *rest in await cursor.fetchall():
            key = DocumentKey(group[0].tenant_id, collection, external_id)
            found[key] = ExistingDocument(*rest)
    return found


async def find(conn: Conn, key: DocumentKey) -> ExistingDocument | None:
    return (await find_many(conn, [key])).get(key)


async def update_metadata(
    conn: Conn, document_id: UUID, metadata: dict[str, Any], access_scopes: list[str]
) -> None:
    """An unchanged document's metadata and content scopes, as submitted again."""
    await conn.execute(
        "UPDATE documents SET metadata = %s, access_scopes = %s WHERE id = %s"
        " AND (metadata IS DISTINCT FROM %s OR access_scopes IS DISTINCT FROM %s)",
        (Jsonb(metadata), access_scopes, document_id, Jsonb(metadata), access_scopes),
    )


async def insert_row(conn: Conn, doc: NewDocument) -> UUID:
    cursor = await conn.execute(
        "INSERT INTO documents (tenant_id, collection_id, external_id, source_type, title,"
        " content_type, metadata, content_hash, body, pages, chunk_count, access_scopes,"
        " status) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, 'INDEXED')"
        " RETURNING id",
        (
            doc.key.tenant_id,
            doc.key.collection_id,
            doc.key.external_id,
            doc.source_type,
            *_content_values(doc),
        ),
    )
    row = await cursor.fetchone()
    assert row is not None
    return row[0]  # type: ignore[no-any-return]


async def update_row(conn: Conn, document_id: UUID, doc: NewDocument) -> None:
    await conn.execute(
        "UPDATE documents SET title = %s, content_type = %s, metadata = %s, content_hash = %s,"
        " body = %s, pages = %s, chunk_count = %s, access_scopes = %s, status = 'INDEXED',"
        " version = version + 1, updated_at = now() WHERE id = %s",
        (*_content_values(doc), document_id),
    )


def _content_values(doc: NewDocument) -> tuple[Any, ...]:
    """title, content_type, metadata, content_hash, body, pages, chunk_count,
    access_scopes."""
    prepared = doc.prepared
    return (
        prepared.title,
        doc.content_type,
        Jsonb(doc.metadata),
        doc.content_hash,
        prepared.parsed.text,
        _pages(prepared),
        len(prepared.of_kind("main")),
        list(doc.access_scopes),
    )


async def delete_row(conn: Conn, document_id: UUID) -> None:
    await conn.execute("DELETE FROM documents WHERE id = %s", (document_id,))


def _by_collection(keys: list[DocumentKey]) -> dict[UUID, list[DocumentKey]]:
    groups: dict[UUID, list[DocumentKey]] = {}
    for key in keys:
        groups.setdefault(key.collection_id, []).append(key)
    return groups


def _pages(prepared: PreparedDocument) -> Jsonb | None:
    pages = prepared.parsed.pages
    return Jsonb([[p.number, p.start, p.end] for p in pages]) if pages else None


async def page(
    conn: Conn,
    tenant: Tenant,
    collection_id: UUID,
    status: str | None,
    limit: int,
    after: tuple[datetime, UUID] | None,
) -> list[DocumentRow]:
    """Documents in creation order, `limit` of them after the keyset position `after`."""
    created, last_id = after if after is not None else (None, None)
    seen, seen_params = visible(tenant, "documents")
    async with conn.cursor(row_factory=class_row(DocumentRow)) as cursor:
        await cursor.execute(
            f"SELECT {DOCUMENT_COLUMNS} FROM documents WHERE tenant_id = %s AND collection_id = %s"
            f"{seen} AND (%s::text IS NULL OR status = %s)"
            " AND (%s::timestamptz IS NULL OR (created_at, id) > (%s, %s))"
            " ORDER BY created_at, id LIMIT %s",
            (
                tenant.id,
                collection_id,
                *seen_params,
                status,
                status,
                created,
                created,
                last_id,
                limit,
            ),
        )
        return await cursor.fetchall()


async def hidden_external_ids(
    conn: Conn, tenant: Tenant, collection_id: UUID, external_ids: list[str]
) -> list[str]:
    """Those of `external_ids` that exist in the collection but are outside the key's
    content scopes. A key without content scopes sees them all."""
    if not tenant.content_scopes:
        return []
    cursor = await conn.execute(
        "SELECT external_id FROM documents WHERE tenant_id = %s AND collection_id = %s"
        " AND external_id = ANY(%s) AND NOT access_scopes && %s::text[] ORDER BY external_id",
        (tenant.id, collection_id, external_ids, list(tenant.content_scopes)),
    )
    return [row[0] for row in await cursor.fetchall()]


async def by_ids(conn: Conn, tenant: Tenant, ids: list[UUID]) -> dict[UUID, DocumentRow]:
    seen, seen_params = visible(tenant, "documents")
    async with conn.cursor(row_factory=class_row(DocumentRow)) as cursor:
        await cursor.execute(
            f"SELECT {DOCUMENT_COLUMNS} FROM documents WHERE tenant_id = %s AND id = ANY(%s)"
            + seen,
            (tenant.id, ids, *seen_params),
        )
        return {row.id: row for row in await cursor.fetchall()}


async def extents(
    conn: Conn, tenant: Tenant, ids: list[UUID]
) -> dict[UUID, tuple[int, list[list[int]] | None]]:
    """Documents' length in characters and page ranges ([number, start, end]), by id: what a
    span is checked against before any text is read."""
    seen, seen_params = visible(tenant, "documents")
    cursor = await conn.execute(
        "SELECT id, length(body), pages FROM documents WHERE tenant_id = %s AND id = ANY(%s)"
        + seen,
        (tenant.id, ids, *seen_params),
    )
    return {row[0]: (row[1], row[2]) for row in await cursor.fetchall()}


async def slices(conn: Conn, tenant: Tenant, wanted: list[tuple[UUID, int, int]]) -> list[str]:
    """The text of each (document, start, end) in characters, in order; only these characters
    leave the server, not whole bodies."""
    if not wanted:
        return []
    ids, starts, lengths = zip(*((d, s + 1, e - s) for d, s, e in wanted), strict=True)
    seen, seen_params = visible(tenant, "d")
    cursor = await conn.execute(
        "SELECT substr(d.body, w.start, w.length) FROM"
        " unnest(%s::uuid[], %s::int[], %s::int[]) WITH ORDINALITY AS w(id, start, length, n)"
        " JOIN documents d ON d.id = w.id AND d.tenant_id = %s" + seen + " ORDER BY w.n",
        (list(ids), list(starts), list(lengths), tenant.id, *seen_params),
    )
    return [row[0] for row in await cursor.fetchall()]


async def by_id(conn: Conn, tenant: Tenant, document_id: UUID) -> DocumentRow | None:
    seen, seen_params = visible(tenant, "documents")
    async with conn.cursor(row_factory=class_row(DocumentRow)) as cursor:
        await cursor.execute(
            f"SELECT {DOCUMENT_COLUMNS} FROM documents WHERE tenant_id = %s AND id = %s" + seen,
            (tenant.id, document_id, *seen_params),
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


async def of_chunks(conn: Conn, tenant_id: UUID, chunk_ids: list[str]) -> dict[str, str]:
    """The document of each of the tenant's chunks among `chunk_ids`."""
    cursor = await conn.execute(
        "SELECT id::text, document_id::text FROM chunks"
        " WHERE id = ANY(%s::uuid[]) AND tenant_id = %s",
        (uuid_array(chunk_ids), tenant_id),
    )
    return dict(await cursor.fetchall())
