"""Tenants: who owns content, on which plan, with what credit balance."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from uuid import UUID

from psycopg.rows import class_row

from store.pool import Conn


@dataclass(frozen=True)
class Tenant:
    """A tenant as one key sees it. With content scopes, the key sees only content carrying
    at least one of them; without, all of the tenant's content. Every read that takes a
    Tenant applies both."""

    id: UUID
    name: str
    content_scopes: tuple[str, ...] = ()


def visible(tenant: Tenant, alias: str) -> tuple[str, list[Any]]:
    """The SQL condition (with a leading AND) that keeps rows of documents `alias` the
    tenant's key may see, and its parameters."""
    return carrying(tenant.content_scopes, alias)


def carrying(content_scopes: tuple[str, ...], alias: str) -> tuple[str, list[Any]]:
    """The SQL condition (with a leading AND) on documents `alias` carrying one of
    `content_scopes`, and its parameters; none when there are no scopes."""
    if not content_scopes:
        return "", []
    return f" AND {alias}.access_scopes && %s::text[]", [list(content_scopes)]


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
