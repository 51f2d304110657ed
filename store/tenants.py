"""Tenants: who owns content, on which plan, with what credit balance."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from uuid import UUID

from psycopg.rows import class_row

from store.pool import Conn


@dataclass(frozen=True)
class Tenant:
    id: UUID
    name: str


async def ensure_tenant(conn: Conn, name: str) -> Tenant:
    """The tenant called `name`, created if needed."""
    async with conn.cursor(row_factory=class_row(Tenant)) as cursor:
        await cursor.execute(
            "INSERT INTO tenants (name) VALUES (%s)"
            " ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id, name",
            (name,),
        )
        tenant = await cursor.fetchone()
    assert tenant is not None
    return tenant


async def by_name(conn: Conn, name: str) -> Tenant | None:
    async with conn.cursor(row_factory=class_row(Tenant)) as cursor:
        await cursor.execute("SELECT id, name FROM tenants WHERE name = %s", (name,))
        return await cursor.fetchone()


async def set_plan(conn: Conn, tenant_id: UUID, plan: str) -> None:
    await conn.execute("UPDATE tenants SET plan = %s WHERE id = %s", (plan, tenant_id))


async def add_credits(conn: Conn, tenant_id: UUID, credits: Decimal) -> Decimal:
    """The balance after adding `credits` (negative to take them away)."""
    cursor = await conn.execute(
        "UPDATE tenants SET credits = credits + %s WHERE id = %s RETURNING credits",
        (credits, tenant_id),
    )
    row = await cursor.fetchone()
    assert row is not None
    return Decimal(row[0])


async def balance(conn: Conn, tenant_id: UUID) -> Decimal:
    cursor = await conn.execute("SELECT credits FROM tenants WHERE id = %s", (tenant_id,))
    row = await cursor.fetchone()
    assert row is not None
    return Decimal(row[0])
