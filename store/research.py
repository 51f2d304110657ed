"""Research runs and their steps (migration 0017).

A worker claims a run with FOR UPDATE SKIP LOCKED and a fresh claim token, and holds it by a
lease it renews. Steps and the run's end are written only under the current token while the
run is RUNNING, so a run taken over from a dead worker, or cancelled, takes no further step
from the old one; a step's number is its key, so no step is written twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg.rows import class_row, dict_row
from psycopg.types.json import Jsonb

from store.arrays import text_array
from store.pool import Conn
from store.tenants import Tenant

OPEN = ("QUEUED", "RUNNING")


@dataclass(frozen=True)
class NewRun:
    id: UUID
    tenant_id: UUID
    key_id: UUID
    query: str
    request: dict[str, Any]
    model: str  # only a worker that can run it claims the run
    budget_seconds: float


@dataclass(frozen=True)
class RunRow:
    id: UUID
    tenant_id: UUID
    key_id: UUID
    query: str
    status: str
    reason: str | None
    budget_seconds: float
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    claims: int
    answer: dict[str, Any] | None


@dataclass(frozen=True)
class ClaimedRun:
    run: RunRow
    token: UUID  # this claim's: every write of the run checks it
    request: dict[str, Any]  # what the run was asked; only its worker reads it


@dataclass(frozen=True)
class NewStep:
    number: int
    kind: str
    message: str
    passages_read: int
    detail: dict[str, Any]
    brief: dict[str, Any] | None


@dataclass(frozen=True)
class StepRow:
    number: int
    kind: str
    message: str
    passages_read: int
    detail: dict[str, Any]
    brief: dict[str, Any] | None
    created_at: datetime


_RUN_COLUMNS = (
    "r.id, r.tenant_id, r.key_id, r.query, r.status, r.reason, r.budget_seconds,"
    " r.created_at, r.started_at, r.finished_at, r.claims, r.answer"
)


async def insert(conn: Conn, run: NewRun) -> RunRow:
    async with conn.cursor(row_factory=class_row(RunRow)) as cursor:
        await cursor.execute(
            "INSERT INTO research_runs AS r (id, tenant_id, key_id, query, request, model,"
            f" budget_seconds) VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING {_RUN_COLUMNS}",
            (
                run.id,
                run.tenant_id,
                run.key_id,
                run.query,
                Jsonb(run.request),
                run.model,
                run.budget_seconds,
            ),
        )
        found = await cursor.fetchone()
    assert found is not None
    return found


async def open_count(conn: Conn, tenant_id: UUID) -> int:
    """The tenant's runs queued or running. In a transaction, the tenant's other counts wait
    for it to end, so runs started together cannot pass a limit together."""
    await conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"research:{tenant_id}",))
    cursor = await conn.execute(
        "SELECT count(*) FROM research_runs WHERE tenant_id = %s AND status = ANY(%s)",
        (tenant_id, list(OPEN)),
    )
    row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def by_id(conn: Conn, tenant_id: UUID, key_id: UUID | None, run_id: UUID) -> RunRow | None:
    """The run, if it is the tenant's, and (with `key_id`) was started by that key."""
    async with conn.cursor(row_factory=class_row(RunRow)) as cursor:
        await cursor.execute(
            f"SELECT {_RUN_COLUMNS} FROM research_runs r WHERE r.id = %s AND r.tenant_id = %s"
            " AND (%s::uuid IS NULL OR r.key_id = %s)",
            (run_id, tenant_id, key_id, key_id),
        )
        return await cursor.fetchone()


def seen_by(tenant: Tenant, key_id: UUID) -> UUID | None:
    """The key whose runs alone a caller sees: a key limited to content scopes sees only its
    own runs, whose passages it was allowed to read; any other key sees its tenant's."""
    return key_id if tenant.content_scopes else None


async def steps(conn: Conn, run_id: UUID, after: int = 0, detail: bool = False) -> list[StepRow]:
    """The run's steps numbered above `after`, in order (the caller has found the run); with
    `detail`, the passages each read, which only the worker resuming a run needs."""
    read = "detail" if detail else "'{}'::jsonb AS detail"
    async with conn.cursor(row_factory=class_row(StepRow)) as cursor:
        await cursor.execute(
            f"SELECT number, kind, message, passages_read, {read}, brief, created_at"
            " FROM research_steps WHERE run_id = %s AND number > %s ORDER BY number",
            (run_id, after),
        )
        return await cursor.fetchall()


async def claim(conn: Conn, lease_seconds: float, most: int, models: list[str]) -> list[ClaimedRun]:
    """Claim up to `most` runs of these models, oldest first: queued ones, and running ones
    whose worker let the lease lapse. Runs other workers are claiming are skipped."""
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(
            "UPDATE research_runs r SET status = 'RUNNING', claim_token = gen_random_uuid(),"
            " lease_until = now() + make_interval(secs => %s), claims = r.claims + 1,"
            " started_at = coalesce(r.started_at, now())"
            " WHERE r.id IN (SELECT id FROM research_runs WHERE model = ANY(%s::text[])"
            "  AND (status = 'QUEUED' OR (status = 'RUNNING' AND lease_until < now()))"
            "  ORDER BY created_at LIMIT %s FOR UPDATE SKIP LOCKED)"
            f" RETURNING {_RUN_COLUMNS}, r.claim_token, r.request",
            (lease_seconds, text_array(models), most),
        )
        found = await cursor.fetchall()
    claimed = [_claimed(row) for row in found]
    return sorted(claimed, key=lambda c: c.run.created_at)


def _claimed(row: dict[str, Any]) -> ClaimedRun:
    token, request = row.pop("claim_token"), row.pop("request")
    return ClaimedRun(RunRow(**row), token, request)


async def renew(conn: Conn, claimed: ClaimedRun, lease_seconds: float) -> bool:
    """Extend the lease; False when the run is no longer this claim's to run."""
    cursor = await conn.execute(
        "UPDATE research_runs SET lease_until = now() + make_interval(secs => %s)"
        " WHERE id = %s AND claim_token = %s AND status = 'RUNNING'",
        (lease_seconds, claimed.run.id, claimed.token),
    )
    return cursor.rowcount == 1


async def add_step(conn: Conn, claimed: ClaimedRun, step: NewStep) -> bool:
    """Write the step; False when the run is no longer this claim's, or the step exists. The
    run's row is locked for the check: a cancel at the same moment either waits for the step
    (and lists it) or goes first (and the step is not written)."""
    cursor = await conn.execute(
        "INSERT INTO research_steps (run_id, number, kind, message, passages_read, detail, brief)"
        " SELECT %s, %s, %s, %s, %s, %s, %s WHERE EXISTS (SELECT 1 FROM research_runs"
        "  WHERE id = %s AND claim_token = %s AND status = 'RUNNING' FOR SHARE)"
        " ON CONFLICT DO NOTHING",
        (
            claimed.run.id,
            step.number,
            step.kind,
            step.message,
            step.passages_read,
            Jsonb(step.detail),
            None if step.brief is None else Jsonb(step.brief),
            claimed.run.id,
            claimed.token,
        ),
    )
    return cursor.rowcount == 1


@dataclass(frozen=True)
class Ending:
    status: str  # DONE or FAILED
    reason: str | None = None
    answer: dict[str, Any] | None = None


async def finish(conn: Conn, claimed: ClaimedRun, ending: Ending) -> bool:
    """End the run; False when it was no longer this claim's (cancelled, or taken over)."""
    cursor = await conn.execute(
        "UPDATE research_runs SET status = %s, reason = %s, answer = %s, finished_at = now(),"
        " claim_token = NULL, lease_until = NULL"
        " WHERE id = %s AND claim_token = %s AND status = 'RUNNING'",
        (
            ending.status,
            ending.reason,
            None if ending.answer is None else Jsonb(ending.answer),
            claimed.run.id,
            claimed.token,
        ),
    )
    return cursor.rowcount == 1


async def cancel(conn: Conn, run_id: UUID, reason: str) -> None:
    """Cancel the run if it has not ended (the caller has found it)."""
    await conn.execute(
        "UPDATE research_runs SET status = 'CANCELLED', reason = %s, finished_at = now(),"
        " claim_token = NULL, lease_until = NULL WHERE id = %s AND status = ANY(%s)",
        (reason, run_id, list(OPEN)),
    )


async def release(conn: Conn, claimed: ClaimedRun) -> None:
    """Give the run back to the queue (its worker is stopping): the next worker takes it at
    once, not after the lease."""
    await conn.execute(
        "UPDATE research_runs SET status = 'QUEUED', claim_token = NULL, lease_until = NULL"
        " WHERE id = %s AND claim_token = %s AND status = 'RUNNING'",
        (claimed.run.id, claimed.token),
    )
