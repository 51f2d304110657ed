"""The graph outbox: changes for Neo4j, written in the same transaction as the change.

Any number of projectors may drain it at once. A projector owns a collection while it
projects that collection's rows (a transaction-level advisory lock), so rows of one
collection apply in order and two projectors never write the same entities at once.
Collections are served in turn, tenant by tenant, so one tenant's backlog never holds
another's few documents.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from store._fairness import round_robin
from store.pool import Conn

# The advisory-lock namespace of graph projection (any fixed int4 unlikely to clash).
_LOCK_SPACE = 0x6772
# How many collections one claim considers, oldest waiting first.
_CANDIDATES = 256
_WAITING = "done_at IS NULL AND parked_at IS NULL AND next_attempt_at <= now()"
_COLUMNS = "id, tenant_id, collection_id, kind, payload, attempts"


@dataclass(frozen=True)
class OutboxRow:
    id: int
    tenant_id: UUID
    collection_id: UUID
    kind: str
    payload: dict[str, Any]
    attempts: int


@dataclass(frozen=True)
class RetryPolicy:
    """A failed row waits first_delay, then twice as long each time, up to max_delay; after
    max_attempts it is parked and its document says why."""

    max_attempts: int = 5
    first_delay_seconds: float = 1.0
    max_delay_seconds: float = 60.0


async def enqueue(
    conn: Conn, tenant_id: UUID, collection_id: UUID, kind: str, payload: dict[str, Any]
) -> None:
    await enqueue_many(conn, kind, [(tenant_id, collection_id, payload)])


async def enqueue_many(
    conn: Conn, kind: str, rows: list[tuple[UUID, UUID, dict[str, Any]]]
) -> None:
    async with conn.cursor() as cursor:
        await cursor.executemany(
            "INSERT INTO graph_outbox (tenant_id, collection_id, kind, payload)"
            " VALUES (%s, %s, %s, %s)",
            [(tenant, collection, kind, Jsonb(payload)) for tenant, collection, payload in rows],
        )


async def claim(conn: Conn, limit: int, collections: list[UUID] | None = None) -> list[OutboxRow]:
    """Up to `limit` waiting rows of collections this transaction now owns, in id order,
    shared between the owned collections. Collections another projector owns are skipped."""
    owned = await _own(conn, await _waiting_collections(conn, collections), limit)
    if not owned:
        return []
    async with conn.cursor(row_factory=class_row(OutboxRow)) as cursor:
        await cursor.execute(
            f"SELECT r.* FROM unnest(%s::uuid[]) AS c(id), LATERAL (SELECT {_COLUMNS}"
            f" FROM graph_outbox o WHERE o.collection_id = c.id AND {_WAITING}"
            " ORDER BY o.id LIMIT %s) r ORDER BY r.id",
            (owned, math.ceil(limit / len(owned))),
        )
        return await cursor.fetchall()


async def claim_ids(conn: Conn, ids: list[int]) -> list[OutboxRow]:
    """These rows, if still waiting and their collections can be owned now."""
    async with conn.cursor(row_factory=class_row(OutboxRow)) as cursor:
        await cursor.execute(
            f"SELECT {_COLUMNS} FROM graph_outbox WHERE id = ANY(%s) AND done_at IS NULL"
            " AND parked_at IS NULL ORDER BY id",
            (ids,),
        )
        rows = await cursor.fetchall()
    owned = set(await _own(conn, sorted({r.collection_id for r in rows}), len(rows)))
    return [row for row in rows if row.collection_id in owned]


async def mark_done(conn: Conn, ids: list[int]) -> None:
    await conn.execute("UPDATE graph_outbox SET done_at = now() WHERE id = ANY(%s)", (ids,))


async def record_failure(conn: Conn, row_id: int, error: str, policy: RetryPolicy) -> bool:
    """Count a failed attempt and schedule the next; returns whether the row is now parked.
    A parked document's graph notes say why, and its version counts as given up on."""
    cursor = await conn.execute(
        "UPDATE graph_outbox SET attempts = attempts + 1, last_error = %s,"
        " next_attempt_at = now() + make_interval(secs => least(%s * 2 ^ attempts, %s)),"
        " parked_at = CASE WHEN attempts + 1 >= %s THEN now() END"
        " WHERE id = %s RETURNING parked_at IS NOT NULL",
        (
            error[:2000],
            policy.first_delay_seconds,
            policy.max_delay_seconds,
            policy.max_attempts,
            row_id,
        ),
    )
    found = await cursor.fetchone()
    parked = bool(found and found[0])
    if parked:
        await _note_parked(conn, row_id, error, policy.max_attempts)
    return parked


async def _note_parked(conn: Conn, row_id: int, error: str, attempts: int) -> None:
    await conn.execute(
        "UPDATE documents d SET graph_failed_version = d.version,"
        " graph_notes = coalesce(d.graph_notes, '[]'::jsonb) || %s"
        " FROM graph_outbox o WHERE o.id = %s AND o.kind = 'document.upsert'"
        " AND d.id = (o.payload->>'document_id')::uuid",
        (Jsonb([f"graph projection failed after {attempts} attempts: {error[:300]}"]), row_id),
    )


async def waiting(conn: Conn, collections: list[UUID]) -> int:
    """Rows of these collections not yet applied nor parked, including those in backoff."""
    cursor = await conn.execute(
        "SELECT count(*) FROM graph_outbox WHERE collection_id = ANY(%s)"
        " AND done_at IS NULL AND parked_at IS NULL",
        (collections,),
    )
    found = await cursor.fetchone()
    return int(found[0]) if found else 0


async def _waiting_collections(conn: Conn, only: list[UUID] | None) -> list[UUID]:
    """Collections with rows ready now, oldest first, then taken tenant by tenant in turn."""
    cursor = await conn.execute(
        f"SELECT tenant_id, collection_id FROM graph_outbox WHERE {_WAITING}"
        " AND (%s::uuid[] IS NULL OR collection_id = ANY(%s))"
        " GROUP BY tenant_id, collection_id ORDER BY min(id) LIMIT %s",
        (only, only, _CANDIDATES),
    )
    return round_robin([(tenant, collection) for tenant, collection in await cursor.fetchall()])


async def _own(conn: Conn, collections: list[UUID], most: int) -> list[UUID]:
    """The first `most` of these collections this transaction could lock. Try-locks never
    wait, so two projectors cannot deadlock on them."""
    owned: list[UUID] = []
    for collection in collections:
        if len(owned) >= most:
            break
        cursor = await conn.execute(
            "SELECT pg_try_advisory_xact_lock(%s, hashtext(%s))", (_LOCK_SPACE, str(collection))
        )
        found = await cursor.fetchone()
        if found and found[0]:
            owned.append(collection)
    return owned
