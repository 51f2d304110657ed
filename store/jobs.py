"""Ingest jobs and their items. Items hold the raw submission until a worker indexes it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from store._fairness import round_robin
from store.pool import Conn

# How many unfinished jobs one claim considers, oldest first.
_OPEN_JOBS = 256


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
    graph_failed: bool  # its current version's graph projection was given up on


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
    bytes: int  # submitted content, in all
    bytes_done: int  # of items no longer pending
    graph_failed: int  # the job's documents whose graph projection was given up on


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
        "job_id, tenant_id, ordinal, external_id, status, request, payload, bytes, error_code,"
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
                    len(item.payload or b""),
                    item.error_code,
                    item.error_message,
                )
            )
    return job_id


@dataclass(frozen=True)
class Candidate:
    id: int
    tenant_id: UUID
    job_id: UUID
    collection_id: UUID
    external_id: str
    bytes: int


@dataclass(frozen=True)
class BatchLimits:
    items: int
    bytes: int


def choose(candidates: list[Candidate], limits: BatchLimits) -> list[Candidate]:
    """Tenants in turn, then each tenant's jobs in turn, within the limits. An item that would
    pass the byte limit waits for a later batch, unless the batch is empty (so a giant item
    goes alone); a second item for one document waits for the first to be written."""
    chosen: list[Candidate] = []
    keys: set[tuple[UUID, str]] = set()
    size = 0
    for candidate in _fair_order(candidates):
        key = (candidate.collection_id, candidate.external_id)
        if len(chosen) >= limits.items:
            break
        if key in keys or (chosen and size + candidate.bytes > limits.bytes):
            continue
        chosen.append(candidate)
        keys.add(key)
        size += candidate.bytes
    return chosen


def _fair_order(candidates: list[Candidate]) -> list[Candidate]:
    lanes: dict[UUID, list[tuple[UUID, Candidate]]] = {}
    for candidate in candidates:
        lanes.setdefault(candidate.tenant_id, []).append((candidate.job_id, candidate))
    return round_robin([(t, c) for t, lane in lanes.items() for c in round_robin(lane)])


async def claim(
    conn: Conn, limits: BatchLimits, models: list[str], jobs: list[UUID] | None = None
) -> list[ClaimedItem]:
    """Lock a fair batch of pending items (of these jobs, or of any) in collections whose
    embedding model is one of `models`; other workers skip them. A process configured with
    other models leaves the rest to a process that has them.

    Tenants take turns, and so do one tenant's jobs, each oldest first; the batch is bounded
    by count and by bytes (a larger item goes alone). The candidates are locked in a
    savepoint that is rolled back, so the ones not chosen are free again at once.
    """
    async with conn.transaction(force_rollback=True):
        chosen = choose(await _candidates(conn, limits.items, models, jobs), limits)
    async with conn.cursor(row_factory=class_row(ClaimedItem)) as cursor:
        await cursor.execute(
            "SELECT i.id, i.job_id, i.tenant_id, j.collection_id, i.external_id, i.request,"
            " i.payload FROM ingest_items i JOIN ingest_jobs j ON j.id = i.job_id"
            " WHERE i.id = ANY(%s) AND i.status = 'PENDING'"
            " ORDER BY i.id FOR UPDATE OF i SKIP LOCKED",
            ([c.id for c in chosen],),
        )
        return await cursor.fetchall()


async def _candidates(
    conn: Conn, per_job: int, models: list[str], jobs: list[UUID] | None
) -> list[Candidate]:
    async with conn.cursor(row_factory=class_row(Candidate)) as cursor:
        await cursor.execute(
            "SELECT c.id, j.tenant_id, j.id AS job_id, j.collection_id, c.external_id, c.bytes"
            " FROM (SELECT id, tenant_id, collection_id, created_at FROM ingest_jobs"
            "  WHERE finished_at IS NULL AND (%s::uuid[] IS NULL OR id = ANY(%s))"
            "  AND collection_id IN (SELECT id FROM collections WHERE embedding_model = ANY(%s))"
            "  ORDER BY created_at, id LIMIT %s) j,"
            " LATERAL (SELECT i.id, i.external_id, i.bytes FROM ingest_items i"
            "  WHERE i.job_id = j.id AND i.status = 'PENDING' ORDER BY i.id LIMIT %s"
            "  FOR UPDATE SKIP LOCKED) c ORDER BY j.created_at, j.id, c.id",
            (jobs, jobs, models, _OPEN_JOBS, per_job),
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


async def close_finished(conn: Conn, job_ids: list[UUID]) -> list[UUID]:
    """Mark jobs with no pending items finished; the ones this call finished.

    Two workers finishing the last items of one job each see the other's items still
    pending, so the job rows are locked first: the second worker waits for the first to
    commit, and its check (a new statement, a new snapshot) then sees every item.
    """
    await conn.execute(
        "SELECT 1 FROM ingest_jobs WHERE id = ANY(%s) ORDER BY id FOR UPDATE", (job_ids,)
    )
    cursor = await conn.execute(
        "UPDATE ingest_jobs j SET finished_at = now() WHERE j.id = ANY(%s)"
        " AND j.finished_at IS NULL AND NOT EXISTS"
        " (SELECT 1 FROM ingest_items i WHERE i.job_id = j.id AND i.status = 'PENDING')"
        " RETURNING j.id",
        (job_ids,),
    )
    return [row[0] for row in await cursor.fetchall()]


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
            "  AND f.document_id IN (SELECT document_id FROM docs)) AS facts,"
            " coalesce(sum(i.bytes), 0)::bigint AS bytes,"
            " coalesce(sum(i.bytes) FILTER (WHERE i.status <> 'PENDING'), 0)::bigint"
            " AS bytes_done,"
            " (SELECT count(*) FROM documents d WHERE d.id IN (SELECT document_id FROM docs)"
            "  AND d.graph_failed_version = d.version) AS graph_failed"
            " FROM ingest_jobs j LEFT JOIN ingest_items i ON i.job_id = j.id"
            " WHERE j.tenant_id = %s AND j.id = %s GROUP BY j.id",
            (job_id, tenant_id, job_id),
        )
        return await cursor.fetchone()


async def outcomes(conn: Conn, tenant_id: UUID, job_id: UUID) -> list[ItemOutcome]:
    async with conn.cursor(row_factory=class_row(ItemOutcome)) as cursor:
        await cursor.execute(
            "SELECT i.ordinal, i.external_id, i.status, i.document_id, i.chunk_count,"
            " i.error_code, i.error_message, d.graph_notes,"
            " coalesce(d.graph_failed_version = d.version, false) AS graph_failed"
            " FROM ingest_items i"
            " LEFT JOIN documents d ON d.id = i.document_id"
            " WHERE i.tenant_id = %s AND i.job_id = %s ORDER BY i.ordinal",
            (tenant_id, job_id),
        )
        return await cursor.fetchall()
