"""Tenants and their API keys."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from uuid import UUID

from psycopg.rows import class_row

from store.pool import Conn

_KEY_PREFIX = "trk_"


@dataclass(frozen=True)
class Tenant:
    id: UUID
    name: str


def hash_key(api_key: str) -> bytes:
    return hashlib.sha256(api_key.encode()).digest()


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


async def create_api_key(conn: Conn, tenant: Tenant) -> str:
    """A new key for `tenant`. Only its hash is stored; the key itself is returned once."""
    api_key = _KEY_PREFIX + secrets.token_urlsafe(32)
    await conn.execute(
        "INSERT INTO api_keys (tenant_id, key_hash, prefix) VALUES (%s, %s, %s)",
        (tenant.id, hash_key(api_key), api_key[:8]),
    )
    return api_key


async def tenant_for_key(conn: Conn, api_key: str) -> Tenant | None:
    async with conn.cursor(row_factory=class_row(Tenant)) as cursor:
        await cursor.execute(
            "SELECT t.id, t.name FROM api_keys k JOIN tenants t ON t.id = k.tenant_id"
            " WHERE k.key_hash = %s AND k.revoked_at IS NULL",
            (hash_key(api_key),),
        )
        return await cursor.fetchone()
