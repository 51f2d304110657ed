"""The graph outbox: changes for Neo4j, written in the same transaction as the change."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from store.pool import Conn


@dataclass(frozen=True)
class OutboxRow:
    id: int
    tenant_id: UUID
    kind: str
    payload: dict[str, Any]


async def enqueue(conn: Conn, tenant_id: UUID, kind: str, payload: dict[str, Any]) -> None:
    await conn.execute(
        "INSERT INTO graph_outbox (tenant_id, kind, payload) VALUES (%s, %s, %s)",
        (tenant_id, kind, Jsonb(payload)),
    )


MAX_ATTEMPTS = 10


async def enqueue_many(conn: Conn, kind: str, rows: list[tuple[UUID, dict[str, Any]]]) -> None:
    async with conn.cursor() as cursor:
        await cursor.executemany(
            "INSERT INTO graph_outbox (tenant_id, kind, payload) VALUES (%s, %s, %s)",
            [(tenant_id, kind, Jsonb(payload)) for tenant_id, payload in rows],
        )


async def claim(conn: Conn, limit: int) -> list[OutboxRow]:
    """Lock up to `limit` pending rows for this transaction; other workers skip them.

    Rows that failed MAX_ATTEMPTS times are parked, with `last_error` saying why, so one
    bad row cannot block the rows behind it.
    """
    async with conn.cursor(row_factory=class_row(OutboxRow)) as cursor:
        await cursor.execute(
            "SELECT id, tenant_id, kind, payload FROM graph_outbox"
            " WHERE done_at IS NULL AND attempts < %s"
            " ORDER BY id LIMIT %s FOR UPDATE SKIP LOCKED",
            (MAX_ATTEMPTS, limit),
        )
        return await cursor.fetchall()


async def mark_done(conn: Conn, ids: list[int]) -> None:
    await conn.execute("UPDATE graph_outbox SET done_at = now() WHERE id = ANY(%s)", (ids,))


async def mark_failed(conn: Conn, ids: list[int], error: str) -> None:
    """Count a failed attempt; rows that reach MAX_ATTEMPTS are parked, and the documents
    they carry say so in their graph notes."""
    await conn.execute(
        "UPDATE graph_outbox SET attempts = attempts + 1, last_error = %s WHERE id = ANY(%s)",
        (error[:2000], ids),
    )
    await conn.execute(
        "UPDATE documents d SET graph_notes = coalesce(d.graph_notes, '[]'::jsonb) || %s"
        " FROM graph_outbox o WHERE o.id = ANY(%s) AND o.attempts >= %s"
        " AND o.kind = 'document.upsert' AND d.id = (o.payload->>'document_id')::uuid",
        (
            Jsonb([f"graph projection failed after {MAX_ATTEMPTS} attempts: {error[:300]}"]),
            ids,
            MAX_ATTEMPTS,
        ),
    )
