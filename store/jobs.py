"""Ingest jobs and their items. Items hold the raw submission until a worker indexes it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from store.pool import Conn


@dataclass(frozen=True)
class NewItem:
    external_id: str
    request: dict[str, Any]
    payload: bytes | None
    error_code: str | None = None
    error_message: str | None = None
    status: str = "PENDING"


@dataclass(frozen=True)
class ClaimedItem:
    id: int
    job_id: UUID
    tenant_id: UUID
    collection_id: UUID
    external_id: str
    request: dict[str, Any]
    payload: bytes


@dataclass(frozen=True)
class ItemOutcome:
    ordinal: int
    external_id: str
    status: str
    document_id: UUID | None
    chunk_count: int
    error_code: str | None
    error_message: str | None
    graph_notes: list[str] | None


@dataclass(frozen=True)
class JobSummary:
    id: UUID
    collection_id: UUID
    total: int
    pending: int
    indexed: int
    unchanged: int
    failed: int
    chunks: int
    created_at: datetime
    finished_at: datetime | None
    graphed: int  # the job's documents whose current version is in the graph
    entities: int
    facts: int  # current facts (not invalidated) from the job's documents


async def create(conn: Conn, tenant_id: UUID, collection_id: UUID, items: list[NewItem]) -> UUID:
    cursor = await conn.execute(
        "INSERT INTO ingest_jobs (tenant_id, collection_id, total, finished_at)"
        " VALUES (%s, %s, %s, CASE WHEN %s THEN now() END) RETURNING id",
        (tenant_id, collection_id, len(items), all(i.status != "PENDING" for i in items)),
    )
    row = await cursor.fetchone()
    assert row is not None
    job_id: UUID = row[0]
    columns = (
        "job_id, tenant_id, ordinal, external_id, status, request, payload, error_code,"
        " error_message"
    )
    async with conn.cursor() as cur, cur.copy(f"COPY ingest_items ({columns}) FROM STDIN") as copy:
        for ordinal, item in enumerate(items):
            await copy.write_row(
                (
                    job_id,
                    tenant_id,
                    ordinal,
                    item.external_id,
                    item.status,
                    Jsonb(item.request),
                    item.payload,
                    item.error_code,
                    item.error_message,
                )
            )
    return job_id


async def claim(conn: Conn, limit: int) -> list[ClaimedItem]:
    """Lock up to `limit` pending items, oldest first; other workers skip them."""
    async with conn.cursor(row_factory=class_row(ClaimedItem)) as cursor:
        await cursor.execute(
            "SELECT i.id, i.job_id, i.tenant_id, j.collection_id, i.external_id, i.request,"
            " i.payload FROM ingest_items i JOIN ingest_jobs j ON j.id = i.job_id"
            " WHERE i.status = 'PENDING' ORDER BY i.id LIMIT %s FOR UPDATE OF i SKIP LOCKED",
            (limit,),
        )
        return await cursor.fetchall()


@dataclass(frozen=True)
class Finished:
    item_id: int
    status: str
    document_id: UUID | None = None
    chunks: int = 0
    error: tuple[str, str] | None = None


async def finish_items(conn: Conn, finished: list[Finished]) -> None:
    """Record outcomes and drop payloads: the documents now hold the text."""
    async with conn.cursor() as cursor:
        await cursor.executemany(
            "UPDATE ingest_items SET status = %s, document_id = %s, chunk_count = %s,"
            " error_code = %s, error_message = %s, payload = NULL, processed_at = now()"
            " WHERE id = %s",
            [
                (f.status, f.document_id, f.chunks, *(f.error or (None, None)), f.item_id)
                for f in finished
            ],
        )


async def close_finished(conn: Conn, job_ids: list[UUID]) -> None:
    """Mark jobs with no pending items finished.

    Two workers finishing the last items of one job each see the other's items still
    pending, so the job rows are locked first: the second worker waits for the first to
    commit, and its check (a new statement, a new snapshot) then sees every item.
    """
    await conn.execute(
        "SELECT 1 FROM ingest_jobs WHERE id = ANY(%s) ORDER BY id FOR UPDATE", (job_ids,)
    )
    await conn.execute(
        "UPDATE ingest_jobs j SET finished_at = now() WHERE j.id = ANY(%s)"
        " AND j.finished_at IS NULL AND NOT EXISTS"
        " (SELECT 1 FROM ingest_items i WHERE i.job_id = j.id AND i.status = 'PENDING')",
        (job_ids,),
    )


async def summary(conn: Conn, tenant_id: UUID, job_id: UUID) -> JobSummary | None:
    async with conn.cursor(row_factory=class_row(JobSummary)) as cursor:
        await cursor.execute(
            "WITH docs AS (SELECT DISTINCT document_id FROM ingest_items"
            " WHERE job_id = %s AND document_id IS NOT NULL)"
            " SELECT j.id, j.collection_id, j.total,"
            " count(*) FILTER (WHERE i.status = 'PENDING') AS pending,"
            " count(*) FILTER (WHERE i.status = 'INDEXED') AS indexed,"
            " count(*) FILTER (WHERE i.status = 'UNCHANGED') AS unchanged,"
            " count(*) FILTER (WHERE i.status = 'FAILED') AS failed,"
            " coalesce(sum(i.chunk_count), 0) AS chunks, j.created_at, j.finished_at,"
            " (SELECT count(*) FROM documents d WHERE d.id IN (SELECT document_id FROM docs)"
            "  AND d.graphed_version = d.version) AS graphed,"
            " (SELECT count(DISTINCT m.entity_id) FROM mentions m"
            "  WHERE m.document_id IN (SELECT document_id FROM docs)) AS entities,"
            " (SELECT count(*) FROM facts f WHERE f.invalidated_at IS NULL"
            "  AND f.document_id IN (SELECT document_id FROM docs)) AS facts"
            " FROM ingest_jobs j LEFT JOIN ingest_items i ON i.job_id = j.id"
            " WHERE j.tenant_id = %s AND j.id = %s GROUP BY j.id",
            (job_id, tenant_id, job_id),
        )
        return await cursor.fetchone()


async def outcomes(conn: Conn, tenant_id: UUID, job_id: UUID) -> list[ItemOutcome]:
    async with conn.cursor(row_factory=class_row(ItemOutcome)) as cursor:
        await cursor.execute(
            "SELECT i.ordinal, i.external_id, i.status, i.document_id, i.chunk_count,"
            " i.error_code, i.error_message, d.graph_notes FROM ingest_items i"
            " LEFT JOIN documents d ON d.id = i.document_id"
            " WHERE i.tenant_id = %s AND i.job_id = %s ORDER BY i.ordinal",
            (tenant_id, job_id),
        )
        return await cursor.fetchall()
