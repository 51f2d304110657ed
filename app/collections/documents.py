"""Reading and deleting documents, and deleting whole collections, within one tenant."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from app import cursors
from app.collections.service import Collections
from app.errors import ErrorCode, TrellisError
from app.ids import uuid_or_none, uuid_or_not_found
from app.knowledge.projection import GraphProjector
from app.limits import check_range
from app.tenancy.visibility import whole_tenant_only
from ingest.records import masked
from store import collections as collection_rows
from store import documents, functional, knowledge, outbox, themes
from store import records as record_rows
from store.documents import DocumentKey
from store.documents import DocumentRow as DocumentRow
from store.documents import SectionRow as SectionRow
from store.index_writer import IndexWriter
from store.pool import Pool
from store.tenants import Tenant

MAX_PAGE = 200
STATUSES = ("INDEXED", "GRAPHED")


@dataclass(frozen=True)
class DocumentPage:
    rows: list[DocumentRow]
    has_next: bool


@dataclass(frozen=True)
class StoredRecord:
    schema: str
    fields: dict[str, Any]


class Documents:
    def __init__(self, pool: Pool, collections: Collections, projector: GraphProjector) -> None:
        self._pool = pool
        self._collections = collections
        self._projector = projector

    async def page(
        self, tenant: Tenant, collection: str, status: str | None, first: int, after: str | None
    ) -> DocumentPage:
        check_range("first", first, 1, MAX_PAGE)
        if status is not None and status not in STATUSES:
            raise TrellisError(
                ErrorCode.BAD_USER_INPUT, f"status must be one of {', '.join(STATUSES)}"
            )
        target = await self._collections.get(tenant, collection)
        async with self._pool.connection() as conn:
            rows = await documents.page(
                conn, tenant, target.id, status, first + 1, decode_cursor(after)
            )
        return DocumentPage(rows[:first], len(rows) > first)

    async def get(self, tenant: Tenant, document_id: str) -> DocumentRow:
        async with self._pool.connection() as conn:
            row = await documents.by_id(conn, tenant, uuid_or_not_found(document_id, "document"))
        if row is None:
            raise TrellisError(ErrorCode.NOT_FOUND, f"no document {document_id}")
        return row

    async def get_many(self, tenant: Tenant, document_ids: list[str]) -> dict[str, DocumentRow]:
        """The documents found among `document_ids` (others are missing from the result),
        in one statement."""
        ids = [u for u in map(uuid_or_none, document_ids) if u is not None]
        async with self._pool.connection() as conn:
            rows = await documents.by_ids(conn, tenant, ids)
        return {str(i): row for i, row in rows.items()}

    async def sections(self, tenant: Tenant, document_id: UUID) -> list[SectionRow]:
        async with self._pool.connection() as conn:
            return await documents.sections(conn, tenant.id, document_id)

    async def record(
        self, tenant: Tenant, document_id: UUID, unmasked: bool = False
    ) -> StoredRecord | None:
        """A record's fields, sensitive values masked unless `unmasked`."""
        async with self._pool.connection() as conn:
            found = await record_rows.stored(conn, tenant.id, document_id)
        if found is None:
            return None
        schema, values = found
        return StoredRecord(schema.name, values if unmasked else masked(schema.fields, values))

    async def delete(self, tenant: Tenant, collection: str, external_id: str) -> int | None:
        """Remove a document and its index; None when there was no such document."""
        target = await self._collections.get(tenant, collection)
        key = DocumentKey(tenant.id, target.id, external_id)
        async with self._pool.connection() as conn, conn.transaction():
            await documents.lock_keys(conn, [key])
            existing = await documents.find(conn, key)
            hidden = await documents.hidden_external_ids(conn, tenant, target.id, [external_id])
            if existing is None or hidden:
                return None  # a document the key cannot see is not there for it
            candidates = await knowledge.entity_ids_of(conn, existing.id)
            writer = IndexWriter()
            removed = await writer.remove(conn, tenant.id, existing.id)
            await writer.flush(conn)
            chains = await functional.chain_keys(conn, existing.id)
            await knowledge.delete_facts(conn, existing.id)
            await functional.close_chains(conn, chains)
            await themes.mark_graph_changed(conn, target.id)
            await documents.delete_row(conn, existing.id)
            orphans = await knowledge.delete_orphans(conn, candidates)
            touched = await knowledge.entity_rows(conn, [c for c in candidates if c not in orphans])
            payload = {
                "document_id": str(existing.id),
                "orphans": [str(o) for o in orphans],
                "touched": touched,
                "facts": [str(f) for f in await functional.chain_fact_ids(conn, chains)],
            }
            await outbox.enqueue(conn, tenant.id, target.id, "document.delete", payload)
        self._projector.wake()
        return removed

    async def delete_collection(self, tenant: Tenant, name: str) -> None:
        whole_tenant_only(tenant, "deleting a collection")
        target = await self._collections.get(tenant, name)
        async with self._pool.connection() as conn, conn.transaction():
            await collection_rows.delete(conn, tenant.id, target.id)
            await outbox.enqueue(
                conn, tenant.id, target.id, "collection.delete", {"collection_id": str(target.id)}
            )
        self._projector.wake()


def encode_cursor(row: DocumentRow) -> str:
    return cursors.encode(row.created_at.isoformat(), row.id)


def decode_cursor(cursor: str | None) -> tuple[datetime, UUID] | None:
    if cursor is None:
        return None
    created, document_id = cursors.decode(cursor, 2)
    try:
        return datetime.fromisoformat(created), UUID(document_id)
    except ValueError:
        raise cursors.invalid() from None
