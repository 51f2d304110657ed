"""The search log: one row per search, for `searchLogs`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from psycopg.rows import class_row

from store.pool import Conn


@dataclass(frozen=True)
class SearchLog:
    id: UUID
    query: str
    mode: str
    result_count: int
    top_score: float | None
    latency_ms: float
    degraded: bool
    missing_legs: list[str]
    created_at: datetime


async def record(conn: Conn, tenant_id: UUID, collection_ids: list[UUID], entry: SearchLog) -> None:
    await conn.execute(
        "INSERT INTO search_logs (id, tenant_id, collection_ids, query, mode, result_count,"
        " top_score, latency_ms, degraded, missing_legs)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
        (
            entry.id,
            tenant_id,
            collection_ids,
            entry.query,
            entry.mode,
            entry.result_count,
            entry.top_score,
            entry.latency_ms,
            entry.degraded,
            entry.missing_legs,
        ),
    )


async def recent(
    conn: Conn,
    tenant_id: UUID,
    collection_id: UUID,
    start: datetime | None,
    end: datetime | None,
    limit: int,
) -> list[SearchLog]:
    """Newest first."""
    async with conn.cursor(row_factory=class_row(SearchLog)) as cursor:
        await cursor.execute(
            "SELECT id, query, mode, result_count, top_score, latency_ms, degraded,"
            " missing_legs, created_at FROM search_logs"
            " WHERE tenant_id = %s AND %s = ANY(collection_ids)"
            " AND (%s::timestamptz IS NULL OR created_at >= %s)"
            " AND (%s::timestamptz IS NULL OR created_at < %s)"
            " ORDER BY created_at DESC, id LIMIT %s",
            (tenant_id, collection_id, start, start, end, end, limit),
        )
        return await cursor.fetchall()
