"""Usage rows: one per run of a model, written with its charge in one transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from uuid import UUID

from psycopg.rows import class_row

from store.pool import Conn


@dataclass(frozen=True)
class UsageEvent:
    tenant_id: UUID
    key_id: UUID
    surface: str  # "answer"; later surfaces add their own
    model: str
    prompt_tokens: int
    completion_tokens: int
    passages_read: int
    credits: Decimal
    complete: bool


@dataclass(frozen=True)
class UsageTotal:
    group: str
    requests: int
    prompt_tokens: int
    completion_tokens: int
    passages_read: int
    credits: Decimal
    incomplete: int  # runs whose stream broke off, charged for what they used


# The grouping expressions are fixed here; the caller picks one by name, never by text.
GROUPS = {
    "DAY": "to_char(u.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
    "KEY": "coalesce(u.key_id::text, '')",
    "MODEL": "u.model",
}


async def record(conn: Conn, event: UsageEvent) -> datetime:
    """Write the row and take its credits from the balance; returns the row's time."""
    cursor = await conn.execute(
        "INSERT INTO usage_events (tenant_id, key_id, surface, model, prompt_tokens,"
        " completion_tokens, passages_read, credits, complete)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING created_at",
        (
            event.tenant_id,
            event.key_id,
            event.surface,
            event.model,
            event.prompt_tokens,
            event.completion_tokens,
            event.passages_read,
            event.credits,
            event.complete,
        ),
    )
    row = await cursor.fetchone()
    assert row is not None
    await conn.execute(
        "UPDATE tenants SET credits = credits - %s WHERE id = %s", (event.credits, event.tenant_id)
    )
    return row[0]  # type: ignore[no-any-return]


async def answers_this_month(conn: Conn, tenant_id: UUID) -> int:
    cursor = await conn.execute(
        "SELECT count(*) FROM usage_events WHERE tenant_id = %s AND surface = 'answer'"
        " AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'",
        (tenant_id,),
    )
    row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def totals(
    conn: Conn, tenant_id: UUID, span: tuple[datetime, datetime], group_by: str
) -> list[UsageTotal]:
    group = GROUPS[group_by]
    async with conn.cursor(row_factory=class_row(UsageTotal)) as cursor:
        await cursor.execute(
            f'SELECT {group} AS "group", count(*)::int AS requests,'
            " sum(u.prompt_tokens)::int AS prompt_tokens,"
            " sum(u.completion_tokens)::int AS completion_tokens,"
            " sum(u.passages_read)::int AS passages_read, sum(u.credits) AS credits,"
            " (count(*) FILTER (WHERE NOT u.complete))::int AS incomplete"
            " FROM usage_events u WHERE u.tenant_id = %s"
            " AND u.created_at >= %s AND u.created_at < %s"
            f" GROUP BY {group} ORDER BY 1",
            (tenant_id, span[0], span[1]),
        )
        return await cursor.fetchall()
