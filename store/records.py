"""Record schemas and the full stored records (sensitive fields included, never indexed)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from store.pool import Conn


@dataclass(frozen=True)
class RecordSchema:
    id: UUID
    collection_id: UUID
    name: str
    fields: list[dict[str, Any]]


async def define_schema(
    conn: Conn, tenant_id: UUID, collection_id: UUID, name: str, fields: list[dict[str, Any]]
) -> RecordSchema:
    """Create or replace the schema called `name` in the collection."""
    async with conn.cursor(row_factory=class_row(RecordSchema)) as cursor:
        await cursor.execute(
            "INSERT INTO record_schemas (tenant_id, collection_id, name, fields)"
            " VALUES (%s, %s, %s, %s) ON CONFLICT (collection_id, name)"
            " DO UPDATE SET fields = EXCLUDED.fields RETURNING id, collection_id, name, fields",
            (tenant_id, collection_id, name, Jsonb(fields)),
        )
        schema = await cursor.fetchone()
    assert schema is not None
    return schema


async def schema_by_name(
    conn: Conn, tenant_id: UUID, collection_id: UUID, name: str
) -> RecordSchema | None:
    async with conn.cursor(row_factory=class_row(RecordSchema)) as cursor:
        await cursor.execute(
            "SELECT id, collection_id, name, fields FROM record_schemas"
            " WHERE tenant_id = %s AND collection_id = %s AND name = %s",
            (tenant_id, collection_id, name),
        )
        return await cursor.fetchone()


async def upsert(
    conn: Conn, tenant_id: UUID, document_id: object, schema_id: str, fields: dict[str, Any]
) -> None:
    await conn.execute(
        "INSERT INTO records (document_id, tenant_id, schema_id, fields) VALUES (%s, %s, %s, %s)"
        " ON CONFLICT (document_id) DO UPDATE SET schema_id = EXCLUDED.schema_id,"
        " fields = EXCLUDED.fields",
        (document_id, tenant_id, schema_id, Jsonb(fields)),
    )


async def stored(
    conn: Conn, tenant_id: UUID, document_id: UUID
) -> tuple[RecordSchema, dict[str, Any]] | None:
    cursor = await conn.execute(
        "SELECT s.id, s.collection_id, s.name, s.fields, r.fields FROM records r"
        " JOIN record_schemas s ON s.id = r.schema_id"
        " WHERE r.tenant_id = %s AND r.document_id = %s",
        (tenant_id, document_id),
    )
    row = await cursor.fetchone()
    if row is None:
        return None
    return RecordSchema(*row[:4]), row[4]
