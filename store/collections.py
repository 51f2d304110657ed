"""Collections: named containers of content, each pinned to one embedding profile."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import psycopg
from psycopg.rows import class_row

from store.pool import Conn

_COLUMNS = "id, tenant_id, name, embedding_model, embedding_dim, created_at, answer_policy"


@dataclass(frozen=True)
class Collection:
    id: UUID
    tenant_id: UUID
    name: str
    embedding_model: str
    embedding_dim: int
    created_at: datetime
    answer_policy: str = "REMOVE"  # REMOVE, CAVEAT or ABSTAIN


class DuplicateCollection(Exception):
    pass


async def insert(conn: Conn, tenant_id: UUID, name: str, model: str, dim: int) -> Collection:
    try:
        async with conn.transaction(), conn.cursor(row_factory=class_row(Collection)) as cursor:
            await cursor.execute(
                "INSERT INTO collections (tenant_id, name, embedding_model, embedding_dim)"
                f" VALUES (%s, %s, %s, %s) RETURNING {_COLUMNS}",
                (tenant_id, name, model, dim),
            )
            created = await cursor.fetchone()
    except psycopg.errors.UniqueViolation:
        raise DuplicateCollection(name) from None
    assert created is not None
    return created


async def list_for_tenant(conn: Conn, tenant_id: UUID) -> list[Collection]:
    async with conn.cursor(row_factory=class_row(Collection)) as cursor:
        await cursor.execute(
            f"SELECT {_COLUMNS} FROM collections WHERE tenant_id = %s ORDER BY name",
            (tenant_id,),
        )
        return await cursor.fetchall()


async def by_name(conn: Conn, tenant_id: UUID, name: str) -> Collection | None:
    async with conn.cursor(row_factory=class_row(Collection)) as cursor:
        await cursor.execute(
            f"SELECT {_COLUMNS} FROM collections WHERE tenant_id = %s AND name = %s",
            (tenant_id, name),
        )
        return await cursor.fetchone()


async def by_id(conn: Conn, tenant_id: UUID, collection_id: UUID) -> Collection | None:
    async with conn.cursor(row_factory=class_row(Collection)) as cursor:
        await cursor.execute(
            f"SELECT {_COLUMNS} FROM collections WHERE tenant_id = %s AND id = %s",
            (tenant_id, collection_id),
        )
        return await cursor.fetchone()


async def delete(conn: Conn, tenant_id: UUID, collection_id: UUID) -> None:
    """Everything in the collection goes with it, by cascade, in this transaction."""
    await conn.execute(
        "DELETE FROM collections WHERE tenant_id = %s AND id = %s", (tenant_id, collection_id)
    )


async def set_answer_policy(conn: Conn, tenant_id: UUID, collection_id: UUID, policy: str) -> None:
    await conn.execute(
        "UPDATE collections SET answer_policy = %s WHERE tenant_id = %s AND id = %s",
        (policy, tenant_id, collection_id),
    )
